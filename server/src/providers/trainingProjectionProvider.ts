// Run records that cannot be exported as a training example: one information diagnostic (source harn.training, code
// the refusal kind) on the descriptor, open or closed, while `harn.training.projectionDiagnostics` is on. The
// projector reads the run record and its transcript as written on disk, so a projection is cached by their sizes and
// mtimes (edits to the open text change nothing until saved); it runs asynchronously, cancellable, and the open run
// record is checked again once it is done. Changes on disk (the transcript rewritten, the run record saved) re-check.

import * as path from 'node:path';
import { Diagnostic, FileEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiskFile, DomainProvider } from '../features/provider';
import { DocumentKind } from '../features/router';
import { ProjectionOutcome, projectTrainingExampleAsync } from '../training/project';
import { projectionRefusalDiagnostic } from '../training/refusalDiagnostic';
import { regularFileInfo } from '../workspace/files';
import { FolderConfig, folderOf, FolderSettings } from '../workspace/folders';
import { uriToPath } from '../workspace/harnWorkspace';
import { WorkbenchSettings } from '../workspace/settings';
import { toLspDiagnostic } from './convert';

/** One projection of an open run record, as of the files' states in `key`. */
interface Projection {
  key: string;
  token: { isCancellationRequested: boolean };
  /** Undefined while it runs. */
  outcome: ProjectionOutcome | undefined;
  /** What the projection before it said, shown until it is done (no flicker while a transcript is rewritten). */
  previous: ProjectionOutcome | undefined;
}

/** Size and mtime of a file ("-" when it cannot be read): the projection's inputs as of now. */
function stateOf(file: string | undefined): string {
  if (file === undefined) return '';
  const info = regularFileInfo(file);
  return info.ok ? `${info.size}:${info.mtimeMs}` : '-';
}

export class TrainingProjectionProvider implements DomainProvider {
  readonly name = 'training';
  readonly kinds: ReadonlySet<DocumentKind> = new Set<DocumentKind>(['runRecord']);
  private readonly projections = new Map<string, Projection>();
  private readonly folderSettings = new FolderSettings();

  constructor(
    /** Open documents to check again (a projection finished, a file it read changed). */
    private readonly revalidate: (select: (doc: TextDocument, kind: DocumentKind) => boolean) => void,
    /** The projector (a test wraps the real one to change files at a chosen moment). */
    private readonly project: typeof projectTrainingExampleAsync = projectTrainingExampleAsync,
  ) {}

  configure(folders: readonly FolderConfig[], outside: WorkbenchSettings): void {
    this.folderSettings.configure(folders, outside);
  }

  private enabled(file: string): boolean {
    return this.folderSettings.of(file).training.projectionDiagnostics;
  }

  /** The longest transcript line read, as the artifact checks of the same run record read it. */
  private maxLineBytes(file: string): number {
    return this.folderSettings.of(file).artifacts.maxLineBytes;
  }

  diagnostics(doc: TextDocument, kind: DocumentKind): Diagnostic[] | undefined {
    if (kind !== 'runRecord') return undefined;
    const file = uriToPath(doc.uri);
    if (!this.enabled(file)) {
      this.forget(doc.uri);
      return [];
    }
    const known = this.projections.get(doc.uri);
    const transcript = known?.outcome?.transcriptPath;
    const key = `${stateOf(file)}|${stateOf(transcript)}`;
    if (known?.key === key) return this.diagnosticsOf(known.outcome ?? known.previous, doc.getText(), file);
    this.forget(doc.uri);
    const previous = known?.outcome ?? known?.previous;
    const projection: Projection = { key, token: { isCancellationRequested: false }, outcome: undefined, previous };
    this.projections.set(doc.uri, projection);
    // The states as read, not as of when the projection ends: a transcript replaced while it ran must not be taken
    // as the one projected (its key would match and the change would never be seen).
    const recordState = stateOf(file);
    let transcriptState: string | undefined;
    const onTranscriptRead = (_file: string, size: number, mtimeMs: number): void => {
      transcriptState = `${size}:${mtimeMs}`;
    };
    void this.project({ runRecordPath: file }, { token: projection.token, maxLineBytes: this.maxLineBytes(file), onTranscriptRead })
      .then((outcome) => {
        if (outcome === undefined || projection.token.isCancellationRequested || this.projections.get(doc.uri) !== projection) return;
        projection.outcome = outcome;
        // The transcript it resolved is now part of what the projection depends on.
        // Not read (missing, not a regular file): its state now, as the next check computes it, so it settles.
        const transcript = outcome.transcriptPath === undefined ? '' : (transcriptState ?? stateOf(outcome.transcriptPath));
        projection.key = `${recordState}|${transcript}`;
        this.revalidate((open) => open.uri === doc.uri);
      })
      .catch(() => {
        // A bug of the projector: the export command says so; the diagnostic is left out rather than guessed.
        if (this.projections.get(doc.uri) === projection) this.projections.delete(doc.uri);
      });
    return this.diagnosticsOf(previous, doc.getText(), file);
  }

  /** Paths in messages are shown relative to the run record's own workspace folder (as the artifact provider's). */
  private diagnosticsOf(outcome: ProjectionOutcome | undefined, text: string, file: string): Diagnostic[] {
    if (outcome === undefined || outcome.ok) return [];
    const root = folderOf(file, this.folderSettings.folders)?.root;
    const files = outcome.transcriptPath === undefined ? [file] : [file, outcome.transcriptPath];
    const show = (absolute: string): string => (root === undefined ? absolute : path.relative(root, absolute) || '.');
    return [toLspDiagnostic(projectionRefusalDiagnostic(text, outcome.refusal, { files, show }))];
  }

  private forget(uri: string): void {
    const known = this.projections.get(uri);
    if (known) known.token.isCancellationRequested = true;
    this.projections.delete(uri);
  }

  documentClosed(uri: string): void {
    this.forget(uri);
  }

  /** A transcript or run record changed on disk: open run records are checked again (their keys tell what changed). */
  filesChanged(changes: FileEvent[]): void {
    if (changes.some((c) => c.uri.endsWith('.jsonl') || c.uri.endsWith('.json'))) this.revalidate((_doc, kind) => kind === 'runRecord');
  }

  /** A closed run record, from disk: the same projection and diagnostic as when it is open. */
  async diskDiagnostics(file: DiskFile, kind: DocumentKind): Promise<Diagnostic[] | undefined> {
    if (kind !== 'runRecord') return undefined;
    if (!this.enabled(file.path)) return [];
    const outcome = await this.project({ runRecordPath: file.path }, { token: file.token, maxLineBytes: this.maxLineBytes(file.path) });
    if (outcome === undefined || file.token.isCancellationRequested) return undefined;
    if (outcome.ok) return [];
    const doc = await file.document();
    return doc === undefined ? undefined : this.diagnosticsOf(outcome, doc.getText(), file.path);
  }
}
