// The syntax audit of spec/harn-language.md §1 (issue 10): one snippet per form the spec names in
// §1.1–§1.8 (and the 0.10 forms met in upstream sources: namespace imports, list-literal ternary
// branches, holes spanning lines), each of which must parse with no diagnostic; then the forms upstream
// rejects, split into those rejected here too (exact diagnostics) and those accepted here on purpose.
// The detailed AST shapes are pinned in parser.test.ts and lexer.test.ts; this table is the checklist.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../server/src/harn/parser';

/** [spec section, form, snippet]. */
type Form = [string, string, string];

const ACCEPTED: Form[] = [
  // §1.1 lexical
  ['1.1', 'newline separates statements; `\\` + newline joins lines', 'let a = 1\nlet b = 1 + \\\n  2'],
  ['1.1', 'line, nested block, doc and legacy doc comments', '// c\n/* a /* nested */ b */\n/** Doc. */\nfn f() {}\n/// legacy\nfn g() {}'],
  ['1.1', 'shebang at byte 0', '#!/usr/bin/env harn\nlog(1)'],
  ['1.1', 'Unicode identifiers', 'let café = 1'],
  ['1.1', 'ints, floats, `42.method()`', 'let a = 123\nlet b = 1.5\nlet c = 42.to_string()'],
  ['1.1', 'durations ms s m h d w', 'let d = [5ms, 2s, 3m, 1h, 1d, 1w]'],
  ['1.1', 'string escapes, unknown escapes kept, lone `$`', 'let s = "a\\n\\t\\\\\\"\\$\\r\\0 \\x cost $5"'],
  ['1.1', 'interpolation, quotes in a hole, string-aware holes (0.10)', 'let s = "${join(xs, " ")} ${f("}")} ${x ?? "a}b"}"'],
  ['1.1', 'a hole spanning lines inside its brackets (0.10)', 'let s = "${render(\n  "a",\n  b,\n)}"'],
  ['1.1', 'triple-quoted strings with holes and `\\${` (0.10)', 'let s = """\n  hi ${name}\n  literal \\${x}\n  """'],
  ['1.1', 'raw and hashed raw strings (0.10)', 'let a = r"\\d+"\nlet b = r#"say "hi""#\nlet c = r##"a"#b"##'],
  ['1.1', 'two-character operators and `&` (0.10)', 'let v = a == b && c != d || e |> f ?? g ** h\ntype T = A & B\nx += 1; x -= 1; x *= 2; x /= 2; x %= 2'],
  [
    '1.1',
    'contextual words are names',
    'let gen = 1\nlet each = 2\nlet settle = 3\nlet with = 4\nlet as = 5\nlet stream = 6\nlet timeout = 7\nlet default = 8\nlet description = 9\nlet summarize = 10\nlet where = 11\nlet out = 12\nlet not = 13\nlet self = 14\nlet block = 15\nlet scope = 16\nlet throws = 17\nlet is = 18\nlet implies = 19\nlet cost_route = 20\nlet max_concurrent = 21',
  ],
  // §1.2 file and declarations
  [
    '1.2',
    'imports: path, selected names across lines, pub',
    'import "std/agent"\nimport { a, b } from "./lib"\npub import {\n  x,\n  y,\n} from "m"\npub import "lib/shared"',
  ],
  ['1.2', 'namespace imports `import * as ns` (0.10)', 'import * as ui from "std/ui"\npub import * as forms from "./forms"\nlet p = ui.page("t")'],
  [
    '1.2',
    'attributes with every argument kind, before declarations',
    '@test\n@archivist(evidence: ["x"], confidence: 0.95, n: -1, ok: true, none: nil, mode: strict, metadata: {source: "d"},)\npub fn f() {}',
  ],
  [
    '1.2',
    'attributed pipeline, tool, skill, eval_pack, struct, enum, type, interface, impl',
    '@a\npipeline p() {}\n@a\ntool t() { description "d" }\n@a\nskill s { description "d" }\n@a\neval_pack e { threshold: 1 }\n@a\nstruct S { x: int }\n@a\nenum E { A }\n@a\ntype T = int\n@a\ninterface I { fn m() }\n@a\nimpl S { fn m(self) {} }',
  ],
  [
    '1.2',
    'pipelines: params, return type, extends, override',
    'pipeline base(task) -> string { return task }\npipeline main(task) extends base {\n  override setup(x) { log(x) }\n}',
  ],
  ['1.2', 'typed pipeline parameters and zero-parameter pipelines (0.10)', 'pipeline main(harness: Harness, task) {}\npipeline default() {}'],
  [
    '1.2',
    'fn: pub, gen, type parameters with variance, defaults, rest, return type, where',
    'pub gen fn f<in T, out U>(a: T, b: int = 1, ...rest) -> U where T: Show { yield a }',
  ],
  ['1.2', 'optional commas in parameter lists', 'fn f(a b c) {}'],
  ['1.2', 'tool with a description line', 'tool search(query: string) -> list {\n  description "Searches"\n  return []\n}'],
  ['1.2', 'skill entries', 'pub skill deploy {\n  description "Deploy"\n  paths ["infra/**"]\n  on_activate fn() { log("x") }\n}'],
  [
    '1.2',
    'eval_pack: name, title, `key: value`, summarize, statements',
    'pub eval_pack pack "regression" {\n  baseline: "c.json"\n  for c in cases { log(c) }\n  summarize { log(pack) }\n}\neval_pack "titled" { threshold: 0.8 }',
  ],
  ['1.2', 'type alias with type parameters', 'type Reader<out T> = T'],
  ['1.2', 'enums with type parameters and variant parameters', 'pub enum Result<T> {\n  Ok(value: T),\n  Err(message: string, code: int),\n  Empty\n}'],
  ['1.2', 'structs with type parameters, optional and untyped fields', 'pub struct Box<T> {\n  value: T\n  label?: string\n  loose\n}'],
  [
    '1.2',
    'interfaces: associated types, generic methods',
    'interface Repo<T> {\n  type Id = string\n  fn get(id: string) -> T\n  fn put<U>(id: string, value: U) -> U\n}',
  ],
  [
    '1.2',
    'impl blocks, `impl Trait for Type`, pub methods',
    'impl Point { pub fn norm(self) -> float { return 0.0 } }\nimpl Show for Point { fn show(self) -> string { return "p" } }',
  ],
  ['1.2', 'pub type, pub let, pub const (0.10)', 'pub type Id = string\npub let shared = 1\npub const LIMIT = 3'],
  ['1.2', 'declarations nested in blocks; imports after declarations (0.10)', 'fn outer() {\n  fn inner() {}\n  struct Local { x: int }\n}\nimport "late"'],
  // §1.3 statements
  [
    '1.3',
    'let/var/const with patterns, annotations, defaults, rest',
    'let x: int = 1\nvar {a, b: bee, c = 3, ...rest} = d\nconst [first, second = 2, ...others] = xs',
  ],
  ['1.3', 'if / else if / else, newline before else', 'if a { f() }\nelse if b { g() }\nelse { h() }'],
  ['1.3', 'for over names, patterns and (k, v)', 'for x in xs { log(x) }\nfor {id, name} in rows { log(id) }\nfor (k, v) in d { log(k) }'],
  ['1.3', 'while with and without parentheses', 'while x < 3 { x += 1 }\nwhile (x < 3) { x += 1 }'],
  [
    '1.3',
    'match: or-patterns, guards, enum patterns, arms on one line',
    'match n {\n  0 | 1 -> { "small" }\n  Shape.Circle(r) if r > 1 -> { "big" }\n  Ok(v) -> { v }\n  _ -> { "other" }\n}\nmatch x { 1 -> {"a"} _ -> {"b"} }',
  ],
  ['1.3', 'retry with a primary or a parenthesised expression', 'retry 3 { f() }\nretry (n + 1) { f() }'],
  [
    '1.3',
    'parallel, each, settle, with options, bindings, as stream',
    'parallel 3 { i -> f(i) }\nlet r = parallel each xs with {max_concurrent: 2} { x -> f(x) } as stream\nparallel settle xs { (i, x) -> f(x) }',
  ],
  [
    '1.3',
    'return/throw/break/continue/yield/emit',
    'fn f() {\n  for x in xs { if x { break } else { continue } }\n  emit 1\n  yield\n  throw "e"\n  return\n}',
  ],
  [
    '1.3',
    'try / catch (e: T) / catch e / finally; bare try; try*',
    'try { f() } catch (e: AppError) { g() } finally { h() }\nlet r = try { f() }\nlet v = try { f() } catch e { nil }\nlet w = try* f()',
  ],
  ['1.3', 'guard, require, deadline, mutex, defer', 'guard x else { return }\nrequire x > 0, "positive"\ndeadline 30s { f() }\nmutex { f() }\ndefer { g() }'],
  [
    '1.3',
    'select with from, timeout and default',
    'select {\n  msg from ch { log(msg) }\n  timeout 5s { log("t") }\n}\nselect { x from ch { f(x) } default { g() } }',
  ],
  ['1.3', 'assignments to names, fields and elements, compound operators', 'a = 1\na.b.c = 2\nxs[0][1] = 3\nm.list[0] += 4'],
  // §1.4 expressions
  [
    '1.4',
    'every precedence level, `to`/`exclusive`, `not in`',
    'let v = xs |> f\nlet r = 1 to 10 exclusive\nlet t = a || b && c == d < e + f ?? g * h ** i\nlet n = a not in b\nlet m = -x\nlet o = !y',
  ],
  [
    '1.4',
    'postfix: members, optional members and calls, index, slices, try, struct construction',
    'let v = a.b?.c.m(1)?.n(2)[0][1:2][:3][4:]\nlet w = f()?\nlet p = Point {x: 1, "y": 2}\nlet q = Foo {}',
  ],
  ['1.4', 'generic calls `f<T>(x)`', 'let v = f<list<int>, string?>(x)\nlet w = obj.method<int>(y)'],
  [
    '1.4',
    'ternary with list-literal branches and `?[` subscripts (0.10)',
    'let xs = replay ? [] : [sketch]\nlet v = c ? [1] : [2]\nlet w = a?[0] ?? b\nlet z = c ? a[0] : b\nlet n = true ? [1, true ? [2] : []] : []',
  ],
  ['1.4', 'ternary with raw string, duration and nested branches (0.10)', 'let v = c ? r"a" : b\nlet d = c ? 5s : 1s\nlet n = a ? b ? 1 : 2 : 3'],
  ['1.4', 'ternary wrapped across lines (0.10)', 'let v = c\n  ? [1]\n  : [2]\nlet w = c ?\n  "yes" : "no"'],
  [
    '1.4',
    'line continuation: leading binary and member operators, trailing operators',
    'let v = a\n  || b\n  && c\n  == d\n  != e\n  < f\n  >= g\n  + h\n  * i\n  / j\n  % k\n  ** l\n  ?? m\n  |> n\n  .o\n  ?.p\nlet w = a +\n  b',
  ],
  [
    '1.4',
    'primaries: paren, list with spread, dict, closures, fn expressions, spawn',
    'let v = [(1), ...xs, {a: 1}, { x -> x }, { -> 1 }, { a, b: int = 1 -> a }, fn(x) -> int { return x }, spawn { f() }]',
  ],
  ['1.4', 'control flow as expressions', 'let v = if a { 1 } else { 2 }\nlet m = match x { _ -> { 1 } }\nlet r = retry 3 { f() }\nlet d = deadline 5s { f() }'],
  ['1.4', 'dict keys: names, keywords, strings, computed, spreads', 'let d = {a: 1, type: 2, select: 3, "k-x": 4, [key]: 5, ...rest}'],
  ['1.4', '`_` on the right of `|>`', 'let v = xs |> map(_, f)'],
  // §1.5 types
  [
    '1.5',
    'unions, generics, lists, shapes with keyword and optional fields, fn types, literals, never',
    'type T = int | string | list<int> | [string] | dict<string, int> | {type: string, fn?: int} | fn(int, x: string) -> bool | "a" | 1 | -1 | nil | true | never',
  ],
  ['1.5', 'special names: iter, Generator, Stream, any, unknown', 'fn f(a: iter<int>, b: Generator<int>, c: Stream<int>, d: any, e: unknown) {}'],
  ['1.5', '`T?`, `A & B`, row tails (0.10)', 'fn f(x: string?, y: list<int?>?) {}\ntype R = A & B\ntype S = {id: string, ...rest}\ntype U = {...R1, ...R2}'],
  // §1.6 separation
  ['1.6', '`;` separators; optional commas in literals and calls', 'let a = 1; let b = 2\nlet xs = [1 2 3]\nlog(1 2)\nsleep(5min)'],
  ['1.6', 'newlines before `{`', 'fn f()\n{\n  if x\n  {\n  }\n}'],
  // §1.7 traps (the accepted side)
  ['1.7', 'calls on any expression (0.10)', 'f(1)(2)\nxs[0](1)\n(f)(x)'],
  ['1.7', 'keywords as member names', 'let v = o.type + o.match + o.select + o.finally + o.require + o.skill + o.eval_pack'],
  // §1.8 newer syntax
  ['1.8', '`fn … -> T throws E`, `where T: A + B`', 'fn f<T>(x: T) -> T throws AppError where T: Show + Eq { return x }'],
  ['1.8', 'type predicates', 'fn is_text(v: unknown) -> v is string { return true }\nfn maybe(v: unknown) -> implies v is string { return true }'],
  ['1.8', 'block { } and scope { }', 'block { let inner = 1 }\nscope { spawn { f() } }'],
  ['1.8', 'mutex(key) { }', 'mutex(key) { f() }'],
  ['1.8', 'cost_route { name: expr … stmts }, options separated by `,` or newlines', 'cost_route { budget: 5, model: "m"\n  tier: 2\n  f()\n}'],
  [
    '1.8',
    'HITL calls with named arguments',
    'let r = ask_user(prompt: "Pick", default: 0)\nlet a = request_approval(action: "deploy", quorum: 2)\nlet d = dual_control(n: 2, m: 3)\nlet e = escalate_to(role: "oncall")',
  ],
  ['1.8', '`?.[i]` optional subscript', 'let v = xs?.[i]\nlet w = d?.["k"]'],
  ['1.8', 'scoped imports', 'import std::agent::{run_loop, Options}\npub import std::personas::prelude::{verify, summarize}'],
  ['1.8', 'attribute values that are paths or calls', '@trigger(on: github.pr_opened, when: schedule("*/30 * * * *"))\npipeline review(task) {}'],
  ['1.8', 'the entry point `fn main(harness: Harness)`', 'fn main(harness: Harness) {\n  harness.stdio.println(harness.fs.read("x"))\n}'],
];

/** Forms upstream rejects (per the spec) that are rejected here too: [form, snippet, exact diagnostics]. */
const REJECTED: [string, string, string[]][] = [
  ['`retry n + 1 {` (only a primary or a parenthesised expression)', 'retry n + 1 { f() }', ["8-9 syntax_error: Expected '{' to start a block, got '+'"]],
  [
    '`deadline seconds(5) {`',
    'deadline seconds(5) { f() }',
    ["16-17 syntax_error: Expected '{' after the deadline (wrap a call in parentheses: deadline (f(x)) { … }), got '('"],
  ],
  ['`if Foo {}` (struct construction takes the braces)', 'if Foo {}', ["9-9 syntax_error: Unexpected end of file, expected '{' to start a block"]],
  ['`point { x: 1 }` (a lowercase name is no struct)', 'point { x: 1 }', ["6-7 syntax_error: Expected statement separator (`;` or newline), got '{'"]],
  ['`@attr` before `let`', '@a\nlet x = 1', ["3-6 syntax_error: Expected a declaration after attributes (attributes cannot annotate bindings), got 'let'"]],
  ['`;;` is an empty statement', 'let a = 1;; let b = 2', ['10-11 syntax_error: Unexpected empty statement: got ;']],
  ['`; else`', 'if a { f() }; else { g() }', ["14-18 syntax_error: Expected statement, got 'else'"]],
  [
    'a type annotation on a destructuring pattern',
    'let {a}: int = d',
    ['7-8 syntax_error: A type annotation is only allowed on a simple binding, not a destructuring pattern'],
  ],
  [
    '`as stream` after `parallel settle`',
    'parallel settle xs { x -> f(x) } as stream',
    ["33-42 syntax_error: 'as stream' is only allowed after 'parallel each'"],
  ],
  [
    'a select with both timeout and default',
    'select { timeout 1s { f() } default { g() } }',
    ["28-35 syntax_error: A select cannot have both 'timeout' and 'default'"],
  ],
  [
    'a required parameter after a defaulted one',
    'fn f(a = 1, b) {}',
    ['12-13 syntax_error: Required parameter cannot follow a parameter with a default value'],
  ],
  ['a rest parameter before the last', 'fn f(...a, b) {}', ['5-9 syntax_error: A rest parameter (`...name`) must be the last parameter']],
  [
    'a HITL keyword as a binding name (0.10)',
    'let ask_user = 1',
    ["4-12 syntax_error: Expected variable name or destructuring pattern, got 'ask_user' (reserved keyword)"],
  ],
  [
    'an int literal out of i64 (0.10)',
    'let n = 9223372036854775808',
    ['8-27 int_overflow: Integer literal 9223372036854775808 is out of range for int (at most 9223372036854775807)'],
  ],
  ['`${}`', 'let s = "${}"', ['9-12 syntax_error: Empty interpolation `${}`']],
  [
    'an escaped quote inside a hole (0.10)',
    'let s = "${x ?? \\"y\\"}"',
    [
      "16-17 unexpected_character: Unexpected character '\\' at 1:17 (a string inside `${…}` uses plain quotes)",
      "19-20 unexpected_character: Unexpected character '\\' at 1:20 (a string inside `${…}` uses plain quotes)",
    ],
  ],
  ['`#` outside a shebang', 'let x = 1\n# not a shebang', ["10-11 unexpected_character: Unexpected character '#' at 2:1"]],
  ['`<<TAG` heredocs', 'let s = <<EOF', ['8-13 heredoc: Heredoc (`<<TAG`) strings are not supported in Harn: use a """multi-line""" string']],
  ['a leading `-` starts a new statement', 'let a = b\n  - c', []],
  ['a leading `in` starts a new statement (and fails)', 'let a = b\n  in c', ["12-14 syntax_error: Expected expression, got 'in'"]],
  [
    'removed `a thru b` ranges',
    'let r = 1 thru 5',
    [
      "10-14 syntax_error: Expected statement separator (`;` or newline), got identifier 'thru'",
      '15-16 syntax_error: Expected statement separator (`;` or newline), got number 5',
    ],
  ],
  [
    'a missing separator at the top level (upstream v0.7 stops there without a diagnostic)',
    'let a = 1 let b = 2',
    ["10-13 syntax_error: Expected statement separator (`;` or newline), got 'let'"],
  ],
  ['stale `{..x}` dict spreads', 'let d = {..x}', ["9-10 syntax_error: Expected dict key (a name, a string or [expression]), got '.'"]],
];

/** Forms upstream rejects (per the spec) that are accepted here on purpose: [form, snippet, why]. */
const DELIBERATELY_ACCEPTED: [string, string, string][] = [
  ['parenthesised types', 'type T = (int | string)?', 'v0.7 has none; harmless grouping'],
  ['`fn(T)` types without `->`', 'type F = fn(int)', 'the Rust parser requires `->`; tree-sitter accepts it'],
  ['`pkg::mod::name` without braces', 'import pkg::mod::name', 'upstream wants `::{…}`; read as a scoped path'],
  [
    '`f(a?[0], b: 1)` and `{k: a?[0], j: 1}`',
    'f(a?[0], b: 1)\nlet d = {k: a?[0], j: 1}',
    'upstream scans past `,` for the ternary `:` and fails; a `,` ends the scan here',
  ],
  ['match arms without braces', 'match x { 1 -> "a"\n _ -> "b" }', 'upstream wants `-> { … }`'],
];

describe('syntax audit: every form of spec §1 parses', () => {
  for (const [section, form, snippet] of ACCEPTED) {
    test(`§${section} ${form}`, () => {
      const diagnostics = parse(snippet).diagnostics.map((d) => `${d.start}-${d.end} ${d.code}: ${d.message}`);
      assert.deepEqual(diagnostics, [], JSON.stringify(snippet));
    });
  }
});

describe('syntax audit: forms upstream rejects', () => {
  for (const [form, snippet, expected] of REJECTED) {
    test(`rejected here too: ${form}`, () => {
      const diagnostics = parse(snippet).diagnostics.map((d) => `${d.start}-${d.end} ${d.code}: ${d.message}`);
      assert.deepEqual(diagnostics, expected, JSON.stringify(snippet));
    });
  }
  for (const [form, snippet, why] of DELIBERATELY_ACCEPTED) {
    test(`accepted here on purpose: ${form} (${why})`, () => {
      const diagnostics = parse(snippet).diagnostics.map((d) => `${d.start}-${d.end} ${d.code}: ${d.message}`);
      assert.deepEqual(diagnostics, [], JSON.stringify(snippet));
    });
  }
});
