// The loud-boundary gate in the editor: the whole gate on start and on save/create/delete/rename of
// any scanned file or the registry (re-reading only what changed), live checks of `.harn` files as
// you type, hover on ids in `.harn`, `.rs` and the registry, completion of ids and kinds, and fixes.
// Each workspace folder has its own gate (folderGate.ts); a file is answered by its own folder's.

import * as path from 'node:path';
import {
  CodeAction,
  CodeActionKind,
  CodeActionParams,
  CompletionItem,
  CompletionItemKind,
  Diagnostic,
  FileChangeType,
  Hover,
  MarkupKind,
  Position,
  TextDocuments,
  TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { entryMarkdown, fixesFor, idCompletions, kindCompletions, liveHarnProblems, registeredIds } from '../boundaries/assist';
import { BOUNDARY_SOURCE } from '../boundaries/diagnostics';
import { boundaryFieldAt, scanHarnBoundaries } from '../boundaries/harnSites';
import { harnIdAt, IdAtCursor, registryIdAt, rustIdAt } from '../boundaries/idAt';
import { applyEdits, TextEdit } from '../boundaries/registryEdits';
import { BoundaryInfo } from '../boundaries/registry';
import { Registry, TextRange } from '../boundaries/types';
import { DEFAULT_GATE_SETTINGS, GateSettings } from '../boundaries/workspaceGate';
import { DiagnosticsStore } from '../features/diagnosticsStore';
import { DiskFile, DocumentRequest, DomainProvider, OpenDocumentRequest } from '../features/provider';
import { HarnAnalysis } from '../harn/analysis';
import { DocumentKind } from '../features/router';
import { stringContent } from '../harn/strings';
import { LineIndex } from '../text/lineIndex';
import { FolderConfig, isWithin, rootOf } from '../workspace/folders';
import { HarnWorkspace, pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { FileEdit } from '../workspace/pendingEdits';
import { toLspDiagnostic } from './convert';
import { FolderGate, FolderGateHost } from './folderGate';

const SOURCE = BOUNDARY_SOURCE;

export interface BoundaryDiagnosticData {
  id: string;
  kind: string;
  /** The path upstream names for this finding. */
  path: string;
  suggestions?: string[];
}

export class BoundaryProvider implements DomainProvider {
  readonly name = 'boundaries';
  readonly kinds: ReadonlySet<DocumentKind> = new Set(['harn', 'rust', 'registry']);
  /** One gate per workspace folder, by root. */
  private gates = new Map<string, FolderGate>();
  private readonly onGateRun: Array<() => void> = [];
  private readonly host: FolderGateHost;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    store: DiagnosticsStore,
    private readonly workspace: HarnWorkspace,
    log: (message: string) => void,
    logError: (message: string) => void = log,
  ) {
    this.host = {
      documents,
      store,
      log,
      logError,
      owns: (root, uri) => rootOf(uriToPath(uri), [...this.gates.keys()]) === root,
      ran: () => {
        for (const listener of this.onGateRun) listener();
      },
    };
  }

  /**
   * A gate for each folder, with the folder's own settings: one whose root and settings are unchanged keeps its
   * state; a removed folder's gate stops and its findings go. Resolves once every new gate's first run is done
   * (the workspace is scanned; requests are answered meanwhile).
   */
  async configure(folders: readonly FolderConfig[]): Promise<void> {
    const previous = this.gates;
    const next = new Map<string, FolderGate>();
    const fresh: FolderGate[] = [];
    for (const { root, settings } of folders) {
      const merged: GateSettings = { ...DEFAULT_GATE_SETTINGS, ...stripUndefined(settings.boundaries) };
      const known = previous.get(root);
      if (known && JSON.stringify(known.settings) === JSON.stringify(merged)) {
        next.set(root, known);
        continue;
      }
      // Replaced: the new gate's first run replaces the old one's findings (same bucket), without a blank in between.
      known?.stop(false);
      const gate = new FolderGate(root, merged, this.host);
      next.set(root, gate);
      fresh.push(gate);
    }
    for (const [root, gate] of previous) if (!next.has(root)) gate.stop(true);
    const rootsChanged = previous.size !== next.size || [...next.keys()].some((root) => !previous.has(root));
    // Before any run starts: a run publishes only on the files of its folder, judged against every folder.
    this.gates = next;
    // A folder added inside another (or removed from it) changes which folder its files belong to.
    if (rootsChanged) for (const [root, gate] of next) if (previous.get(root) === gate) gate.republish();
    await Promise.all(fresh.map((gate) => gate.start()));
  }

  /** The gate of the folder a file belongs to (the innermost one holding it). */
  private gateOf(uri: string): FolderGate | undefined {
    const root = rootOf(uriToPath(uri), [...this.gates.keys()]);
    return root === undefined ? undefined : this.gates.get(root);
  }

  /** Every gate whose tree holds the file (a nested folder's files are in its parent's tree too). */
  private gatesHolding(uri: string): FolderGate[] {
    const file = uriToPath(uri);
    return [...this.gates.values()].filter((g) => isWithin(file, g.root));
  }

  /** What the registry of the file's own folder says of an id, at its last gate run (for boundary_failure rows of run artifacts). */
  boundaryInfo(uri: string, id: string): BoundaryInfo | undefined {
    return this.gateOf(uri)?.boundaryInfo(id);
  }

  /** Whether the last gate run read this file from disk and found it not UTF-8 (it reports that on the file). */
  reportsEncodingOf(file: string): boolean {
    const uri = pathToUri(file);
    const folder = this.gateOf(uri);
    const relative = folder?.relative(uri);
    return relative !== undefined && folder?.gate.filesNotUtf8.has(relative) === true;
  }

  /** The folders whose last gate run read a registry (closed `.harn` files' boundary checks depend on it). */
  foldersWithRegistry(): string[] {
    return [...this.gates.values()].filter((g) => g.gate.last?.registry !== undefined).map((g) => g.root);
  }

  whenGateRuns(listener: () => void): void {
    this.onGateRun.push(listener);
  }

  /** A document was saved, or files changed on disk: each folder re-reads those in its tree and re-runs shortly. */
  filesChanged(changes: { uri: string; type: FileChangeType }[]): void {
    for (const gate of this.gates.values()) gate.filesChanged(changes);
  }

  documentChanged(uri: string): void {
    for (const gate of this.gatesHolding(uri)) gate.documentChanged(uri);
  }

  /**
   * Opening a `.harn` file hands its unknown ids from the gate to the live checks: republish without them. The
   * findings on a document opened are published again too: with its version when they describe its text, left
   * out when its text is not the one the gate read (they come back when the file is saved).
   */
  documentOpened(uri: string): void {
    for (const gate of this.gatesHolding(uri)) if (uri.endsWith('.harn') || gate.hasFindings(uri)) gate.republish();
  }

  /** A closed document is read from disk again (its unsaved text may have been scanned), and the gate reports it again. */
  documentClosed(uri: string): void {
    this.filesChanged([{ uri, type: FileChangeType.Changed }]);
  }

  /** As-you-type checks of `.harn` documents (the gate's findings on other files are its own bucket). */
  diagnostics(doc: TextDocument, kind: DocumentKind): Diagnostic[] | undefined {
    if (kind !== 'harn') return undefined;
    return this.harnChecks(doc.uri, () => this.workspace.analysisOf(doc), true);
  }

  /** A closed `.harn` file's: the same checks on its disk text, less unknown ids (the gate reports those on closed files). */
  async diskDiagnostics(file: DiskFile, kind: DocumentKind): Promise<Diagnostic[] | undefined> {
    if (kind !== 'harn') return undefined;
    const analysis = await file.harnAnalysis();
    return analysis && this.harnChecks(file.uri, () => analysis, false);
  }

  /** Checked against the registry of the file's own folder. */
  private harnChecks(uri: string, analysisOf: () => HarnAnalysis, withUnknownIds: boolean): Diagnostic[] {
    const folder = this.gateOf(uri);
    const registry = folder?.gate.last?.registry;
    if (!folder || !registry) return [];
    // Only files the gate scans (harnGlobs): elsewhere a boundary report is not a site upstream knows.
    const relative = folder.relative(uri);
    if (relative === undefined || !folder.gate.isScanned(relative)) return [];
    const analysis = analysisOf();
    const problems = liveHarnProblems(scanHarnBoundaries(analysis), registry).filter((p) => withUnknownIds || p.code !== 'unknown_boundary');
    return problems.map((p) =>
      toLspDiagnostic({
        range: analysis.lineIndex.rangeOf(p.range.start, p.range.end),
        severity: p.severity,
        source: SOURCE,
        code: p.code,
        message: p.message,
        data: p.data ? ({ id: p.data.id, kind: p.code, path: '', suggestions: p.data.suggestions } satisfies BoundaryDiagnosticData) : undefined,
      }),
    );
  }

  // ------------------------------------------------------------------------------------ hover

  /** The entry of the registry of the document's own folder. */
  hover({ uri, doc, kind }: DocumentRequest, position: Position): Hover | undefined {
    const folder = this.gateOf(uri);
    const registry = folder?.registryNow();
    // Without a readable registry there is nothing to say about an id; other hovers answer instead.
    if (!folder || !doc || !registry?.parsed) return undefined;
    const id = this.idAt(folder, doc, kind, doc.offsetAt(position), registry);
    if (!id) return undefined;
    const root = folder.root;
    const sites = folder.gate.last?.allSites ?? [];
    const markdown = entryMarkdown(id.id, registry, sites, (rel) => pathToUri(path.join(root, rel)));
    return { contents: { kind: MarkupKind.Markdown, value: markdown }, range: { start: doc.positionAt(id.range.start), end: doc.positionAt(id.range.end) } };
  }

  /** The boundary id named at `offset` in a `.harn`, `.rs` or registry document (read from the document's own text). */
  private idAt(folder: FolderGate, doc: TextDocument, kind: DocumentKind, offset: number, registry: Registry): IdAtCursor | undefined {
    const gate = folder.gate;
    if (!gate.last) return undefined;
    if (kind === 'harn') return harnIdAt(scanHarnBoundaries(this.workspace.analysisOf(doc)), offset);
    if (kind === 'registry') return registryIdAt(registry, offset);
    if (kind !== 'rust') return undefined;
    // The funnel maps variants to wire ids; when this is the funnel, read it from the (maybe unsaved) text.
    const isFunnel = folder.relative(doc.uri) === gate.settings.funnelPath;
    const funnel = isFunnel ? gate.parseFunnelText(doc.getText()) : gate.last.funnel;
    return funnel ? rustIdAt(doc.getText(), funnel, isFunnel, offset) : undefined;
  }

  // ------------------------------------------------------------------------------- completion

  /** Items inside `boundary: "|"` and `kind: "|"` of a `.harn` dict, or undefined elsewhere. */
  completion({ doc, kind }: OpenDocumentRequest, position: Position): CompletionItem[] | undefined {
    if (kind !== 'harn') return undefined;
    const analysis = this.workspace.analysisOf(doc);
    const offset = analysis.lineIndex.offsetAt(position);
    const field = boundaryFieldAt(analysis, offset);
    if (!field) return undefined;
    // Replace the string's content: between the delimiters, or to the end of an unterminated one.
    const content = stringContent(analysis.text, field.literal);
    if (offset < content.start) return undefined;
    const range = analysis.lineIndex.rangeOf(content.start, content.end);
    const items = field.field === 'boundary' ? idCompletions(this.gateOf(doc.uri)?.gate.last?.registry) : kindCompletions();
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

  codeAction(_request: DocumentRequest, params: CodeActionParams): CodeAction[] {
    // Fixes edit the registry (and funnel) of the document's own folder.
    const folder = this.gateOf(params.textDocument.uri);
    const gate = folder?.gate;
    const run = gate?.last;
    if (!folder || !gate || !run || !params.context.diagnostics.some((d) => d.source === SOURCE)) return [];
    const doc = this.documents.get(params.textDocument.uri);
    const here = folder.relative(params.textDocument.uri);
    if (here === undefined) return [];
    const sourceText = doc?.getText();
    // A file's text as the edits will apply to it: this document's, else the open editor's or the disk's.
    const textOf = (relative: string): string | undefined => (relative === here && sourceText !== undefined ? sourceText : gate.readFile(relative));
    // Edits are computed on the registry and funnel texts they will apply to, not on the last run's parse of them.
    const registryText = textOf(gate.settings.registryPath);
    const registry = registryText === undefined ? undefined : gate.parseRegistryText(registryText);
    if (registryText === undefined || !registry?.parsed) return [];
    const funnelPath = gate.settings.funnelPath;
    const funnelText = textOf(funnelPath);
    const funnel = funnelText === undefined ? undefined : { path: funnelPath, text: funnelText, parsed: gate.parseFunnelText(funnelText) };
    // An entry's anchors are the sites the gate checks: not the funnel, not tests.
    const sites = run.gateSites;
    // One action per title: several diagnostics (an entry both stale and orphan) share one fix.
    const actions = new Map<string, CodeAction>();
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== SOURCE || !isBoundaryData(diagnostic.data)) continue;
      const data = diagnostic.data;
      const idRange = doc ? { start: doc.offsetAt(diagnostic.range.start), end: doc.offsetAt(diagnostic.range.end) } : undefined;
      if (data.kind === 'unknown_boundary' && this.isOutdated(data.id, registry, doc, idRange)) continue;
      // An orphan entry whose variant has been added since.
      if (data.kind === 'orphan_entry' && funnel?.parsed.arms.some((a) => a.wire === data.id)) continue;
      const fixes = fixesFor(
        data.kind,
        data.id,
        here,
        { registryPath: gate.settings.registryPath, registryText, registry, sites, funnel },
        {
          suggestions: data.suggestions,
          anchorPath: data.kind === 'missing_anchor' ? data.path : undefined,
          idRange,
          sourceText,
        },
      );
      for (const fix of fixes) {
        const known = actions.get(fix.title);
        if (known) {
          known.diagnostics?.push(diagnostic);
          continue;
        }
        // One WorkspaceEdit over every file the fix changes, each edit list against the text it was computed on.
        const changes: Record<string, LspTextEdit[]> = {};
        const texts = new Map<string, FileEdit>();
        for (const file of fix.files) {
          const text = textOf(file.path);
          if (text === undefined) break;
          const target = file.path === here ? params.textDocument.uri : pathToUri(path.join(gate.root, file.path));
          changes[target] = toLspEdits(text, file.edits);
          texts.set(file.path, { before: text, after: applyEdits(text, file.edits) });
        }
        if (Object.keys(changes).length !== fix.files.length) continue;
        folder.pendingEdits.offer(texts);
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

  /**
   * An unknown-id diagnostic older than the text it is asked about (the client may send one back after its
   * fix was applied): the id is registered now, or the `.harn` document no longer names it at that range.
   */
  private isOutdated(id: string, registry: Registry, doc: TextDocument | undefined, range: TextRange | undefined): boolean {
    if (registeredIds(registry).has(id)) return true;
    if (doc?.languageId !== 'harn' || !range) return false;
    const refs = scanHarnBoundaries(this.workspace.analysisOf(doc)).references;
    return !refs.some((r) => r.id === id && r.range.start === range.start && r.range.end === range.end);
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isBoundaryData(data: unknown): data is BoundaryDiagnosticData {
  return (
    typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string' && typeof (data as { kind?: unknown }).kind === 'string'
  );
}

function toLspEdits(text: string, edits: TextEdit[]): LspTextEdit[] {
  const index = new LineIndex(text);
  return edits.map((e) => ({ range: index.rangeOf(e.start, e.end), newText: e.newText }));
}
