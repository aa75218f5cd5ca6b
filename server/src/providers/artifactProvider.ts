import * as path from 'node:path';
// Run artifacts in the editor: diagnostics per row (re-validating only the lines an edit touched), a
// hover that explains a row, the outline, run-record integrity, and validation of files on disk that
// VS Code never syncs (over 50 MB), whose rows still answer hovers through a byte-offset line index.

import {
  CancellationToken,
  CodeAction,
  CodeActionKind,
  CodeActionParams,
  Diagnostic,
  DocumentSymbol,
  Hover,
  MarkupKind,
  Position,
  SymbolKind,
  TextDocuments,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { rowHover } from '../artifacts/hover';
import { LineByteIndex, readLineAt } from '../artifacts/jsonl';
import { artifactOutline, capOutline, OutlineNode, OutlineRow } from '../artifacts/outline';
import { rowNumberAt, toolPartners } from '../artifacts/rows';
import {
  FileStat,
  nodeRunRecordFs,
  TranscriptFacts,
  TranscriptFactsAnswer,
  transcriptFactsAsync,
  transcriptFactsFromFile,
  verifyRunRecord,
  verifyRunRecordAsync,
} from '../artifacts/runRecord';
import { ArtifactKind, ArtifactProblem } from '../artifacts/types';
import { JsonlKind, LineResult, parseRow, RowSummary, validateArtifact, validateArtifactFileAsync } from '../artifacts/validate';
import { BoundaryInfo } from '../boundaries/registry';
import { diagnosticTotal } from '../diagnosticCap';
import { artifactProblemDiagnostic } from '../diagnostics';
import { DISK_BUCKET, DiagnosticsStore } from '../features/diagnosticsStore';
import { forEachChunked } from '../features/handler';
import { DiskFile, DocumentRequest, DomainProvider, OpenDocumentRequest } from '../features/provider';
import { ARTIFACT_KINDS, DocumentKind } from '../features/router';
import { CancellationLike, CHUNK_BYTES, readFileText, refusalMessage } from '../workspace/files';
import { FolderConfig, folderOf, FolderSettings } from '../workspace/folders';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { TOO_LARGE_TO_SCAN, WORKSPACE_SOURCE } from '../workspace/scanPlan';
import { WorkbenchSettings } from '../workspace/settings';
import { DirectiveTreeResult, ValidateArtifactFileResult } from '../protocol';
import type { DirectiveCheckResult } from '../directives/check';
import { CompactionFiles, type ExternalCompaction } from '../directives/compactions';
import { directiveHover, directiveTree, prefixHover, prefixMessage } from '../directives/tree';
import { omittedSymbolsNote, toLspDiagnostic } from './convert';

/** What the registry says of a boundary, for boundary_failure rows. */
/** What the registry of a file's own workspace folder says of an id. */
export type RegistryLookup = (uri: string, id: string) => BoundaryInfo | undefined;

export function artifactDiagnostic(p: ArtifactProblem): Diagnostic {
  return toLspDiagnostic(artifactProblemDiagnostic(p));
}

/** The last validation of one artifact, kept for hovers and the outline. */
interface Validated {
  kind: JsonlKind;
  summaries: RowSummary[];
  /** Open document: its version and the line cache for the next edit. */
  version?: number;
  lineCache?: Map<string, LineResult>;
  /** File validated from disk: where each line starts. */
  lineIndex?: LineByteIndex;
  partner?: ReturnType<typeof toolPartners>;
  /** Transcripts: the directive checks' records (tree view, directive and prefix hovers). */
  directives?: DirectiveCheckResult;
}

/** A transcript's facts read in the background for the run records that point to it (keyed by canonical path). */
interface FactsJob {
  size: number;
  mtimeMs: number;
  /** Settled: the facts or why the file cannot be read; undefined while reading. */
  answer: TranscriptFacts | Error | undefined;
  /** The answer, or undefined when the job was cancelled. */
  done: Promise<TranscriptFacts | Error | undefined>;
  token: { isCancellationRequested: boolean };
  /** Open run records waiting for it: verified again once it is done. */
  waiting: Set<string>;
  /** Requests (harn/validateArtifactFile) awaiting it. */
  requests: number;
}

export class ArtifactProvider implements DomainProvider {
  readonly name = 'artifacts';
  readonly kinds: ReadonlySet<DocumentKind> = ARTIFACT_KINDS;
  private readonly validated = new Map<string, Validated>();
  /** Transcript facts by canonical path, read asynchronously: the event loop never waits for a transcript. */
  private readonly facts = new Map<string, FactsJob>();
  /** The run records and event logs beside transcripts, for the compactions they record (cached by size and mtime). */
  private readonly compactionFiles = new CompactionFiles();
  private readonly folderSettings = new FolderSettings();

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly store: DiagnosticsStore,
    private readonly registry: RegistryLookup,
    /** Open documents to check again (run records whose transcript changed on disk). */
    private readonly revalidate: (select: (doc: TextDocument, kind: DocumentKind) => boolean) => void,
    /** A transcript's directive tree may have changed (harn/directiveTreeChanged). */
    private readonly directiveTreeChanged: (uri: string) => void = () => undefined,
  ) {}

  /** Titles from the registry of the file's own folder. */
  private registryTitle(uri: string): (id: string) => string | undefined {
    return (id) => this.registry(uri, id)?.title;
  }

  /** The longest line read in a file: its folder's `harn.artifacts.maxLineBytes`, else the window's. */
  private maxLineBytes(file: string): number {
    return this.folderSettings.of(file).artifacts.maxLineBytes;
  }

  /** Paths in messages are shown relative to the run record's own workspace folder (their data keeps them absolute). */
  private showPath(file: string): (absolute: string) => string {
    const root = folderOf(file, this.folderSettings.folders)?.root;
    return (absolute) => (root === undefined ? absolute : path.relative(root, absolute) || '.');
  }

  configure(folders: readonly FolderConfig[], outside: WorkbenchSettings): void {
    const limits = (list: readonly FolderConfig[], rest: WorkbenchSettings): string =>
      JSON.stringify([rest.artifacts.maxLineBytes, ...list.map((f) => [f.root, f.settings.artifacts.maxLineBytes])]);
    const changed = limits(folders, outside) !== limits(this.folderSettings.folders, this.folderSettings.outside);
    this.folderSettings.configure(folders, outside);
    if (!changed) return;
    // Facts and validations depend on the limits.
    for (const job of this.facts.values()) job.token.isCancellationRequested = true;
    this.facts.clear();
  }

  /**
   * A transcript's facts for an open run record: known (same size and mtime), else read in the background — the
   * run record is verified again once they are known ('pending' until then). A transcript of one chunk is read
   * at once (one chunk is one slice of the event loop), so a small one's checks come in one publication.
   */
  private transcriptFacts(file: string, stat: FileStat, uri: string): TranscriptFactsAnswer {
    const job = this.factsJob(file, stat);
    if (job.answer !== undefined) return job.answer;
    job.waiting.add(uri);
    return 'pending';
  }

  /** The job of a transcript as of `stat`: the running or finished one, or a new one (an outdated one cancelled). */
  private factsJob(file: string, stat: FileStat): FactsJob {
    const known = this.facts.get(file);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs && !known.token.isCancellationRequested) return known;
    if (known) known.token.isCancellationRequested = true;
    const job: FactsJob = {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      answer: undefined,
      done: Promise.resolve(undefined),
      token: { isCancellationRequested: false },
      waiting: new Set(),
      requests: 0,
    };
    this.facts.set(file, job);
    if (stat.size <= CHUNK_BYTES) {
      try {
        job.answer = transcriptFactsFromFile(file, CHUNK_BYTES, { maxLineBytes: this.maxLineBytes(file) });
      } catch (error) {
        job.answer = error instanceof Error ? error : new Error(String(error));
      }
      job.done = Promise.resolve(job.answer);
      return job;
    }
    job.done = transcriptFactsAsync(file, { maxLineBytes: this.maxLineBytes(file), token: job.token })
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
      .then((answer) => {
        if (answer === undefined || job.token.isCancellationRequested) {
          if (this.facts.get(file) === job) this.facts.delete(file);
          return undefined;
        }
        job.answer = answer;
        if (job.waiting.size > 0) this.revalidate((doc, kind) => kind === 'runRecord' && job.waiting.has(doc.uri));
        return answer;
      });
    return job;
  }

  /** A transcript's facts for a request: the background job's (shared), awaited; undefined once cancelled. */
  private async factsFor(file: string, stat: FileStat, token: CancellationLike): Promise<TranscriptFacts | Error | undefined> {
    const job = this.factsJob(file, stat);
    job.requests++;
    try {
      const answer = await job.done;
      return token.isCancellationRequested ? undefined : answer;
    } finally {
      job.requests--;
    }
  }

  /** A transcript's compactions recorded beside it (run record, event log), as validation options. */
  private compactionsOf(kind: ArtifactKind, file: string): { compactions?: ExternalCompaction[] } {
    return kind === 'transcript' ? { compactions: this.compactionFiles.of(file) } : {};
  }

  /** The diagnostics of an open artifact; its rows are kept for hovers and the outline. */
  diagnostics(doc: TextDocument, kind: DocumentKind): Diagnostic[] | undefined {
    if (!isArtifactKind(kind)) return undefined;
    return this.validateDocument(doc, kind).map(artifactDiagnostic);
  }

  private validateDocument(doc: TextDocument, kind: ArtifactKind): ArtifactProblem[] {
    const file = uriToPath(doc.uri);
    const text = doc.getText();
    if (kind === 'runRecord') {
      this.validated.delete(doc.uri);
      return verifyRunRecord(file, text, nodeRunRecordFs, {
        maxLineBytes: this.maxLineBytes(file),
        showPath: this.showPath(file),
        facts: (transcript, stat) => this.transcriptFacts(transcript, stat, doc.uri),
      });
    }
    const previous = this.validated.get(doc.uri);
    const result = validateArtifact(kind, text, {
      fileName: file,
      registryTitle: this.registryTitle(doc.uri),
      maxLineBytes: this.maxLineBytes(file),
      lineCache: previous?.kind === kind ? previous.lineCache : undefined,
      directiveRecords: kind === 'transcript',
      ...this.compactionsOf(kind, file),
    });
    const validated: Validated = { kind, summaries: result.summaries, version: doc.version, lineCache: result.lineCache };
    if (result.directives) validated.directives = result.directives;
    this.validated.set(doc.uri, validated);
    if (kind === 'transcript') this.directiveTreeChanged(doc.uri);
    return result.problems;
  }

  /** A file validated from disk keeps its diagnostics (they describe the file); an open document's go with it. */
  keepsDiagnosticsOnClose(uri: string): boolean {
    const v = this.validated.get(uri);
    return v !== undefined && v.version === undefined;
  }

  documentClosed(uri: string): void {
    if (this.validated.get(uri)?.version !== undefined) this.validated.delete(uri);
    // A transcript read only for this run record is not read further.
    for (const [file, job] of this.facts) {
      if (job.answer === undefined && job.waiting.delete(uri) && job.waiting.size === 0 && job.requests === 0) {
        job.token.isCancellationRequested = true;
        this.facts.delete(file);
      }
    }
  }

  /**
   * Validates a file from disk, streaming (for files the editor does not sync) without blocking the event loop:
   * requests are answered while it reads, and cancellation stops it. A document the editor has open is validated
   * from its text instead: its diagnostics, hovers and outline then describe what the editor shows. A file that is
   * not a regular file (a FIFO, a folder, a device) is refused: an `unreadable_file` diagnostic, and `refused`.
   * A closed file's diagnostics describe the file on disk: they go in the disk bucket, the workspace check's, so that
   * the two never show the same problem twice.
   */
  async validateFile(file: string, kind: ArtifactKind, token: CancellationToken): Promise<ValidateArtifactFileResult> {
    const uri = pathToUri(file);
    const doc = this.documents.get(uri);
    if (doc) {
      const problems = this.validateDocument(doc, kind);
      this.store.set(uri, this.name, problems.map(artifactDiagnostic), doc.version);
      return { kind, problems: diagnosticTotal(problems), lines: doc.lineCount };
    }
    const cancelled: ValidateArtifactFileResult = { kind, problems: 0, lines: 0 };
    if (kind === 'runRecord') {
      const read = await readFileText(file, { token });
      if (!read.ok) {
        if ('cancelled' in read) return cancelled;
        const reason = refusalMessage(read);
        this.store.set(uri, DISK_BUCKET, [artifactDiagnostic(unreadableProblem(reason))]);
        return { kind, problems: 1, lines: 0, refused: reason };
      }
      const problems = await verifyRunRecordAsync(file, read.text, nodeRunRecordFs, {
        maxLineBytes: this.maxLineBytes(file),
        showPath: this.showPath(file),
        token,
        factsOf: (transcript, stat) => this.factsFor(transcript, stat, token),
      });
      if (problems === undefined || token.isCancellationRequested) return cancelled;
      this.store.set(uri, DISK_BUCKET, problems.map(artifactDiagnostic));
      return { kind, problems: problems.length, lines: read.text.split(/\r\n|\r|\n/).length };
    }
    const result = await validateArtifactFileAsync(kind, file, {
      fileName: file,
      registryTitle: this.registryTitle(uri),
      maxLineBytes: this.maxLineBytes(file),
      token,
      directiveRecords: kind === 'transcript',
      ...this.compactionsOf(kind, file),
    });
    if (result === undefined || token.isCancellationRequested) return cancelled;
    const validated: Validated = { kind, summaries: result.summaries, lineIndex: result.lineIndex };
    if (result.directives) validated.directives = result.directives;
    this.validated.set(uri, validated);
    if (kind === 'transcript') this.directiveTreeChanged(uri);
    this.store.set(uri, DISK_BUCKET, result.problems.map(artifactDiagnostic));
    // Every problem found, those the cap left out included (its note counts them).
    return {
      kind,
      problems: diagnosticTotal(result.problems),
      lines: result.summaries.length,
      ...(result.refused !== undefined ? { refused: result.refused } : {}),
    };
  }

  /**
   * A closed artifact's diagnostics from disk, streamed (the event loop answers requests in between): the same
   * domain checks as the CLI's and validateFile's, keeping nothing (a workspace holds thousands of files).
   */
  async diskDiagnostics(file: DiskFile, kind: DocumentKind): Promise<Diagnostic[] | undefined> {
    if (!isArtifactKind(kind)) return undefined;
    const { token } = file;
    if (kind === 'runRecord') {
      const doc = await file.document();
      if (doc === undefined) return undefined;
      const problems = await verifyRunRecordAsync(file.path, doc.getText(), nodeRunRecordFs, {
        maxLineBytes: this.maxLineBytes(file.path),
        showPath: this.showPath(file.path),
        token,
        factsOf: (transcript, stat) => this.factsFor(transcript, stat, token),
      });
      return problems?.map(artifactDiagnostic);
    }
    const result = await validateArtifactFileAsync(kind, file.path, {
      fileName: file.path,
      registryTitle: this.registryTitle(file.uri),
      maxLineBytes: this.maxLineBytes(file.path),
      token,
      ...this.compactionsOf(kind, file.path),
    });
    return result?.problems.map(artifactDiagnostic);
  }

  /** A file too large for the workspace check: validate it from disk, streamed (harn.validateArtifactFile). */
  codeAction(request: DocumentRequest, params: CodeActionParams): CodeAction[] {
    const tooLarge = params.context.diagnostics.filter((d) => d.source === WORKSPACE_SOURCE && d.code === TOO_LARGE_TO_SCAN);
    if (tooLarge.length === 0 || !isArtifactKind(request.kind)) return [];
    return [
      {
        title: 'Validate Run Artifact From Disk',
        kind: CodeActionKind.QuickFix,
        diagnostics: tooLarge,
        isPreferred: true,
        command: { title: 'Validate Run Artifact From Disk', command: 'harn.validateArtifactFile', arguments: [request.uri] },
      },
    ];
  }

  /** A transcript changed on disk: open run records pointing at it are verified again. */
  filesChanged(changes: { uri: string }[]): void {
    // A transcript validated from disk changed there: its tree is out of date (the client re-asks, or re-validates).
    for (const c of changes)
      if (this.validated.get(c.uri)?.version === undefined && this.validated.get(c.uri)?.kind === 'transcript') this.directiveTreeChanged(c.uri);
    if (changes.some((c) => c.uri.endsWith('.jsonl'))) this.revalidate((_doc, kind) => kind === 'runRecord');
    // A run record or event log changed: the prefix checks of the transcripts whose compactions it records follow.
    const sources = changes.filter((c) => c.uri.endsWith('.json') || c.uri.endsWith('.jsonl')).map((c) => uriToPath(c.uri));
    if (sources.length === 0) return;
    const recordsFor = (uri: string): boolean => sources.some((file) => this.compactionFiles.isSourceOf(file, uriToPath(uri)));
    this.revalidate((doc, kind) => kind === 'transcript' && recordsFor(doc.uri));
    for (const [uri, v] of this.validated)
      if (v.version === undefined && v.kind === 'transcript' && !this.documents.get(uri) && recordsFor(uri))
        void this.validateFile(uriToPath(uri), 'transcript', CancellationToken.None).catch(() => undefined);
  }

  /** One line's text: from the open document, or read back from disk through the line index. */
  private lineText(uri: string, line: number): string | undefined {
    const doc = this.documents.get(uri);
    if (doc) {
      if (line >= doc.lineCount) return undefined;
      return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$|\r$/, '');
    }
    const v = this.validated.get(uri);
    const file = uriToPath(uri);
    return v?.lineIndex ? readLineAt(file, v.lineIndex, line, this.maxLineBytes(file)) : undefined;
  }

  hover({ uri, kind }: DocumentRequest, position: Position): Hover | undefined {
    const v = this.current(uri, kind);
    if (!v) return undefined;
    const text = this.lineText(uri, position.line);
    if (text === undefined || text.trim() === '') return undefined;
    const range = { start: { line: position.line, character: 0 }, end: { line: position.line, character: text.length } };
    // On a directive tag: the directive (authority, lifetime, where committed, in force here).
    const directive = v.directives ? directiveHover(v.directives, position.line, position.character, text) : undefined;
    if (directive !== undefined) return { contents: { kind: MarkupKind.Markdown, value: directive }, range };
    let row: unknown;
    try {
      row = parseRow(text);
    } catch {
      return undefined; // the line's malformed_jsonl diagnostic says why
    }
    const partner = (v.partner ??= toolPartners(v.summaries));
    const markdown = rowHover(row, {
      line: position.line,
      kind: v.kind,
      rowNumber: rowNumberAt(v.summaries, position.line),
      partner: (rowKind, sessionId, callId) => {
        const line = partner(rowKind, sessionId, callId);
        return line === undefined ? undefined : { line };
      },
      lineLink: (line) => `${uri}#L${line + 1}`,
      registryEntry: (id) => this.registry(uri, id),
    });
    // A provider request's prefix status (and both versions of a divergent message) comes first.
    const prefix = v.directives ? prefixHover(v.directives, position.line, (line) => (line === position.line ? text : this.lineText(uri, line))) : undefined;
    const value = [prefix, markdown].filter((part): part is string => part !== undefined && part !== '').join('\n\n---\n\n');
    if (!value) return undefined;
    return { contents: { kind: MarkupKind.Markdown, value }, range };
  }

  /** The directive tree of a transcript (validated now if the open document changed); null when it is none. */
  directiveTree(uri: string, kind: DocumentKind | undefined): DirectiveTreeResult {
    if (kind !== 'transcript') return null;
    const v = this.current(uri, kind);
    if (!v?.directives) return { uri, version: v?.version ?? null, sessions: [] };
    return { uri, version: v.version ?? null, sessions: directiveTree(v.directives, (line) => this.lineText(uri, line)) };
  }

  /** Message `index` of the array sent with request `label` (call id or row:N), as readable text; null when unknown. */
  prefixMessage(uri: string, kind: DocumentKind | undefined, label: string, index: number): { text: string } | null {
    if (kind !== 'transcript') return null;
    const v = this.current(uri, kind);
    if (!v?.directives) return null;
    const text = prefixMessage(v.directives, label, index, (line) => this.lineText(uri, line));
    return text === undefined ? null : { text };
  }

  /**
   * The validation of an open document at its current version. Requests (outline, hover) can arrive before
   * the debounced check of a just-opened or just-edited document has run: validate it now then.
   */
  private current(uri: string, kind: DocumentKind): Validated | undefined {
    const doc = this.documents.get(uri);
    const v = this.validated.get(uri);
    if (doc && isArtifactKind(kind) && kind !== 'runRecord' && v?.version !== doc.version && (v === undefined || v.version !== undefined)) {
      this.validateDocument(doc, kind);
      return this.validated.get(uri);
    }
    return v;
  }

  /** The outline: rows are parsed in chunks, yielding to edits and cancellation on big documents. */
  async documentSymbol({ uri, kind, doc, token }: OpenDocumentRequest): Promise<DocumentSymbol[] | undefined> {
    const v = this.current(uri, kind);
    if (!v) return [];
    const rows: OutlineRow[] = [];
    const lines = doc.getText().split(/\r\n|\r|\n/);
    const finished = await forEachChunked(lines, token, (text, line) => {
      if (v.summaries[line]?.shape !== 'row') return;
      try {
        rows.push({ line, row: parseRow(text) });
      } catch {
        // summarised as a row, so it parses; keep going either way
      }
    });
    if (!finished) return [];
    const lengthOf = (line: number): number => lines[line]?.length ?? 0;
    const convert = (node: OutlineNode): DocumentSymbol => ({
      name: node.name,
      detail: node.detail,
      kind: OUTLINE_KINDS[node.kind],
      range: { start: { line: node.line, character: 0 }, end: { line: node.endLine, character: lengthOf(node.endLine) } },
      selectionRange: { start: { line: node.line, character: 0 }, end: { line: node.line, character: lengthOf(node.line) } },
      children: node.children.map(convert),
    });
    // At most MAX_OUTLINE_SYMBOLS symbols, then one saying how many more there are (outlineCap.ts).
    const { nodes, omitted, firstOmitted } = capOutline(artifactOutline(rows, v.kind));
    const symbols = nodes.map(convert);
    if (omitted > 0) symbols.push(omittedSymbolsNote(omitted, { line: firstOmitted ?? 0, character: 0 }));
    return symbols;
  }
}

const OUTLINE_KINDS: Record<OutlineNode['kind'], SymbolKind> = {
  session: SymbolKind.Namespace,
  iteration: SymbolKind.Number,
  call: SymbolKind.Function,
  message: SymbolKind.String,
  tool: SymbolKind.Method,
  event: SymbolKind.Event,
  terminal: SymbolKind.Key,
};

function unreadableProblem(reason: string): ArtifactProblem {
  return { line: 0, startCharacter: 0, endLine: 0, endCharacter: 0, code: 'unreadable_file', severity: 'error', message: `${reason}.` };
}

export function isArtifactKind(kind: DocumentKind | undefined): kind is ArtifactKind {
  return kind !== undefined && ARTIFACT_KINDS.has(kind);
}
