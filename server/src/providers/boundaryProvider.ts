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
  FileChangeType,
  Hover,
  MarkupKind,
  Position,
  TextDocuments,
  TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { entryMarkdown, fixesFor, idCompletions, kindCompletions, liveHarnProblems, registeredIds } from '../boundaries/assist';
import { BOUNDARY_SOURCE, GATE_UTF8, gateIsInactive, gateRunDiagnosticSteps } from '../boundaries/diagnostics';
import { runSteps, Steps } from '../boundaries/steps';
import { DiagnosticCap, finishWorkbenchCap, workbenchCapView } from '../diagnosticCap';
import { WorkbenchDiagnostic } from '../diagnostics';
import { boundaryFieldAt, scanHarnBoundaries } from '../boundaries/harnSites';
import { harnIdAt, IdAtCursor, registryIdAt, rustIdAt } from '../boundaries/idAt';
import { applyEdits, TextEdit } from '../boundaries/registryEdits';
import { BoundaryInfo, boundaryInfoLookup } from '../boundaries/registry';
import { BoundarySite, Registry, TextRange } from '../boundaries/types';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS, GateRun, GateSettings } from '../boundaries/workspaceGate';
import { internalErrorDiagnostic, invalidUtf8Diagnostics } from '../diagnostics';
import { DiagnosticsStore } from '../features/diagnosticsStore';
import { describeError } from '../features/handler';
import { runInSlices } from '../features/slices';
import { DiskFile, DocumentRequest, DomainProvider, OpenDocumentRequest } from '../features/provider';
import { HarnAnalysis } from '../harn/analysis';
import { DocumentKind } from '../features/router';
import { stringContent } from '../harn/strings';
import { LineIndex } from '../text/lineIndex';
import { HarnWorkspace, pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { FileEdit, PendingEdits } from '../workspace/pendingEdits';
import { WorkbenchSettings } from '../workspace/settings';
import { toLspDiagnostic } from './convert';

const SOURCE = BOUNDARY_SOURCE;
const GATE_DELAY_MS = 50;

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
  private gate: BoundaryGateWorkspace | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly onGateRun: Array<() => void> = [];
  private readonly pendingEdits = new PendingEdits();
  private lookupOf: { registry: Registry | undefined; lookup: (id: string) => BoundaryInfo | undefined } | undefined;
  /** The gate run in progress (it runs in slices between requests); cancelled when a newer one starts. */
  private running: { cancelled: boolean } | undefined;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly store: DiagnosticsStore,
    private readonly workspace: HarnWorkspace,
    private readonly log: (message: string) => void,
    private readonly logError: (message: string) => void = log,
  ) {}

  /** Resolves once the first gate run is done (the workspace is scanned; requests are answered meanwhile). */
  async configure(root: string | undefined, settings: WorkbenchSettings): Promise<void> {
    if (root) await this.start(root, settings.boundaries);
  }

  /** Starts (or restarts with new settings) the gate for a workspace root; resolves when its first run ends. */
  start(root: string, settings: Partial<GateSettings>): Promise<void> {
    const merged: GateSettings = { ...DEFAULT_GATE_SETTINGS, ...stripUndefined(settings) };
    this.gate = new BoundaryGateWorkspace(root, merged, {
      // Unsaved text of open documents, but only for files on disk: a document whose file was deleted,
      // or never saved, is no file of the tree (git would not see it either).
      openText: (absolute) => {
        const doc = this.documents.get(pathToUri(absolute));
        return doc && fs.existsSync(absolute) ? doc.getText() : undefined;
      },
    });
    return this.runNow('workspace opened');
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

  /** What the registry of the last gate run says of an id (for boundary_failure rows of run artifacts). */
  boundaryInfo(id: string): BoundaryInfo | undefined {
    const registry = this.registry;
    if (!this.lookupOf || registry !== this.lookupOf.registry) this.lookupOf = { registry, lookup: boundaryInfoLookup(registry) };
    return this.lookupOf.lookup(id);
  }

  /** Whether the last gate run read this file from disk and found it not UTF-8 (it reports that on the file). */
  reportsEncodingOf(file: string): boolean {
    const relative = this.relative(pathToUri(file));
    return relative !== undefined && this.gate?.filesNotUtf8.has(relative) === true;
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
      if (this.pendingEdits.concerns(rel)) this.pendingEdits.changed(rel, this.gate.readFile(rel), (r) => this.gate?.readFile(r));
      relevant = true;
    }
    if (relevant) this.schedule();
  }

  /**
   * What a run in progress has read may predate a change (it reads files as it goes, between requests): it
   * is dropped, and the scheduled run starts over, so that a publication is always of one state of the tree.
   */
  private supersedeRunning(): void {
    if (this.running) this.running.cancelled = true;
  }

  /** The registry or the funnel is edited in an editor: the gate, its fixes and the live checks follow it before it is saved. */
  documentChanged(uri: string): void {
    if (!this.gate) return;
    const rel = this.relative(uri);
    if (rel === undefined) return;
    if (this.pendingEdits.concerns(rel)) this.pendingEdits.changed(rel, this.gate.readFile(rel), (r) => this.gate?.readFile(r));
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

  private schedule(delay = GATE_DELAY_MS): void {
    this.supersedeRunning();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Half of a multi-file fix has arrived: publish once the other half has (or the fix is given up).
      const gate = this.gate;
      const hold = gate && this.pendingEdits.holdUntil((relative) => gate.readFile(relative));
      if (hold !== undefined) {
        this.log(`loud-boundary gate: waiting for the rest of a multi-file fix (at most ${Math.round(hold - performance.now())} ms)`);
        return this.schedule(Math.max(1, hold - performance.now()));
      }
      void this.runNow('files changed');
    }, delay);
  }

  /**
   * Runs the gate in slices (features/slices.ts), answering requests in between; a run started meanwhile
   * supersedes this one, which then stops at its next slice and publishes nothing.
   */
  private runNow(reason: string): Promise<void> {
    const gate = this.gate;
    if (!gate) return Promise.resolve();
    if (this.running) this.running.cancelled = true;
    const ticket = { cancelled: false };
    this.running = ticket;
    const started = performance.now();
    const superseded = (): boolean => ticket.cancelled || this.gate !== gate;
    const steps = function* (provider: BoundaryProvider): Steps<{ run: GateRun; diagnostics: Map<string, Diagnostic[]> }> {
      const run = yield* gate.runSteps();
      return { run, diagnostics: yield* provider.diagnosticSteps(run) };
    };
    return runInSlices(steps(this), superseded)
      .then((done) => {
        if (done === undefined || superseded()) {
          this.log(`loud-boundary gate (${reason}): superseded by a newer run`);
          return;
        }
        const { run, diagnostics } = done;
        this.store.replaceAll('gate', diagnostics);
        const ms = (performance.now() - started).toFixed(1);
        for (const failure of run.failures) {
          this.logError(`loud-boundary gate: scanning ${failure.path} failed (the other files were checked): ${describeError(failure.error)}`);
        }
        this.log(`loud-boundary gate (${reason}): ${run.result.findings.length} finding(s), ${run.scannedFiles} file(s) scanned, ${ms} ms`);
        for (const listener of this.onGateRun) listener();
      })
      .catch((error: unknown) => {
        this.logError(`loud-boundary gate failed: ${describeError(error)}`);
        // Said on the registry too, so the gate's silence is never read as "no findings".
        const registry = pathToUri(path.join(gate.root, gate.settings.registryPath));
        this.store.replaceAll('gate', new Map([[registry, [toLspDiagnostic(internalErrorDiagnostic('loud-boundary gate', error))]]]));
      })
      .finally(() => {
        if (this.running === ticket) this.running = undefined;
      });
  }

  /**
   * The registry for a request: its current text's, parsed now if need be (an edit re-parses only the entries it
   * touched). While a gate run is in progress it is parsing the registry in slices, perhaps for the first time
   * (seconds for 50,000 entries): a request then gets the parse at hand or the last run's, never parsing itself.
   */
  private registryNow(): Registry | undefined {
    const gate = this.gate;
    if (!gate) return undefined;
    if (this.running) return gate.parsedCurrentRegistry() ?? gate.last?.registry;
    return gate.currentRegistry();
  }

  /** Publishes the gate's findings on the files where they are fixed. */
  private publish(run: GateRun): void {
    this.store.replaceAll('gate', runSteps(this.diagnosticSteps(run)));
  }

  /**
   * The gate's diagnostics per document, in steps: capped per file as they are made (diagnosticCap.ts; the
   * store folds the note into its own), so that a registry of 50,000 findings converts a thousand of them.
   */
  private *diagnosticSteps(run: GateRun): Steps<Map<string, Diagnostic[]>> {
    const gate = this.gate;
    const byUri = new Map<string, Diagnostic[]>();
    if (!gate || gateIsInactive(run)) return byUri;
    const uriOf = (relative: string): string => pathToUri(path.join(gate.root, relative));
    // Live checks own unknown ids in open .harn documents (they follow unsaved text).
    const ownedByLiveChecks = (f: { kind: string; location: { path: string } }): boolean =>
      f.kind === 'unknown_boundary' && f.location.path.endsWith('.harn') && this.documents.get(uriOf(f.location.path)) !== undefined;
    const caps = new Map<string, DiagnosticCap<WorkbenchDiagnostic>>();
    const collect = (relative: string, diagnostic: WorkbenchDiagnostic): void => {
      let cap = caps.get(relative);
      if (!cap) caps.set(relative, (cap = new DiagnosticCap(workbenchCapView)));
      cap.add(diagnostic);
    };
    yield* gateRunDiagnosticSteps(run, (r) => gate.readFile(r), ownedByLiveChecks, collect);
    for (const [relative, cap] of caps) {
      const { kept, note } = finishWorkbenchCap(cap);
      byUri.set(uriOf(relative), (note ? [...kept, note] : kept).map(toLspDiagnostic));
    }
    // Files read from disk that are not UTF-8 (an open document's own text is checked as the editor holds it).
    for (const [relative, bad] of gate.filesNotUtf8) {
      const uri = pathToUri(path.join(gate.root, relative));
      if (this.documents.get(uri)) continue;
      byUri.set(uri, [...(byUri.get(uri) ?? []), ...invalidUtf8Diagnostics(bad.invalid, bad.lineIndex, GATE_UTF8).map(toLspDiagnostic)]);
    }
    return byUri;
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

  private harnChecks(uri: string, analysisOf: () => HarnAnalysis, withUnknownIds: boolean): Diagnostic[] {
    if (!this.gate?.last?.registry) return [];
    // Only files the gate scans (harnGlobs): elsewhere a boundary report is not a site upstream knows.
    const relative = this.relative(uri);
    if (relative === undefined || !this.gate.isScanned(relative)) return [];
    const analysis = analysisOf();
    const problems = liveHarnProblems(scanHarnBoundaries(analysis), this.gate.last.registry).filter((p) => withUnknownIds || p.code !== 'unknown_boundary');
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

  hover({ doc, kind }: DocumentRequest, position: Position): Hover | undefined {
    const registry = this.registryNow();
    // Without a readable registry there is nothing to say about an id; other hovers answer instead.
    if (!this.gate || !doc || !registry?.parsed) return undefined;
    const id = this.idAt(doc, kind, doc.offsetAt(position), registry);
    if (!id) return undefined;
    const root = this.gate.root;
    const markdown = entryMarkdown(id.id, registry, this.sites, (rel) => pathToUri(path.join(root, rel)));
    return { contents: { kind: MarkupKind.Markdown, value: markdown }, range: { start: doc.positionAt(id.range.start), end: doc.positionAt(id.range.end) } };
  }

  /** The boundary id named at `offset` in a `.harn`, `.rs` or registry document (read from the document's own text). */
  private idAt(doc: TextDocument, kind: DocumentKind, offset: number, registry: Registry): IdAtCursor | undefined {
    const gate = this.gate;
    if (!gate?.last) return undefined;
    if (kind === 'harn') return harnIdAt(scanHarnBoundaries(this.workspace.analysisOf(doc)), offset);
    if (kind === 'registry') return registryIdAt(registry, offset);
    if (kind !== 'rust') return undefined;
    // The funnel maps variants to wire ids; when this is the funnel, read it from the (maybe unsaved) text.
    const isFunnel = this.relative(doc.uri) === gate.settings.funnelPath;
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

  codeAction(_request: DocumentRequest, params: CodeActionParams): CodeAction[] {
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
        this.pendingEdits.offer(texts);
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
