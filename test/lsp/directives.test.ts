// The directive checks in the language server, over stdio on a generated transcript in a temporary folder:
// harn.directives diagnostics on their rows, harn/directiveTree (sessions, requests with their prefix status,
// envelopes, directives with ranges on their tags), harn/directiveTreeChanged after an edit, harn/prefixMessage
// for the two sides of a break, bad parameters refused, and the hovers on a directive tag and on a broken request.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HoverRequest, MarkupContent } from 'vscode-languageserver-protocol/node';
import { DirectiveTreeRequest, PrefixMessageRequest, type SessionNode } from '../../server/src/protocol';
import { defined } from '../support/assertions';
import { TestClient } from '../support/lspClient';

const env = (body: string, authority = 'corrective', ttl = 2): string =>
  `<context-directives speaker="harness">\nFollow these.\n<directive authority="${authority}" ttl_turns="${ttl}">\n${body}\n</directive>\n</context-directives>`;
const msg = (index: number, role: string, content: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ type: 'message', session_id: 's-1', message_index: index, role, content, message: { role, content, ...extra } });
const req = (callId: string, iteration: number): string => JSON.stringify({ type: 'provider_call_request', call_id: callId, iteration });

const ROWS = [
  msg(0, 'user', 'fix a.ts'),
  msg(1, 'user', env('Run the tests — ✓ before closing.'), { _harn_directive_ids: ['r-1'] }),
  req('c-1', 0),
  msg(2, 'assistant', 'done'),
  req('c-2', 1),
  msg(0, 'user', 'fix b.ts instead'), // rewrites slot 0 (and drops the slots after it): c-3 breaks at message 0
  msg(1, 'user', env('Run the tests — ✓ before closing.'), { _harn_directive_ids: ['r-1'] }), // re-issued
  req('c-3', 2),
  msg(2, 'assistant', 'ok'),
];

describe('directive envelopes over LSP', () => {
  let client: TestClient;
  let dir: string;
  let uri: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-directives-lsp-'));
    const file = path.join(dir, 'run-llm', 'llm_transcript.jsonl');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, ROWS.join('\n') + '\n');
    client = new TestClient();
    await client.initialize(dir);
    const from = client.notifications.length;
    uri = await client.open(file, fs.readFileSync(file, 'utf8'), 'jsonl');
    await client.waitForDiagnostics(uri);
    await client.waitForNotification('harn/directiveTreeChanged', (p) => (p as { uri: string }).uri === uri, 10000, from);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('diagnostics: prefix_break on the later request, directive_reissued on its tag', () => {
    const d = (client.latestDiagnostics(uri)?.diagnostics ?? []).filter((x) => x.source === 'harn.directives');
    assert.deepEqual(d.map((x) => [x.code, x.range.start.line]).sort(), [
      ['directive_reissued', 6],
      ['prefix_break', 7],
    ]);
    const reissued = defined(d.find((x) => x.code === 'directive_reissued'));
    const row = defined(ROWS[6]);
    assert.equal(row.slice(reissued.range.start.character, reissued.range.end.character), '<directive authority=\\"corrective\\" ttl_turns=\\"2\\">');
  });

  test('harn/directiveTree: one session, three requests, the broken one marked, directives on their tags', async () => {
    const tree = defined((await client.connection.sendRequest(DirectiveTreeRequest, { uri })) ?? undefined);
    assert.equal(tree.uri, uri);
    assert.equal(tree.version, 1);
    const sessions: SessionNode[] = tree.sessions;
    assert.equal(sessions.length, 1);
    const requests = defined(sessions[0]).requests;
    assert.deepEqual(
      requests.map((r) => [r.callId, r.iteration, r.messageCount, r.prefix, r.source, r.divergentIndex, r.range.start.line]),
      [
        ['c-1', 0, 2, 'first', 'replay', undefined, 2],
        ['c-2', 1, 3, 'intact', 'replay', undefined, 4],
        ['c-3', 2, 2, 'broken', 'replay', 0, 7],
      ],
    );
    const first = defined(defined(requests[0]).envelopes[0]);
    assert.equal(first.speaker, 'harness');
    assert.equal(first.form, 'current');
    const d = defined(first.directives[0]);
    assert.deepEqual(
      [d.authority, d.ttlTurns, d.id, d.firstLine, d.body],
      ['corrective', '2', 'r-1', 'Run the tests — ✓ before closing.', 'Run the tests — ✓ before closing.'],
    );
    const row = defined(ROWS[1]);
    assert.equal(d.range.start.line, 1);
    assert.ok(row.slice(d.range.start.character, d.range.end.character).startsWith('<directive authority='));
  });

  test('harn/prefixMessage: both sides of the break; unknown requests and bad params', async () => {
    const before = defined((await client.connection.sendRequest(PrefixMessageRequest, { uri, callId: 'c-2', index: 0 })) ?? undefined);
    const afterBreak = defined((await client.connection.sendRequest(PrefixMessageRequest, { uri, callId: 'c-3', index: 0 })) ?? undefined);
    // Readable text (directives/messageText.ts): the header, then the content with its line breaks.
    assert.match(before.text, /^role: user\ncontent: text, 8 characters\n\nfix a\.ts\n\n\(as sent: /);
    assert.match(afterBreak.text, /^role: user\ncontent: text, 16 characters\n\nfix b\.ts instead\n\n\(as sent: /);
    assert.equal(await client.connection.sendRequest(PrefixMessageRequest, { uri, callId: 'nope', index: 0 }), null);
    assert.equal(await client.connection.sendRequest(PrefixMessageRequest, { uri, callId: 'c-3', index: -1 } as never), null);
    assert.ok(client.logMessages().some((m) => /prefixMessage/.test(m) && /invalid parameters/.test(m)));
  });

  test('hover on a directive tag: authority, what it overrides, ttl, where first committed, in force', async () => {
    const row = defined(ROWS[6]);
    const character = row.indexOf('<directive') + 3;
    const hover = defined((await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 6, character } })) ?? undefined);
    const value = (hover.contents as MarkupContent).value;
    assert.match(value, /\*\*Directive\*\* `corrective` · id `r-1`/);
    assert.match(value, /overrides advisory directives\\; contract directives override it/);
    assert.match(value, /Lifetime: `2` turn/);
    assert.match(value, /First committed at line 2, first sent with request `c-1` \(line 3\)/);
    assert.match(value, /In force at this row: turn 2 of 2/);
  });

  test('hover on the broken request: its prefix status and both versions of message 0', async () => {
    const hover = defined(
      (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 7, character: 2 } })) ?? undefined,
    );
    const value = (hover.contents as MarkupContent).value;
    assert.match(value, /\*\*Prefix cache\*\* · `broken` · 2 messages, rebuilt by replaying/);
    assert.match(value, /Message 0 differs from request `c-2`'s/);
    assert.match(value, /fix a\.ts/);
    assert.match(value, /fix b\.ts instead/);
  });

  test('an edit that restores the prefix: the notification, then an intact tree', async () => {
    const from = client.notifications.length;
    // Rows 5 and 6 appended instead of rewriting slots 0 and 1.
    await client.change(uri, [
      { range: { start: { line: 5, character: 0 }, end: { line: 5, character: defined(ROWS[5]).length } }, text: msg(3, 'user', 'fix b.ts too') },
      { range: { start: { line: 6, character: 0 }, end: { line: 6, character: defined(ROWS[6]).length } }, text: msg(4, 'user', 'and c.ts') },
    ]);
    await client.waitForNotification('harn/directiveTreeChanged', (p) => (p as { uri: string }).uri === uri, 10000, from);
    const tree = defined((await client.connection.sendRequest(DirectiveTreeRequest, { uri })) ?? undefined);
    assert.deepEqual(
      defined(tree.sessions[0]).requests.map((r) => r.prefix),
      ['first', 'intact', 'intact'],
    );
    assert.equal(await client.connection.sendRequest(DirectiveTreeRequest, { uri: 'file:///nowhere/a.harn' }), null);
  });
});
