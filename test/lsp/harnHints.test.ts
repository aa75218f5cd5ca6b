// Inlay hints and completion resolve over stdio, on a file whose OTHER declaration has a syntax error: the
// capabilities; parameter names before literal arguments of local, imported and builtin calls at UTF-16 positions
// (CRLF and a BOM), limited to the requested range, and none once `harn.inlayHints.parameterNames` is turned off;
// completion items that carry only data (the list's JSON measured against the same items resolved), their details
// in completionItem/resolve, and data naming a file outside the folders refused.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CompletionItem,
  CompletionItemKind,
  CompletionRequest,
  CompletionResolveRequest,
  InitializeResult,
  InlayHint,
  InlayHintKind,
  InlayHintRefreshRequest,
  InlayHintRequest,
  MarkupContent,
  Range,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defined } from '../support/assertions';
import { FixtureWorkspace, fixtureWorkspace, TestClient } from '../support/lspClient';

const LIB = `pub fn greet(name: string, loud: bool) -> string {
  return name
}
`;

const BROKEN = [
  '\uFEFFimport { greet } from "./lib"',
  '',
  'fn broken() {',
  '  let bad = )',
  '}',
  '',
  'fn add(a: int, b: int) -> int {',
  '  return a + b',
  '}',
  '',
  'pipeline main(task) {',
  '  let s = "é🙂"; let total = add(2, len(task))',
  '  log(greet("x", true), total)',
  '}',
  '',
].join('\r\n');

/** The document as the server sees it (the BOM is part of the text the client sends). */
const doc = TextDocument.create('file:///x', 'harn', 0, BROKEN);

/** `label@text after it`, so that a wrong position shows. */
function shown(hints: InlayHint[]): string[] {
  return hints.map((h) => {
    const at = doc.offsetAt(h.position);
    return `${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}@${BROKEN.slice(at, at + 4)}`;
  });
}

const WHOLE: Range = { start: { line: 0, character: 0 }, end: doc.positionAt(BROKEN.length) };

describe('inlay hints over stdio, beside a syntax error in another declaration', () => {
  let workspace: FixtureWorkspace;
  let client: TestClient;
  let root: string;
  let uri: string;
  let initialized: InitializeResult;
  const configuration: Record<string, unknown> = { harn: {} };
  let hintRefreshes = 0;

  before(async () => {
    workspace = await fixtureWorkspace(
      'harn-hints-',
      { 'lib.harn': LIB, 'main.harn': BROKEN },
      'main.harn',
      { configuration: (section) => configuration[section], inlayHintRefresh: true },
      (c) =>
        c.connection.onRequest(InlayHintRefreshRequest.type, () => {
          hintRefreshes++;
        }),
    );
    ({ client, root, uri, initialized } = workspace);
    assert.equal(workspace.published.diagnostics.filter((d) => d.source === 'harn.syntax').length, 1, 'the file has its syntax error');
  });

  after(async () => {
    await workspace.close();
  });

  const hintsIn = async (range: Range): Promise<InlayHint[]> =>
    (await client.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range })) ?? [];

  test('the capabilities are advertised', () => {
    assert.deepEqual(initialized.capabilities.inlayHintProvider, { resolveProvider: false });
    assert.equal(initialized.capabilities.completionProvider?.resolveProvider, true);
  });

  test('parameter names before literal arguments of local, builtin and imported calls, at UTF-16 positions', async () => {
    const hints = await hintsIn(WHOLE);
    assert.deepEqual(shown(hints), ['a:@2, l', 'name:@"x",', 'loud:@true']);
    for (const h of hints) {
      assert.equal(h.kind, InlayHintKind.Parameter);
      assert.equal(h.paddingRight, true);
    }
    // Line 11 holds "é🙂" (a surrogate pair) before the call: the hint's character counts UTF-16 code units.
    assert.equal(hints[0]?.position.line, 11);
    assert.equal(hints[0]?.position.character, '  let s = "é🙂"; let total = add('.length);
  });

  test('a keyword builtin, a call with type arguments, and half-typed calls in a block cut off by `}` or the next statement', async () => {
    const text = [
      'fn broken() {',
      '  let bad = )',
      '}',
      'fn add(a: int, b: int) -> int { return a + b }',
      'fn fold<A, B>(xs: list<A>, init: B) -> B { return init }',
      'pipeline main(task) {',
      '  let answer = ask_user("Which?")',
      '  let sum = fold<int, int>(task, 0)',
      '  add(1, ',
      '  let y = 2',
      '}',
      'fn last() {',
      '  add(3, ',
      '}',
      '',
    ].join('\n');
    const typing = await client.open(path.join(root, 'typing.harn'), text);
    const typingDoc = TextDocument.create('file:///typing', 'harn', 0, text);
    const hints =
      (await client.connection.sendRequest(InlayHintRequest.type, {
        textDocument: { uri: typing },
        range: { start: { line: 0, character: 0 }, end: typingDoc.positionAt(text.length) },
      })) ?? [];
    const labels = hints.map((h) => {
      const at = typingDoc.offsetAt(h.position);
      return `${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}@${text.slice(at, at + 3)}`;
    });
    assert.equal(labels.length, 4, labels.join(' '));
    assert.match(labels[0] ?? '', /^\w+:@"Wh$/);
    assert.deepEqual(labels.slice(1), ['init:@0)\n', 'a:@1, ', 'a:@3, ']);
  });

  test('only the hints inside the requested range', async () => {
    const line12: Range = { start: { line: 12, character: 0 }, end: { line: 13, character: 0 } };
    assert.deepEqual(shown(await hintsIn(line12)), ['name:@"x",', 'loud:@true']);
  });

  test('none once harn.inlayHints.parameterNames is off, and back when it is on again; the editor asked to refresh each time', async () => {
    const until = async (expected: number): Promise<InlayHint[]> => {
      const deadline = Date.now() + 10000;
      for (;;) {
        const hints = await hintsIn(WHOLE);
        if (hints.length === expected || Date.now() > deadline) return hints;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const refreshes = hintRefreshes;
    configuration.harn = { inlayHints: { parameterNames: false } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    assert.deepEqual(await until(0), []);
    // The editor is asked to fetch them again (it would keep showing the old ones until the next edit).
    assert.ok(await client.waitUntil(() => hintRefreshes > refreshes), 'workspace/inlayHint/refresh sent');
    configuration.harn = {};
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    assert.equal((await until(3)).length, 3);
    assert.ok(await client.waitUntil(() => hintRefreshes > refreshes + 1), 'and again when they are back');
  });

  test('completion: items carry data only, resolve adds detail and documentation; the list is smaller for it', async (t) => {
    const position = doc.positionAt(BROKEN.indexOf('greet("x"'));
    const answer = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    const items: CompletionItem[] = Array.isArray(answer) ? answer : (answer?.items ?? []);
    for (const label of ['add', 'total', 'task', 'greet', 'len', 'let'])
      assert.ok(
        items.some((i) => i.label === label),
        `${label} offered`,
      );
    for (const item of items) {
      assert.equal(item.documentation, undefined, `${item.label} has no documentation in the list`);
      assert.equal(item.detail, undefined, `${item.label} has no detail in the list`);
      // Keywords have nothing to resolve: no data either.
      if (item.kind !== CompletionItemKind.Keyword) assert.ok(item.data !== undefined, `${item.label} carries data`);
    }
    const resolve = (item: CompletionItem): Promise<CompletionItem> => client.connection.sendRequest(CompletionResolveRequest.type, item);
    const resolved = await Promise.all(items.map(resolve));
    const byLabel = (label: string): CompletionItem | undefined => resolved.find((i) => i.label === label);
    assert.equal(byLabel('add')?.detail, 'fn add(a: int, b: int) -> int');
    assert.match(
      (byLabel('greet')?.documentation as MarkupContent | undefined)?.value ?? '',
      /pub fn greet\(name: string, loud: bool\) -> string[\s\S]*from `lib\.harn`/,
    );
    assert.match(byLabel('len')?.detail ?? '', /len\(/);
    assert.ok(typeof byLabel('len')?.documentation === 'object');
    assert.equal(byLabel('let')?.documentation, undefined);
    // What the list weighed when every item carried its details (before), and what it weighs now (after).
    const strip = ({ data: _data, ...rest }: CompletionItem): CompletionItem => rest;
    const before = JSON.stringify(resolved.map(strip)).length;
    const after = JSON.stringify(items).length;
    t.diagnostic(`completion list JSON: ${before} bytes with details, ${after} bytes with data only (${items.length} items)`);
    assert.ok(after * 2 < before, `the list is less than half its former size: ${after} vs ${before}`);
  });

  test('completion of a shadowed name: one item, the parameter, typed at the end of a body missing its `}`', async () => {
    const text = ['fn broken() {', '  let bad = )', '}', 'let x = "top"', 'fn f(x: int) -> int {', '  return '].join('\n');
    const typing = await client.open(path.join(root, 'shadow.harn'), text);
    const position = TextDocument.create('file:///shadow', 'harn', 0, text).positionAt(text.length);
    const answer = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: typing }, position });
    const items = (Array.isArray(answer) ? answer : (answer?.items ?? [])).filter((i) => i.label === 'x');
    assert.equal(items.length, 1);
    const resolved = await client.connection.sendRequest(CompletionResolveRequest.type, defined(items[0], 'the x item'));
    assert.equal(resolved.detail, '(parameter) x: int');
  });

  test('completion resolve: data naming a file outside the folders, or no data of ours, comes back as it went', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-hints-outside-'));
    try {
      const secret = path.join(outside, 'secret.harn');
      fs.writeFileSync(secret, '/** Leaked doc. */\npub fn leaked() {}\n');
      const forged: CompletionItem = { label: 'leaked', data: { harn: 'binding', from: path.join(root, 'main.harn'), file: secret, offset: 25 } };
      assert.deepEqual(await client.connection.sendRequest(CompletionResolveRequest.type, forged), forged);
      const malformed: CompletionItem = { label: 'add', data: { harn: 'binding', from: 3, offset: -1 } };
      assert.deepEqual(await client.connection.sendRequest(CompletionResolveRequest.type, malformed), malformed);
      const foreign: CompletionItem = { label: 'chat_turn_cap' };
      assert.deepEqual(await client.connection.sendRequest(CompletionResolveRequest.type, foreign), foreign);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
