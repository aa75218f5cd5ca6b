// The workspace check (`harn.diagnostics.scope`), over stdio on the real server: closed files' problems are
// published at start (the demo's agree with `harn-workbench check`), an open file shows its live diagnostics
// instead and its disk ones come back on close, files changed/created/deleted on disk follow, `openFiles` checks
// nothing closed, a sparse 51 MB file gets one information diagnostic (never read), .gitignore'd files are
// skipped, and hovers are answered while a big tree is scanned.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CodeAction,
  CodeActionRequest,
  Diagnostic,
  DiagnosticSeverity,
  FileChangeType,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsParams,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressEnd,
  WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { FileDiagnostic } from '../../server/src/report/format';
import { DEMO, HEALTHY } from '../support/brokenRun';
import { REPO_ROOT, TestClient } from '../support/lspClient';

const BROKEN_HARN = 'pipeline main() {\n  let x = \n}\n';
const GOOD_HARN = 'pipeline main() {\n  log("hello")\n}\n';
const BAD_TRANSCRIPT = '{"type":"provider_call_request","session_id":"s","iteration":1\n';

const uriOf = (root: string, relative: string): string => URI.file(path.join(root, relative)).toString();
const codes = (p: PublishDiagnosticsParams | undefined): string[] => (p?.diagnostics ?? []).map((d) => String(d.code)).sort();
const hasProblems = (p: PublishDiagnosticsParams): boolean => p.diagnostics.length > 0;
const isEmpty = (p: PublishDiagnosticsParams): boolean => p.diagnostics.length === 0;

function write(root: string, relative: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), text);
}

/** A tree with a broken .harn, a broken transcript, a run record whose transcript changed, and ignored copies. */
function brokenTree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-scan-'));
  write(root, 'lib/broken.harn', BROKEN_HARN);
  write(root, 'lib/good.harn', GOOD_HARN);
  write(root, 'runs/bad/llm_transcript.jsonl', BAD_TRANSCRIPT);
  fs.cpSync(HEALTHY, path.join(root, 'runs/ok'), { recursive: true });
  // One more byte: the run record's digest (and length) no longer match its transcript.
  fs.appendFileSync(path.join(root, 'runs/ok/run-llm/llm_transcript.jsonl'), '\n');
  write(root, '.gitignore', 'ignored/\n');
  write(root, 'ignored/broken.harn', BROKEN_HARN);
  write(root, 'node_modules/dep/broken.harn', BROKEN_HARN);
  return root;
}

async function started(root: string, scope?: string): Promise<TestClient> {
  const client = new TestClient();
  await client.initialize(root, scope === undefined ? {} : { configuration: { harn: { diagnostics: { scope } } } });
  return client;
}

/** Resolves once the first pass of the workspace check logged its end. */
async function scanned(client: TestClient, timeoutMs = 20000): Promise<string> {
  assert.ok(
    await client.waitUntil(() => client.logMessages().some((m) => m.startsWith('workspace check:')), timeoutMs),
    `the workspace check did not end; stderr: ${client.stderr.join('')}`,
  );
  return client.logMessages().find((m) => m.startsWith('workspace check:')) ?? '';
}

describe('workspace check: closed files', () => {
  let root: string;
  let client: TestClient;
  before(async () => {
    root = brokenTree();
    client = await started(root);
    await scanned(client);
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('a broken .harn, a broken transcript and a run record with a digest mismatch are published before any is opened', () => {
    assert.ok(codes(client.latestDiagnostics(uriOf(root, 'lib/broken.harn'))).length > 0, 'the broken .harn has its syntax error');
    assert.ok(codes(client.latestDiagnostics(uriOf(root, 'runs/bad/llm_transcript.jsonl'))).includes('malformed_jsonl'));
    const record = codes(client.latestDiagnostics(uriOf(root, 'runs/ok/run.json')));
    assert.ok(record.includes('digest_mismatch') && record.includes('byte_len_mismatch'), record.join(', '));
    // Clean files get no (empty) publication at all.
    assert.equal(client.latestDiagnostics(uriOf(root, 'lib/good.harn')), undefined);
  });

  test(".gitignore'd files and node_modules are not checked", () => {
    assert.equal(client.latestDiagnostics(uriOf(root, 'ignored/broken.harn')), undefined);
    assert.equal(client.latestDiagnostics(uriOf(root, 'node_modules/dep/broken.harn')), undefined);
  });

  test('open: the live diagnostics replace the disk ones (no duplicates), edits follow live, close: the disk ones are back', async () => {
    const uri = uriOf(root, 'lib/broken.harn');
    const onDisk = defined(client.latestDiagnostics(uri)).diagnostics;
    let mark = client.mark();
    await client.open(path.join(root, 'lib/broken.harn'), BROKEN_HARN);
    const live = await client.waitForDiagnostics(uri, () => true, 10000, mark);
    assert.deepEqual(sameKeys(live.diagnostics), sameKeys(onDisk), 'the live checks say what the disk check said, once');
    mark = client.mark();
    await client.change(uri, [{ text: GOOD_HARN }]);
    await client.waitForDiagnostics(uri, isEmpty, 10000, mark);
    // Closing the unsaved fix: the file on disk is still broken.
    mark = client.mark();
    await client.close(uri);
    const back = await client.waitForDiagnostics(uri, hasProblems, 10000, mark);
    assert.deepEqual(sameKeys(back.diagnostics), sameKeys(onDisk));
  });

  test('files changed, created and deleted on disk follow (didChangeWatchedFiles); a run record follows its transcript', async () => {
    const fixed = uriOf(root, 'runs/bad/llm_transcript.jsonl');
    let mark = client.mark();
    write(root, 'runs/bad/llm_transcript.jsonl', '');
    fs.rmSync(path.join(root, 'runs/bad/llm_transcript.jsonl'));
    await client.filesChanged([{ uri: fixed, type: FileChangeType.Deleted }]);
    await client.waitForDiagnostics(fixed, isEmpty, 10000, mark);

    const created = uriOf(root, 'lib/new.harn');
    mark = client.mark();
    write(root, 'lib/new.harn', BROKEN_HARN);
    await client.filesChanged([{ uri: created, type: FileChangeType.Created }]);
    await client.waitForDiagnostics(created, hasProblems, 10000, mark);

    mark = client.mark();
    write(root, 'lib/new.harn', GOOD_HARN);
    await client.filesChanged([{ uri: created, type: FileChangeType.Changed }]);
    await client.waitForDiagnostics(created, isEmpty, 10000, mark);

    // The transcript restored to what the run record describes: its digest problems go.
    const transcript = 'runs/ok/run-llm/llm_transcript.jsonl';
    mark = client.mark();
    fs.copyFileSync(path.join(HEALTHY, 'run-llm/llm_transcript.jsonl'), path.join(root, transcript));
    await client.filesChanged([{ uri: uriOf(root, transcript), type: FileChangeType.Changed }]);
    await client.waitForDiagnostics(uriOf(root, 'runs/ok/run.json'), isEmpty, 10000, mark);

    // Created inside an ignored folder: still not checked.
    write(root, 'ignored/late.harn', BROKEN_HARN);
    await client.filesChanged([{ uri: uriOf(root, 'ignored/late.harn'), type: FileChangeType.Created }]);
    const probe = uriOf(root, 'lib/probe.harn');
    mark = client.mark();
    write(root, 'lib/probe.harn', BROKEN_HARN);
    await client.filesChanged([{ uri: probe, type: FileChangeType.Created }]);
    await client.waitForDiagnostics(probe, hasProblems, 10000, mark);
    assert.equal(client.latestDiagnostics(uriOf(root, 'ignored/late.harn')), undefined);
  });

  test('a sparse 51 MB artifact: one information diagnostic offering "Validate Run Artifact From Disk", the file never read', async () => {
    const big = 'runs/huge/llm_transcript.jsonl';
    fs.mkdirSync(path.join(root, 'runs/huge'), { recursive: true });
    const fd = fs.openSync(path.join(root, big), 'w');
    fs.closeSync(fd);
    fs.truncateSync(path.join(root, big), 51 * 1024 * 1024);
    // Read, its 51 MB of NUL bytes would be a line_too_long or malformed_jsonl: the one diagnostic says only its size.
    const uri = uriOf(root, big);
    const mark = client.mark();
    await client.filesChanged([{ uri, type: FileChangeType.Created }]);
    const published = await client.waitForDiagnostics(uri, hasProblems, 10000, mark);
    assert.equal(published.diagnostics.length, 1);
    const only = defined(published.diagnostics[0]);
    assert.equal(only.code, 'too_large_to_scan');
    assert.equal(only.severity, DiagnosticSeverity.Information);
    assert.match(typeof only.message === 'string' ? only.message : only.message.value, /51\.0 MB, over the 50\.0 MB/);
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: only.range,
      context: { diagnostics: [only] },
    })) as CodeAction[];
    assert.deepEqual(
      actions.map((a) => [a.title, a.command?.command, a.command?.arguments]),
      [['Validate Run Artifact From Disk', 'harn.validateArtifactFile', [uri]]],
    );
  });
});

describe('workspace check: scopes and progress', () => {
  test('openFiles: nothing closed is checked; switching to workspace checks it, back to openFiles clears it', async () => {
    const root = brokenTree();
    const configuration: Record<string, unknown> = { harn: { diagnostics: { scope: 'openFiles' } } };
    const client = new TestClient();
    try {
      await client.initialize(root, { configuration });
      assert.ok(await client.waitUntil(() => client.logMessages().includes('Harn language server ready')));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(client.latestDiagnostics(uriOf(root, 'lib/broken.harn')), undefined);
      assert.ok(!client.logMessages().some((m) => m.startsWith('workspace check:')));

      configuration.harn = { diagnostics: { scope: 'workspace' } };
      let mark = client.mark();
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      await scanned(client);
      await client.waitForDiagnostics(uriOf(root, 'lib/broken.harn'), hasProblems, 10000, mark);
      await client.waitForDiagnostics(uriOf(root, 'runs/ok/run.json'), hasProblems, 10000, mark);

      configuration.harn = { diagnostics: { scope: 'openFiles' } };
      mark = client.mark();
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      await client.waitForDiagnostics(uriOf(root, 'lib/broken.harn'), isEmpty, 10000, mark);
      await client.waitForDiagnostics(uriOf(root, 'runs/ok/run.json'), isEmpty, 10000, mark);
    } finally {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('progress "Harn: checking the workspace" with n/N files and a percentage, after the gate\'s', async () => {
    const root = brokenTree();
    const client = new TestClient();
    const events: Array<WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd> = [];
    client.connection.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      client.connection.onProgress(WorkDoneProgress.type, params.token, (value) => {
        events.push(value);
      });
    });
    try {
      await client.connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: URI.file(root).toString(),
        workspaceFolders: [{ uri: URI.file(root).toString(), name: 'scan' }],
        capabilities: { window: { workDoneProgress: true } },
      });
      await client.connection.sendNotification(InitializedNotification.type, {});
      const line = await scanned(client);
      assert.match(line, /^workspace check: 6 file\(s\) checked in \d+ ms, 4 with problems/);
      assert.ok(await client.waitUntil(() => events.filter((e) => e.kind === 'end').length >= 2));
      const shown = events.map((e) =>
        e.kind === 'begin' ? `begin ${e.title} ${e.message ?? ''}` : e.kind === 'report' ? `report ${e.percentage ?? ''} ${e.message ?? ''}` : 'end',
      );
      const gate = shown.indexOf('begin Harn: scanning the workspace loud-boundary gate');
      const scan = shown.indexOf('begin Harn: checking the workspace 0/6 files');
      assert.ok(gate >= 0 && scan > gate && shown.indexOf('end') < scan, shown.join(' | '));
      const begin = events[scan];
      assert.ok(begin?.kind === 'begin' && begin.percentage === 0);
    } finally {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('workspace check: examples/demo', () => {
  test('every problem `harn-workbench check` finds is in the Problems before any file is opened, and nothing else', async () => {
    const cli = spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist', 'cli.js'), 'check', '--root', DEMO, '--format', 'json', DEMO], { encoding: 'utf8' });
    const expected = (JSON.parse(cli.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics.map(
      (d) => `${d.path} ${d.code} ${d.range.start.line}:${d.range.start.character}`,
    );
    const client = await started(DEMO);
    try {
      await scanned(client);
      const published = client
        .allLatestDiagnostics()
        .flatMap((p) =>
          p.diagnostics.map(
            (d) =>
              `${path.relative(DEMO, URI.parse(p.uri).fsPath).split(path.sep).join('/')} ${String(d.code)} ${d.range.start.line}:${d.range.start.character}`,
          ),
        );
      assert.deepEqual(published.sort(), expected.sort());
      assert.ok(expected.length >= 29, `the demo has its ${expected.length} problems`);
    } finally {
      await client.shutdown();
    }
  });
});

describe('workspace check: requests during the scan', () => {
  test('a hover is answered while a tree of 2,000 files is being checked', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-scan-big-'));
    const body = Array.from({ length: 60 }, (_, i) => `fn helper_${i}(a, b) {\n  let total = a + b * ${i}\n  return total\n}\n`).join('');
    for (let i = 0; i < 2000; i++) write(root, `src/m${Math.floor(i / 100)}/file_${i}.harn`, body + (i % 10 === 0 ? BROKEN_HARN : ''));
    const client = await started(root);
    try {
      const file = path.join(root, 'src/m0/file_1.harn');
      const uri = await client.open(file, body);
      const position = { line: 0, character: 4 };
      let during = 0;
      while (!client.logMessages().some((m) => m.startsWith('workspace check:'))) {
        const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
        assert.ok(hover !== null, 'the hover answers');
        if (client.allLatestDiagnostics().some((p) => p.uri !== uri && p.diagnostics.length > 0)) during++;
      }
      assert.ok(during > 0, 'hovers were answered after the scan had published and before it ended');
      const broken = client.allLatestDiagnostics().filter((p) => p.diagnostics.length > 0 && p.uri !== uri);
      assert.equal(broken.length, 200);
    } finally {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

function sameKeys(list: Diagnostic[]): string[] {
  return list
    .map((d) => `${String(d.code)} ${d.range.start.line}:${d.range.start.character} ${typeof d.message === 'string' ? d.message : d.message.value}`)
    .sort();
}

function defined<T>(value: T | undefined): T {
  assert.ok(value !== undefined);
  return value;
}
