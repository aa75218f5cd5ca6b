// The loud-boundary gate in the editor: the whole gate on start and on save/create/delete/rename of
// any scanned file or the registry (re-reading only what changed), live checks of `.harn` files as
// you type, hover on ids in `.harn`, `.rs` and the registry, completion of ids and kinds, and fixes.

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
  WorkspaceEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { entryMarkdown, fixesFor, idCompletions, kindCompletions, liveHarnProblems } from '../boundaries/assist';
import { findingDiagnostics, BOUNDARY_SOURCE } from '../boundaries/diagnostics';
import { boundaryFieldAt, scanHarnBoundaries } from '../boundaries/harnSites';
import { TextEdit } from '../boundaries/registryEdits';
import { parseFunnel, scanRustMentions } from '../boundaries/rust';
import { BoundarySite, Registry } from '../boundaries/types';
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
      openText: (absolute) => this.documents.get(pathToUri(absolute))?.getText(),
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
      if (rel.endsWith('.gitignore')) {
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

  /** The registry is edited in an editor: its fixes and the live checks follow it before it is saved. */
  documentChanged(uri: string): void {
    if (this.isRegistry(uri)) {
      this.gate?.invalidate(this.gate.settings.registryPath);
      this.schedule();
    }
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
  liveDiagnostics(analysis: HarnAnalysis): Diagnostic[] {
    if (!this.gate?.last?.registry) return [];
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
    const id = this.idAt(doc, offset);
    if (!id || !this.gate) return undefined;
    const root = this.gate.root;
    const markdown = entryMarkdown(id.id, this.registry, this.sites, (rel) => pathToUri(path.join(root, rel)));
    return { contents: { kind: MarkupKind.Markdown, value: markdown }, range: id.range };
  }

  /** The boundary id named at `offset` in a `.harn`, `.rs` or registry document. */
  private idAt(doc: TextDocument, offset: number): { id: string; range: Hover['range'] } | undefined {
    if (!this.gate?.last) return undefined;
    const text = doc.getText();
    const rangeOf = (start: number, end: number) => ({ start: doc.positionAt(start), end: doc.positionAt(end) });
    if (doc.languageId === 'harn') {
      for (const ref of scanHarnBoundaries(new HarnAnalysis(text)).references) {
        if (ref.range.start <= offset && offset <= ref.range.end) return { id: ref.id, range: rangeOf(ref.range.start, ref.range.end) };
      }
      return undefined;
    }
    if (doc.uri.endsWith('.rs')) {
      const funnel = this.gate.last.funnel ?? parseFunnel(text);
      const wire = new Map(funnel.arms.map((a) => [a.variant, a.wire]));
      for (const mention of scanRustMentions(text)) {
        const id = wire.get(mention.variant);
        if (id && mention.range.start <= offset && offset <= mention.range.end) return { id, range: rangeOf(mention.range.start, mention.range.end) };
      }
      // The funnel's own arms.
      for (const arm of funnel.arms) {
        if (this.relative(doc.uri) !== this.gate.settings.funnelPath) break;
        if ((arm.variantRange.start <= offset && offset <= arm.variantRange.end) || (arm.wireRange.start <= offset && offset <= arm.wireRange.end)) {
          return { id: arm.wire, range: rangeOf(arm.wireRange.start, arm.wireRange.end) };
        }
      }
      return undefined;
    }
    if (this.isRegistry(doc.uri)) {
      const registry = this.registry;
      for (const entry of [...(registry?.boundaries ?? []), ...(registry?.audited ?? [])]) {
        const r = entry.id?.range;
        if (entry.id && r && r.start <= offset && offset <= r.end) return { id: entry.id.value, range: rangeOf(r.start, r.end) };
      }
    }
    return undefined;
  }

  // ------------------------------------------------------------------------------- completion

  /** Items inside `boundary: "|"` and `kind: "|"` of a `.harn` dict, or undefined elsewhere. */
  completion(analysis: HarnAnalysis, offset: number): CompletionItem[] | undefined {
    const field = boundaryFieldAt(analysis, offset);
    if (!field) return undefined;
    const items = field.field === 'boundary' ? idCompletions(this.registry) : kindCompletions();
    // Replace the string's content (between the quotes, or to the end of an unterminated one).
    const contentStart = field.literal.start + 1;
    const text = analysis.text;
    const closed = field.literal.end - field.literal.start > 1 && text.charCodeAt(field.literal.end - 1) === 34;
    const contentEnd = closed ? field.literal.end - 1 : field.literal.end;
    const range = analysis.lineIndex.rangeOf(contentStart, Math.max(contentStart, contentEnd));
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
    if (!gate || !run?.registry?.parsed) return [];
    const registryText = gate.readFile(gate.settings.registryPath);
    if (registryText === undefined) return [];
    const doc = this.documents.get(params.textDocument.uri);
    const here = this.relative(params.textDocument.uri);
    if (here === undefined) return [];
    const actions: CodeAction[] = [];
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== SOURCE || !isBoundaryData(diagnostic.data)) continue;
      const data = diagnostic.data;
      const sourceText = doc?.getText();
      const idRange = doc ? { start: doc.offsetAt(diagnostic.range.start), end: doc.offsetAt(diagnostic.range.end) } : undefined;
      const fixes = fixesFor(data.kind, data.id, here, { registryPath: gate.settings.registryPath, registryText, registry: run.registry, sites: run.allSites }, {
        suggestions: data.suggestions,
        anchorPath: data.kind === 'missing_anchor' ? data.path : undefined,
        idRange,
        sourceText,
      });
      for (const fix of fixes) {
        const target = fix.path === here ? params.textDocument.uri : pathToUri(path.join(gate.root, fix.path));
        const text = fix.path === here && sourceText !== undefined ? sourceText : gate.readFile(fix.path);
        if (text === undefined) continue;
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: fix.preferred,
          edit: toWorkspaceEdit(target, text, fix.edits),
        });
      }
    }
    return actions;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isBoundaryData(data: unknown): data is BoundaryDiagnosticData {
  return typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string' && typeof (data as { kind?: unknown }).kind === 'string';
}

function toWorkspaceEdit(uri: string, text: string, edits: TextEdit[]): WorkspaceEdit {
  const index = new LineIndex(text);
  const lspEdits: LspTextEdit[] = edits.map((e) => ({ range: index.rangeOf(e.start, e.end), newText: e.newText }));
  return { changes: { [uri]: lspEdits } };
}
