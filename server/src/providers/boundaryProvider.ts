// The loud-boundary gate in the editor: the whole gate on start and on save/create/delete/rename of
// any scanned file or the registry (re-reading only what changed), live checks of `.harn` files as
// you type, hover on ids in `.harn`, `.rs` and the registry, completion of ids and kinds, and fixes.

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CodeAction,
  CodeActionKind,
  CodeActionParams,
  CompletionItem,
  CompletionItemKind,
  Diagnostic,
  DiagnosticSeverity,
  FileChangeType,
  Hover,
  MarkupKind,
  TextDocuments,
  TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { entryMarkdown, fixesFor, idCompletions, kindCompletions, liveHarnProblems, registeredIds } from '../boundaries/assist';
import { findingDiagnostics, BOUNDARY_SOURCE } from '../boundaries/diagnostics';
import { boundaryFieldAt, scanHarnBoundaries } from '../boundaries/harnSites';
import { TextEdit } from '../boundaries/registryEdits';
import { parseRegistry } from '../boundaries/registry';
import { isExemptSitePath, parseFunnel, scanRustMentions } from '../boundaries/rust';
import { BoundarySite, Registry, TextRange } from '../boundaries/types';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS, GateRun, GateSettings } from '../boundaries/workspaceGate';
import { HarnAnalysis } from '../harn/analysis';
import { LineIndex } from '../text/lineIndex';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { DiagnosticsStore } from './diagnosticsStore';
import { toLspDiagnostic } from './harnFeatures';

const SOURCE = BOUNDARY_SOURCE;
const GATE_DELAY_MS = 50;

export interface BoundaryDiagnosticData {
  id: string;
  kind: string;
  /** The path upstream names for this finding. */
  path: string;
  suggestions?: string[];
}

export class BoundaryService {
  private gate: BoundaryGateWorkspace | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly onGateRun: Array<() => void> = [];

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly store: DiagnosticsStore,
    private readonly log: (message: string) => void,
  ) {}

  /** Starts (or restarts with new settings) the gate for a workspace root. */
  start(root: string, settings: Partial<GateSettings>): void {
    const merged: GateSettings = { ...DEFAULT_GATE_SETTINGS, ...stripUndefined(settings) };
    this.gate = new BoundaryGateWorkspace(root, merged, {
      // Unsaved text of open documents, but only for files on disk: a document whose file was deleted,
      // or never saved, is no file of the tree (git would not see it either).
      openText: (absolute) => {
        const doc = this.documents.get(pathToUri(absolute));
        return doc && fs.existsSync(absolute) ? doc.getText() : undefined;
      },
    });
    this.runNow('workspace opened');
  }

  get root(): string | undefined {
    return this.gate?.root;
  }

  get registry(): Registry | undefined {
    return this.gate?.last?.registry;
  }

  get sites(): BoundarySite[] {
    return this.gate?.last?.allSites ?? [];
  }

  whenGateRuns(listener: () => void): void {
    this.onGateRun.push(listener);
  }

  private relative(uri: string): string | undefined {
    if (!this.gate) return undefined;
    const rel = path.relative(this.gate.root, uriToPath(uri));
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  private isRegistry(uri: string): boolean {
    return this.gate !== undefined && this.relative(uri) === this.gate.settings.registryPath;
  }

  /** A document was saved, or files changed on disk: re-read those and re-run the gate shortly. */
  filesChanged(changes: { uri: string; type: FileChangeType }[]): void {
    if (!this.gate) return;
    let relevant = false;
    for (const change of changes) {
      const rel = this.relative(change.uri);
      if (rel === undefined) continue;
      // A changed .gitignore changes which files are scanned; a deleted folder (reported alone, without
      // its files) may have held scanned files or anchors: read the tree again.
      const folderLike = change.type === FileChangeType.Deleted && !/\.(harn|rs|toml)$/.test(rel);
      if (rel.endsWith('.gitignore') || folderLike) {
        this.gate.reset();
        relevant = true;
        continue;
      }
      const kind = change.type === FileChangeType.Created ? 'created' : change.type === FileChangeType.Deleted ? 'deleted' : 'changed';
      this.gate.invalidate(rel, kind);
      relevant = true;
    }
    if (relevant) this.schedule();
  }

  /** The registry or the funnel is edited in an editor: the gate, its fixes and the live checks follow it before it is saved. */
  documentChanged(uri: string): void {
    if (!this.gate) return;
    const rel = this.relative(uri);
    if (rel === this.gate.settings.registryPath || rel === this.gate.settings.funnelPath) {
      this.gate.invalidate(rel);
      this.schedule();
    }
  }

  /** Opening a `.harn` file hands its unknown ids from the gate to the live checks: republish without them. */
  documentOpened(uri: string): void {
    if (uri.endsWith('.harn') && this.gate?.last) this.publish(this.gate.last);
  }

  /** A closed document is read from disk again (its unsaved text may have been scanned), and the gate reports it again. */
  documentClosed(uri: string): void {
    this.filesChanged([{ uri, type: FileChangeType.Changed }]);
  }

  /** The registry as it is now (open document or disk): the last gate run may predate an edit. */
  private currentRegistry(): Registry | undefined {
    const text = this.gate?.readFile(this.gate.settings.registryPath);
    return text === undefined ? undefined : parseRegistry(text);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runNow('files changed');
    }, GATE_DELAY_MS);
  }

  private runNow(reason: string): void {
    if (!this.gate) return;
    try {
      const started = performance.now();
      const run = this.gate.run();
      this.publish(run);
      const ms = (performance.now() - started).toFixed(1);
      this.log(`loud-boundary gate (${reason}): ${run.result.findings.length} finding(s), ${run.scannedFiles} file(s) scanned, ${ms} ms`);
      for (const listener of this.onGateRun) listener();
    } catch (error) {
      this.log(`loud-boundary gate failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  /** Publishes the gate's findings on the files where they are fixed. */
  private publish(run: GateRun): void {
    const gate = this.gate!;
    const byUri = new Map<string, Diagnostic[]>();
    const indexes = new Map<string, LineIndex | undefined>();
    const lineIndexOf = (relative: string): LineIndex | undefined => {
      if (!indexes.has(relative)) {
        const text = gate.readFile(relative);
        indexes.set(relative, text === undefined ? undefined : new LineIndex(text));
      }
      return indexes.get(relative);
    };
    // Without a registry the workspace does not use the gate: say nothing.
    const inactive = run.result.findings.length === 1 && run.result.findings[0].kind === 'missing_registry';
    if (!inactive) {
      for (const finding of run.result.findings) {
        // Live checks own unknown ids in open .harn documents (they follow unsaved text).
        if (finding.kind === 'unknown_boundary' && finding.location.path.endsWith('.harn') && this.documents.get(pathToUri(path.join(gate.root, finding.location.path)))) continue;
        const uri = pathToUri(path.join(gate.root, finding.location.path));
        const list = byUri.get(uri) ?? [];
        byUri.set(uri, list);
        list.push(...findingDiagnostics(finding, lineIndexOf(finding.location.path)).map(toLspDiagnostic));
      }
    }
    this.store.replaceAll('gate', byUri);
  }

  /** As-you-type checks of one `.harn` document. */
  liveDiagnostics(uri: string, analysis: HarnAnalysis): Diagnostic[] {
    if (!this.gate?.last?.registry) return [];
    // Only files the gate scans (harnGlobs): elsewhere a boundary report is not a site upstream knows.
    const relative = this.relative(uri);
    if (relative === undefined || !this.gate.isScanned(relative)) return [];
    const problems = liveHarnProblems(scanHarnBoundaries(analysis), this.gate.last.registry);
    return problems.map((p) => {
      const d: Diagnostic = {
        range: analysis.lineIndex.rangeOf(p.range.start, p.range.end),
        severity: p.code === 'unknown_boundary' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
        source: SOURCE,
        code: p.code,
        message: p.message,
      };
      if (p.data) d.data = { id: p.data.id, kind: p.code, path: '', suggestions: p.data.suggestions } satisfies BoundaryDiagnosticData;
      return d;
    });
  }

  // ------------------------------------------------------------------------------------ hover

  hover(doc: TextDocument, offset: number): Hover | undefined {
    const registry = this.currentRegistry();
    // Without a readable registry there is nothing to say about an id; other hovers answer instead.
    if (!this.gate || !registry?.parsed) return undefined;
    const id = this.idAt(doc, offset, registry);
    if (!id) return undefined;
    const root = this.gate.root;
    const markdown = entryMarkdown(id.id, registry, this.sites, (rel) => pathToUri(path.join(root, rel)));
    return { contents: { kind: MarkupKind.Markdown, value: markdown }, range: id.range };
  }

  /** The boundary id named at `offset` in a `.harn`, `.rs` or registry document (ranges read from the document's own text). */
  private idAt(doc: TextDocument, offset: number, registry: Registry): { id: string; range: Hover['range'] } | undefined {
    if (!this.gate?.last) return undefined;
    const text = doc.getText();
    const at = (r: TextRange) => (r.start <= offset && offset <= r.end ? { start: doc.positionAt(r.start), end: doc.positionAt(r.end) } : undefined);
    if (doc.languageId === 'harn') {
      for (const ref of scanHarnBoundaries(new HarnAnalysis(text)).references) {
        const range = at(ref.range);
        if (range) return { id: ref.id, range };
      }
      return undefined;
    }
    if (doc.uri.endsWith('.rs')) {
      // The funnel maps variants to wire ids; when this is the funnel, read it from the (maybe unsaved) text.
      const isFunnel = this.relative(doc.uri) === this.gate.settings.funnelPath;
      const funnel = isFunnel ? parseFunnel(text) : this.gate.last.funnel;
      if (!funnel) return undefined;
      const wire = new Map(funnel.arms.map((a) => [a.variant, a.wire]));
      for (const mention of scanRustMentions(text)) {
        const id = wire.get(mention.variant);
        const range = at(mention.range);
        if (id && range) return { id, range };
      }
      if (!isFunnel) return undefined;
      for (const arm of funnel.arms) {
        const range = at(arm.wireRange) ?? at(arm.variantRange);
        if (range) return { id: arm.wire, range };
      }
      for (const variant of funnel.enumVariants) {
        const id = wire.get(variant.name);
        const range = at(variant.range);
        if (id && range) return { id, range };
      }
      return undefined;
    }
    if (this.isRegistry(doc.uri)) {
      for (const entry of [...registry.boundaries, ...registry.audited]) {
        const range = entry.id && at(entry.id.range);
        if (entry.id && range) return { id: entry.id.value, range };
      }
    }
    return undefined;
  }

  // ------------------------------------------------------------------------------- completion

  /** Items inside `boundary: "|"` and `kind: "|"` of a `.harn` dict, or undefined elsewhere. */
  completion(analysis: HarnAnalysis, offset: number): CompletionItem[] | undefined {
    const field = boundaryFieldAt(analysis, offset);
    if (!field) return undefined;
    // Replace the string's content: between the delimiters (`"`, `r#"…"#`, `"""`), or to the end of an unterminated one.
    const { start, end, raw, triple } = field.literal;
    const text = analysis.text;
    const opening = raw ? (/^r#*"/.exec(text.slice(start, end))?.[0] ?? 'r"') : triple ? '"""' : '"';
    const closing = raw ? '"' + '#'.repeat(opening.length - 2) : opening;
    const contentStart = start + opening.length;
    if (offset < contentStart) return undefined;
    const closed = end - contentStart >= closing.length && text.slice(end - closing.length, end) === closing;
    const contentEnd = closed ? end - closing.length : end;
    const range = analysis.lineIndex.rangeOf(contentStart, Math.max(contentStart, contentEnd));
    const items = field.field === 'boundary' ? idCompletions(this.registry) : kindCompletions();
    return items.map((item, i) => ({
      label: item.label,
      kind: field.field === 'boundary' ? CompletionItemKind.EnumMember : CompletionItemKind.Value,
      detail: item.detail,
      documentation: item.documentation ? { kind: MarkupKind.Markdown, value: item.documentation } : undefined,
      sortText: String(i).padStart(3, '0'),
      textEdit: { range, newText: item.label },
    }));
  }

  // ---------------------------------------------------------------------------- code actions

  codeActions(params: CodeActionParams): CodeAction[] {
    const gate = this.gate;
    const run = gate?.last;
    if (!gate || !run || !params.context.diagnostics.some((d) => d.source === SOURCE)) return [];
    const doc = this.documents.get(params.textDocument.uri);
    const here = this.relative(params.textDocument.uri);
    if (here === undefined) return [];
    const sourceText = doc?.getText();
    // A file's text as the edits will apply to it: this document's, else the open editor's or the disk's.
    const textOf = (relative: string): string | undefined => (relative === here && sourceText !== undefined ? sourceText : gate.readFile(relative));
    // Edits are computed on the registry and funnel texts they will apply to, not on the last run's parse of them.
    const registryText = textOf(gate.settings.registryPath);
    const registry = registryText === undefined ? undefined : parseRegistry(registryText);
    if (registryText === undefined || !registry?.parsed) return [];
    const funnelPath = gate.settings.funnelPath;
    const funnelText = textOf(funnelPath);
    const funnel = funnelText === undefined ? undefined : { path: funnelPath, text: funnelText, parsed: parseFunnel(funnelText) };
    // An entry's anchors are the sites the gate checks: not the funnel, not tests.
    const sites = run.allSites.filter((s) => !(s.path.endsWith('.rs') && (s.path === funnelPath || isExemptSitePath(s.path))));
    // One action per title: several diagnostics (an entry both stale and orphan) share one fix.
    const actions = new Map<string, CodeAction>();
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== SOURCE || !isBoundaryData(diagnostic.data)) continue;
      const data = diagnostic.data;
      const idRange = doc ? { start: doc.offsetAt(diagnostic.range.start), end: doc.offsetAt(diagnostic.range.end) } : undefined;
      if (data.kind === 'unknown_boundary' && isOutdated(data.id, registry, doc, idRange)) continue;
      // An orphan entry whose variant has been added since.
      if (data.kind === 'orphan_entry' && funnel?.parsed.arms.some((a) => a.wire === data.id)) continue;
      const fixes = fixesFor(data.kind, data.id, here, { registryPath: gate.settings.registryPath, registryText, registry, sites, funnel }, {
        suggestions: data.suggestions,
        anchorPath: data.kind === 'missing_anchor' ? data.path : undefined,
        idRange,
        sourceText,
      });
      for (const fix of fixes) {
        const known = actions.get(fix.title);
        if (known) {
          known.diagnostics?.push(diagnostic);
          continue;
        }
        // One WorkspaceEdit over every file the fix changes, each edit list against the text it was computed on.
        const changes: Record<string, LspTextEdit[]> = {};
        for (const file of fix.files) {
          const text = textOf(file.path);
          if (text === undefined) break;
          const target = file.path === here ? params.textDocument.uri : pathToUri(path.join(gate.root, file.path));
          changes[target] = toLspEdits(text, file.edits);
        }
        if (Object.keys(changes).length !== fix.files.length) continue;
        actions.set(fix.title, {
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: fix.preferred,
          edit: { changes },
        });
      }
    }
    return [...actions.values()];
  }
}

/**
 * An unknown-id diagnostic older than the text it is asked about (the client may send one back after its
 * fix was applied): the id is registered now, or the `.harn` document no longer names it at that range.
 */
function isOutdated(id: string, registry: Registry, doc: TextDocument | undefined, range: TextRange | undefined): boolean {
  if (registeredIds(registry).has(id)) return true;
  if (doc?.languageId !== 'harn' || !range) return false;
  const refs = scanHarnBoundaries(new HarnAnalysis(doc.getText())).references;
  return !refs.some((r) => r.id === id && r.range.start === range.start && r.range.end === range.end);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isBoundaryData(data: unknown): data is BoundaryDiagnosticData {
  return typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string' && typeof (data as { kind?: unknown }).kind === 'string';
}

function toLspEdits(text: string, edits: TextEdit[]): LspTextEdit[] {
  const index = new LineIndex(text);
  return edits.map((e) => ({ range: index.rangeOf(e.start, e.end), newText: e.newText }));
}
