// Parameter-name inlay hints for .harn (harn/inlayHints.ts): literal arguments only, for local, imported,
// namespace-member and builtin callees, rest parameters once, named and spread arguments never, limited to a
// range, and still there in a file with a syntax error elsewhere.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { parameterHints } from '../../server/src/harn/inlayHints';
import { memoryHost } from '../support/memoryHost';

const LIB = `pub fn greet(name: string, loud: bool = false) -> string { return name }
`;
const host = memoryHost({ '/ws/lib.harn': LIB });

const HEAD = `import { greet } from "./lib"
import * as lib from "./lib"
fn add(a: int, b: int, ...more: int) -> int { return a }
tool search(query: string, limit: int) { description "Searches." return [] }
fn broken() { let x = ) }
`;

/** The source with each hint written in where it goes, e.g. `add(a: 1, b: 2)`, from the last line only. */
function hinted(body: string, range?: [number, number]): string {
  const text = HEAD + body;
  const analysis = new HarnAnalysis(text);
  const [start, end] = range ? [HEAD.length + range[0], HEAD.length + range[1]] : [0, text.length];
  let out = text;
  for (const h of parameterHints(analysis, '/ws/main.harn', start, end, host).reverse()) out = out.slice(0, h.offset) + h.label + ' ' + out.slice(h.offset);
  return out.slice(HEAD.length);
}

describe('parameter-name inlay hints', () => {
  test('literal arguments of a local function and tool get their parameter names; other arguments none', () => {
    assert.equal(hinted('add(1, x)'), 'add(a: 1, x)');
    assert.equal(hinted('add(x, -2)'), 'add(x, b: -2)');
    assert.equal(hinted('search("cats", 10)'), 'search(query: "cats", limit: 10)');
    assert.equal(hinted('search("a ${x}", nil)'), 'search(query: "a ${x}", limit: nil)');
    assert.equal(hinted('add(f(1), [1])'), 'add(f(1), [1])');
  });

  test('a rest parameter names only the first argument it takes', () => {
    assert.equal(hinted('add(1, 2, 3, 4)'), 'add(a: 1, b: 2, ...more: 3, 4)');
  });

  test('named arguments take their parameter out of the positional ones; nothing after a spread', () => {
    assert.equal(hinted('search(query: "x", 5)'), 'search(query: "x", limit: 5)');
    assert.equal(hinted('add(...xs, 2)'), 'add(...xs, 2)');
  });

  test('imported functions, namespace members and builtins', () => {
    assert.equal(hinted('greet("Ann", true)'), 'greet(name: "Ann", loud: true)');
    assert.equal(hinted('lib.greet("Ann")'), 'lib.greet(name: "Ann")');
    assert.match(hinted('split("a,b", ",")'), /^split\(\w+: "a,b", \w+: ","\)$/);
  });

  test('unknown callees, and calls of a call, get none', () => {
    assert.equal(hinted('nowhere(1, 2)'), 'nowhere(1, 2)');
    assert.equal(hinted('add(1, 2)(3)'), 'add(a: 1, b: 2)(3)');
  });

  test('nested calls are hinted too, and only arguments inside the range', () => {
    assert.equal(hinted('add(1, add(2, 3))'), 'add(a: 1, add(a: 2, b: 3))');
    const body = 'add(1, 2)\nadd(3, 4)\n';
    assert.equal(hinted(body, [body.indexOf('\n') + 1, body.length]), 'add(1, 2)\nadd(a: 3, b: 4)\n');
  });

  test('an unclosed call while typing still gets its hints', () => {
    assert.equal(hinted('add(1, '), 'add(a: 1, ');
  });

  test('a half-typed call in a block, cut off by `}` or by the next statement, gets its hints', () => {
    assert.equal(hinted('fn f() {\n  add(1, \n}\n'), 'fn f() {\n  add(a: 1, \n}\n');
    assert.equal(hinted('fn f() {\n  add(1, \n  let y = 2\n}\n'), 'fn f() {\n  add(a: 1, \n  let y = 2\n}\n');
    assert.equal(
      hinted('fn f() {\n  let z = add(1, search("q", 3), \n  let y = 2\n}\n'),
      'fn f() {\n  let z = add(a: 1, search(query: "q", limit: 3), \n  let y = 2\n}\n',
    );
    assert.equal(hinted('fn f() {\n  add(1, search("q", \n}\n'), 'fn f() {\n  add(a: 1, search(query: "q", \n}\n');
  });

  test('methods of an impl block: the parameters after `self`', () => {
    const types = 'struct Point { x: float }\nimpl Point {\n  fn scale(self, factor: float) -> Point { return self }\n}\n';
    assert.equal(hinted(types + 'Point.scale(2.0)'), types + 'Point.scale(factor: 2.0)');
  });

  test('builtins the lexer reads as keywords, and calls with type arguments', () => {
    assert.match(hinted('let a = ask_user("Which?")'), /^let a = ask_user\(\w+: "Which\?"\)$/);
    const generic = 'fn fold<A, B>(xs: list<A>, init: B) -> B { return init }\n';
    assert.equal(hinted(generic + 'fold<int, int>([1], 0)'), generic + 'fold<int, int>([1], init: 0)');
  });
});
