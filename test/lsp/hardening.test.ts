// The real server over stdio on hostile workspaces and clients: imports and artifact files behind symbolic links
// that lead out of the workspace; requests after shutdown, exit codes; malformed message headers.

import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CompletionRequest,
  CompletionResolveRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidOpenTextDocumentNotification,
  DocumentLinkRequest,
  DocumentSymbolRequest,
  ErrorCodes,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  MarkupContent,
  MessageType,
  Position,
  ProtocolConnection,
  ResponseError,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { ValidateArtifactFileRequest } from '../../server/src/protocol';
import { REPO_ROOT, TestClient } from '../support/lspClient';

const uriOf = (file: string): string => URI.file(file).toString();

function positionIn(text: string, needle: string, delta = 0): Position {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const before = text.slice(0, at + delta).split('\n');
  return { line: before.length - 1, character: (before.at(-1) ?? '').length };
}

describe('symbolic links out of the workspace', () => {
  let client: TestClient;
  let base: string;
  let root: string;
  let outside: string;
  const MAIN = 'import "./secret"\nimport { leaked } from "./vendor/secret"\nimport "./alias"\nlet a = leaked()\nlet b = kept()\nlet c = ';

  before(async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-links-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.harn'), '/** Leaked doc. */\npub fn leaked() { return 1 }\n');
    fs.writeFileSync(path.join(outside, 'llm_transcript.jsonl'), '{"type":"message"}\n');
    fs.writeFileSync(path.join(root, 'lib.harn'), '/** Kept. */\npub fn kept() { return 2 }\n');
    fs.symlinkSync(path.join(outside, 'secret.harn'), path.join(root, 'secret.harn'));
    fs.symlinkSync(outside, path.join(root, 'vendor'));
    fs.symlinkSync(path.join(root, 'lib.harn'), path.join(root, 'alias.harn'));
    fs.symlinkSync(path.join(outside, 'llm_transcript.jsonl'), path.join(root, 'llm_transcript.jsonl'));
    client = new TestClient();
    await client.initialize(root);
    await client.open(path.join(root, 'main.harn'), MAIN);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(base, { recursive: true, force: true });
  });

  const mainUri = (): string => uriOf(path.join(root, 'main.harn'));

  test('links: only the import that stays inside', async () => {
    const links = await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: mainUri() } });
    assert.deepEqual(
      links?.map((l) => [l.range, l.target]),
      [[{ start: positionIn(MAIN, './alias'), end: positionIn(MAIN, './alias', 7) }, uriOf(path.join(root, 'alias.harn'))]],
    );
  });

  test('hover says a refused import is refused; definition and completion say nothing of it', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri() }, position: positionIn(MAIN, './secret') });
    assert.equal((hover?.contents as MarkupContent).value, 'module `./secret` → refused: `secret.harn` is a symbolic link that leads out of the workspace');
    const definition = await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: mainUri() },
      position: positionIn(MAIN, './secret'),
    });
    assert.deepEqual(definition, []);
    const leaked = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri() }, position: positionIn(MAIN, 'leaked()') });
    assert.equal((leaked?.contents as MarkupContent).value, '```harn\nimport { leaked } from "./vendor/secret"\n```');
    const completion = await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: mainUri() },
      position: positionIn(MAIN, 'let c = ', 8),
    });
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    assert.ok(items.some((c) => c.label === 'kept'));
    // The details come in resolve: none of them tells of the refused module.
    const resolved = await Promise.all(items.map((c) => client.connection.sendRequest(CompletionResolveRequest.type, c)));
    assert.match(JSON.stringify(resolved.find((c) => c.label === 'kept')?.documentation), /Kept\./);
    assert.ok(!resolved.some((c) => typeof c.documentation === 'object' && c.documentation.value.includes('Leaked doc')));
  });

  test('harn/validateArtifactFile refuses a file outside the folders, and a link out of them; nothing is published', async () => {
    const out = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri: uriOf(path.join(outside, 'llm_transcript.jsonl')) });
    // (`kind` is undefined: not sent.)
    assert.deepEqual(out, {
      problems: 0,
      lines: 0,
      refused: 'llm_transcript.jsonl is not read: it is outside the workspace folders, and only files inside them are read from disk.',
    });
    const link = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri: uriOf(path.join(root, 'llm_transcript.jsonl')) });
    assert.deepEqual(link, {
      problems: 0,
      lines: 0,
      refused: 'llm_transcript.jsonl is not read: it is a symbolic link that leads out of the workspace folders.',
    });
    assert.equal(client.latestDiagnostics(uriOf(path.join(outside, 'llm_transcript.jsonl'))), undefined);
    assert.equal(client.latestDiagnostics(uriOf(path.join(root, 'llm_transcript.jsonl'))), undefined);
  });
});

/** The server spawned over stdio, with its raw stdin (for malformed bytes) beside a JSON-RPC connection. */
class RawServer {
  readonly child: ChildProcess;
  readonly connection: ProtocolConnection;
  readonly logs: { type: number; message: string }[] = [];
  readonly exited: Promise<number | null>;

  constructor() {
    this.child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const { stdin, stdout } = this.child;
    if (!stdin || !stdout) throw new Error('the server was spawned without pipes');
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.connection = createProtocolConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
    this.connection.onNotification(LogMessageNotification.type, (p) => {
      this.logs.push({ type: p.type, message: p.message });
    });
    this.connection.listen();
  }

  async initialize(root: string): Promise<void> {
    await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uriOf(root),
      workspaceFolders: [{ uri: uriOf(root), name: 'w' }],
      capabilities: {},
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  /** Bytes written as they are, outside the JSON-RPC framing. */
  async writeRaw(bytes: string): Promise<void> {
    const stdin = this.child.stdin;
    if (!stdin) throw new Error('no stdin');
    await new Promise<void>((resolve, reject) => stdin.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  dispose(): void {
    this.connection.dispose();
    if (this.child.exitCode === null) this.child.kill();
  }
}

/** The error a request was refused with. */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof ResponseError, String(error));
    return { code: error.code, message: error.message };
  }
  assert.fail('the request was answered');
}

describe('the end of a session: shutdown and exit', () => {
  let root: string;
  before(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-exit-')));
    fs.writeFileSync(path.join(root, 'main.harn'), 'fn f() { return 1 }\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('after shutdown every request is refused with InvalidRequest; exit then ends the process with 0', { timeout: 30_000 }, async () => {
    const server = new RawServer();
    try {
      await server.initialize(root);
      const uri = uriOf(path.join(root, 'main.harn'));
      await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'harn', version: 1, text: 'fn f() { return 1 }\n' },
      });
      const answered = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } });
      assert.ok(answered, 'answered before shutdown');
      assert.equal(await server.connection.sendRequest(ShutdownRequest.type), null);
      const refused = (method: string): { code: number; message: string } => ({
        code: ErrorCodes.InvalidRequest,
        message: `${method} refused: shutdown was requested, only exit is accepted now.`,
      });
      const position = { textDocument: { uri }, position: { line: 0, character: 3 } };
      assert.deepEqual(await refusal(server.connection.sendRequest(HoverRequest.type, position)), refused('hover'));
      assert.deepEqual(await refusal(server.connection.sendRequest(CompletionRequest.type, position)), refused('completion'));
      assert.deepEqual(await refusal(server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })), refused('documentSymbol'));
      assert.deepEqual(await refusal(server.connection.sendRequest('harn/documentDigest', { uri })), refused('documentDigest'));
      assert.deepEqual(await refusal(server.connection.sendRequest(ShutdownRequest.type)), refused('shutdown'));
      assert.deepEqual(
        await refusal(server.connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} })),
        refused('initialize'),
      );
      await server.connection.sendNotification(ExitNotification.type);
      assert.equal(await server.exited, 0);
    } finally {
      server.dispose();
    }
  });

  test('exit without shutdown ends the process with 1', { timeout: 30_000 }, async () => {
    const server = new RawServer();
    try {
      await server.initialize(root);
      await server.connection.sendNotification(ExitNotification.type);
      assert.equal(await server.exited, 1);
    } finally {
      server.dispose();
    }
  });
});

// A regression would leave a request unanswered for good: the tests' timeouts turn that into a failure.
describe('a malformed message header', () => {
  let root: string;
  before(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-header-')));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('is logged as an error and skipped with its body; the next well-formed message is answered', { timeout: 30_000 }, async () => {
    const server = new RawServer();
    try {
      await server.initialize(root);
      const lost = JSON.stringify({ jsonrpc: '2.0', id: 900, method: 'shutdown' });
      await server.writeRaw(`X-Foo: bar\r\n\r\n${lost}`);
      await server.writeRaw(`Content-Length: abc\r\n\r\n${lost}`);
      // The next message is answered, so the lost shutdown was never read as one.
      const uri = uriOf(path.join(root, 'none.harn'));
      assert.equal(await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }), null);
      assert.deepEqual(await server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }), []);
      assert.deepEqual(
        server.logs.filter((l) => l.type === MessageType.Error).map((l) => l.message),
        [
          'Malformed input from the client: a message header without Content-Length ("X-Foo: bar"); skipped it and its body, up to the next Content-Length header.',
          'Malformed input from the client: a message header whose Content-Length "abc" is no number of bytes ("Content-Length: abc"); skipped it and its body, up to the next Content-Length header.',
        ],
      );
      assert.equal(server.child.exitCode, null, 'still running');
      assert.equal(await server.connection.sendRequest(ShutdownRequest.type), null);
    } finally {
      server.dispose();
    }
  });
});

describe('bytes that are not UTF-8', () => {
  let client: TestClient;
  let root: string;
  const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

  before(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-utf8-')));
    fs.mkdirSync(path.join(root, 'scripts'));
    fs.mkdirSync(path.join(root, 'crates', 'harn-vm', 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'scripts', 'loud_boundaries.toml'), '[[boundary]]\nid = "chat_turn_cap"\nanchors = ["crates/a.harn"]\n');
    fs.writeFileSync(
      path.join(root, 'crates', 'harn-vm', 'src', 'boundary.rs'),
      'pub enum BoundaryId {\n    ChatTurnCap,\n}\n\nimpl BoundaryId {\n    pub fn as_str(self) -> &\'static str {\n        match self {\n            Self::ChatTurnCap => "chat_turn_cap",\n        }\n    }\n}\n',
    );
    // Latin-1: é is the byte e9.
    fs.writeFileSync(path.join(root, 'crates', 'a.harn'), latin1('// résumé\nlet x = { boundary: "chat_turn_cap" }\n'));
    fs.writeFileSync(path.join(root, 'lib.harn'), latin1('/** Café. */\npub fn brew() { return "café" }\n'));
    client = new TestClient();
    await client.initialize(root);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const at = (d: { range: { start: Position; end: Position } }): string =>
    `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`;

  test('an open document with U+FFFD: replacement_character; an import of a file that is not UTF-8: invalid_utf8 on its path', async () => {
    const text = 'import { brew } from "./lib"\nlet s = "caf\ufffd"\n';
    const uri = await client.open(path.join(root, 'main.harn'), text);
    const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length >= 2);
    assert.deepEqual(
      [...published.diagnostics].sort((a, b) => at(a).localeCompare(at(b))).map((d) => [d.code, d.severity, d.source, at(d), d.message]),
      [
        [
          'invalid_utf8',
          2,
          'harn.syntax',
          '0:21-0:28',
          'The imported lib.harn is not UTF-8: the byte e9 at line 1, character 8, and 1 more place (read as U+FFFD).',
        ],
        [
          'replacement_character',
          2,
          'harn.syntax',
          '1:12-1:13',
          'U+FFFD (the replacement character): how the editor shows bytes of the file that are not UTF-8; saving the file writes U+FFFD in their place. `harn-workbench check` reads the bytes and reports them as invalid_utf8.',
        ],
      ],
    );
  });

  test('a file the loud-boundary gate scans from disk: invalid_utf8 warnings on it, and its site still counts', async () => {
    const uri = uriOf(path.join(root, 'crates', 'a.harn'));
    const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
    const consequence = 'the loud-boundary gate reads the file with U+FFFD there, so a boundary id written with these bytes is not found';
    assert.deepEqual(
      published.diagnostics.map((d) => [d.code, d.severity, d.source, at(d), d.message]),
      [
        ['invalid_utf8', 2, 'harn.boundaries', '0:4-0:5', `Not UTF-8: the byte e9 at byte offset 4 is not UTF-8 (read as U+FFFD); ${consequence}.`],
        ['invalid_utf8', 2, 'harn.boundaries', '0:8-0:9', `Not UTF-8: the byte e9 at byte offset 8 is not UTF-8 (read as U+FFFD); ${consequence}.`],
      ],
    );
  });
});
