// The LSP fuzzer's engine (run by test/fuzz/lsp.ts, `npm run fuzz:lsp`, and a short bounded run in
// test/lsp/fuzz.test.ts): the real server over stdio, in a temporary copy of examples/demo (registry,
// funnel and anchors, so the gate runs), is fed hostile documents of every kind it routes (hostile.ts),
// random incremental edits, every request at random positions, file writes and deletes with
// didChangeWatchedFiles. After every action it checks:
//   - the server is alive, and answers every request within a bound (else: `hang`);
//   - no answer is an error (but the cancellations LSP allows);
//   - the log has no new error and no `… failed` line (a handler failure is an exception swallowed);
//   - every range of every answer and diagnostic lies inside its document (line < lineCount, character ≤
//     the line's UTF-16 length), start ≤ end, a symbol's selection inside its range, a completion edit on
//     the cursor's line, no overlapping edits in one document;
//   - harn/documentDigest is the client's text hash, at the client's version;
//   - published diagnostics per file are bounded, and none is an `internal_error`;
//   - hovers and completion documentation render without images, raw HTML or links to other than
//     file/http(s) targets; definitions and links stay inside the workspace;
//   - no answer or message shows a value found on Object.prototype (`[native code]`, `[object Object]`).
// Each step (one document) is recorded as a list of actions; a failure writes them to a JSON file that
// `--replay FILE` runs again on a fresh server.

import { MAX_DIAGNOSTICS_PER_FILE } from '../../server/src/diagnosticCap';
import { format } from '../../server/src/harn/format';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CancellationTokenSource,
  CodeActionRequest,
  CompletionRequest,
  CompletionResolveRequest,
  DefinitionRequest,
  Diagnostic,
  DocumentFormattingRequest,
  DocumentHighlightRequest,
  DocumentLinkRequest,
  DocumentOnTypeFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  FileChangeType,
  FoldingRangeRequest,
  HoverRequest,
  ReferencesRequest,
  SelectionRangeRequest,
  SemanticTokensDeltaRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  Position,
  PublishDiagnosticsParams,
  Range,
  ResponseError,
  TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { repoRoot } from './corpus';
import {
  Companion,
  editFragments,
  FUNNEL_PATH,
  FuzzKind,
  generateDocument,
  HOSTILE_STRINGS,
  hostileGitignore,
  HostileDocument,
  loadSources,
  Rand,
  REGISTRY_PATH,
  Sources,
} from './hostile';
import { TestClient } from './lspClient';
import { md } from './markdownRender';
import { prng } from './random';

// ---------------------------------------------------------------------------------------------------------
// Options, results

export interface LspFuzzOptions {
  seed: number;
  /** Stop starting documents after this many seconds (undefined: no time budget). */
  seconds?: number;
  /** Stop after this many documents (undefined: no count budget). */
  documents?: number;
  /** Largest generated document, in UTF-16 code units. */
  maxChars: number;
  /** A request slower than this is a `hang` (and the server is restarted). */
  requestTimeoutMs: number;
  /** Most diagnostics one publication may carry (1,000 and a too_many_errors note). */
  maxDiagnostics: number;
  /** Most document symbols one outline may have (5,000 and a note saying the rest was left out). */
  maxSymbols: number;
  /** The server's resident memory bound, in MB. */
  maxRssMb: number;
  /** Stop at the first failure. */
  stopOnFailure: boolean;
  /** Where inputs of failures are written (undefined: nowhere). */
  failuresDir: string | undefined;
  /** Files written per failure signature (the rest are counted). */
  filesPerSignature: number;
  /** Only these kinds (undefined: all). */
  kinds?: FuzzKind[];
  /** Failure kinds not counted (e.g. a known class while it is being fixed); they are tallied in `ignored`. */
  ignore?: string[];
  /** Progress and failure lines. */
  log: (line: string) => void;
}

export const DEFAULT_OPTIONS: Omit<LspFuzzOptions, 'seed' | 'log'> = {
  seconds: 60,
  maxChars: 4_000_000,
  requestTimeoutMs: 5000,
  // MAX_DIAGNOSTICS_PER_FILE, the cap's own note, and the parser's `too_many_errors` note, which the cap passes
  // through uncounted (server/src/diagnosticCap.ts): a file with 1,000+ syntax errors and other findings has 1,002.
  maxDiagnostics: MAX_DIAGNOSTICS_PER_FILE + 2,
  maxSymbols: 5001,
  maxRssMb: 1536,
  stopOnFailure: false,
  failuresDir: path.join(repoRoot, '.fuzz-failures'),
  filesPerSignature: 2,
};

export interface FuzzFailure {
  /** hang, crash, error-response, handler-failure, range, digest, diagnostics-bound, internal-error, … */
  kind: string;
  /** The class: the kind with the message's first line normalised and the first server frame. */
  signature: string;
  message: string;
  seed: number;
  step: number;
  documentKind: FuzzKind | undefined;
  generator: string | undefined;
  /** The action that revealed it (its index in the step's actions). */
  action: number;
  file: string | undefined;
}

export interface LspFuzzSummary {
  documents: number;
  edits: number;
  requests: number;
  seconds: number;
  failures: FuzzFailure[];
  /** Failures per signature, in order of first appearance. */
  classes: Map<string, { count: number; first: FuzzFailure }>;
  peakRssMb: number;
  /** Failures of the kinds `ignore` lists. */
  ignored: number;
  /** The slowest answer per request method, in ms. */
  slowest: Map<string, number>;
}

// ---------------------------------------------------------------------------------------------------------
// Actions: what a step does, recorded so that it can be replayed

type FileContent = { text: string } | { base64: string };

export type RequestMethod =
  | 'hover'
  | 'documentSymbol'
  | 'foldingRange'
  | 'documentLink'
  | 'definition'
  | 'completion'
  | 'codeAction'
  | 'references'
  | 'documentHighlight'
  | 'semanticTokens'
  | 'signatureHelp'
  | 'selectionRange'
  | 'formatting'
  | 'rangeFormatting'
  | 'onTypeFormatting';

export type Action =
  | { op: 'write'; path: string; content: FileContent }
  | { op: 'symlink'; path: string; target: string }
  | { op: 'remove'; path: string }
  | { op: 'watched'; changes: Array<{ path: string; type: FileChangeType }> }
  | { op: 'open'; path: string; languageId: string; text: string }
  | { op: 'change'; path: string; changes: TextDocumentContentChangeEvent[] }
  | { op: 'save'; path: string }
  | { op: 'close'; path: string }
  | { op: 'digest'; path: string }
  | { op: 'diagnostics'; path: string }
  | { op: 'request'; method: RequestMethod; path: string; position: Position; range?: Range; trigger?: string }
  | { op: 'validateFile'; path: string }
  /** Requests sent together, then (optionally) an edit before any answer, as an editor does while typing. */
  | { op: 'burst'; path: string; requests: Array<Extract<Action, { op: 'request' }>>; changes?: TextDocumentContentChangeEvent[] }
  | { op: 'settle' };

export interface FailureFile {
  format: 'harn-fuzz-lsp/1';
  seed: number;
  step: number;
  documentKind: FuzzKind | undefined;
  generator: string | undefined;
  root: string;
  outsideDir: string;
  failure: { kind: string; signature: string; message: string; action: number };
  actions: Action[];
}

/** Thrown when the server hung or died: the step ends, the server is restarted. */
class ServerLost extends Error {}

// ---------------------------------------------------------------------------------------------------------
// Text geometry

interface LineTable {
  lineCount: number;
  lengths: Uint32Array;
}

function lineTable(text: string): LineTable {
  const lengths: number[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 || c === 10) {
      lengths.push(i - start);
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  lengths.push(text.length - start);
  return { lineCount: lengths.length, lengths: Uint32Array.from(lengths) };
}

const tableCache = new Map<string, LineTable>();

function tableOf(text: string): LineTable {
  const cached = tableCache.get(text);
  if (cached) return cached;
  const table = lineTable(text);
  if (tableCache.size >= 24) {
    const oldest = tableCache.keys().next();
    if (!oldest.done) tableCache.delete(oldest.value);
  }
  tableCache.set(text, table);
  return table;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positionProblem(value: unknown, table: LineTable, what: string): string | undefined {
  if (!isRecord(value)) return `${what} is not a position: ${JSON.stringify(value)}`;
  const { line, character } = value;
  if (typeof line !== 'number' || typeof character !== 'number' || !Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) {
    return `${what} is not a position: ${JSON.stringify(value)}`;
  }
  if (line >= table.lineCount) return `${what} ${line}:${character} is past the last line (${table.lineCount} lines)`;
  const length = table.lengths[line] ?? 0;
  if (character > length) return `${what} ${line}:${character} is past the end of its line (${length} UTF-16 units)`;
  return undefined;
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function rangeProblem(value: unknown, table: LineTable, what: string): string | undefined {
  if (!isRecord(value)) return `${what} is not a range: ${JSON.stringify(value)}`;
  const problem = positionProblem(value.start, table, `${what}.start`) ?? positionProblem(value.end, table, `${what}.end`);
  if (problem) return problem;
  const range = value as unknown as Range;
  if (before(range.end, range.start)) return `${what} ends before it starts: ${JSON.stringify(range)}`;
  return undefined;
}

function contains(outer: Range, inner: Range): boolean {
  return !before(inner.start, outer.start) && !before(outer.end, inner.end);
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// ---------------------------------------------------------------------------------------------------------
// Markdown: what a hover may not contain (rendered as VS Code would, test/support/markdownRender)

const ALLOWED_TAGS = new Set([
  'p',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
  'strong',
  'em',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  's',
  'del',
]);

/** Tags in the rendered Markdown that a file could have put there: images, raw HTML, links not to file/http(s). */
export function unsafeMarkdown(source: string): string[] {
  if (source.length > 300_000) return [];
  const html = md.render(source);
  const bad: string[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    const tag = (m[1] ?? '').toLowerCase();
    if (tag === 'a') {
      const href = /href="([^"]*)"/.exec(m[0])?.[1] ?? '';
      if (!/^(file:|https?:)/i.test(href)) bad.push(m[0]);
    } else if (!ALLOWED_TAGS.has(tag)) bad.push(m[0].slice(0, 200));
  }
  return bad;
}

/** What a value from a prototype (a vocabulary lookup that found `constructor`, `toString`, …) prints as. */
const PROTOTYPE_LEAK = /\[native code\]|\[object Object\]/;

function markdownOf(contents: unknown): string[] {
  if (typeof contents === 'string') return [contents];
  if (Array.isArray(contents)) return contents.flatMap(markdownOf);
  if (isRecord(contents)) {
    if (contents.kind === 'markdown' && typeof contents.value === 'string') return [contents.value];
    if (typeof contents.language === 'string' && typeof contents.value === 'string') return []; // a code block
  }
  return [];
}

// ---------------------------------------------------------------------------------------------------------
// Failure classes

/** The first frame in the server's sources (with source maps), or of the bundle. */
function serverFrame(message: string): string | undefined {
  const frames = message.split('\n').filter((l) => /^\s+at /.test(l));
  const own = frames.find((l) => /server\/src\//.test(l)) ?? frames.find((l) => /dist\/server\.js/.test(l));
  const m = own ? /(server\/src\/[^:)]+:\d+|dist\/server\.js:\d+)/.exec(own) : null;
  if (m?.[1]) return m[1];
  // A stack overflow's ten frames may all be in a dependency: name that one.
  const dependency = frames.map((l) => /node_modules\/([^:)]+):\d+/.exec(l)?.[1]).find((f) => f !== undefined);
  return dependency;
}

function normalise(line: string): string {
  return line
    .replace(/file:\/\/\/\S+/g, '<uri>')
    .replace(/(\/[\w.@%+-]+){2,}/g, '<path>')
    .replace(/"(?:[^"\\]|\\.){0,200}"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.){0,200}'/g, "'…'")
    .replace(/\d+/g, 'N')
    .slice(0, 180);
}

export function signatureOf(kind: string, message: string): string {
  const first = message.split('\n').find((l) => l.trim() !== '') ?? '';
  const frame = serverFrame(message);
  return `${kind}: ${normalise(first)}${frame ? ` @ ${frame}` : ''}`;
}

// ---------------------------------------------------------------------------------------------------------
// The session: one server, one workspace, the client's model of every document and file

interface OpenModel {
  doc: TextDocument;
  /** The text of each recent version (for publications that name one). */
  texts: Map<number, string>;
  kind: FuzzKind | undefined;
  /** The client's publication mark just before the current version was sent. */
  sentAt: number;
}

export interface Counters {
  documents: number;
  edits: number;
  requests: number;
}

const DEMO = path.join(repoRoot, 'examples', 'demo');

function contentOf(content: string | Buffer): FileContent {
  return typeof content === 'string' ? { text: content } : { base64: content.toString('base64') };
}

function bytesOf(content: FileContent): Buffer {
  return 'text' in content ? Buffer.from(content.text, 'utf8') : Buffer.from(content.base64, 'base64');
}

/** A document's text as an editor opens it: bytes decoded as UTF-8, invalid sequences as U+FFFD. */
function decoded(content: string | Buffer): string {
  return typeof content === 'string' ? content : content.toString('utf8');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

export class FuzzSession {
  readonly root: string;
  readonly outsideDir: string;
  private readonly rootReal: string;
  private client: TestClient | undefined;
  private readonly models = new Map<string, OpenModel>();
  /** Recent texts of files on disk, per relative path (a late publication may describe an older one). */
  private readonly diskHistory = new Map<string, string[]>();
  /** Texts of documents closed during the step (a publication on close may still describe one of them). */
  private readonly closedTexts = new Map<string, string[]>();
  private readonly originals = new Map<string, Buffer>();
  private pubMark = 0;
  private logIndex = 0;
  private stderrIndex = 0;
  private rssTimer: NodeJS.Timeout | undefined;
  private stepPeakRss = 0;
  readonly counters: Counters = { documents: 0, edits: 0, requests: 0 };
  readonly failures: FuzzFailure[] = [];
  readonly classes = new Map<string, { count: number; first: FuzzFailure }>();
  readonly slowest = new Map<string, number>();
  peakRssMb = 0;
  /** Set when the server hung or died: nothing more is sent to it until it is restarted. */
  private lost = false;
  /** Failures of ignored kinds. */
  ignored = 0;
  private readonly filesWritten = new Map<string, number>();

  // The step being run: its identity and its actions so far.
  private step = 0;
  private stepKind: FuzzKind | undefined;
  private stepGenerator: string | undefined;
  private actions: Action[] = [];

  constructor(
    readonly options: LspFuzzOptions,
    root?: string,
  ) {
    this.root = root ?? fs.mkdtempSync(path.join(os.tmpdir(), 'harn-fuzz-lsp-'));
    fs.cpSync(DEMO, this.root, { recursive: true });
    this.rootReal = fs.realpathSync(this.root);
    this.outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-fuzz-outside-'));
    fs.writeFileSync(path.join(this.outsideDir, 'secret.harn'), 'pub fn secret() -> string {\n  return "outside the workspace"\n}\n');
    fs.writeFileSync(path.join(this.outsideDir, 'secret.jsonl'), '{"type":"system_prompt","content":"outside the workspace"}\n');
    for (const rel of [REGISTRY_PATH, FUNNEL_PATH]) this.originals.set(rel, fs.readFileSync(path.join(this.root, rel)));
  }

  // -------------------------------------------------------------------------------------------------------
  // The server

  async start(): Promise<void> {
    const client = new TestClient({ nodeArgs: ['--enable-source-maps'] });
    this.client = client;
    this.lost = false;
    this.pubMark = client.mark();
    this.logIndex = 0;
    this.stderrIndex = 0;
    this.models.clear();
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        (async () => {
          await client.initialize(this.root);
          await client.waitForNotification('window/logMessage', (p) => isRecord(p) && p.message === 'Harn language server ready', 30_000);
        })(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('no "ready" within 30 s')), 30_000);
        }),
      ]);
    } catch (error) {
      this.fail('startup', `the server did not start in the fuzz workspace: ${error instanceof Error ? error.message : String(error)}`);
      throw this.lose('startup');
    } finally {
      clearTimeout(timer);
    }
    this.record('startup', performance.now() - started);
    if (this.rssTimer) clearInterval(this.rssTimer);
    this.rssTimer = setInterval(() => {
      const rss = readRssMb(this.client?.pid);
      if (rss !== undefined) this.stepPeakRss = Math.max(this.stepPeakRss, rss);
    }, 200);
    this.rssTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.rssTimer) clearInterval(this.rssTimer);
    this.rssTimer = undefined;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (!this.alive(client)) return;
    try {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([client.shutdown(), new Promise<void>((resolve) => (timer = setTimeout(resolve, 3000)))]);
      clearTimeout(timer);
    } finally {
      client.kill();
    }
  }

  dispose(): void {
    this.client?.kill();
    if (this.rssTimer) clearInterval(this.rssTimer);
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.rmSync(this.outsideDir, { recursive: true, force: true });
  }

  /** Marks the server lost; the error to throw so that the step ends. */
  private lose(why: string): ServerLost {
    this.lost = true;
    return new ServerLost(why);
  }

  private alive(client: TestClient): boolean {
    return client.exitCode === null && client.signalCode === null;
  }

  private get server(): TestClient {
    if (!this.client || this.lost) throw new ServerLost('no server');
    return this.client;
  }

  private record(method: string, ms: number): void {
    this.slowest.set(method, Math.max(this.slowest.get(method) ?? 0, Math.round(ms)));
  }

  // -------------------------------------------------------------------------------------------------------
  // Failures

  private fail(kind: string, message: string): void {
    if (this.options.ignore?.includes(kind)) {
      this.ignored++;
      return;
    }
    const signature = signatureOf(kind, message);
    const failure: FuzzFailure = {
      kind,
      signature,
      message,
      seed: this.options.seed,
      step: this.step,
      documentKind: this.stepKind,
      generator: this.stepGenerator,
      action: this.actions.length - 1,
      file: undefined,
    };
    const cls = this.classes.get(signature);
    if (cls) cls.count++;
    else this.classes.set(signature, { count: 1, first: failure });
    const written = this.filesWritten.get(signature) ?? 0;
    if (this.options.failuresDir && written < this.options.filesPerSignature) {
      this.filesWritten.set(signature, written + 1);
      fs.mkdirSync(this.options.failuresDir, { recursive: true });
      const file = path.join(this.options.failuresDir, `seed${this.options.seed}-step${this.step}-${kind}-${this.failures.length}.json`);
      const record: FailureFile = {
        format: 'harn-fuzz-lsp/1',
        seed: this.options.seed,
        step: this.step,
        documentKind: this.stepKind,
        generator: this.stepGenerator,
        root: this.root,
        outsideDir: this.outsideDir,
        failure: { kind, signature, message, action: failure.action },
        actions: this.actions,
      };
      fs.writeFileSync(file, JSON.stringify(record));
      failure.file = file;
    }
    this.failures.push(failure);
    if ((this.classes.get(signature)?.count ?? 0) > 3) return; // counted, not printed again
    const lastAction = this.actions.at(-1);
    const what = lastAction ? describeAction(lastAction) : 'start';
    this.options.log(
      `FAIL ${kind} (seed ${this.options.seed}, step ${this.step}, ${this.stepKind ?? '-'} ${this.stepGenerator ?? ''}, after ${what}): ${message.split('\n').slice(0, 6).join('\n    ')}` +
        (failure.file ? `\n    input: ${path.relative(process.cwd(), failure.file)}` : ''),
    );
  }

  /** New log lines and stderr output since the last look: errors and `… failed` lines are handler failures. */
  private checkLog(): void {
    const client = this.server;
    const notes = client.notifications;
    for (; this.logIndex < notes.length; this.logIndex++) {
      const note = notes[this.logIndex];
      if (!note || (note.method !== 'window/logMessage' && note.method !== 'window/showMessage')) continue;
      const params = note.params;
      if (!isRecord(params) || typeof params.message !== 'string') continue;
      const type = typeof params.type === 'number' ? params.type : 0;
      if (type === 1) this.fail(note.method === 'window/showMessage' ? 'shown-error' : 'handler-failure', params.message);
      else if (/\bfailed\b/i.test(params.message)) this.fail('logged-failure', params.message);
    }
    const stderr = client.stderr;
    if (stderr.length > this.stderrIndex) {
      const text = stderr.slice(this.stderrIndex).join('');
      this.stderrIndex = stderr.length;
      if (text.trim() !== '') this.fail('stderr', text.slice(0, 4000));
    }
  }

  private checkAlive(): void {
    const client = this.server;
    if (this.alive(client)) return;
    this.fail('crash', `the server exited (code ${client.exitCode}, signal ${client.signalCode}); stderr: ${client.stderr.join('').slice(-4000)}`);
    throw this.lose('crash');
  }

  // -------------------------------------------------------------------------------------------------------
  // Texts: what a range is checked against

  private abs(rel: string): string {
    return path.join(this.root, rel);
  }

  private uri(rel: string): string {
    return URI.file(this.abs(rel)).toString();
  }

  private relOfUri(uri: string): string | undefined {
    let file: string;
    try {
      file = URI.parse(uri).fsPath;
    } catch {
      return undefined;
    }
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  private rememberDisk(rel: string, text: string): void {
    const list = this.diskHistory.get(rel) ?? [];
    list.push(text);
    if (list.length > 6) list.shift();
    this.diskHistory.set(rel, list);
  }

  /** Every text the file at `uri` had recently: open versions, then disk contents (read when unknown). */
  private candidates(uri: string): string[] {
    const rel = this.relOfUri(uri);
    if (rel === undefined) return [];
    const out: string[] = [];
    const model = this.models.get(rel);
    if (model) out.push(model.doc.getText(), ...[...model.texts.values()].reverse());
    const disk = this.diskHistory.get(rel);
    if (disk && disk.length > 0) out.push(...[...disk].reverse());
    else {
      const text = this.diskText(uri);
      if (text !== undefined) {
        out.push(text);
        if (!rel.startsWith('..')) this.rememberDisk(rel, text);
      }
    }
    out.push(...(this.closedTexts.get(rel) ?? []));
    return out;
  }

  /** The file's text on disk now (UTF-8, invalid bytes as U+FFFD), or undefined when it is no regular file. */
  private diskText(uri: string): string | undefined {
    try {
      const file = URI.parse(uri).fsPath;
      return fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  }

  /** Checks a range against the texts `uri` may have had; a problem only when it fits none of them. */
  private checkRangeIn(uri: string, range: unknown, what: string, exact?: string): string | undefined {
    const texts = exact !== undefined ? [exact] : this.candidates(uri);
    if (texts.length === 0) return undefined;
    let first: string | undefined;
    for (const text of texts) {
      const problem = rangeProblem(range, tableOf(text), what);
      if (problem === undefined) return undefined;
      first ??= problem;
    }
    return first;
  }

  private insideWorkspace(uri: string): boolean {
    let file: string;
    try {
      const parsed = URI.parse(uri);
      if (parsed.scheme !== 'file') return true;
      file = parsed.fsPath;
    } catch {
      return false;
    }
    let real = path.resolve(file);
    try {
      real = fs.realpathSync(file);
    } catch {
      // not on disk: the path itself
    }
    const rel = path.relative(this.rootReal, real);
    return !(rel.startsWith('..') || path.isAbsolute(rel));
  }

  /** New publications: bounded, no internal error, every range inside the text it was computed for. */
  private checkPublications(): void {
    const client = this.server;
    const publications: PublishDiagnosticsParams[] = client.allPublicationsSince(this.pubMark);
    this.pubMark = client.mark();
    for (const p of publications) {
      const rel = this.relOfUri(p.uri) ?? p.uri;
      if (p.diagnostics.length > this.options.maxDiagnostics) {
        this.fail('diagnostics-bound', `${p.diagnostics.length} diagnostics published for ${rel} (bound ${this.options.maxDiagnostics})`);
      }
      const model = this.models.get(rel);
      const exact = p.version !== undefined && p.version !== null ? model?.texts.get(p.version) : undefined;
      let reported = 0;
      for (const d of p.diagnostics) {
        const message = typeof d.message === 'string' ? d.message : d.message.value;
        if (d.code === 'internal_error') this.fail('internal-error', `${rel}: ${message}`);
        if (PROTOTYPE_LEAK.test(message))
          this.fail('prototype-leak', `diagnostic ${String(d.code)} shows a value of Object.prototype\n${rel}: ${JSON.stringify(message.slice(0, 300))}`);
        const what = `diagnostic ${String(d.code)} "${message.slice(0, 80)}" range`;
        const problem = this.checkRangeIn(p.uri, d.range, what, exact);
        if (!problem || reported++ > 0) continue;
        // Inside another recent text of the file: a finding of another version published under this one.
        const stale = exact !== undefined && this.checkRangeIn(p.uri, d.range, what) === undefined;
        this.fail(
          stale ? 'stale-range' : 'range',
          `${rel} (publication version ${String(p.version)}): ${problem}${stale ? ' (it fits another recent text of the file)' : ''}`,
        );
      }
    }
  }

  private checkAll(): void {
    this.checkAlive();
    this.checkLog();
    this.checkPublications();
  }

  // -------------------------------------------------------------------------------------------------------
  // Running actions

  beginStep(step: number, doc: { kind: FuzzKind; generator: string } | undefined): void {
    this.step = step;
    this.stepKind = doc?.kind;
    this.stepGenerator = doc?.generator;
    this.actions = [];
    this.stepPeakRss = 0;
  }

  endStep(): void {
    this.peakRssMb = Math.max(this.peakRssMb, this.stepPeakRss);
    if (this.stepPeakRss > this.options.maxRssMb)
      this.fail('memory', `the server's resident memory reached ${Math.round(this.stepPeakRss)} MB (bound ${this.options.maxRssMb} MB)`);
    this.client?.forgetDiagnostics();
    this.closedTexts.clear();
    for (const rel of [...this.diskHistory.keys()]) if (rel.startsWith('runs/fz') || rel.includes('/fz')) this.diskHistory.delete(rel);
  }

  /** Whether a server is running (it is not after a hang or a crash, until restarted). */
  get running(): boolean {
    return this.client !== undefined && !this.lost && this.alive(this.client);
  }

  /** The latest diagnostics published for `uri`. */
  publishedFor(uri: string): Diagnostic[] {
    return this.client?.latestDiagnostics(uri)?.diagnostics ?? [];
  }

  /** Removes the files a step wrote and puts back the registry or funnel it overwrote (on disk only). */
  restoreDiskOnly(written: readonly string[], restored: string | undefined): void {
    for (const rel of written) fs.rmSync(this.abs(rel), { recursive: true, force: true });
    for (const rel of new Set(written.map((p) => p.split('/').slice(0, 2).join('/')))) {
      if (rel.startsWith('runs/fz') || rel.startsWith('pipelines/fz')) fs.rmSync(this.abs(rel), { recursive: true, force: true });
    }
    fs.rmSync(this.abs('crates/harn-stdlib/src/stdlib/fz'), { recursive: true, force: true });
    if (restored) {
      const original = this.originals.get(restored);
      if (original) {
        fs.writeFileSync(this.abs(restored), original);
        this.rememberDisk(restored, original.toString('utf8'));
      }
    }
  }

  /** After a hang or a crash: the disk put back as it was, and a fresh server. */
  async restart(): Promise<void> {
    this.client?.kill();
    this.client = undefined;
    for (const [rel, original] of this.originals) fs.writeFileSync(this.abs(rel), original);
    await this.start();
  }

  get stepActions(): readonly Action[] {
    return this.actions;
  }

  model(rel: string): OpenModel | undefined {
    return this.models.get(rel);
  }

  async exec(action: Action): Promise<unknown> {
    this.actions.push(action);
    const result = await this.run(action);
    this.checkAll();
    return result;
  }

  private async run(action: Action): Promise<unknown> {
    const client = this.server;
    switch (action.op) {
      case 'write': {
        const file = this.abs(action.path);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const bytes = bytesOf(action.content);
        fs.rmSync(file, { force: true });
        fs.writeFileSync(file, bytes);
        this.rememberDisk(action.path, bytes.toString('utf8'));
        return undefined;
      }
      case 'symlink': {
        const file = this.abs(action.path);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.rmSync(file, { force: true });
        fs.symlinkSync(action.target, file);
        return undefined;
      }
      case 'remove':
        fs.rmSync(this.abs(action.path), { recursive: true, force: true });
        return undefined;
      case 'watched':
        await client.filesChanged(action.changes.map((c) => ({ uri: this.uri(c.path), type: c.type })));
        return undefined;
      case 'open': {
        const sentAt = client.mark();
        const uri = await client.open(this.abs(action.path), action.text, action.languageId);
        const doc = TextDocument.create(uri, action.languageId, 1, action.text);
        this.models.set(action.path, { doc, texts: new Map([[1, action.text]]), kind: this.stepKind, sentAt });
        return undefined;
      }
      case 'change': {
        const model = this.models.get(action.path);
        if (!model) return undefined;
        model.sentAt = client.mark();
        const version = await client.change(model.doc.uri, action.changes);
        model.doc = TextDocument.update(model.doc, action.changes, version);
        model.texts.set(version, model.doc.getText());
        // Every version is kept (a publication may carry findings of one long gone) within 32M characters.
        let total = 0;
        for (const t of model.texts.values()) total += t.length;
        for (const v of [...model.texts.keys()]) {
          if (total <= 32_000_000 || v === version) break;
          total -= model.texts.get(v)?.length ?? 0;
          model.texts.delete(v);
        }
        this.counters.edits += action.changes.length;
        return undefined;
      }
      case 'save': {
        const model = this.models.get(action.path);
        if (!model) return undefined;
        await client.save(model.doc.uri);
        return undefined;
      }
      case 'close': {
        const model = this.models.get(action.path);
        if (!model) return undefined;
        await client.close(model.doc.uri);
        this.models.delete(action.path);
        this.closedTexts.set(action.path, [...model.texts.values()].reverse());
        const digest = await this.request('harn/documentDigest', { uri: model.doc.uri });
        if (digest !== null && digest !== undefined) this.fail('digest', `${action.path}: the server still has a text after close: ${JSON.stringify(digest)}`);
        return undefined;
      }
      case 'digest': {
        const model = this.models.get(action.path);
        const uri = model?.doc.uri ?? this.uri(action.path);
        const digest = await this.request('harn/documentDigest', { uri });
        if (!model) return digest;
        const expected = { version: model.doc.version, sha256: sha256Hex(model.doc.getText()) };
        if (!isRecord(digest) || digest.version !== expected.version || digest.sha256 !== expected.sha256) {
          this.fail('digest', `${action.path}: harn/documentDigest ${JSON.stringify(digest)}, the client has ${JSON.stringify(expected)}`);
        }
        return digest;
      }
      case 'diagnostics': {
        const model = this.models.get(action.path);
        if (!model) return undefined;
        const version = model.doc.version;
        // Published for this version since it was sent (the gate's own publications carry no version).
        const published = (): boolean => client.publicationsSince(model.doc.uri, model.sentAt).some((p) => p.version === version);
        const ok = await client.waitUntil(() => published() || !this.alive(client), this.options.requestTimeoutMs);
        this.checkAlive();
        if (!ok) {
          this.fail('no-publication', `${action.path}: no diagnostics for version ${version} within ${this.options.requestTimeoutMs} ms`);
          throw this.lose('no publication');
        }
        return undefined;
      }
      case 'request':
        return this.documentRequest(action);
      case 'validateFile': {
        const result = await this.request('harn/validateArtifactFile', { uri: this.uri(action.path) });
        if (
          !isRecord(result) ||
          !(result.kind === undefined || typeof result.kind === 'string') ||
          typeof result.problems !== 'number' ||
          typeof result.lines !== 'number'
        ) {
          this.fail('bad-answer', `harn/validateArtifactFile ${action.path}: ${JSON.stringify(result)}`);
        }
        return result;
      }
      case 'burst': {
        // Each request reads the text it is checked against when it is sent, before the edit.
        const pending = action.requests.map((request) => this.documentRequest(request));
        if (action.changes) await this.run({ op: 'change', path: action.path, changes: action.changes });
        return Promise.all(pending);
      }
      case 'settle':
        await sleep(150);
        await this.request('harn/documentDigest', { uri: this.uri('settle.harn') });
        return undefined;
    }
  }

  /** One request with the time bound; undefined when it failed (the failure is recorded). */
  private async request(method: string, params: object): Promise<unknown> {
    const client = this.server;
    this.counters.requests++;
    const source = new CancellationTokenSource();
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    let poll: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      client.connection.sendRequest<unknown>(method, params, source.token).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      new Promise<{ timeout: true }>((resolve) => {
        timer = setTimeout(() => resolve({ timeout: true }), this.options.requestTimeoutMs);
      }),
      new Promise<{ died: true }>((resolve) => {
        poll = setInterval(() => {
          if (!this.alive(client)) resolve({ died: true });
        }, 50);
      }),
    ]);
    clearTimeout(timer);
    clearInterval(poll);
    const ms = performance.now() - started;
    this.record(method, ms);
    if ('timeout' in outcome) {
      source.cancel();
      this.fail('hang', `${method} did not answer within ${this.options.requestTimeoutMs} ms (params ${JSON.stringify(params).slice(0, 300)})`);
      throw this.lose('hang');
    }
    if ('died' in outcome) {
      this.checkAlive();
      throw this.lose('died');
    }
    if ('error' in outcome) {
      const error = outcome.error;
      if (error instanceof ResponseError && [-32800, -32801, -32802].includes(error.code)) return undefined;
      this.fail('error-response', `${method} answered an error: ${error instanceof ResponseError ? `${error.code} ${error.message}` : String(error)}`);
      return undefined;
    }
    return outcome.value;
  }

  /** A harn.toml anywhere in the fuzzed workspace (its [fmt] options would change what formatting gives). */
  private hasManifest(): boolean {
    const walk = (dir: string, depth: number): boolean => {
      if (depth > 12) return false;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return false;
      }
      return entries.some((e) => (e.name === 'harn.toml' ? true : e.isDirectory() && e.name !== '.git' && walk(path.join(dir, e.name), depth + 1)));
    };
    return walk(this.root, 0);
  }

  private async documentRequest(action: Extract<Action, { op: 'request' }>): Promise<unknown> {
    const model = this.models.get(action.path);
    const uri = model?.doc.uri ?? this.uri(action.path);
    const textDocument = { uri };
    // A file the editor does not sync is answered from the disk.
    const text = model ? model.doc.getText() : this.diskText(uri);
    const sentVersion = model?.doc.version;
    const check = (range: unknown, what: string): void => {
      const problem = text === undefined ? undefined : rangeProblem(range, tableOf(text), what);
      if (problem) this.fail('range', `${action.method} at ${action.position.line}:${action.position.character} of ${action.path}: ${problem}`);
    };
    const leak = (value: unknown, what: string): void => {
      if (typeof value === 'string' && PROTOTYPE_LEAK.test(value)) {
        this.fail(
          'prototype-leak',
          `${what} of a ${this.stepKind ?? 'file'} shows a value of Object.prototype\n${action.method} at ${action.position.line}:${action.position.character} of ${action.path}: ${JSON.stringify(value.slice(0, 400))}`,
        );
      }
    };
    const markdownCheck = (source: string, what: string): void => {
      leak(source, what);
      const bad = unsafeMarkdown(source);
      if (bad.length > 0)
        this.fail(
          'markdown',
          `${what} renders ${bad.slice(0, 3).join(' ')}\nat ${action.position.line}:${action.position.character} of ${action.path}; markdown: ${JSON.stringify(source.slice(0, 600))}`,
        );
    };
    const target = (targetUri: unknown, what: string): void => {
      if (typeof targetUri !== 'string') {
        this.fail('bad-answer', `${action.method}: ${what} is not a URI: ${JSON.stringify(targetUri)}`);
        return;
      }
      if (!this.insideWorkspace(targetUri))
        this.fail(
          'outside-root',
          `${action.method} at ${action.position.line}:${action.position.character} of ${action.path}: ${what} ${targetUri} leaves the workspace`,
        );
    };

    switch (action.method) {
      case 'hover': {
        const hover = await this.request(HoverRequest.method, { textDocument, position: action.position });
        if (hover === null || hover === undefined) return hover;
        if (!isRecord(hover)) {
          this.fail('bad-answer', `hover: ${JSON.stringify(hover).slice(0, 300)}`);
          return hover;
        }
        if (hover.range !== undefined) check(hover.range, 'hover range');
        for (const md of markdownOf(hover.contents)) markdownCheck(md, 'hover');
        return hover;
      }
      case 'documentSymbol': {
        const symbols = await this.request(DocumentSymbolRequest.method, { textDocument });
        if (!Array.isArray(symbols)) return symbols;
        let count = 0;
        let reported = 0;
        const walk = (list: unknown[], depth: number): void => {
          for (const s of list) {
            count++;
            if (!isRecord(s)) continue;
            if (reported > 2) return;
            leak(s.name, 'symbol name');
            leak(s.detail, 'symbol detail');
            if (typeof s.name !== 'string' || s.name === '') {
              this.fail(
                'symbol',
                `documentSymbol of ${action.path}: a symbol without a name (VS Code rejects the outline): ${JSON.stringify(s).slice(0, 200)}`,
              );
              reported++;
            }
            if ('location' in s && isRecord(s.location)) {
              check(s.location.range, 'symbol location');
              continue;
            }
            const before = this.failures.length;
            check(s.range, `symbol "${String(s.name).slice(0, 40)}" range`);
            check(s.selectionRange, `symbol "${String(s.name).slice(0, 40)}" selectionRange`);
            if (
              this.failures.length === before &&
              isRecord(s.range) &&
              isRecord(s.selectionRange) &&
              !contains(s.range as unknown as Range, s.selectionRange as unknown as Range)
            ) {
              this.fail(
                'symbol',
                `documentSymbol of ${action.path}: "${String(s.name).slice(0, 40)}" has its selectionRange outside its range (VS Code rejects the outline)`,
              );
            }
            if (this.failures.length > before) reported++;
            if (Array.isArray(s.children) && depth < 10_000) walk(s.children, depth + 1);
          }
        };
        walk(symbols, 0);
        if (count > this.options.maxSymbols)
          this.fail('symbols-bound', `documentSymbol of ${action.path}: ${count} symbols (bound ${this.options.maxSymbols})`);
        return symbols;
      }
      case 'foldingRange': {
        const ranges = await this.request(FoldingRangeRequest.method, { textDocument });
        if (!Array.isArray(ranges) || text === undefined) return ranges;
        const table = tableOf(text);
        for (const f of ranges.slice(0, 20_000)) {
          if (!isRecord(f) || typeof f.startLine !== 'number' || typeof f.endLine !== 'number') {
            this.fail('bad-answer', `foldingRange: ${JSON.stringify(f)}`);
            break;
          }
          const problem =
            f.startLine < 0 || f.endLine < f.startLine || f.endLine >= table.lineCount
              ? `folding range ${f.startLine}-${f.endLine} with ${table.lineCount} lines`
              : (typeof f.startCharacter === 'number' && f.startCharacter > (table.lengths[f.startLine] ?? 0)) ||
                  (typeof f.endCharacter === 'number' && f.endCharacter > (table.lengths[f.endLine] ?? 0))
                ? `folding range ${JSON.stringify(f)} past the end of its line`
                : undefined;
          if (problem) {
            this.fail('range', `foldingRange of ${action.path}: ${problem}`);
            break;
          }
        }
        return ranges;
      }
      case 'documentLink': {
        const links = await this.request(DocumentLinkRequest.method, { textDocument });
        if (!Array.isArray(links)) return links;
        for (const l of links.slice(0, 2000)) {
          if (!isRecord(l)) continue;
          check(l.range, 'link range');
          if (l.target !== undefined) target(l.target, 'link target');
        }
        return links;
      }
      case 'definition': {
        const result = await this.request(DefinitionRequest.method, { textDocument, position: action.position });
        const list = Array.isArray(result) ? result : result === null || result === undefined ? [] : [result];
        for (const d of list.slice(0, 200)) {
          if (!isRecord(d)) continue;
          if ('targetUri' in d) {
            if (d.originSelectionRange !== undefined) check(d.originSelectionRange, 'definition originSelectionRange');
            target(d.targetUri, 'definition target');
            if (typeof d.targetUri === 'string') {
              const p1 = this.checkRangeIn(d.targetUri, d.targetRange, 'targetRange');
              const p2 = this.checkRangeIn(d.targetUri, d.targetSelectionRange, 'targetSelectionRange');
              if (p1 ?? p2)
                this.fail('range', `definition at ${action.position.line}:${action.position.character} of ${action.path} → ${d.targetUri}: ${p1 ?? p2}`);
            }
          } else {
            target(d.uri, 'definition location');
            if (typeof d.uri === 'string') {
              const p = this.checkRangeIn(d.uri, d.range, 'location range');
              if (p) this.fail('range', `definition at ${action.position.line}:${action.position.character} of ${action.path} → ${d.uri}: ${p}`);
            }
          }
        }
        return result;
      }
      case 'completion': {
        const context = action.trigger === undefined ? { triggerKind: 1 } : { triggerKind: 2, triggerCharacter: action.trigger };
        const result = await this.request(CompletionRequest.method, { textDocument, position: action.position, context });
        const items = Array.isArray(result) ? result : isRecord(result) && Array.isArray(result.items) ? result.items : [];
        let reported = 0;
        for (const item of items.slice(0, 5000)) {
          if (reported > 2) break;
          if (!isRecord(item)) continue;
          const before = this.failures.length;
          if (typeof item.label !== 'string') this.fail('bad-answer', `completion item without a label: ${JSON.stringify(item).slice(0, 200)}`);
          const edit = item.textEdit;
          if (isRecord(edit)) {
            const ranges = 'range' in edit ? [edit.range] : [edit.insert, edit.replace];
            for (const r of ranges) {
              check(r, `completion "${String(item.label).slice(0, 40)}" textEdit range`);
              if (isRecord(r) && isRecord(r.start) && isRecord(r.end)) {
                const range = r as unknown as Range;
                if (
                  range.start.line !== action.position.line ||
                  range.end.line !== action.position.line ||
                  before_(action.position, range.start) ||
                  before_(range.end, action.position)
                ) {
                  this.fail(
                    'completion-range',
                    `completion "${String(item.label).slice(0, 40)}" at ${action.position.line}:${action.position.character} of ${action.path}: its edit range ${JSON.stringify(range)} is not on the cursor's line around the cursor (VS Code drops it)`,
                  );
                }
              }
            }
          }
          if (Array.isArray(item.additionalTextEdits))
            for (const e of item.additionalTextEdits) if (isRecord(e)) check(e.range, 'completion additionalTextEdit range');
          leak(item.label, 'completion label');
          leak(item.detail, 'completion detail');
          for (const md of markdownOf(item.documentation)) markdownCheck(md, `completion "${String(item.label).slice(0, 40)}" documentation`);
          if (this.failures.length > before) reported++;
        }
        // The details come in resolve: those of a few items, checked as the list's were.
        const withData = (items as unknown[]).filter((i): i is Record<string, unknown> => isRecord(i) && i.data !== undefined);
        for (const item of withData.slice(0, 8)) {
          const resolved: unknown = await this.request(CompletionResolveRequest.method, item);
          if (!isRecord(resolved) || resolved.label !== item.label) {
            this.fail('bad-answer', `completionItem/resolve: ${JSON.stringify(resolved).slice(0, 300)}`);
            continue;
          }
          leak(resolved.detail, 'resolved completion detail');
          for (const md of markdownOf(resolved.documentation)) markdownCheck(md, `resolved completion "${String(resolved.label).slice(0, 40)}" documentation`);
        }
        return result;
      }
      case 'references': {
        const result = await this.request(ReferencesRequest.method, { textDocument, position: action.position, context: { includeDeclaration: true } });
        for (const location of (Array.isArray(result) ? result : []).slice(0, 200)) {
          if (!isRecord(location)) continue;
          target(location.uri, 'reference');
          const p = typeof location.uri === 'string' ? this.checkRangeIn(location.uri, location.range, 'reference range') : undefined;
          if (p) this.fail('range', `references at ${action.position.line}:${action.position.character} of ${action.path}: ${String(location.uri)}: ${p}`);
        }
        return result;
      }
      case 'documentHighlight': {
        const result = await this.request(DocumentHighlightRequest.method, { textDocument, position: action.position });
        for (const highlight of (Array.isArray(result) ? result : []).slice(0, 200)) if (isRecord(highlight)) check(highlight.range, 'highlight range');
        return result;
      }
      case 'codeAction': {
        const range = action.range ?? { start: action.position, end: action.position };
        const published = this.server.latestDiagnostics(uri)?.diagnostics ?? [];
        const diagnostics = published.filter((d: Diagnostic) => !before_(d.range.end, range.start) && !before_(range.end, d.range.start)).slice(0, 50);
        const result = await this.request(CodeActionRequest.method, { textDocument, range, context: { diagnostics } });
        if (!Array.isArray(result)) return result;
        for (const a of result.slice(0, 200)) {
          if (isRecord(a)) leak(a.title, 'code action title');
          if (!isRecord(a) || !isRecord(a.edit)) continue;
          this.checkWorkspaceEdit(a.edit, `code action "${String(a.title).slice(0, 60)}" on ${action.path}`, { uri, text, version: sentVersion });
        }
        return result;
      }
      case 'semanticTokens': {
        // Full, then a delta against it: both decode to tokens inside their lines.
        const full = await this.request(SemanticTokensRequest.method, { textDocument });
        if (!isRecord(full) || !Array.isArray(full.data) || text === undefined) return full;
        this.checkTokens(full.data, text, action.path);
        if (typeof full.resultId !== 'string') return full;
        const delta = await this.request(SemanticTokensDeltaRequest.method, { textDocument, previousResultId: full.resultId });
        // Between the two an edit may have come: only a delta of the same text is checked.
        if (!isRecord(delta) || model?.doc.getText() !== text) return delta;
        let data = full.data as unknown[];
        if (Array.isArray(delta.edits)) {
          data = [...data];
          for (const e of [...(delta.edits as unknown[])].filter(isRecord).sort((a, b) => Number(b.start) - Number(a.start))) {
            data.splice(Number(e.start), Number(e.deleteCount), ...(Array.isArray(e.data) ? (e.data as unknown[]) : []));
          }
        } else if (Array.isArray(delta.data)) data = delta.data as unknown[];
        if (JSON.stringify(data) !== JSON.stringify(full.data))
          this.fail('bad-answer', `semantic tokens delta of ${action.path}: the same text gave other tokens`);
        return delta;
      }
      case 'signatureHelp': {
        const help = await this.request(SignatureHelpRequest.method, { textDocument, position: action.position });
        if (help === null || help === undefined) return help;
        if (!isRecord(help) || !Array.isArray(help.signatures)) {
          this.fail('bad-answer', `signatureHelp: ${JSON.stringify(help).slice(0, 300)}`);
          return help;
        }
        for (const sig of help.signatures.slice(0, 50)) {
          if (!isRecord(sig) || typeof sig.label !== 'string') continue;
          leak(sig.label, 'signature label');
          for (const md of markdownOf(sig.documentation)) markdownCheck(md, 'signature documentation');
          for (const p of Array.isArray(sig.parameters) ? sig.parameters : []) {
            const label: unknown = isRecord(p) ? p.label : undefined;
            if (Array.isArray(label) && !(Number(label[0]) >= 0 && Number(label[0]) <= Number(label[1]) && Number(label[1]) <= sig.label.length)) {
              this.fail(
                'bad-answer',
                `signatureHelp at ${action.position.line}:${action.position.character} of ${action.path}: parameter ${JSON.stringify(label)} outside ${JSON.stringify(sig.label)}`,
              );
            }
          }
        }
        return help;
      }
      case 'formatting':
      case 'rangeFormatting':
      case 'onTypeFormatting': {
        const options = { tabSize: 4, insertSpaces: false };
        const result =
          action.method === 'formatting'
            ? await this.request(DocumentFormattingRequest.method, { textDocument, options })
            : action.method === 'rangeFormatting'
              ? await this.request(DocumentRangeFormattingRequest.method, {
                  textDocument,
                  options,
                  range: action.range ?? { start: action.position, end: action.position },
                })
              : await this.request(DocumentOnTypeFormattingRequest.method, { textDocument, options, position: action.position, ch: '}' });
        if (result === null || result === undefined) return result;
        if (!Array.isArray(result)) {
          this.fail('bad-answer', `${action.method} of ${action.path}: not a list of edits: ${JSON.stringify(result).slice(0, 200)}`);
          return result;
        }
        const edits = result.filter(isRecord);
        edits.forEach((e, i) => check(e.range, `edit ${i}`));
        for (let i = 1; i < edits.length; i++) {
          const a = (edits[i - 1] as { range: Range }).range;
          const b = (edits[i] as { range: Range }).range;
          if (before(b.start, a.end)) this.fail('bad-answer', `${action.method} of ${action.path}: edits ${i - 1} and ${i} overlap or are out of order`);
        }
        // Formatting the whole document: the edits give the formatter's text (its line ends kept, a BOM kept),
        // when the document did not change meanwhile and no harn.toml can change the options.
        if (
          action.method === 'formatting' &&
          text !== undefined &&
          model?.doc.version === sentVersion &&
          action.path.endsWith('.harn') &&
          !this.hasManifest()
        ) {
          const expected = format(text);
          const applied = TextDocument.applyEdits(TextDocument.create(uri, 'harn', 0, text), edits as unknown as { range: Range; newText: string }[]);
          const normal = (t: string): string => (t.charCodeAt(0) === 0xfeff ? t.slice(1) : t).replace(/\r\n?/g, '\n');
          if ('text' in expected && normal(applied) !== expected.text)
            this.fail('bad-answer', `formatting of ${action.path}: the edits do not give the formatter's text`);
        }
        return result;
      }
      case 'selectionRange': {
        const result = await this.request(SelectionRangeRequest.method, { textDocument, positions: [action.position] });
        if (!Array.isArray(result)) return result;
        for (const first of result.slice(0, 10)) {
          let depth = 0;
          for (let r: unknown = first; isRecord(r) && depth < 10_000; r = r.parent, depth++) {
            check(r.range, 'selection range');
            if (isRecord(r.parent) && !contains(r.parent.range as Range, r.range as Range)) {
              this.fail(
                'range',
                `selectionRange at ${action.position.line}:${action.position.character} of ${action.path}: a parent does not contain its child`,
              );
              break;
            }
          }
        }
        return result;
      }
    }
  }

  /** Decodes the protocol's semantic tokens: each inside a line of `text`, in order. */
  private checkTokens(data: unknown[], text: string, rel: string): void {
    const table = tableOf(text);
    let line = 0;
    let character = 0;
    if (data.length % 5 !== 0) this.fail('bad-answer', `semantic tokens of ${rel}: ${data.length} integers, not a multiple of 5`);
    for (let i = 0; i + 4 < data.length; i += 5) {
      const [dl, dc, length] = [Number(data[i]), Number(data[i + 1]), Number(data[i + 2])];
      character = dl === 0 ? character + dc : dc;
      line += dl;
      if (!(dl >= 0 && dc >= 0 && length > 0) || line >= table.lineCount || character + length > (table.lengths[line] ?? 0)) {
        this.fail('range', `semantic token ${i / 5} of ${rel} at ${line}:${character} (length ${length}) is not inside its line`);
        return;
      }
    }
  }

  /** `asked`: the document the action was asked for, as it was when asked (an edit may have followed). */
  private checkWorkspaceEdit(edit: Record<string, unknown>, what: string, asked: { uri: string; text: string | undefined; version: number | undefined }): void {
    const perDocument: Array<{ uri: string; edits: unknown[]; version: unknown }> = [];
    if (isRecord(edit.changes))
      for (const [uri, edits] of Object.entries(edit.changes)) if (Array.isArray(edits)) perDocument.push({ uri, edits, version: undefined });
    if (Array.isArray(edit.documentChanges)) {
      for (const c of edit.documentChanges) {
        if (isRecord(c) && isRecord(c.textDocument) && typeof c.textDocument.uri === 'string' && Array.isArray(c.edits)) {
          perDocument.push({ uri: c.textDocument.uri, edits: c.edits, version: c.textDocument.version });
        }
      }
    }
    for (const { uri, edits, version } of perDocument) {
      if (!this.insideWorkspace(uri)) this.fail('outside-root', `${what}: edits ${uri}, outside the workspace`);
      const rel = this.relOfUri(uri);
      const model = rel === undefined ? undefined : this.models.get(rel);
      const self = uri === asked.uri;
      const expectedVersion = self ? asked.version : model?.doc.version;
      if (typeof version === 'number' && expectedVersion !== undefined && version !== expectedVersion) {
        this.fail('stale-edit', `${what}: an edit of ${rel} for version ${version}, the document was at ${expectedVersion}`);
      }
      const ranges: Range[] = [];
      for (const e of edits) {
        if (!isRecord(e)) continue;
        const problem = this.checkRangeIn(uri, e.range, 'edit range', self ? asked.text : model?.doc.getText());
        if (problem) {
          this.fail('range', `${what}: ${rel}: ${problem}`);
          return;
        }
        ranges.push(e.range as Range);
      }
      ranges.sort((a, b) => (before_(a.start, b.start) ? -1 : before_(b.start, a.start) ? 1 : 0));
      for (let i = 1; i < ranges.length; i++) {
        const a = ranges[i - 1];
        const b = ranges[i];
        if (a && b && before_(b.start, a.end)) {
          this.fail('overlapping-edits', `${what}: edits of ${rel} overlap: ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
          break;
        }
      }
    }
  }
}

function before_(a: Position, b: Position): boolean {
  return before(a, b);
}

export function describeAction(action: Action): string {
  switch (action.op) {
    case 'write':
      return `write ${action.path} (${'text' in action.content ? action.content.text.length : Math.floor((action.content.base64.length * 3) / 4)} chars)`;
    case 'open':
      return `open ${action.path} (${action.text.length} chars)`;
    case 'change':
      return `change ${action.path} (${action.changes.length} edit(s))`;
    case 'request':
      return `${action.method} at ${action.position.line}:${action.position.character} of ${action.path}`;
    case 'watched':
      return `didChangeWatchedFiles ${action.changes.map((c) => `${c.path}:${c.type}`).join(', ')}`;
    case 'symlink':
      return `symlink ${action.path} → ${action.target}`;
    case 'settle':
      return 'settle';
    case 'burst':
      return `${action.requests.map((q) => q.method).join(', ')} at once on ${action.path}${action.changes ? ', then an edit' : ''}`;
    default:
      return `${action.op} ${action.path}`;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Random steps

const REQUESTS: readonly RequestMethod[] = [
  'hover',
  'hover',
  'hover',
  'documentSymbol',
  'foldingRange',
  'documentLink',
  'definition',
  'definition',
  'completion',
  'completion',
  'codeAction',
  'codeAction',
  'references',
  'documentHighlight',
  'semanticTokens',
  'signatureHelp',
  'selectionRange',
  'formatting',
  'rangeFormatting',
  'onTypeFormatting',
];

function randomPosition(r: Rand, text: string): Position {
  const table = tableOf(text);
  const roll = r.next();
  if (roll < 0.04) return { line: table.lineCount + r.int(5), character: r.int(100) };
  if (roll < 0.08) {
    const line = r.int(table.lineCount);
    return { line, character: (table.lengths[line] ?? 0) + 1 + r.int(50) };
  }
  if (roll < 0.12) {
    const line = table.lineCount - 1;
    return { line, character: table.lengths[line] ?? 0 };
  }
  // Mostly where there is text: a random non-empty line when one is near.
  let line = r.int(table.lineCount);
  for (let k = 0; k < 4 && (table.lengths[line] ?? 0) === 0; k++) line = r.int(table.lineCount);
  return { line, character: r.int((table.lengths[line] ?? 0) + 1) };
}

function randomRequest(r: Rand, rel: string, text: string, published: readonly Diagnostic[]): Action {
  const method = r.pick(REQUESTS);
  const position = randomPosition(r, text);
  if (method === 'codeAction') {
    const d = published.length > 0 && r.chance(0.8) ? r.pick(published) : undefined;
    const range = d ? d.range : { start: position, end: r.chance(0.5) ? position : randomPosition(r, text) };
    const ordered = before(range.end, range.start) ? { start: range.end, end: range.start } : range;
    return { op: 'request', method, path: rel, position: ordered.start, range: ordered };
  }
  if (method === 'completion' && r.chance(0.3)) return { op: 'request', method, path: rel, position, trigger: r.pick(['.', '"']) };
  if (method === 'rangeFormatting') {
    const end = randomPosition(r, text);
    return { op: 'request', method, path: rel, position, range: before(end, position) ? { start: end, end: position } : { start: position, end } };
  }
  return { op: 'request', method, path: rel, position };
}

function randomChange(r: Rand, doc: TextDocument, kind: FuzzKind, maxChars: number): TextDocumentContentChangeEvent {
  const text = doc.getText();
  const roll = r.next();
  if (roll < 0.04) {
    // The whole text replaced (VS Code sends this for some edits and reverts).
    const cut = r.int(text.length + 1);
    return { text: text.slice(0, cut) + r.pick(editFragments(kind)) + text.slice(cut) };
  }
  if (roll < 0.07) {
    // A reversed range, or one past the end of its lines: the document model swaps and clamps it. (Lines past the
    // last one are not sent: vscode-languageserver-textdocument then corrupts its line offsets, on both sides.)
    const a = { line: r.int(doc.lineCount), character: r.int(200) };
    const b = { line: r.int(doc.lineCount), character: r.int(200) };
    return { range: { start: a, end: b }, text: r.pick(editFragments(kind)) };
  }
  const start = r.int(text.length + 1);
  const span = r.chance(0.6) ? 0 : r.chance(0.8) ? r.int(8) : r.int(Math.min(text.length - start, 5000) + 1);
  const insertRoll = r.next();
  let insert: string;
  if (insertRoll < 0.45) insert = r.pick(editFragments(kind));
  else if (insertRoll < 0.6) insert = '';
  else if (insertRoll < 0.7) insert = r.pick(['\n', '\r\n', '\r', '\n\n', ' ', '\t']);
  else if (insertRoll < 0.8) insert = r.pick(HOSTILE_STRINGS);
  else if (insertRoll < 0.9) {
    const from = r.int(text.length + 1);
    insert = text.slice(from, from + r.scale(20_000));
  } else if (insertRoll < 0.95) insert = r.pick(editFragments(kind)).repeat(r.scale(Math.max(1, Math.floor(Math.min(maxChars, 200_000) / 8))));
  else insert = String.fromCharCode(r.int(0x10000));
  if (text.length + insert.length > maxChars) insert = '';
  return { range: { start: doc.positionAt(start), end: doc.positionAt(start + span) }, text: insert };
}

const ARTIFACT_KINDS: ReadonlySet<FuzzKind> = new Set(['transcript', 'eventLog', 'jsonl', 'runRecord']);

/** Runs one random step: a document, its companions, edits, requests, file events, cleanup. */
export async function randomStep(session: FuzzSession, r: Rand, src: Sources, step: number): Promise<void> {
  const options = session.options;
  const kind = options.kinds ? r.pick(options.kinds) : undefined;
  const doc: HostileDocument = generateDocument(r, src, step, session.root, { maxChars: options.maxChars, outsideDir: session.outsideDir }, kind);
  session.beginStep(step, doc);
  session.counters.documents++;
  const fixed = doc.path === REGISTRY_PATH || doc.path === FUNNEL_PATH;
  const mode = r.pick(fixed ? (['open', 'disk', 'both'] as const) : (['open', 'open', 'both', 'both', 'disk'] as const));
  const written: string[] = [];
  const created: Array<{ path: string; type: FileChangeType }> = [];
  try {
    for (const c of doc.companions) await writeCompanion(session, c, written, created);
    if (r.chance(0.08)) {
      const gitignore = r.pick(['crates/.gitignore', '.gitignore', 'crates/harn-vm/.gitignore']);
      await session.exec({ op: 'write', path: gitignore, content: { text: hostileGitignore(r) } });
      written.push(gitignore);
      created.push({ path: gitignore, type: FileChangeType.Created });
    }
    if (mode !== 'open') {
      await session.exec({ op: 'write', path: doc.path, content: contentOf(doc.content) });
      if (!fixed) written.push(doc.path);
      created.push({ path: doc.path, type: fixed ? FileChangeType.Changed : FileChangeType.Created });
    }
    if (created.length > 0) await session.exec({ op: 'watched', changes: created });

    if (mode !== 'disk') {
      const text = decoded(doc.content);
      await session.exec({ op: 'open', path: doc.path, languageId: doc.languageId, text });
      await session.exec({ op: 'digest', path: doc.path });
      await session.exec({ op: 'diagnostics', path: doc.path });
      await requests(session, r, doc.path, r.between(2, 8));
      if (doc.kind === 'registry') await probeRegistry(session, r, step, text);
      for (let batch = r.between(0, 12); batch > 0; batch--) {
        const model = session.model(doc.path);
        if (!model) break;
        const changes: TextDocumentContentChangeEvent[] = [];
        // TextDocument.update changes the document it is given: plan the edits on a copy.
        let scratch = TextDocument.create(model.doc.uri, model.doc.languageId, model.doc.version, model.doc.getText());
        for (let k = r.between(1, 4); k > 0; k--) {
          const change = randomChange(r, scratch, doc.kind, options.maxChars);
          changes.push(change);
          scratch = TextDocument.update(scratch, [change], scratch.version + 1);
        }
        await session.exec({ op: 'change', path: doc.path, changes });
        await session.exec({ op: 'digest', path: doc.path });
        if (r.chance(0.5)) await session.exec({ op: 'diagnostics', path: doc.path });
        await requests(session, r, doc.path, r.between(0, 4));
        if (r.chance(0.15)) await burst(session, r, doc.path, doc.kind, options.maxChars);
        if (mode === 'both' && r.chance(0.15)) {
          const current = session.model(doc.path);
          if (current) await session.exec({ op: 'write', path: doc.path, content: { text: current.doc.getText() } });
          await session.exec({ op: 'save', path: doc.path });
        }
      }
      if (ARTIFACT_KINDS.has(doc.kind) && mode === 'both' && r.chance(0.4)) await session.exec({ op: 'validateFile', path: doc.path });
      await session.exec({ op: 'close', path: doc.path });
    }
    if (mode === 'disk' && doc.kind === 'registry') await probeRegistry(session, r, step, decoded(doc.content));
    if (mode !== 'open' && ARTIFACT_KINDS.has(doc.kind)) {
      // Streamed from disk, then hovers read from the disk through the line index.
      await session.exec({ op: 'validateFile', path: doc.path });
      const text = decoded(doc.content);
      for (let k = r.between(1, 5); k > 0; k--) await session.exec({ op: 'request', method: 'hover', path: doc.path, position: randomPosition(r, text) });
    }
    if (r.chance(0.1)) {
      // A request for a file that is neither open nor on disk.
      await session.exec({ op: 'request', method: r.pick(REQUESTS), path: `runs/fz${step}/missing.jsonl`, position: { line: 0, character: 0 } });
      await session.exec({ op: 'validateFile', path: `runs/fz${step}/missing.jsonl` });
    }
  } finally {
    await cleanup(session, written, fixed && mode !== 'open' ? doc.path : undefined);
  }
}

async function writeCompanion(session: FuzzSession, c: Companion, written: string[], created: Array<{ path: string; type: FileChangeType }>): Promise<void> {
  if ('symlinkTo' in c) await session.exec({ op: 'symlink', path: c.path, target: c.symlinkTo });
  else await session.exec({ op: 'write', path: c.path, content: contentOf(c.content) });
  written.push(c.path);
  created.push({ path: c.path, type: FileChangeType.Created });
}

async function requests(session: FuzzSession, r: Rand, rel: string, count: number): Promise<void> {
  for (let k = 0; k < count; k++) {
    const model = session.model(rel);
    if (!model) return;
    const published = session.publishedFor(model.doc.uri);
    await session.exec(randomRequest(r, rel, model.doc.getText(), published));
  }
}

/**
 * While a hostile registry is in effect: hovers and completions where its ids and titles reach Markdown — the
 * `boundary: "…"` sites of a `.harn` file and the `boundary_failure` rows of an event log naming its ids.
 */
async function probeRegistry(session: FuzzSession, r: Rand, step: number, registry: string): Promise<void> {
  const ids = [...new Set([...registry.matchAll(/\bid\s*=\s*"((?:[^"\\\r\n]|\\.)*)"/g)].map((m) => m[1] ?? ''))].slice(0, 30);
  if (ids.length === 0) return;
  await session.exec({ op: 'settle' }); // the gate has read the registry
  const harnPath = `crates/harn-stdlib/src/stdlib/fz/probe${step}.harn`;
  const harn = ids.map((id, i) => `let d${i} = {boundary: "${id}", kind: "capped"}`).join('\n') + '\n';
  const logPath = `runs/fz${step}/event_log.jsonl`;
  const log =
    ids.map((id, i) => JSON.stringify({ index: i, type: 'boundary_failure', session_id: 's', boundary: id, kind: 'dropped', owner: 'harness' })).join('\n') +
    '\n';
  for (const [rel, text, languageId] of [
    [harnPath, harn, 'harn'],
    [logPath, log, 'jsonl'],
  ] as const) {
    await session.exec({ op: 'open', path: rel, languageId, text });
    const doc = TextDocument.create('probe', languageId, 1, text);
    for (let k = r.between(2, 6); k > 0; k--) {
      const line = r.int(ids.length);
      const at = text.split('\n')[line]?.indexOf('boundary') ?? 0;
      const position = doc.positionAt(doc.offsetAt({ line, character: 0 }) + at + 11 + r.int(3));
      await session.exec({ op: 'request', method: r.chance(0.7) ? 'hover' : 'completion', path: rel, position });
    }
    await session.exec({ op: 'close', path: rel });
  }
}

/** Several requests at once, and an edit right behind them (the answers of async handlers must not mix versions). */
async function burst(session: FuzzSession, r: Rand, rel: string, kind: FuzzKind, maxChars: number): Promise<void> {
  const model = session.model(rel);
  if (!model) return;
  const text = model.doc.getText();
  const published = session.publishedFor(model.doc.uri);
  const requests: Array<Extract<Action, { op: 'request' }>> = [];
  for (let k = r.between(2, 6); k > 0; k--) {
    const request = randomRequest(r, rel, text, published);
    if (request.op === 'request') requests.push(request);
  }
  const scratch = TextDocument.create(model.doc.uri, model.doc.languageId, model.doc.version, text);
  const changes = r.chance(0.7) ? [randomChange(r, scratch, kind, maxChars)] : undefined;
  await session.exec({ op: 'burst', path: rel, requests, changes });
  if (changes) await session.exec({ op: 'digest', path: rel });
}

/** Removes what the step wrote and restores the registry or funnel it overwrote, telling the server. */
async function cleanup(session: FuzzSession, written: string[], restored: string | undefined): Promise<void> {
  session.restoreDiskOnly(written, restored);
  if (!session.running) return;
  const changes: Array<{ path: string; type: FileChangeType }> = written.map((p) => ({ path: p, type: FileChangeType.Deleted }));
  if (restored) changes.push({ path: restored, type: FileChangeType.Changed });
  try {
    for (const rel of new Set(written.map((p) => p.split('/').slice(0, 2).join('/')))) {
      if (rel.startsWith('runs/fz') || rel.startsWith('pipelines/fz')) changes.push({ path: rel, type: FileChangeType.Deleted });
    }
    if (changes.length > 0) await session.exec({ op: 'watched', changes });
    await session.exec({ op: 'settle' });
  } catch (error) {
    if (!(error instanceof ServerLost)) throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Runs

function summaryOf(session: FuzzSession, began: number): LspFuzzSummary {
  return {
    ...session.counters,
    seconds: (performance.now() - began) / 1000,
    failures: session.failures,
    classes: session.classes,
    peakRssMb: session.peakRssMb,
    ignored: session.ignored,
    slowest: session.slowest,
  };
}

/**
 * The seed of a run's `step`-th step. Multiplied modulo 2^32 (Math.imul): a product of doubles would exceed 2^53 for
 * any seed above a few million, and adding the step to it would change nothing: every step of a run the same.
 */
export function stepSeed(seed: number, step: number): number {
  return (Math.imul(seed, 0x9e3779b1) + step) >>> 0;
}

/** A random run: documents until the time or count budget is spent (or the first failure, with stopOnFailure). */
export async function runLspFuzz(options: LspFuzzOptions): Promise<LspFuzzSummary> {
  const src = loadSources();
  const session = new FuzzSession(options);
  const began = performance.now();
  const deadline = options.seconds === undefined ? Infinity : began + options.seconds * 1000;
  let lastProgress = began;
  try {
    await startOrRecord(session);
    for (let step = 0; ; step++) {
      if (performance.now() >= deadline) break;
      if (options.documents !== undefined && step >= options.documents) break;
      if (options.stopOnFailure && session.failures.length > 0) break;
      // Each step has its own seed, so that one step is reproduced without the ones before it.
      const r = new Rand(prng(stepSeed(options.seed, step)));
      if (!session.running) await startOrRecord(session);
      if (!session.running) break;
      try {
        await randomStep(session, r, src, step);
      } catch (error) {
        if (!(error instanceof ServerLost)) throw error;
        await startOrRecord(session);
      }
      session.endStep();
      const now = performance.now();
      if (now - lastProgress > 10_000) {
        lastProgress = now;
        const c = session.counters;
        options.log(
          `progress: ${c.documents} documents, ${c.edits} edits, ${c.requests} requests in ${((now - began) / 1000).toFixed(0)} s, ${session.failures.length} failures`,
        );
      }
    }
    await session.stop();
  } finally {
    session.dispose();
  }
  return summaryOf(session, began);
}

async function startOrRecord(session: FuzzSession): Promise<void> {
  try {
    await session.restart();
  } catch (error) {
    if (!(error instanceof ServerLost)) throw error;
  }
}

/** Reads a failure file (see FailureFile). */
export function readFailureFile(file: string): FailureFile {
  const raw = fs.readFileSync(file, 'utf8');
  const parsed = JSON.parse(raw) as unknown;
  if (!isRecord(parsed) || parsed.format !== 'harn-fuzz-lsp/1' || !Array.isArray(parsed.actions)) throw new Error(`${file} is not a fuzz:lsp failure file`);
  return parsed as unknown as FailureFile;
}

/**
 * Runs a failure file's actions again on a fresh server in a fresh workspace (paths of the old workspace and
 * outside folder are rewritten to the new ones), with every check; returns the failures it finds.
 */
export async function replayFailure(record: FailureFile, options: LspFuzzOptions): Promise<LspFuzzSummary> {
  const session = new FuzzSession({ ...options, seed: record.seed });
  const began = performance.now();
  const rewritten = JSON.stringify(record.actions).split(record.root).join(session.root).split(record.outsideDir).join(session.outsideDir);
  const actions = JSON.parse(rewritten) as Action[];
  try {
    await session.restart();
    session.beginStep(record.step, record.documentKind && record.generator ? { kind: record.documentKind, generator: record.generator } : undefined);
    session.counters.documents = 1;
    try {
      for (const action of actions) await session.exec(action);
      await session.exec({ op: 'settle' });
    } catch (error) {
      if (!(error instanceof ServerLost)) throw error;
    }
    session.endStep();
    await session.stop();
  } finally {
    session.dispose();
  }
  return summaryOf(session, began);
}

/** The closing line and the classes, as `npm run fuzz:lsp` prints them. */
export function formatSummary(summary: LspFuzzSummary): string[] {
  const lines: string[] = [];
  if (summary.classes.size > 0) {
    lines.push('', `failure classes (${summary.classes.size}):`);
    for (const [signature, { count, first }] of summary.classes) {
      lines.push(`  ${count} × ${signature}`);
      lines.push(
        `      first: seed ${first.seed}, step ${first.step}, ${first.documentKind ?? '-'} ${first.generator ?? ''}${first.file ? `, input ${path.relative(process.cwd(), first.file)}` : ''}`,
      );
    }
  }
  const slow = [...summary.slowest]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([m, ms]) => `${m} ${ms} ms`);
  lines.push('', `slowest answers: ${slow.join(', ')}; server peak RSS ${Math.round(summary.peakRssMb)} MB`);
  if (summary.ignored > 0) lines.push(`${summary.ignored} failure(s) of ignored kinds not counted`);
  lines.push(
    `fuzz:lsp: ${summary.documents} documents, ${summary.edits} edits, ${summary.requests} requests in ${summary.seconds.toFixed(1)} s, ${summary.failures.length} failures`,
  );
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Minimising a failure: fewer actions, then shorter texts, as long as the same signature comes back

async function ddmin<T>(items: readonly T[], reproduces: (candidate: T[]) => Promise<boolean>, budget: { left: number }): Promise<T[]> {
  let current = [...items];
  let n = 2;
  while (current.length >= 2 && budget.left > 0) {
    const chunk = Math.ceil(current.length / n);
    let reduced = false;
    for (let i = 0; i < current.length && budget.left > 0; i += chunk) {
      const complement = [...current.slice(0, i), ...current.slice(i + chunk)];
      budget.left--;
      if (await reproduces(complement)) {
        current = complement;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(current.length, n * 2);
    }
  }
  return current;
}

function withText(action: Action, text: string): Action {
  if (action.op === 'open') return { ...action, text };
  if (action.op === 'write') return { ...action, content: { text } };
  return action;
}

function textOf(action: Action): string | undefined {
  if (action.op === 'open') return action.text;
  if (action.op === 'write' && 'text' in action.content) return action.content.text;
  return undefined;
}

/**
 * Shrinks a failure file's step: first the actions (each trial on a fresh server), then every opened or
 * written text by lines and by characters, keeping only what still gives the recorded signature. At most
 * `trials` replays.
 */
export async function minimizeFailure(record: FailureFile, options: LspFuzzOptions, trials = 400): Promise<FailureFile> {
  const signature = record.failure.signature;
  const quiet: LspFuzzOptions = { ...options, failuresDir: undefined, log: () => undefined };
  const reproduces = async (actions: Action[]): Promise<boolean> => {
    const summary = await replayFailure({ ...record, actions }, quiet);
    return summary.classes.has(signature);
  };
  // What follows the failing action is cut first, then actions, then texts (the longest first).
  let actions = record.actions.slice(0, record.failure.action + 1);
  if (!(await reproduces(actions))) actions = [...record.actions];
  actions = await ddmin(actions, reproduces, { left: Math.floor(trials * 0.35) });
  const budget = { left: trials - Math.floor(trials * 0.35) };
  const order = actions
    .map((a, i) => ({ i, length: textOf(a)?.length ?? 0 }))
    .filter((x) => x.length > 1)
    .sort((a, b) => b.length - a.length);
  for (const { i } of order) {
    if (budget.left <= 0) break;
    const original = textOf(actions[i] ?? { op: 'settle' }) ?? '';
    const tryText = async (text: string): Promise<boolean> => reproduces(actions.map((a, k) => (k === i ? withText(a, text) : a)));
    const lines = original.split(/(?<=\n)/);
    let text = lines.length > 1 ? (await ddmin(lines, (c) => tryText(c.join('')), budget)).join('') : original;
    if (text.length <= 4000) text = (await ddmin([...text], (c) => tryText(c.join('')), budget)).join('');
    actions = actions.map((a, k) => (k === i ? withText(a, text) : a));
  }
  return { ...record, actions };
}
