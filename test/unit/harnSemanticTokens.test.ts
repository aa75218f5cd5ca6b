// Semantic tokens of .harn files (harn/semanticTokens.ts): each name classified by what it refers to in the
// standard token types, imports through the ModuleHost, builtins as defaultLibrary, `const` readonly; the
// protocol's encoding, ranges and delta edits (checked by applying them).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { encodeTokens, semanticTokens, SemanticToken, TOKEN_MODIFIERS, TOKEN_TYPES, tokenEdits, tokensInRange } from '../../server/src/harn/semanticTokens';
import { memoryHost } from '../support/memoryHost';
import { prng } from '../support/random';

const LIB = `pub fn greet(name: string) -> string { return name }
pub struct Point { x: int }
pub const ORIGIN = 0
`;

const MAIN = `import { greet, Point } from "./lib"
import "./lib"
const LIMIT = 3
/** Adds two numbers. */
fn add<T>(a: int, b: T) -> int { return a + b }
enum Color { Red, Green }
pipeline main(task) {
  let total = add(1, 2)
  let broken = )
  var n = len(task)
  log(greet("x"), Color.Red, Point { x: LIMIT }, ORIGIN, n)
}
`;

/** Each token as `text type mod,mod`. */
function shown(text: string, tokens: readonly SemanticToken[]): string[] {
  return tokens.map((t) => `${text.slice(t.start, t.end)} ${t.type}${t.modifiers.length ? ' ' + t.modifiers.join(',') : ''}`);
}

const host = memoryHost({ '/ws/lib.harn': LIB, '/ws/main.harn': MAIN });

describe('semantic tokens: classification', () => {
  test('every name of a broken file, by what it refers to', () => {
    const tokens = semanticTokens(new HarnAnalysis(MAIN), '/ws/main.harn', host);
    assert.deepEqual(shown(MAIN, tokens), [
      'greet function',
      'Point struct',
      'LIMIT variable declaration,readonly',
      'add function declaration',
      'T typeParameter declaration',
      'a parameter declaration',
      'int type defaultLibrary',
      'b parameter declaration',
      'T typeParameter',
      'int type defaultLibrary',
      'a parameter',
      'b parameter',
      'Color enum declaration',
      'Red enumMember declaration',
      'Green enumMember declaration',
      'main function declaration',
      'task parameter declaration',
      'total variable declaration',
      'add function',
      // The statement after the syntax error still binds its name.
      'broken variable declaration',
      'n variable declaration',
      'len function defaultLibrary',
      'task parameter',
      'log function defaultLibrary',
      'greet function',
      'Color enum',
      'Red enumMember',
      'Point struct',
      'x property',
      'LIMIT variable readonly',
      // From the wildcard import: a `const` of lib.harn.
      'ORIGIN variable readonly',
      'n variable',
    ]);
  });

  test('a local declaration shadows a builtin; an unknown name gets no token (TextMate colours it)', () => {
    const text = 'fn log(x) { return x }\nlog(1)\nunknown_thing(2)\n';
    assert.deepEqual(shown(text, semanticTokens(new HarnAnalysis(text), '/ws/a.harn')), [
      'log function declaration',
      'x parameter declaration',
      'x parameter',
      'log function',
    ]);
  });

  test('methods, members, namespaces, attributes and dict keys', () => {
    const text =
      'import * as lib from "./lib"\n@deprecated\nfn f(p) {\n  lib.greet(p.name)\n  p.run()\n  let o = lib.ORIGIN + lib.missing\n  return {key: lib.Point}\n}\nimpl Point { fn area(self) { return 0 } }\n';
    const tokens = semanticTokens(new HarnAnalysis(text), '/ws/m.harn', host);
    assert.deepEqual(shown(text, tokens), [
      'lib namespace declaration',
      'deprecated decorator',
      'f function declaration',
      'p parameter declaration',
      'lib namespace',
      'greet function',
      'p parameter',
      'name property',
      'p parameter',
      'run method',
      // A namespace member is what the module exports under that name; one it does not export gets no token.
      'o variable declaration',
      'lib namespace',
      'ORIGIN variable readonly',
      'lib namespace',
      'key property',
      'lib namespace',
      'Point struct',
      'Point type',
      'area method declaration',
      'self parameter declaration',
    ]);
  });

  test('without a host, imported names read as variables; the legend holds only standard names', () => {
    const tokens = semanticTokens(new HarnAnalysis(MAIN), '/ws/main.harn');
    assert.deepEqual(shown(MAIN, tokens).slice(0, 2), ['greet variable', 'Point variable']);
    for (const type of TOKEN_TYPES) assert.ok(STANDARD_TYPES.has(type), type);
    for (const modifier of TOKEN_MODIFIERS) assert.ok(STANDARD_MODIFIERS.has(modifier), modifier);
  });
});

// VS Code's standard semantic token types and modifiers (its semantic token classification documentation).
const STANDARD_TYPES = new Set([
  'namespace',
  'class',
  'enum',
  'interface',
  'struct',
  'typeParameter',
  'type',
  'parameter',
  'variable',
  'property',
  'enumMember',
  'decorator',
  'event',
  'function',
  'method',
  'macro',
  'label',
  'comment',
  'string',
  'keyword',
  'number',
  'regexp',
  'operator',
]);
const STANDARD_MODIFIERS = new Set([
  'declaration',
  'definition',
  'readonly',
  'static',
  'deprecated',
  'abstract',
  'async',
  'modification',
  'documentation',
  'defaultLibrary',
]);

describe('semantic tokens: encoding, range and delta', () => {
  test('relative encoding in UTF-16, with CRLF and a BOM', () => {
    const text = '\uFEFFlet 名前 = 1\r\nlog("🙂", 名前)\r\n';
    const analysis = new HarnAnalysis(text);
    const tokens = semanticTokens(analysis, '/ws/u.harn');
    assert.deepEqual(shown(text, tokens), ['名前 variable declaration', 'log function defaultLibrary', '名前 variable']);
    const [variable, fn] = [TOKEN_TYPES.indexOf('variable'), TOKEN_TYPES.indexOf('function')];
    const declaration = 1 << TOKEN_MODIFIERS.indexOf('declaration');
    const defaultLibrary = 1 << TOKEN_MODIFIERS.indexOf('defaultLibrary');
    // The BOM is character 0 of line 0; 🙂 is two UTF-16 units, so the second 名前 starts at character 10.
    assert.deepEqual(encodeTokens(tokens, analysis.lineIndex), [0, 5, 2, variable, declaration, 1, 0, 3, fn, defaultLibrary, 0, 10, 2, variable, 0]);
  });

  test('a name right after a block is outside it: `}total` does not read as the parameter `total`', () => {
    const text = 'fn a(total) { log(total) }total\nlet total = 1\n';
    const tokens = semanticTokens(new HarnAnalysis(text), '/ws/main.harn', host);
    const after = text.indexOf('}total') + 1;
    assert.equal(
      tokens.find((t) => t.start === after),
      undefined,
    );
    assert.equal(tokens.find((t) => t.start === text.indexOf('total)'))?.type, 'parameter');
  });

  test('a range keeps the tokens starting in it', () => {
    const analysis = new HarnAnalysis(MAIN);
    const tokens = semanticTokens(analysis, '/ws/main.harn', host);
    const line = MAIN.indexOf('  let total');
    const lineEnd = MAIN.indexOf('\n', line);
    assert.deepEqual(shown(MAIN, tokensInRange(tokens, line, lineEnd)), ['total variable declaration', 'add function']);
  });

  test('delta edits applied to the previous data give the new data, on random edits of a file', () => {
    const rng = prng(15);
    let text = MAIN;
    let previous = encodeTokens(semanticTokens(new HarnAnalysis(text), '/ws/main.harn', host), new HarnAnalysis(text).lineIndex);
    const pieces = ['x', ' ', '\n', 'let q = 1\n', 'Color.', ')', '(', 'fn g() {}', '"${', '}'];
    for (let step = 0; step < 300; step++) {
      const at = Math.floor(rng() * (text.length + 1));
      const cut = rng() < 0.3 ? Math.floor(rng() * 5) : 0;
      text = text.slice(0, at) + (pieces[Math.floor(rng() * pieces.length)] ?? '') + text.slice(Math.min(text.length, at + cut));
      const analysis = new HarnAnalysis(text);
      const next = encodeTokens(semanticTokens(analysis, '/ws/main.harn', host), analysis.lineIndex);
      const edits = tokenEdits(previous, next);
      const applied = [...previous];
      for (const edit of [...edits].reverse()) applied.splice(edit.start, edit.deleteCount, ...edit.data);
      assert.deepEqual(applied, next, `step ${step}`);
      if (edits.length === 0) assert.deepEqual(previous, next);
      for (const edit of edits) assert.equal(edit.start % 5, 0);
      previous = next;
    }
  });

  test('one keystroke inside a name: one edit, that token and the next on its line (its start is relative)', () => {
    const before = new HarnAnalysis(MAIN);
    const text = MAIN.replace('let total', 'let totals');
    const after = new HarnAnalysis(text);
    const edits = tokenEdits(
      encodeTokens(semanticTokens(before, '/ws/main.harn', host), before.lineIndex),
      encodeTokens(semanticTokens(after, '/ws/main.harn', host), after.lineIndex),
    );
    assert.equal(edits.length, 1);
    assert.equal(edits[0]?.data.length, 10);
    assert.equal(edits[0]?.deleteCount, 10);
  });
});
