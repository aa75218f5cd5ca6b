// Run-control logs over LSP (the real server over stdio): diagnostics live and from disk, hovers, every code
// action byte for byte, the tree request and its change notification, and compose: check, inbox, clipboard,
// retry and the refusals (a symlinked inbox, a path outside the workspace, a request the protocol would refuse).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CodeAction, CodeActionRequest, Diagnostic, HoverRequest, MarkupContent, TextEdit } from 'vscode-languageserver-protocol/node';
import { RunControlComposeRequest, RunControlComposeResult, RunControlTreeRequest } from '../../server/src/protocol';
import { defined } from '../support/assertions';
import { TestClient } from '../support/lspClient';
import { LogWriter, receiptLine } from '../support/runControlLog';

const T = 1_767_000_000_000;

/** A log with one active run at turn-2 and one of each problem with a code action. */
function problemLog(): string[] {
  const log = new LogWriter();
  log.turn(1);
  const first = log.request({ kind: 'steer', input: 'Only fix the parser test.' });
  log.submit(first, T);
  log.applyAll(T + 1);
  const stale = log.request({ kind: 'steer', input: 'stale' });
  log.turn(2);
  const lines = log.lines;
  // 5: a request with an unknown field; 6: a reused id for another command (never rejected);
  lines.push(JSON.stringify({ ...JSON.parse(lines[1] ?? '{}'), request_id: 'rc-extra', priority: 'high' }));
  lines.push(JSON.stringify({ ...JSON.parse(lines[1] ?? '{}'), command: { kind: 'steer', input: 'something else' } }));
  // 7-8: a stale request and a host that accepted it anyway;
  lines.push(JSON.stringify(stale));
  lines.push(
    receiptLine({
      schema: 'a3s.code.run-control-receipt.v1',
      request_id: stale.request_id,
      session_id: 'sess-alpha',
      run_id: 'run-42',
      operation: 'steer',
      state: 'accepted',
      sequence: 2,
      turn_id: 'turn-2',
      turn_revision: 2,
      accepted_at_ms: T + 5,
    }),
  );
  // 9: an oversize reason; 10: a wrong schema string.
  lines.push(JSON.stringify({ ...log.request({ kind: 'interrupt', reason: 'é'.repeat(3000), force: false }), request_id: 'rc-long' }));
  lines.push(JSON.stringify({ ...JSON.parse(lines[1] ?? '{}'), request_id: 'rc-schema', schema: 'a3s.code.run-control-request.v0' }));
  // 11: text from the file that would be Markdown (a link to a command) if it were not escaped.
  lines.push(JSON.stringify({ ...JSON.parse(lines[1] ?? '{}'), request_id: '[x](command:evil)', run_id: 'run-![i](http://e/x.png)' }));
  return lines;
}

describe('run-control logs over LSP', () => {
  let client: TestClient;
  let root: string;
  let outside: string;
  let file: string;
  let uri: string;
  let lines: string[];

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-rc-lsp-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-rc-outside-'));
    fs.mkdirSync(path.join(root, 'runs'));
    file = path.join(root, 'runs', 'run_control.jsonl');
    lines = problemLog();
    fs.writeFileSync(file, lines.join('\n') + '\n');
    // A log recognised by its rows only, closed: checked from disk.
    fs.writeFileSync(path.join(root, 'runs', 'host.jsonl'), lines.slice(0, 6).join('\n') + '\n');
    client = new TestClient();
    await client.initialize(root);
    uri = await client.open(file, fs.readFileSync(file, 'utf8'), 'jsonl');
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.source === 'harn.runControl'));
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const ours = (): Diagnostic[] => (client.latestDiagnostics(uri)?.diagnostics ?? []).filter((d) => d.source === 'harn.runControl');

  test('diagnostics: each problem on its row with its code', () => {
    assert.deepEqual(
      ours().map((d) => [d.range.start.line, d.code]),
      [
        [5, 'UNKNOWN_FIELD'],
        [6, 'DUPLICATE_REQUEST'],
        [8, 'STALE_TURN'],
        [9, 'INVALID_REQUEST'],
        [10, 'INVALID_REQUEST'],
      ],
    );
    const unknown = defined(ours()[0]);
    assert.deepEqual(unknown.range, { start: { line: 5, character: 0 }, end: { line: 5, character: lines[5]?.length } });
  });

  test('a closed log recognised by its rows is checked from disk', async () => {
    const hostUri = `file://${path.join(root, 'runs', 'host.jsonl')}`;
    const published = await client.waitForDiagnostics(hostUri, (p) => p.diagnostics.length > 0, 15000);
    assert.deepEqual(
      published.diagnostics.map((d) => [d.source, d.code, d.range.start.line]),
      [['harn.runControl', 'UNKNOWN_FIELD', 5]],
    );
  });

  async function actions(line: number): Promise<CodeAction[]> {
    const diagnostics = ours().filter((d) => d.range.start.line === line);
    const result = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: defined(diagnostics[0]).range,
      context: { diagnostics },
    });
    return (result ?? []) as CodeAction[];
  }
  function onlyEdit(action: CodeAction | undefined): TextEdit {
    const edits = defined(action?.edit?.changes?.[uri]);
    assert.equal(edits.length, 1);
    return defined(edits[0]);
  }

  test('code action: remove the unknown field', async () => {
    const [action] = await actions(5);
    assert.equal(action?.title, 'Remove the unknown field `priority`');
    const edit = onlyEdit(action);
    assert.deepEqual(edit.range, { start: { line: 5, character: 0 }, end: { line: 5, character: lines[5]?.length } });
    assert.equal(edit.newText, lines[5]?.replace(',"priority":"high"', ''));
  });

  test('code action: a new request id for DUPLICATE_REQUEST', async () => {
    const [action] = await actions(6);
    const edit = onlyEdit(action);
    const id = defined(/"request_id":"([^"]+)"/.exec(edit.newText)?.[1]);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(edit.newText, lines[6]?.replace('"request_id":"rc-1"', `"request_id":"${id}"`));
  });

  test("code action: the stale request's expected turn and revision from the latest snapshot", async () => {
    const [action] = await actions(8);
    assert.equal(action?.title, 'Expect turn turn-2 revision 2 (the latest snapshot)');
    const edit = onlyEdit(action);
    assert.equal(edit.range.start.line, 7, 'the edit is on the request row');
    assert.equal(
      edit.newText,
      lines[7]?.replace('"expected_turn_id":"turn-1","expected_turn_revision":1', '"expected_turn_id":"turn-2","expected_turn_revision":2'),
    );
  });

  test('code action: trim the oversize reason to 4 KiB at a character boundary', async () => {
    const [action] = await actions(9);
    assert.equal(action?.title, 'Trim the reason to 4 KiB');
    assert.equal(onlyEdit(action).newText, lines[9]?.replace('é'.repeat(3000), 'é'.repeat(2048)));
  });

  test('code action: fix the schema string', async () => {
    const [action] = await actions(10);
    assert.equal(action?.title, 'Set the schema to the v1 request schema');
    assert.equal(onlyEdit(action).newText, lines[10]?.replace('request.v0', 'request.v1'));
  });

  test('hover: what the row is, its state, the rule', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 8, character: 3 } });
    const value = (defined(hover?.contents) as MarkupContent).value;
    assert.match(value, /\*\*Run-control receipt\*\*: steer `rc-2` \*\*accepted\*\*/);
    assert.match(value, /`STALE_TURN`: Accepted, but its request \(line 8\) expects turn/);
  });

  test('hover: text from the file is escaped (no link, no image)', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 11, character: 3 } });
    const value = (defined(hover?.contents) as MarkupContent).value;
    assert.match(value, /steer `\[x\]\(command:evil\)` for run `run-!\[i\]\(http:\/\/e\/x\.png\)`/);
  });

  test('harn/runControlTree: session → run → controls with receipts and problems', async () => {
    const tree = defined((await client.connection.sendRequest(RunControlTreeRequest, { uri })) ?? undefined);
    const run = defined(tree.sessions[0]?.runs[0]);
    assert.deepEqual([tree.sessions[0]?.sessionId, run.runId, run.active, run.turnId, run.turnRevision], ['sess-alpha', 'run-42', true, 'turn-2', 2]);
    assert.deepEqual(
      run.controls.map((c) => [c.requestId, c.state, c.problems.join(',')]),
      [
        ['rc-1', 'applied', 'DUPLICATE_REQUEST'],
        ['rc-extra', 'requested', 'UNKNOWN_FIELD'],
        ['rc-2', 'accepted', 'STALE_TURN'],
        ['rc-long', 'requested', 'INVALID_REQUEST'],
        ['rc-schema', 'requested', 'INVALID_REQUEST'],
      ],
    );
    assert.equal(await client.connection.sendRequest(RunControlTreeRequest, { uri: `file://${path.join(root, 'nothing.harn')}` }), null);
  });

  const compose = (params: Record<string, unknown>): Promise<RunControlComposeResult> =>
    client.connection.sendRequest(RunControlComposeRequest, { uri, runId: 'run-42', ...params } as never);
  const inbox = (): string => path.join(root, 'runs', 'run-control-inbox.jsonl');

  test('compose check: a valid steer is built but nothing is written; an invalid one is refused as upstream says', async () => {
    const ok = await compose({ command: { kind: 'steer', input: 'Only the parser.' }, deliver: 'check' });
    assert.equal(ok.ok, true);
    assert.equal(ok.ok && ok.request.expected_turn_id, 'turn-2');
    assert.equal(fs.existsSync(inbox()), false);
    assert.deepEqual(await compose({ command: { kind: 'steer', input: ' ' }, deliver: 'check' }), {
      ok: false,
      code: 'INVALID_REQUEST',
      message: 'invalid run-control request: steer input must not be empty',
    });
    const bad = await compose({ command: { kind: 'pause' }, deliver: 'check' });
    assert.equal(!bad.ok && bad.code, 'INVALID_PARAMS');
  });

  test('compose inbox: exactly one line appended, the tree shows it, a retry re-sends the same bytes', async () => {
    const from = client.notifications.length;
    const sent = await compose({ command: { kind: 'steer', input: 'Only the parser.' }, deliver: 'inbox' });
    assert.ok(sent.ok);
    assert.equal(sent.inbox, 'runs/run-control-inbox.jsonl');
    assert.equal(fs.readFileSync(inbox(), 'utf8'), sent.line + '\n');
    await client.waitForNotification('harn/runControlTreeChanged', (p) => (p as { uri: string }).uri === uri, 10000, from);
    const tree = defined((await client.connection.sendRequest(RunControlTreeRequest, { uri })) ?? undefined);
    const id = String(sent.request.request_id);
    assert.deepEqual(
      tree.sessions[0]?.runs[0]?.controls.filter((c) => c.requestId === id).map((c) => [c.state, c.summary]),
      [['requested', 'Only the parser.']],
    );
    const retry = await compose({ command: { kind: 'steer', input: 'ignored' }, deliver: 'inbox', retryOf: id });
    assert.ok(retry.ok);
    assert.equal(retry.line, sent.line);
    assert.equal(fs.readFileSync(inbox(), 'utf8'), `${sent.line}\n${sent.line}\n`);
    const clip = await compose({ command: { kind: 'interrupt', reason: 'stop', force: true }, deliver: 'clipboard' });
    assert.ok(clip.ok);
    assert.equal(clip.inbox, undefined);
    assert.equal(fs.readFileSync(inbox(), 'utf8').split('\n').length, 3, 'clipboard writes nothing');
    const retryLog = await compose({ command: { kind: 'steer', input: 'x' }, deliver: 'clipboard', retryOf: 'rc-1' });
    assert.equal(retryLog.ok && retryLog.line, lines[1]);
  });

  test('compose refusals: a symlinked inbox, an inbox outside the workspace, an unknown run', async () => {
    fs.rmSync(inbox());
    fs.writeFileSync(path.join(outside, 'target.jsonl'), '');
    fs.symlinkSync(path.join(outside, 'target.jsonl'), inbox());
    const linked = await compose({ command: { kind: 'steer', input: 'x' }, deliver: 'inbox' });
    assert.equal(!linked.ok && linked.code, 'INBOX_REFUSED');
    assert.match(!linked.ok ? linked.message : '', /is a symbolic link: nothing is written through one/);
    assert.equal(fs.readFileSync(path.join(outside, 'target.jsonl'), 'utf8'), '');
    fs.rmSync(inbox());
    fs.symlinkSync(outside, path.join(root, 'linked'));
    fs.copyFileSync(file, path.join(outside, 'run_control.jsonl'));
    const throughLink = `file://${path.join(root, 'linked', 'run_control.jsonl')}`;
    const viaFolder = await client.connection.sendRequest(RunControlComposeRequest, {
      uri: throughLink,
      runId: 'run-42',
      command: { kind: 'steer', input: 'x' },
      deliver: 'inbox',
    });
    assert.match(!viaFolder.ok ? viaFolder.message : '', /reached through a symbolic link/);
    const outsideUri = `file://${path.join(outside, 'run_control.jsonl')}`;
    const far = await client.connection.sendRequest(RunControlComposeRequest, {
      uri: outsideUri,
      runId: 'run-42',
      command: { kind: 'steer', input: 'x' },
      deliver: 'inbox',
    });
    assert.match(!far.ok ? far.message : '', /is outside the workspace folders/);
    assert.equal(fs.existsSync(path.join(outside, 'run-control-inbox.jsonl')), false);
    const unknown = await compose({ runId: 'run-9', command: { kind: 'steer', input: 'x' }, deliver: 'inbox' });
    assert.equal(!unknown.ok && unknown.code, 'NO_SNAPSHOT');
    assert.equal(fs.existsSync(inbox()), false);
  });
});
