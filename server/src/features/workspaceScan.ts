// The workspace check (`harn.diagnostics.scope: workspace`): every `.harn` file and run artifact of one workspace
// folder checked from disk when the server starts, as eslint's and rust-analyzer's workspace diagnostics do, so the
// Problems panel lists them before any is opened. Each closed file is checked by the providers of its kind
// (DomainProvider.diskDiagnostics: the same checks as when it is open) into the store's disk bucket, which is not
// shown while the file is open (its live diagnostics are). Kept current by files changed on disk and closed
// documents. One file at a time, reads asynchronous: requests are answered between files and between chunks.
// What is read and in what order: workspace/scanPlan.ts.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { CancellationTokenSource, Diagnostic, FileChangeType, FileEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HarnAnalysis } from '../harn/analysis';
import { toLspDiagnostic } from '../providers/convert';
import { isPathIgnored, walkFiles } from '../workspace/fileWalk';
import { decodeUtf8, InvalidUtf8 } from '../text/utf8';
import { readFileBytes } from '../workspace/files';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import {
  affectedByChanges,
  isScanKind,
  MAX_SCAN_BYTES,
  mayBeScanned,
  mayHoldScanned,
  scanAction,
  scanOrder,
  ScanKind,
  tooLargeToScanDiagnostic,
} from '../workspace/scanPlan';
import { WorkbenchSettings } from '../workspace/settings';
import { FeatureContext } from './context';
import { internalErrorDiagnostic } from './diagnostics';
import { DISK_BUCKET, DiagnosticsStore } from './diagnosticsStore';
import { describeError, yieldToRequests } from './handler';
import { DiskFile } from './provider';
import { SLICE_MS } from './slices';

/** How often the progress notification is updated at most. */
const PROGRESS_EVERY_MS = 100;

export class WorkspaceScan {
  private readonly cancellation = new CancellationTokenSource();
  /** Root-relative paths waiting to be checked, in order; a path queued again keeps its first place. */
  private readonly queue = new Set<string>();
  /** The kind of each file checked (run records are checked again when a transcript changes). */
  private readonly kinds = new Map<string, ScanKind>();
  /** Files whose disk bucket this scan has set. */
  private readonly published = new Set<string>();
  /** Bumped when a file changes: a check of an older state publishes nothing (the newer one is queued). */
  private readonly generation = new Map<string, number>();
  private working: Promise<void> | undefined;

  constructor(
    readonly root: string,
    private readonly settings: WorkbenchSettings,
    private readonly ctx: FeatureContext,
    private readonly store: DiagnosticsStore,
    /** Files a previous scan of this folder published: cleared after the first pass unless listed again. */
    private readonly inherited: ReadonlySet<string> = new Set(),
    /** Whether a file is this folder's (a nested workspace folder's files are its own scan's). */
    private readonly owns: (file: string) => boolean = () => true,
  ) {}

  /** Stopped by a newer configuration (dispose) or by the client's shutdown request. */
  get cancelled(): boolean {
    if (this.ctx.lifecycle.isShutDown) this.cancellation.cancel();
    return this.cancellation.token.isCancellationRequested;
  }

  /** The first pass over the folder, under a work-done progress; resolves when it is done or cancelled. */
  async start(): Promise<void> {
    const started = performance.now();
    // The walk is synchronous, as the gate's (fileWalk.ts); what it lists is checked one file at a time.
    const accept = (relative: string): boolean => mayBeScanned(relative) && this.owns(path.join(this.root, relative));
    const files = scanOrder(walkFiles(this.root, { accept, enter: mayHoldScanned }));
    for (const relative of files) this.queue.add(relative);
    const progress = await this.ctx.connection.window.createWorkDoneProgress();
    if (this.cancelled) return progress.done();
    progress.begin('Harn: checking the workspace', 0, `0/${files.length} files`, false);
    let lastReport = 0;
    let checked = 0;
    try {
      // Files changed meanwhile join this pass's queue (enqueue sees it working).
      this.working = this.drain(() => {
        checked = Math.min(files.length, checked + 1);
        const now = performance.now();
        if (now - lastReport < PROGRESS_EVERY_MS) return;
        lastReport = now;
        progress.report(Math.floor((checked / Math.max(1, files.length)) * 100), `${checked}/${files.length} files`);
      });
      await this.working;
    } finally {
      this.working = undefined;
      progress.done();
    }
    if (this.cancelled) return;
    for (const relative of this.inherited) if (!this.published.has(relative)) this.store.clear(this.uriOf(relative), DISK_BUCKET);
    const ms = (performance.now() - started).toFixed(0);
    this.ctx.info(`workspace check: ${files.length} file(s) checked in ${ms} ms, ${this.published.size} with problems (${this.root})`);
  }

  /** Stops the scan; returns the files it published (a scan taking over clears those it does not list again). */
  dispose(): Set<string> {
    this.cancellation.cancel();
    this.queue.clear();
    return new Set(this.published);
  }

  /** Stops the scan and clears every disk diagnostic it published (scope `openFiles`, shutdown of the folder). */
  clear(): void {
    for (const relative of this.dispose()) this.store.clear(this.uriOf(relative), DISK_BUCKET);
    this.published.clear();
  }

  /** Files created, changed or deleted on disk (saves included). */
  filesChanged(changes: readonly FileEvent[]): void {
    if (this.cancelled) return;
    const changed: string[] = [];
    for (const change of changes) {
      const relative = this.relativeOf(change.uri);
      if (relative === undefined) continue;
      if (change.type === FileChangeType.Deleted) {
        this.forget(relative);
        // A deleted folder is reported alone: what was known under it goes too.
        for (const known of [...this.kinds.keys(), ...this.published]) if (known.startsWith(relative + '/')) this.forget(known);
        continue;
      }
      if (mayBeScanned(relative) && !isPathIgnored(this.root, relative)) changed.push(relative);
    }
    for (const relative of affectedByChanges(changed, this.kinds)) this.enqueue(relative);
  }

  /** A document was closed: its disk diagnostics come back, checked on its saved content. */
  documentClosed(uri: string): void {
    const relative = this.relativeOf(uri);
    if (relative === undefined || this.cancelled) return;
    // Not the diagnostics of the text before it was opened: cleared until the check of the saved text publishes.
    this.forget(relative);
    if (mayBeScanned(relative) && !isPathIgnored(this.root, relative)) this.enqueue(relative);
  }

  /** Checks again the closed files of the kinds selected (what they depend on changed: the registry's presence). */
  recheck(select: (kind: ScanKind) => boolean): void {
    if (this.cancelled) return;
    for (const [relative, kind] of this.kinds) if (select(kind)) this.enqueue(relative);
  }

  private enqueue(relative: string): void {
    this.generation.set(relative, (this.generation.get(relative) ?? 0) + 1);
    this.queue.add(relative);
    this.working ??= this.drain().finally(() => (this.working = undefined));
  }

  private forget(relative: string): void {
    this.generation.set(relative, (this.generation.get(relative) ?? 0) + 1);
    this.queue.delete(relative);
    this.kinds.delete(relative);
    if (this.published.delete(relative)) this.store.clear(this.uriOf(relative), DISK_BUCKET);
  }

  /** Checks queued files one after another, yielding to requests between files once a slice is used up. */
  private async drain(onChecked?: () => void): Promise<void> {
    let sliceStart = performance.now();
    while (!this.cancelled) {
      const next = this.queue.values().next();
      if (next.done) return;
      const relative = next.value;
      this.queue.delete(relative);
      try {
        await this.check(relative);
      } catch (error) {
        this.ctx.error(`workspace check: ${relative} failed: ${describeError(error)}`);
      }
      onChecked?.();
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToRequests();
        sliceStart = performance.now();
      }
    }
  }

  private async check(relative: string): Promise<void> {
    const uri = this.uriOf(relative);
    // An open file's live checks are what the editor shows; it is checked from disk again when it closes.
    if (this.ctx.documents.get(uri)) return;
    const generation = this.generation.get(relative) ?? 0;
    const file = path.join(this.root, relative);
    const current = (): boolean => !this.cancelled && (this.generation.get(relative) ?? 0) === generation;
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      if (current()) this.forget(relative);
      return;
    }
    const kind = this.ctx.router.kindOf(uri, undefined);
    if (!stat.isFile() || !isScanKind(kind)) {
      if (current()) this.forget(relative);
      return;
    }
    this.kinds.set(relative, kind);
    const diagnostics =
      scanAction(stat.size) === 'tooLarge'
        ? [toLspDiagnostic(tooLargeToScanDiagnostic(stat.size, kind))]
        : await this.providerChecks(uri, file, stat.size, kind);
    if (diagnostics === undefined || !current()) return;
    // Thousands of clean files: a file never published needs no empty publication.
    if (diagnostics.length === 0 && !this.published.has(relative)) return;
    this.published.add(relative);
    this.store.set(uri, DISK_BUCKET, diagnostics);
  }

  /** What the providers of the kind say of the file on disk; undefined once cancelled. */
  private async providerChecks(uri: string, file: string, size: number, kind: ScanKind): Promise<Diagnostic[] | undefined> {
    const token = this.cancellation.token;
    let decoded: Promise<{ doc: TextDocument; invalid: readonly InvalidUtf8[] } | undefined> | undefined;
    let analysis: Promise<HarnAnalysis | undefined> | undefined;
    // Bytes decoded here (as the CLI does), so that each ill-formed UTF-8 sequence is known where it is.
    const read = (): Promise<{ doc: TextDocument; invalid: readonly InvalidUtf8[] } | undefined> =>
      (decoded ??= readFileBytes(file, { token, maxBytes: MAX_SCAN_BYTES }).then((bytes) => {
        if (!bytes.ok) return undefined;
        const { text, invalid } = decodeUtf8(bytes.bytes);
        return { doc: TextDocument.create(uri, kind === 'harn' ? 'harn' : 'json', 0, text), invalid };
      }));
    const document = (): Promise<TextDocument | undefined> => read().then((r) => r?.doc);
    const disk: DiskFile = {
      uri,
      path: file,
      size,
      token,
      document,
      harnAnalysis: () => (analysis ??= document().then((doc) => doc && new HarnAnalysis(doc.getText()))),
      invalidUtf8: () => read().then((r) => r?.invalid ?? []),
    };
    const out: Diagnostic[] = [];
    for (const provider of this.ctx.providersFor(kind)) {
      if (!provider.diskDiagnostics) continue;
      try {
        const found = await provider.diskDiagnostics(disk, kind);
        if (this.cancelled) return undefined;
        if (found) for (const d of found) out.push(d);
      } catch (error) {
        // Said on the file, so a failure is never a silent "no problems"; the other providers still check it.
        this.ctx.error(`${provider.name}: checking ${file} from disk failed: ${describeError(error)}`);
        out.push(internalErrorDiagnostic(provider.name, error));
      }
    }
    return out;
  }

  private uriOf(relative: string): string {
    return pathToUri(path.join(this.root, relative));
  }

  private relativeOf(uri: string): string | undefined {
    const file = uriToPath(uri);
    const relative = path.relative(this.root, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || !this.owns(file)) return undefined;
    return relative.split(path.sep).join('/');
  }

  /** The settings this scan was started with (a change of settings starts a new scan). */
  get configuredWith(): WorkbenchSettings {
    return this.settings;
  }
}
