// A real LSP client for tests: spawns dist/server.js --stdio and speaks JSON-RPC to it through
// vscode-languageserver-protocol, as an editor would.

import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ConfigurationRequest,
  createProtocolConnection,
  InitializeRequest,
  InitializeResult,
  InitializedNotification,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidSaveTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidChangeWorkspaceFoldersNotification,
  FileEvent,
  TextDocumentContentChangeEvent,
  ShutdownRequest,
  ExitNotification,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { defined } from './assertions';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Notifications recorded besides diagnostics. */
const RECORDED_NOTIFICATIONS = ['window/logMessage', 'window/showMessage', 'harn/status', 'harn/directiveTreeChanged', 'harn/runControlTreeChanged'];

/** A notification other than diagnostics (log messages, status, …), in arrival order. */
export interface ReceivedNotification {
  method: string;
  params: unknown;
}

/** The result of `harn/documentDigest`: the server's text of an open document, hashed; null when it has none open. */
export type DocumentDigest = { version: number; sha256: string } | null;

/** A client's settings as VS Code resolves them: per section, for a scope (a folder's URI) or the window (undefined). */
export type ConfigurationAnswer = (section: string, scopeUri: string | undefined) => unknown;

export interface InitializeOptions {
  /**
   * When given, the client declares the `workspace.configuration` capability and answers each
   * `workspace/configuration` item with `configuration[section]` (undefined → null), the same for every scope;
   * or, given a function, with what it answers for the item's section and `scopeUri`.
   */
  configuration?: Record<string, unknown> | ConfigurationAnswer;
  /** Sent as `initializationOptions` (the extension sends `{ languageFeatures }`). */
  initializationOptions?: unknown;
  /** Declares `workspace.semanticTokens.refreshSupport`, as VS Code does. */
  semanticTokensRefresh?: boolean;
  /** Declares `workspace.inlayHint.refreshSupport`, as VS Code does. */
  inlayHintRefresh?: boolean;
}

function workspaceFolder(root: string): { uri: string; name: string } {
  return { uri: URI.file(root).toString(), name: path.basename(root) };
}

export class TestClient {
  readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  /** Every diagnostics publication per URI, each with a sequence number shared by all URIs. */
  private readonly diagnostics = new Map<string, { seq: number; params: PublishDiagnosticsParams }[]>();
  private seq = 0;
  private readonly waiters: Array<() => void> = [];
  readonly stderr: string[] = [];
  readonly notifications: ReceivedNotification[] = [];
  private readonly versions = new Map<string, number>();

  /** `nodeArgs`: options for node before the server's script (e.g. `--enable-source-maps` for stack traces in the sources). */
  constructor(options: { nodeArgs?: readonly string[] } = {}) {
    const script = path.join(REPO_ROOT, 'dist', 'server.js');
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const { stdin, stdout, stderr } = this.child;
    // Always there with stdio 'pipe'; checked so that the types say so.
    if (!stdin || !stdout || !stderr) throw new Error('the server was spawned without pipes');
    stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    this.connection = createProtocolConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = this.diagnostics.get(params.uri) ?? [];
      list.push({ seq: ++this.seq, params });
      this.diagnostics.set(params.uri, list);
      this.wake();
    });
    for (const method of RECORDED_NOTIFICATIONS) {
      this.connection.onNotification(method, (params: unknown) => {
        this.notifications.push({ method, params });
        this.wake();
      });
    }
    this.connection.listen();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Starts a session on one workspace folder, or on several (the first is also `rootUri`), or on none. */
  async initialize(rootPath: string | readonly string[], options: InitializeOptions = {}): Promise<InitializeResult> {
    const configuration = options.configuration;
    if (configuration) {
      const answer: ConfigurationAnswer = typeof configuration === 'function' ? configuration : (section) => configuration[section];
      this.connection.onRequest(ConfigurationRequest.type, (params) =>
        params.items.map((item) => (item.section ? (answer(item.section, item.scopeUri) ?? null) : null)),
      );
    }
    // No folder at all: a window with only loose files, as VS Code starts the server for one.
    const roots = typeof rootPath === 'string' ? [rootPath] : rootPath;
    const first = roots[0];
    const workspace = {
      ...(configuration ? { configuration: true } : {}),
      workspaceFolders: true,
      ...(options.semanticTokensRefresh ? { semanticTokens: { refreshSupport: true } } : {}),
      ...(options.inlayHintRefresh ? { inlayHint: { refreshSupport: true } } : {}),
    };
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: first === undefined ? null : URI.file(first).toString(),
      workspaceFolders: roots.length === 0 ? null : roots.map(workspaceFolder),
      initializationOptions: options.initializationOptions,
      capabilities: {
        textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true }, definition: { linkSupport: true } },
        // As VS Code: folders can be added and removed while the server runs.
        workspace,
      },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    return result;
  }

  async open(file: string, text: string, languageId = 'harn'): Promise<string> {
    const uri = URI.file(file).toString();
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return uri;
  }

  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  async save(uri: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /**
   * `harn/documentDigest` (a request for tests): the version and the SHA-256 (lowercase hex of the UTF-8
   * bytes) of the server's current text of `uri`, or null when the server has no such open document.
   */
  async documentDigest(uri: string): Promise<DocumentDigest> {
    return this.connection.sendRequest<DocumentDigest>('harn/documentDigest', { uri });
  }

  /** `workspace/didChangeWorkspaceFolders`: folders added to and removed from the window. */
  async changeFolders(change: { added?: readonly string[]; removed?: readonly string[] }): Promise<void> {
    await this.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
      event: { added: (change.added ?? []).map(workspaceFolder), removed: (change.removed ?? []).map(workspaceFolder) },
    });
  }

  /** `workspace/didChangeWatchedFiles`, as the editor's file watcher sends it. */
  async filesChanged(changes: FileEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  /** The sequence number of the last publication so far: pass it as `since` to wait only for later ones. */
  mark(): number {
    return this.seq;
  }

  /** Every publication of every URI after the mark `since`, in arrival order. */
  allPublicationsSince(since: number): PublishDiagnosticsParams[] {
    const out: { seq: number; params: PublishDiagnosticsParams }[] = [];
    for (const list of this.diagnostics.values()) for (const p of list) if (p.seq > since) out.push(p);
    return out.sort((a, b) => a.seq - b.seq).map((p) => p.params);
  }

  /** Drops the publications recorded so far (all, or those of `uri`), so that a long session does not keep them all. */
  forgetDiagnostics(uri?: string): void {
    if (uri === undefined) this.diagnostics.clear();
    else this.diagnostics.delete(uri);
  }

  /** The latest publication of every URI that had one. */
  allLatestDiagnostics(): PublishDiagnosticsParams[] {
    return [...this.diagnostics.values()].map((list) => defined(list[list.length - 1], 'a publication').params);
  }

  /** Every publication for `uri` after the mark `since`, oldest first. */
  publicationsSince(uri: string, since: number): PublishDiagnosticsParams[] {
    return (this.diagnostics.get(uri) ?? []).filter((p) => p.seq > since).map((p) => p.params);
  }

  /** The latest publication for `uri`, if any. */
  latestDiagnostics(uri: string): PublishDiagnosticsParams | undefined {
    return this.diagnostics.get(uri)?.at(-1)?.params;
  }

  /**
   * Waits for a diagnostics publication for `uri` matching `accept` (by default: any), published after
   * the mark `since`; returns the latest such one.
   */
  async waitForDiagnostics(
    uri: string,
    accept: (p: PublishDiagnosticsParams) => boolean = () => true,
    timeoutMs = 10000,
    since = 0,
  ): Promise<PublishDiagnosticsParams> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (this.diagnostics.get(uri) ?? []).filter((p) => p.seq > since && accept(p.params)).pop();
      if (found) return found.params;
      const left = deadline - Date.now();
      if (left <= 0) {
        const last = this.latestDiagnostics(uri);
        throw new Error(
          `no matching diagnostics for ${uri} within ${timeoutMs} ms; last: ${JSON.stringify(last?.diagnostics)}; stderr: ${this.stderr.join('')}`,
        );
      }
      await this.sleepUntilNews(left);
    }
  }

  /** Waits for a notification of `method` matching `accept` that arrived at or after index `from` of `notifications`. */
  async waitForNotification(method: string, accept: (params: unknown) => boolean = () => true, timeoutMs = 10000, from = 0): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.notifications.slice(from).find((n) => n.method === method && accept(n.params));
      if (found) return found.params;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${method} notification within ${timeoutMs} ms; stderr: ${this.stderr.join('')}`);
      await this.sleepUntilNews(left);
    }
  }

  /** Waits until `condition` holds, re-checking after each message from the server; false on timeout. */
  async waitUntil(condition: () => boolean, timeoutMs = 10000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await this.sleepUntilNews(left);
    }
    return true;
  }

  /** Messages the server logged (`window/logMessage`) with the given type (1 error, 2 warning, 3 info, 4 log). */
  logMessages(type?: number): string[] {
    return this.notifications
      .filter((n) => n.method === 'window/logMessage')
      .map((n) => n.params as { type: number; message: string })
      .filter((p) => type === undefined || p.type === type)
      .map((p) => p.message);
  }

  private sleepUntilNews(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async shutdown(): Promise<void> {
    try {
      await this.connection.sendRequest(ShutdownRequest.type);
      await this.connection.sendNotification(ExitNotification.type);
    } finally {
      this.connection.dispose();
      this.child.kill();
    }
  }

  /** Ends the server at once (a test that found it hung: shutdown would never be answered). */
  kill(): void {
    this.connection.dispose();
    this.child.kill('SIGKILL');
  }

  get exitCode(): number | null {
    return this.child.exitCode;
  }

  /** The signal that ended the server, if one did. */
  get signalCode(): NodeJS.Signals | null {
    return this.child.signalCode;
  }

  /** The server's process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }
}

/** A temporary folder holding `files`, a server initialized on it, and one of them open with its first diagnostics. */
export interface FixtureWorkspace {
  client: TestClient;
  /** The folder's real path. */
  root: string;
  /** The open file's uri. */
  uri: string;
  initialized: InitializeResult;
  published: PublishDiagnosticsParams;
  /** Shuts the server down and removes the folder. */
  close(): Promise<void>;
}

/**
 * Writes `files` (name → text) into a new temporary folder, starts a server on it and opens `open` (one of the
 * names). `beforeInitialize` registers handlers on the client first (e.g. refresh requests).
 */
export async function fixtureWorkspace(
  prefix: string,
  files: Record<string, string>,
  open: string,
  options: InitializeOptions = {},
  beforeInitialize?: (client: TestClient) => void,
): Promise<FixtureWorkspace> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  const client = new TestClient();
  beforeInitialize?.(client);
  const initialized = await client.initialize(root, options);
  const uri = await client.open(path.join(root, open), defined(files[open], `the file to open, ${open}`));
  const published = await client.waitForDiagnostics(uri);
  return {
    client,
    root,
    uri,
    initialized,
    published,
    close: async () => {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
