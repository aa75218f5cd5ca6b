// One workspace folder's loud-boundary gate in the editor: its BoundaryGateWorkspace (the folder's registry,
// funnel and scan globs), its runs on start and after changes (in slices, a newer run superseding an older
// one), and the publication of its findings in a diagnostics bucket of its own, only on the files that belong
// to this folder (a nested folder's files are that folder's). BoundaryProvider routes each file to its folder's.
// An open document's findings are published with the version whose text they were computed from, and left out
// of later versions' publications until a run reads its text again (when the file changes on disk).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Diagnostic, FileChangeType, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { GATE_UTF8, gateIsInactive, gateRunDiagnosticSteps } from '../boundaries/diagnostics';
import { BoundaryInfo, boundaryInfoLookup } from '../boundaries/registry';
import { runSteps, Steps } from '../boundaries/steps';
import { Registry } from '../boundaries/types';
import { BoundaryGateWorkspace, GateRun, GateSettings } from '../boundaries/workspaceGate';
import { DiagnosticCap, finishWorkbenchCap, workbenchCapView } from '../diagnosticCap';
import { internalErrorDiagnostic, invalidUtf8Diagnostics, WorkbenchDiagnostic } from '../diagnostics';
import { DiagnosticsStore } from '../features/diagnosticsStore';
import { describeError } from '../features/handler';
import { runInSlices } from '../features/slices';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { PendingEdits } from '../workspace/pendingEdits';
import { toLspDiagnostic } from './convert';

const GATE_DELAY_MS = 50;

/** What a folder's gate needs from the provider that holds it. */
export interface FolderGateHost {
  documents: TextDocuments<TextDocument>;
  store: DiagnosticsStore;
  log(message: string): void;
  logError(message: string): void;
  /** Whether a file belongs to this folder (the innermost folder holding it): its findings are published only there. */
  owns(root: string, uri: string): boolean;
  /** A run of this gate was published. */
  ran(): void;
}

export class FolderGate {
  readonly gate: BoundaryGateWorkspace;
  /** Its own bucket in the store: one folder's publication never replaces another's. */
  readonly bucket: string;
  private timer: NodeJS.Timeout | undefined;
  readonly pendingEdits = new PendingEdits();
  private lookupOf: { registry: Registry | undefined; lookup: (id: string) => BoundaryInfo | undefined } | undefined;
  /** The run in progress (it runs in slices between requests); cancelled when a newer one starts. */
  private running: { cancelled: boolean } | undefined;
  private stopped = false;

  constructor(
    root: string,
    settings: GateSettings,
    private readonly host: FolderGateHost,
  ) {
    this.bucket = `gate ${root}`;
    this.gate = new BoundaryGateWorkspace(root, settings, {
      // Unsaved text of open documents, but only for files on disk: a document whose file was deleted,
      // or never saved, is no file of the tree (git would not see it either).
      openText: (absolute) => {
        const doc = host.documents.get(pathToUri(absolute));
        return doc && fs.existsSync(absolute) ? doc.getText() : undefined;
      },
    });
  }

  get root(): string {
    return this.gate.root;
  }

  get settings(): GateSettings {
    return this.gate.settings;
  }

  /** Resolves when the first run ends. */
  start(): Promise<void> {
    return this.runNow('workspace opened');
  }

  /** The folder was removed (or its gate replaced): no run publishes any more; its findings go unless a successor replaces them. */
  stop(clearFindings: boolean): void {
    this.stopped = true;
    if (this.running) this.running.cancelled = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (clearFindings) this.host.store.replaceAll(this.bucket, new Map());
  }

  /** A file's path relative to the root, with `/`, or undefined when it is outside. */
  relative(uri: string): string | undefined {
    const rel = path.relative(this.root, uriToPath(uri));
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  /** What the registry of the last run says of an id. */
  boundaryInfo(id: string): BoundaryInfo | undefined {
    const registry = this.gate.last?.registry;
    if (!this.lookupOf || registry !== this.lookupOf.registry) this.lookupOf = { registry, lookup: boundaryInfoLookup(registry) };
    return this.lookupOf.lookup(id);
  }

  /** Files changed on disk (saves included): re-read those under this root and re-run shortly. */
  filesChanged(changes: { uri: string; type: FileChangeType }[]): void {
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
      if (this.pendingEdits.concerns(rel)) this.pendingEdits.changed(rel, this.gate.readFile(rel), (r) => this.gate.readFile(r));
      relevant = true;
    }
    if (relevant) this.schedule();
  }

  /**
   * The registry or the funnel is edited in an editor: the gate, its fixes and the live checks follow it before it
   * is saved. A scanned file is read again when it changes on disk (a save): while it is typed in, the gate's
   * findings on it describe the text the last run read, and are left out of the publications of later versions.
   */
  documentChanged(uri: string): void {
    const rel = this.relative(uri);
    if (rel === undefined) return;
    if (this.pendingEdits.concerns(rel)) this.pendingEdits.changed(rel, this.gate.readFile(rel), (r) => this.gate.readFile(r));
    if (rel === this.settings.registryPath || rel === this.settings.funnelPath) {
      this.gate.invalidate(rel);
      this.schedule();
    }
  }

  /** Whether the last publication put findings on this document. */
  hasFindings(uri: string): boolean {
    return this.host.store.get(uri, this.bucket).length > 0;
  }

  /** Publishes the last run again (a document opened, or which folder a file belongs to changed). */
  republish(): void {
    const last = this.gate.last;
    if (!last || this.stopped) return;
    const { diagnostics, versions } = runSteps(this.diagnosticSteps(last));
    this.host.store.replaceAll(this.bucket, diagnostics, versions);
  }

  /**
   * The registry for a request: its current text's, parsed now if need be (an edit re-parses only the entries it
   * touched). While a run is in progress it is parsing the registry in slices, perhaps for the first time
   * (seconds for 50,000 entries): a request then gets the parse at hand or the last run's, never parsing itself.
   */
  registryNow(): Registry | undefined {
    if (this.running) return this.gate.parsedCurrentRegistry() ?? this.gate.last?.registry;
    return this.gate.currentRegistry();
  }

  /**
   * What a run in progress has read may predate a change (it reads files as it goes, between requests): it
   * is dropped, and the scheduled run starts over, so that a publication is always of one state of the tree.
   */
  private schedule(delay = GATE_DELAY_MS): void {
    if (this.stopped) return;
    if (this.running) this.running.cancelled = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Half of a multi-file fix has arrived: publish once the other half has (or the fix is given up).
      const hold = this.pendingEdits.holdUntil((relative) => this.gate.readFile(relative));
      if (hold !== undefined) {
        this.host.log(`loud-boundary gate: waiting for the rest of a multi-file fix (at most ${Math.round(hold - performance.now())} ms)`);
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
    if (this.stopped) return Promise.resolve();
    if (this.running) this.running.cancelled = true;
    const ticket = { cancelled: false };
    this.running = ticket;
    const started = performance.now();
    const superseded = (): boolean => ticket.cancelled || this.stopped;
    const gate = this.gate;
    const steps = function* (folder: FolderGate): Steps<{ run: GateRun; published: GatePublication }> {
      const run = yield* gate.runSteps();
      return { run, published: yield* folder.diagnosticSteps(run) };
    };
    return runInSlices(steps(this), superseded)
      .then((done) => {
        if (done === undefined || superseded()) {
          this.host.log(`loud-boundary gate (${reason}): superseded by a newer run`);
          return;
        }
        const { run, published } = done;
        this.host.store.replaceAll(this.bucket, published.diagnostics, published.versions);
        const ms = (performance.now() - started).toFixed(1);
        for (const failure of run.failures) {
          this.host.logError(`loud-boundary gate: scanning ${failure.path} failed (the other files were checked): ${describeError(failure.error)}`);
        }
        this.host.log(`loud-boundary gate (${reason}): ${run.result.findings.length} finding(s), ${run.scannedFiles} file(s) scanned, ${ms} ms`);
        this.host.ran();
      })
      .catch((error: unknown) => {
        this.host.logError(`loud-boundary gate failed: ${describeError(error)}`);
        if (this.stopped) return;
        // Said on the registry too, so the gate's silence is never read as "no findings".
        const registry = pathToUri(path.join(gate.root, gate.settings.registryPath));
        this.host.store.replaceAll(this.bucket, new Map([[registry, [toLspDiagnostic(internalErrorDiagnostic('loud-boundary gate', error))]]]));
      })
      .finally(() => {
        if (this.running === ticket) this.running = undefined;
      });
  }

  /**
   * The gate's diagnostics per document of this folder, in steps: capped per file as they are made (diagnosticCap.ts;
   * the store folds the note into its own), so that a registry of 50,000 findings converts a thousand of them.
   * Their ranges are placed in the text the run read; an open document's are published with its version when
   * that is still its text, and left out when it is not (it was edited since: they come back when it is saved).
   */
  private *diagnosticSteps(run: GateRun): Steps<GatePublication> {
    const gate = this.gate;
    const byUri = new Map<string, Diagnostic[]>();
    const versions = new Map<string, number>();
    if (gateIsInactive(run)) return { diagnostics: byUri, versions };
    const uriOf = (relative: string): string => pathToUri(path.join(gate.root, relative));
    // Live checks own unknown ids in open .harn documents (they follow unsaved text).
    const ownedByLiveChecks = (f: { kind: string; location: { path: string } }): boolean =>
      f.kind === 'unknown_boundary' && f.location.path.endsWith('.harn') && this.host.documents.get(uriOf(f.location.path)) !== undefined;
    const caps = new Map<string, DiagnosticCap<WorkbenchDiagnostic>>();
    const collect = (relative: string, diagnostic: WorkbenchDiagnostic): void => {
      let cap = caps.get(relative);
      if (!cap) caps.set(relative, (cap = new DiagnosticCap(workbenchCapView)));
      cap.add(diagnostic);
    };
    // A file without its text in the run has its findings at its start (a scan that failed): they fit any text.
    yield* gateRunDiagnosticSteps(run, (r) => run.texts.get(r) ?? gate.readFile(r), ownedByLiveChecks, collect);
    for (const [relative, cap] of caps) {
      const uri = uriOf(relative);
      if (!this.host.owns(gate.root, uri)) continue;
      const doc = this.host.documents.get(uri);
      // Read as an open document that has been closed since: the run that closing started reads the disk.
      if (!doc && run.fromOpenDocuments.has(relative)) continue;
      if (doc) {
        const read = run.texts.get(relative);
        if (read !== undefined && read !== doc.getText()) continue;
        versions.set(uri, doc.version);
      }
      const { kept, note } = finishWorkbenchCap(cap);
      byUri.set(uri, (note ? [...kept, note] : kept).map(toLspDiagnostic));
    }
    // Files read from disk that are not UTF-8 (an open document's own text is checked as the editor holds it).
    for (const [relative, bad] of gate.filesNotUtf8) {
      const uri = uriOf(relative);
      if (this.host.documents.get(uri) || !this.host.owns(gate.root, uri)) continue;
      byUri.set(uri, [...(byUri.get(uri) ?? []), ...invalidUtf8Diagnostics(bad.invalid, bad.lineIndex, GATE_UTF8).map(toLspDiagnostic)]);
    }
    return { diagnostics: byUri, versions };
  }
}

/** A run's diagnostics per document, and the version of each open document they were computed from. */
interface GatePublication {
  diagnostics: Map<string, Diagnostic[]>;
  versions: Map<string, number>;
}
