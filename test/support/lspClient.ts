// A real LSP client for tests: spawns dist/server.js --stdio and speaks JSON-RPC to it through
// vscode-languageserver-protocol, as an editor would.

import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  TextDocumentContentChangeEvent,
  ShutdownRequest,
  ExitNotification,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export class TestClient {
  readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly diagnostics = new Map<string, PublishDiagnosticsParams[]>();
  private readonly waiters: Array<() => void> = [];
  readonly stderr: string[] = [];
  private readonly versions = new Map<string, number>();

  constructor() {
    this.child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = this.diagnostics.get(params.uri) ?? [];
      list.push(params);
      this.diagnostics.set(params.uri, list);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.connection.listen();
  }

  async initialize(rootPath: string): Promise<void> {
    await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: URI.file(rootPath).toString(),
      workspaceFolders: [{ uri: URI.file(rootPath).toString(), name: path.basename(rootPath) }],
      capabilities: {
        textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true }, definition: { linkSupport: true } },
      },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
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

  /** Waits for a diagnostics publication for `uri` matching `accept` (by default: any, for the latest version). */
  async waitForDiagnostics(uri: string, accept: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 10000): Promise<PublishDiagnosticsParams> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (this.diagnostics.get(uri) ?? []).filter(accept).pop();
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching diagnostics for ${uri} within ${timeoutMs} ms; stderr: ${this.stderr.join('')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
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

  get exitCode(): number | null {
    return this.child.exitCode;
  }
}
