// Signature help for .harn (harn/signatureHelp.ts): the call around the cursor found from the tokens, its
// callee resolved (local, imported, namespace member, builtin), the active parameter through nested calls,
// lists, strings and `${}` holes, named arguments and rest parameters.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { signatureHelpAt, SignatureHelpResult } from '../../server/src/harn/signatureHelp';
import { memoryHost } from '../support/memoryHost';

const LIB = `/** Greets someone. */
pub fn greet(name: string, loud: bool = false) -> string { return name }
`;

const host = memoryHost({ '/ws/lib.harn': LIB, '/ws/again.harn': 'pub import { greet } from "./lib"\n' });

/** The help at the `|` in `source` (the bar removed). */
function helpAt(source: string): SignatureHelpResult | undefined {
  const at = source.indexOf('|');
  assert.ok(at >= 0, 'a | marks the cursor');
  const text = source.slice(0, at) + source.slice(at + 1);
  return signatureHelpAt(new HarnAnalysis(text), '/ws/main.harn', at, host);
}

/** `label` with the active parameter in [brackets]. */
function shown(help: SignatureHelpResult | undefined): string | undefined {
  const signature = help?.signatures[help.activeSignature];
  if (!help || !signature) return undefined;
  const p = signature.parameters[help.activeParameter];
  if (!p) return `${signature.label} (none active)`;
  return signature.label.slice(0, p.label[0]) + '[' + signature.label.slice(p.label[0], p.label[1]) + ']' + signature.label.slice(p.label[1]);
}

const HEAD = `import { greet } from "./lib"
import * as lib from "./lib"
/** Adds. */
fn add(a: int, b: int, ...more: int) -> int { return a }
tool search(query: string, limit: int) { description "Searches." return [] }
let twice = fn(x) { return x * 2 }
fn broken() { let x = ) }
`;

describe('signature help', () => {
  test('a local function: the argument the cursor is in', () => {
    assert.equal(shown(helpAt(HEAD + 'add(|')), 'fn add([a: int], b: int, ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'add(1, |')), 'fn add(a: int, [b: int], ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'add(1, 2, 3, 4|')), 'fn add(a: int, b: int, [...more: int]) -> int');
    assert.equal(helpAt(HEAD + 'add(|')?.signatures[0]?.documentation, 'Adds.');
  });

  test('nested calls, lists, dicts, strings and ${} holes do not move the outer argument', () => {
    assert.equal(shown(helpAt(HEAD + 'add(len([1, 2, 3]), {a: 1, b: 2}, "x, y", |')), 'fn add(a: int, b: int, [...more: int]) -> int');
    assert.equal(shown(helpAt(HEAD + 'add(1, "${greet("a", true)} and, more|")')), 'fn add(a: int, [b: int], ...more: int) -> int');
    // Inside the hole: the inner call.
    assert.equal(shown(helpAt(HEAD + 'add(1, "${greet("a", |)}")')), 'fn greet(name: string, [loud: bool = false]) -> string');
    // In a hole but not in a call of its own: the outer call, and the hole's commas are not counted.
    assert.equal(shown(helpAt(HEAD + 'add(1, "${[x, y|]}")')), 'fn add(a: int, [b: int], ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'add(1, "a ${x} b ${y|}")')), 'fn add(a: int, [b: int], ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'add(twice(|), 2)')), 'fn twice([x])');
    // Right before a closure argument's `{`, and after its `}`: the call's arguments, not the closure's body.
    assert.equal(shown(helpAt(HEAD + 'add(|{ x -> x })')), 'fn add([a: int], b: int, ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'add({ x -> x }, |')), 'fn add(a: int, [b: int], ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'add(twice(3), |2)')), 'fn add(a: int, [b: int], ...more: int) -> int');
  });

  test('imported functions, namespace members, tools and named arguments', () => {
    const imported = helpAt(HEAD + 'greet("x", |');
    assert.equal(shown(imported), 'fn greet(name: string, [loud: bool = false]) -> string');
    assert.equal(imported?.signatures[0]?.documentation, 'Greets someone.');
    assert.equal(shown(helpAt(HEAD + 'lib.greet(|')), 'fn greet([name: string], loud: bool = false) -> string');
    // Through a `pub import` re-export.
    assert.equal(shown(helpAt('import { greet } from "./again"\ngreet(|')), 'fn greet([name: string], loud: bool = false) -> string');
    assert.equal(shown(helpAt(HEAD + 'search(limit: |')), 'tool search(query: string, [limit: int])');
    assert.equal(shown(helpAt(HEAD + 'search(limit: 3, query: "a|")')), 'tool search([query: string], limit: int)');
  });

  test('builtins: the signature that fits the argument count', () => {
    const help = helpAt(HEAD + 'log(|');
    assert.match(shown(help) ?? '', /^fn log\(/);
    assert.ok((help?.signatures.length ?? 0) >= 1);
    assert.match(help?.signatures[0]?.documentation ?? '', /\S/);
  });

  test('builtins the lexer reads as keywords (ask_user, request_approval, dual_control, escalate_to), and calls with type arguments', () => {
    assert.match(shown(helpAt(HEAD + 'let answer = ask_user("Which?", |')) ?? '', /^fn ask_user\(\w+: string, \[options: dict = nil\]\)/);
    for (const keyword of ['request_approval', 'dual_control', 'escalate_to']) {
      assert.match(shown(helpAt(HEAD + `${keyword}(|`)) ?? '', new RegExp(`^fn ${keyword}\\(\\[`), keyword);
    }
    // In a block, cut off by the next statement: the parse lost nothing the help needs.
    assert.match(shown(helpAt(HEAD + 'fn f() {\n  ask_user(|\n  let y = 2\n}\n')) ?? '', /^fn ask_user\(\[/);
    const generic = 'fn fold<A, B>(xs: list<A>, init: B, f: fn(B, A) -> B) -> B { return init }\n';
    assert.equal(shown(helpAt(HEAD + generic + 'fold<int, int>([1, 2], |')), 'fn fold(xs: list<A>, [init: B], f: fn(B, A) -> B) -> B');
    assert.equal(shown(helpAt(HEAD + generic + 'let s = fold<list<int>, int>(|[1], 0)')), 'fn fold([xs: list<A>], init: B, f: fn(B, A) -> B) -> B');
    assert.equal(shown(helpAt(HEAD + generic + 'fn g() {\n  fold<int, int>([1], 0, |\n}\n')), 'fn fold(xs: list<A>, init: B, [f: fn(B, A) -> B]) -> B');
    // `select` is a builtin too, but `select(` is read as a select statement missing its `{`: no call, no help.
    assert.equal(helpAt(HEAD + 'select(|'), undefined);
  });

  test('a half-typed call in a block, cut off by `}` or by the next statement', () => {
    assert.equal(shown(helpAt(HEAD + 'fn f() {\n  add(1, |\n}\n')), 'fn add(a: int, [b: int], ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'fn f() {\n  add(1, |\n  let y = 2\n}\n')), 'fn add(a: int, [b: int], ...more: int) -> int');
    assert.equal(shown(helpAt(HEAD + 'fn f() {\n  let z = greet(|\n  let y = 2\n}\n')), 'fn greet([name: string], loud: bool = false) -> string');
  });

  test('methods of an impl block: `Type.method(` and `value.method(` on a declared type, the parameters after `self`', () => {
    const TYPES = `struct Point { x: float, y: float }
impl Point {
  /** Scales by a factor. */
  fn scale(self, factor: float, around: Point = nil) -> Point { return self }
  fn origin() -> Point { return Point { x: 0.0, y: 0.0 } }
}
`;
    const types = memoryHost({ '/ws/geo.harn': TYPES });
    const at = (source: string): SignatureHelpResult | undefined => {
      const cursor = source.indexOf('|');
      const text = source.slice(0, cursor) + source.slice(cursor + 1);
      return signatureHelpAt(new HarnAnalysis(text), '/ws/main.harn', cursor, types);
    };
    const scale = at(TYPES + 'Point.scale(2.0, |');
    assert.equal(shown(scale), 'fn Point.scale(factor: float, [around: Point = nil]) -> Point');
    assert.equal(scale?.signatures[0]?.documentation, 'Scales by a factor.');
    assert.equal(shown(at(TYPES + 'Point.origin(|')), 'fn Point.origin() -> Point (none active)');
    assert.equal(shown(at(TYPES + 'fn f(p: Point) {\n  p.scale(|\n}\n')), 'fn Point.scale([factor: float], around: Point = nil) -> Point');
    assert.equal(shown(at(TYPES + 'let q: Point = Point.origin()\nq.scale(1.0, |')), 'fn Point.scale(factor: float, [around: Point = nil]) -> Point');
    // The type and its impl in an imported file.
    assert.equal(shown(at('import { Point } from "./geo"\nPoint.scale(|')), 'fn Point.scale([factor: float], around: Point = nil) -> Point');
    // No such method, a value of no declared type, a type without that impl.
    assert.equal(at(TYPES + 'Point.missing(|'), undefined);
    assert.equal(at(TYPES + 'let r = Point.origin()\nr.scale(|'), undefined);
    assert.equal(at('struct Other {}\n' + TYPES + 'Other.scale(|'), undefined);
  });

  test('no help outside a call, after it closes, on `if (`, or for what is not callable', () => {
    assert.equal(helpAt(HEAD + 'let v = |'), undefined);
    assert.equal(helpAt(HEAD + 'add(1, 2)|'), undefined);
    assert.equal(helpAt(HEAD + 'if (|'), undefined);
    assert.equal(helpAt(HEAD + 'fn other(a, |'), undefined);
    assert.equal(helpAt(HEAD + 'unknown_fn(|'), undefined);
    assert.equal(helpAt(HEAD + 'let n = 1\nn(|'), undefined);
    // The scan does not reach into an earlier statement's unclosed call.
    assert.equal(helpAt(HEAD + 'add(1,\nlet z = |'), undefined);
  });

  test('UTF-16 and CRLF: the cursor after emoji and a CRLF line break', () => {
    assert.equal(shown(helpAt(HEAD.replace(/\n/g, '\r\n') + 'add("🙂🙂",\r\n  |')), 'fn add(a: int, [b: int], ...more: int) -> int');
  });
});
