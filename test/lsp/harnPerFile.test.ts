// The per-file .harn features over stdio, on a file whose OTHER declaration has a syntax error: semantic tokens
// (full, delta after an edit, range; the legend advertised), signature help on `(` and `,` (local, imported,
// builtin), selection ranges; CRLF and a BOM; and a delta against a result the server no longer holds.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  InitializeResult,
  Position,
  SelectionRange,
  SelectionRangeRequest,
  SemanticTokens,
  SemanticTokensDelta,
  SemanticTokensDeltaRequest,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  SignatureHelpTriggerKind,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TOKEN_MODIFIERS, TOKEN_TYPES } from '../../server/src/harn/semanticTokens';
import { defined } from '../support/assertions';
import { FixtureWorkspace, fixtureWorkspace, TestClient } from '../support/lspClient';

const LIB = `/** Greets someone by name. */
pub fn greet(name: string, loud: bool) -> string {
  return name
}
`;

const BROKEN = `import { greet } from "./lib"

const LIMIT = 3

fn broken() {
  let bad = )
}

/** Adds two numbers. */
fn add(a: int, b: int) -> int {
  return a + b
}

pipeline main(task) {
  let total = add(LIMIT, len(task))
  log(greet("x", true), total)
}
`;

function positionIn(text: string, needle: string, delta = 0): Position {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, `${needle} not found`);
  return TextDocument.create('file:///x', 'harn', 0, text).positionAt(at + delta);
}

/** Decodes the protocol's tokens into `text type mod,mod` against `text`. */
function decode(text: string, data: readonly number[]): string[] {
  const doc = TextDocument.create('file:///x', 'harn', 0, text);
  const out: string[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dl, dc, length, type, mask] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0, data[i + 3] ?? 0, data[i + 4] ?? 0];
    character = dl === 0 ? character + dc : dc;
    line += dl;
    const start = doc.offsetAt({ line, character });
    const modifiers = TOKEN_MODIFIERS.filter((_m, bit) => (mask & (1 << bit)) !== 0);
    out.push(`${text.slice(start, start + length)} ${TOKEN_TYPES[type] ?? '?'}${modifiers.length ? ' ' + modifiers.join(',') : ''}`);
  }
  return out;
}

function apply(previous: readonly number[], delta: SemanticTokensDelta): number[] {
  const data = [...previous];
  for (const edit of [...delta.edits].sort((a, b) => b.start - a.start)) data.splice(edit.start, edit.deleteCount, ...(edit.data ?? []));
  return data;
}

describe('per-file .harn features over stdio, beside a syntax error in another declaration', () => {
  let workspace: FixtureWorkspace;
  let client: TestClient;
  let root: string;
  let uri: string;
  let initialized: InitializeResult;

  before(async () => {
    workspace = await fixtureWorkspace('harn-perfile-', { 'lib.harn': LIB, 'main.harn': BROKEN }, 'main.harn');
    ({ client, root, uri, initialized } = workspace);
    assert.equal(workspace.published.diagnostics.filter((d) => d.source === 'harn.syntax').length, 1, 'the file has its syntax error');
  });

  after(async () => {
    await workspace.close();
  });

  test('the capabilities: a legend of standard types and modifiers, full with delta, range; signature help triggers; selection ranges', () => {
    const { capabilities } = initialized;
    assert.deepEqual(capabilities.semanticTokensProvider, {
      legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] },
      full: { delta: true },
      range: true,
    });
    assert.deepEqual(capabilities.signatureHelpProvider?.triggerCharacters, ['(', ',']);
    assert.equal(capabilities.selectionRangeProvider, true);
  });

  test('semantic tokens: full, then a delta after an edit that applies to the same data as a full request', async () => {
    const full = (await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } })) as SemanticTokens;
    const shown = decode(BROKEN, full.data);
    for (const expected of [
      'greet function',
      'LIMIT variable declaration,readonly',
      'broken function declaration',
      'add function declaration',
      'int type defaultLibrary',
      'total variable declaration',
      'LIMIT variable readonly',
      'len function defaultLibrary',
      'log function defaultLibrary',
      'task parameter',
    ]) {
      assert.ok(shown.includes(expected), `${expected} in ${JSON.stringify(shown)}`);
    }
    assert.ok(full.resultId, 'a result id for deltas');

    // Type one character into `total` (both of its places change name: only the declaration here).
    const at = positionIn(BROKEN, 'total =', 5);
    await client.change(uri, [{ range: { start: at, end: at }, text: 's' }]);
    const edited = BROKEN.replace('let total', 'let totals');
    const delta = (await client.connection.sendRequest(SemanticTokensDeltaRequest.type, {
      textDocument: { uri },
      previousResultId: defined(full.resultId, 'resultId'),
    })) as SemanticTokensDelta;
    assert.ok('edits' in delta, `a delta, not all tokens: ${JSON.stringify(delta)}`);
    assert.equal(delta.edits.length, 1);
    const again = (await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } })) as SemanticTokens;
    assert.deepEqual(apply(full.data, delta), again.data);
    assert.ok(decode(edited, again.data).includes('totals variable declaration'));

    // A result id the server does not hold (another request came between, or a restart): all tokens.
    const stale = (await client.connection.sendRequest(SemanticTokensDeltaRequest.type, {
      textDocument: { uri },
      previousResultId: defined(full.resultId, 'resultId'),
    })) as SemanticTokens;
    assert.ok('data' in stale, 'all tokens for an unknown result id');
    assert.deepEqual(stale.data, again.data);

    // Back to the original text for the other tests.
    await client.change(uri, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '' }]);
  });

  test('semantic tokens of a range: the tokens of those lines only', async () => {
    const line = positionIn(BROKEN, '  log(greet').line;
    const ranged = await client.connection.sendRequest(SemanticTokensRangeRequest.type, {
      textDocument: { uri },
      range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } },
    });
    const lineText = BROKEN.split('\n')[line] ?? '';
    // Decoded against the line alone: the first token's line delta is its absolute line.
    const data = [...(ranged?.data ?? [])];
    data[0] = 0;
    assert.deepEqual(decode(lineText, data), ['log function defaultLibrary', 'greet function', 'total variable']);
    assert.equal(ranged?.data[0], line);
  });

  test('signature help on ( and , : a local function, an imported one and a builtin', async () => {
    const onParen = await client.connection.sendRequest(SignatureHelpRequest.type, {
      textDocument: { uri },
      position: positionIn(BROKEN, 'add(LIMIT', 4),
      context: { triggerKind: SignatureHelpTriggerKind.TriggerCharacter, triggerCharacter: '(', isRetrigger: false },
    });
    assert.equal(onParen?.signatures[0]?.label, 'fn add(a: int, b: int) -> int');
    assert.deepEqual(
      onParen?.signatures[0]?.parameters?.map((p) => p.label),
      [
        [7, 13],
        [15, 21],
      ],
    );
    assert.equal(onParen?.activeParameter, 0);
    assert.deepEqual(onParen?.signatures[0]?.documentation, { kind: 'markdown', value: 'Adds two numbers.' });

    const onComma = await client.connection.sendRequest(SignatureHelpRequest.type, {
      textDocument: { uri },
      position: positionIn(BROKEN, '"x", true', 4),
      context: { triggerKind: SignatureHelpTriggerKind.TriggerCharacter, triggerCharacter: ',', isRetrigger: false },
    });
    assert.equal(onComma?.signatures[0]?.label, 'fn greet(name: string, loud: bool) -> string');
    assert.equal(onComma?.activeParameter, 1);

    const builtin = await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri }, position: positionIn(BROKEN, 'len(task', 4) });
    assert.match(builtin?.signatures[0]?.label ?? '', /^fn len\(/);

    const outside = await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri }, position: positionIn(BROKEN, 'const LIMIT', 2) });
    assert.equal(outside, null);
  });

  test('signature help for a keyword builtin, a call with type arguments and a half-typed call in a block', async () => {
    const text = [
      'fn broken() {',
      '  let bad = )',
      '}',
      'fn fold<A, B>(xs: list<A>, init: B) -> B { return init }',
      'pipeline main(task) {',
      '  let answer = ask_user("Which?", {})',
      '  let sum = fold<int, int>([1], 0)',
      '  fold<int, int>([1], ',
      '}',
      '',
    ].join('\n');
    const typing = await client.open(path.join(root, 'typing.harn'), text);
    const help = (needle: string, delta: number) =>
      client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: typing }, position: positionIn(text, needle, delta) });
    const keyword = await help('"Which?", {}', '"Which?", '.length);
    assert.match(keyword?.signatures[0]?.label ?? '', /^fn ask_user\(/);
    assert.equal(keyword?.activeParameter, 1);
    const generic = await help('[1], 0)', '[1], '.length);
    assert.equal(generic?.signatures[0]?.label, 'fn fold(xs: list<A>, init: B) -> B');
    assert.equal(generic?.activeParameter, 1);
    // `fold<int, int>([1], ⏎}`: the block's `}` cuts the call off.
    const halfTyped = await help('[1], \n}', '[1], '.length);
    assert.equal(halfTyped?.signatures[0]?.label, 'fn fold(xs: list<A>, init: B) -> B');
    assert.equal(halfTyped?.activeParameter, 1);
  });

  test('signature help for a method of an impl block: `Type.method(` and `value.method(`, the parameters after `self`', async () => {
    const text = [
      'fn broken() {',
      '  let bad = )',
      '}',
      'struct Point { x: float }',
      'impl Point {',
      '  fn scale(self, factor: float, times: int) -> Point { return self }',
      '}',
      'fn use(p: Point) {',
      '  let a = Point.scale(2.0, 3)',
      '  let b = p.scale(2.0, 3)',
      '}',
      '',
    ].join('\n');
    const methods = await client.open(path.join(root, 'methods.harn'), text);
    for (const call of ['Point.scale(2.0, 3)', 'p.scale(2.0, 3)']) {
      const help = await client.connection.sendRequest(SignatureHelpRequest.type, {
        textDocument: { uri: methods },
        position: positionIn(text, call, call.length - 1),
      });
      assert.equal(help?.signatures[0]?.label, 'fn Point.scale(factor: float, times: int) -> Point', call);
      assert.equal(help?.activeParameter, 1, call);
    }
  });

  test('selection ranges: the name, its call, the statement, the block, the declaration, the file', async () => {
    const ranges = (await client.connection.sendRequest(SelectionRangeRequest.type, {
      textDocument: { uri },
      positions: [positionIn(BROKEN, 'task))', 1)],
    })) as SelectionRange[];
    assert.equal(ranges.length, 1);
    const doc = TextDocument.create('file:///x', 'harn', 0, BROKEN);
    const texts: string[] = [];
    for (let r: SelectionRange | undefined = ranges[0]; r; r = r.parent) texts.push(doc.getText(r.range));
    assert.deepEqual(texts.slice(0, 4), ['task', 'len(task)', 'add(LIMIT, len(task))', 'let total = add(LIMIT, len(task))']);
    assert.equal(texts.at(-1), BROKEN);
  });

  test('CRLF and a BOM: tokens and signature help in UTF-16 positions', async () => {
    const text = '\uFEFF' + BROKEN.replace(/\n/g, '\r\n').replace('log(greet("x"', 'log(greet("🙂"');
    const crlf = await client.open(path.join(root, 'crlf.harn'), text);
    const full = (await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: crlf } })) as SemanticTokens;
    assert.deepEqual(
      decode(text, full.data),
      decode(BROKEN, ((await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } })) as SemanticTokens).data),
    );
    const help = await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: crlf }, position: positionIn(text, '"🙂", ', 5) });
    assert.equal(help?.signatures[0]?.label, 'fn greet(name: string, loud: bool) -> string');
    assert.equal(help?.activeParameter, 1);
  });

  test('a member chain 20,000 deep: every feature answers, the selection chain is bounded', async () => {
    const text = 'let x = a' + '.b'.repeat(20_000) + '\nlog(x, '.padEnd(8) + '\n';
    const deep = await client.open(path.join(root, 'deep.harn'), text);
    const ranges = (await client.connection.sendRequest(SelectionRangeRequest.type, {
      textDocument: { uri: deep },
      positions: [{ line: 0, character: 9 }],
    })) as SelectionRange[];
    let steps = 0;
    for (let r: SelectionRange | undefined = ranges[0]; r; r = r.parent) steps++;
    assert.ok(steps > 100 && steps <= 256, `steps: ${steps}`);
    const full = (await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: deep } })) as SemanticTokens;
    assert.equal(full.data.length / 5, 20_003, 'x, every b, log and x (the undeclared a has none)');
    const help = await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: deep }, position: { line: 1, character: 7 } });
    assert.match(help?.signatures[0]?.label ?? '', /^fn log\(/);
  });
});
