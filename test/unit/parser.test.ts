// Parser tests: one test per trap of spec/harn-language.md §1.7, one per 0.8–0.10 construct of §1.8,
// precedence (§1.4), line continuation, statements and declarations (§1.2–§1.3, §1.5) and recovery.
// Expressions are compared as s-expressions so each assertion shows the tree's shape.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_DIAGNOSTICS, parse, ParseResult } from '../../server/src/harn/parser';
import type * as A from '../../server/src/harn/ast';
import { defined } from '../support/assertions';
import { nestedGenericCalls, unclosedBraces } from '../support/parserInputs';

// ------------------------------------------------------------------------------------------ helpers

function sx(e: A.Expr | undefined): string {
  if (!e) return '∅';
  switch (e.kind) {
    case 'Identifier':
      return e.name;
    case 'Int':
    case 'Float':
    case 'Duration':
    case 'Bool':
    case 'Nil':
      return e.raw;
    case 'String': {
      if (e.value !== undefined) return JSON.stringify(e.value);
      const holes = e.parts.filter((p) => p.kind === 'Hole').map((p) => (p.kind === 'Hole' ? sx(p.expr) : ''));
      return `(interp ${holes.join(' ')})`;
    }
    case 'Binary':
      return `(${e.operator} ${sx(e.left)} ${sx(e.right)})`;
    case 'Unary':
      return `(${e.operator} ${sx(e.operand)})`;
    case 'Ternary':
      return `(?: ${sx(e.condition)} ${sx(e.then)} ${sx(e.otherwise)})`;
    case 'Range':
      return `(${e.exclusive ? 'to-excl' : 'to'} ${sx(e.from)} ${sx(e.to)})`;
    case 'Call': {
      const typeArgs = e.typeArgs.length ? `<${e.typeArgs.map(tx).join(',')}>` : '';
      return `(call${typeArgs} ${[sx(e.callee), ...e.args.map(arg)].join(' ')})`;
    }
    case 'Member':
      return `(${e.optional ? '?.' : '.'} ${sx(e.object)} ${e.property?.text ?? '∅'})`;
    case 'Index':
      return `(${e.optional ? '?[]' : '[]'} ${sx(e.object)} ${sx(e.index)})`;
    case 'Slice':
      return `([:] ${sx(e.object)} ${sx(e.from)} ${sx(e.to)})`;
    case 'TryPostfix':
      return `(try? ${sx(e.operand)})`;
    case 'Paren':
      return `(paren ${sx(e.inner)})`;
    case 'StructLit':
      return `(struct ${[e.name.name, ...e.entries.map(entry)].join(' ')})`;
    case 'Dict':
      return `(dict${e.entries.map((x) => ' ' + entry(x)).join('')})`;
    case 'List':
      return `(list${e.elements.map((x) => ' ' + sx(x)).join('')})`;
    case 'Closure':
      return `(closure (${e.params.map((p) => p.name.text).join(' ')}) ${e.body.statements.length})`;
    case 'FnExpr':
      return `(fn (${e.params.map((p) => p.name.text).join(' ')}))`;
    case 'StmtExpr':
      return `(stmt ${e.stmt.kind})`;
    case 'ErrorExpr':
      return 'ERR';
  }
}

function arg(a: A.Argument): string {
  return `${a.spread ? '...' : ''}${a.name ? a.name.text + '=' : ''}${sx(a.value)}`;
}

function entry(d: A.DictEntry): string {
  if (d.spread) return `...${sx(d.value)}`;
  const key = !d.key ? '∅' : d.key.kind === 'Name' ? d.key.text : d.computed ? `[${sx(d.key)}]` : sx(d.key);
  return `${key}=${sx(d.value)}`;
}

function tx(t: A.TypeExpr | undefined): string {
  if (!t) return '∅';
  switch (t.kind) {
    case 'NamedType':
      return t.args.length ? `${t.name.text}<${t.args.map(tx).join(',')}>` : t.name.text;
    case 'ListType':
      return `[${tx(t.element)}]`;
    case 'ShapeType':
      return `{${[...t.fields.map((f) => `${f.name.text}${f.optional ? '?' : ''}:${tx(f.type)}`), ...(t.rest ? [`...${tx(t.rest)}`] : [])].join(',')}}`;
    case 'FnType':
      return `fn(${t.params.map(tx).join(',')})->${tx(t.result)}`;
    case 'UnionType':
      return `(| ${t.members.map(tx).join(' ')})`;
    case 'IntersectionType':
      return `(& ${t.members.map(tx).join(' ')})`;
    case 'OptionalType':
      return `${tx(t.inner)}?`;
    case 'LiteralType':
      return t.text;
    case 'ErrorType':
      return 'ERR';
  }
}

/** Parses a source that must have no diagnostics and returns its top-level statements. */
function clean(source: string): A.Stmt[] {
  const result = parse(source);
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.start}: ${d.message}`),
    [],
    `expected no diagnostics for ${JSON.stringify(source)}`,
  );
  return result.file.statements;
}

/** The single expression statement of a clean source, as an s-expression. */
function ex(source: string): string {
  const statements = clean(source);
  assert.equal(statements.length, 1, `one statement expected in ${JSON.stringify(source)}`);
  const stmt = defined(statements[0], 'the statement');
  if (stmt.kind === 'LetDecl') return sx(stmt.init);
  assert.equal(stmt.kind, 'ExprStmt');
  return sx(stmt.expr);
}

/** Each diagnostic of `source` as `start-end code: message` (UTF-16 offsets). */
function diagnosticsOf(source: string): string[] {
  return parse(source).diagnostics.map((d) => `${d.start}-${d.end} ${d.code}: ${d.message}`);
}

/** Parses a source that must have at least one diagnostic. */
function broken(source: string): ParseResult {
  const result = parse(source);
  assert.ok(result.diagnostics.length > 0, `expected a diagnostic for ${JSON.stringify(source)}`);
  return result;
}

/** The message of the first diagnostic of a source that must have one. */
function firstMessage(source: string): string {
  return defined(broken(source).diagnostics[0], 'a diagnostic').message;
}

/** The statements of a node's body, which must be there. */
function bodyOf(node: { kind: string; body: A.Block | undefined }): A.Stmt[] {
  return defined(node.body, `the body of the ${node.kind}`).statements;
}

function kinds(statements: A.Stmt[]): string[] {
  return statements.map((s) => s.kind);
}

function only<T extends A.Stmt['kind']>(source: string, kind: T): Extract<A.Stmt, { kind: T }> {
  const statements = clean(source);
  assert.deepEqual(kinds(statements), [kind]);
  return statements[0] as Extract<A.Stmt, { kind: T }>;
}

function slice(source: string, node: { start: number; end: number } | undefined): string {
  assert.ok(node);
  return source.slice(node.start, node.end);
}

// ---------------------------------------------------------------------------------- §1.7 traps

describe('§1.7 parser traps', () => {
  test('1. struct construction vs block: `Foo {x: 1}` is a struct literal, `if Foo {}` an error', () => {
    assert.equal(ex('let p = Foo {x: 1, "y": 2}'), '(struct Foo x=1 "y"=2)');
    assert.equal(ex('let p = Foo {}'), '(struct Foo)');
    // `Foo {}` takes the braces, leaving `if` without its block.
    assert.deepEqual(diagnosticsOf('if Foo {}'), ["9-9 syntax_error: Unexpected end of file, expected '{' to start a block"]);
    // A lowercase name is never a struct construction: the braces become a separate (dict) statement.
    assert.deepEqual(diagnosticsOf('point { x: 1 }'), ["6-7 syntax_error: Expected statement separator (`;` or newline), got '{'"]);
    // With a block-like body, an uppercase condition stays a condition.
    const ifStmt = only('if Ready { go() }', 'If');
    assert.equal(sx(ifStmt.condition), 'Ready');
    assert.equal(ifStmt.then?.statements.length, 1);
  });

  // Trap 2 as upstream 0.10 has it (v0.7 read every `x?[` as an optional subscript and made `?` before a
  // raw string or a duration the try operator): `?` is a ternary when a branch can start after it and a
  // `:` follows at the same nesting; otherwise `?[` is an optional subscript and `?` the try operator.
  test('2a. `x?[0]` is an optional subscript when no `:` follows at its nesting', () => {
    assert.equal(ex('let v = a?[0]'), '(?[] a 0)');
    assert.equal(ex('let v = xs?[i]?[j]'), '(?[] (?[] xs i) j)');
    assert.equal(ex('let v = a?[0] ?? b'), '(?? (?[] a 0) b)');
    assert.equal(ex('let v = a?[0].name'), '(. (?[] a 0) name)');
    assert.equal(ex('let v = {k: a?[0]\n  j: 1}'), '(dict k=(?[] a 0) j=1)');
    const statements = clean('let v = a?[0]\nlet w = c ? 1 : 2');
    assert.deepEqual(
      statements.map((s) => sx((s as A.LetDecl).init)),
      ['(?[] a 0)', '(?: c 1 2)'],
    );
    // Upstream also scans past `,` and `;` for the `:`, and so fails on these; a `,` or `;` ends the
    // scan here (deliberately more than upstream).
    assert.equal(ex('f(a?[0], b: 1)'), '(call f (?[] a 0) b=1)');
    assert.equal(ex('let v = {k: a?[0], j: 1}'), '(dict k=(?[] a 0) j=1)');
    assert.deepEqual(kinds(clean('let v = a?[0]; let w = c ? 1 : 2')), ['LetDecl', 'LetDecl']);
  });

  test('2b. a branch may be a list literal: `c ? [1] : [2]`, `replay ? [] : [sketch]`', () => {
    assert.equal(ex('let v = c ? [1] : [2]'), '(?: c (list 1) (list 2))');
    assert.equal(ex('let xs = replay ? [] : [sketch]'), '(?: replay (list) (list sketch))');
    assert.equal(ex('let v = c ? [] : []'), '(?: c (list) (list))');
    assert.equal(ex('let v = c ? a[0] : b'), '(?: c ([] a 0) b)');
    assert.equal(ex('let v = c ? [a?[0]] : [b]'), '(?: c (list (?[] a 0)) (list b))');
    assert.equal(ex('f(c ? [] : [1], x)'), '(call f (?: c (list) (list 1)) x)');
    assert.equal(ex('f(items: c ? [] : [1])'), '(call f items=(?: c (list) (list 1)))');
    assert.equal(ex('let d = {a: c ? [] : [1], b: 2}'), '(dict a=(?: c (list) (list 1)) b=2)');
    assert.equal(ex('let v = [c ? [1] : [2], d]'), '(list (?: c (list 1) (list 2)) d)');
    // Across newlines: after the `?`, and before a `:` that starts the next line.
    assert.equal(ex('let v = c\n  ? []\n  : [sketch]'), '(?: c (list) (list sketch))');
    assert.equal(ex('let v = c ?\n  [1] : [2]'), '(?: c (list 1) (list 2))');
    assert.equal(ex('let v = f(\n  c\n    ? [1]\n    : [2],\n)'), '(call f (?: c (list 1) (list 2)))');
  });

  test('2c. raw strings, durations and control-flow expressions start branches too (0.10)', () => {
    assert.equal(ex('let v = c ? r"a" : b'), '(?: c "a" b)');
    assert.equal(ex('let v = c ? 5s : 1s'), '(?: c 5s 1s)');
    assert.equal(ex('let v = c ? if x { 1 } else { 2 } : 3'), '(?: c (stmt If) 3)');
    assert.equal(ex('let v = c ? match x { _ -> 1 } : 3'), '(?: c (stmt Match) 3)');
    assert.equal(ex('let v = c ? try { f() } : nil'), '(?: c (stmt Try) nil)');
    assert.equal(ex('let v = c ? ask_user("q") : nil'), '(?: c (call ask_user "q") nil)');
  });

  test('2d. `x ? y : z` with a name, number, string, literal, `(`, `{`, `!`, `-` or `fn` branch; otherwise `?` is the try operator', () => {
    assert.equal(ex('let v = x ? y : z'), '(?: x y z)');
    assert.equal(ex('let v = x ? 1 : 2'), '(?: x 1 2)');
    assert.equal(ex('let v = x ? 1.5 : 2'), '(?: x 1.5 2)');
    assert.equal(ex('let v = x ? "a" : "b"'), '(?: x "a" "b")');
    assert.equal(ex('let v = x ? "${a}" : "b"'), '(?: x (interp a) "b")');
    assert.equal(ex('let v = x ? true : nil'), '(?: x true nil)');
    assert.equal(ex('let v = x ? (a) : b'), '(?: x (paren a) b)');
    assert.equal(ex('let v = x ? {a: 1} : {}'), '(?: x (dict a=1) (dict))');
    assert.equal(ex('let v = x ? !a : -b'), '(?: x (! a) (- b))');
    assert.equal(ex('let v = x ? fn() { 1 } : nil'), '(?: x (fn ()) nil)');
    // Otherwise `?` is the postfix try operator.
    assert.equal(ex('let v = f()?'), '(try? (call f))');
    assert.equal(ex('let v = f()? ?? d'), '(?? (try? (call f)) d)');
    assert.equal(ex('let v = f()?.name'), '(?. (call f) name)');
    const tried = only('if f()? { go() }', 'If');
    assert.equal(sx(tried.condition), '(try? (call f))');
    // A `:` inside a string hole or a bracket is not the ternary's.
    assert.equal(ex('let v = [f()? "${a ? b : c}"]'), '(list (try? (call f)) (interp (?: a b c)))');
    // With no `:` after the branch, `?` is the try operator, as upstream: `f()?` is usually followed by
    // the next statement, so a line break ends the search for the `:` (unless the next line starts with
    // one or with an operator).
    const statements = clean('let r = f()?\nlog(r)');
    assert.deepEqual([kinds(statements), sx((statements[0] as A.LetDecl).init)], [['LetDecl', 'ExprStmt'], '(try? (call f))']);
    assert.equal(ex('let v = c ? a\n  : b'), '(?: c a b)');
    assert.equal(ex('let v = c ? a\n  + 1 : b'), '(?: c (+ a 1) b)');
    // So a half-typed ternary reads as `x?` followed by a stray name.
    assert.deepEqual(diagnosticsOf('let v = x ? y'), ["12-13 syntax_error: Expected statement separator (`;` or newline), got identifier 'y'"]);
  });

  test('2e. ternary branches are read at the `||` level', () => {
    assert.equal(ex('let v = a || b ? c && d : e || f'), '(?: (|| a b) (&& c d) (|| e f))');
  });

  test('2f. a nested ternary without parentheses is accepted in either branch (0.10; v0.7 wanted parentheses)', () => {
    assert.equal(ex('let v = a ? b : c ? d : e'), '(?: a b (?: c d e))');
    assert.equal(ex('let v = a ? b ? 1 : 2 : 3'), '(?: a (?: b 1 2) 3)');
    assert.equal(ex('let v = a ? b : (c ? d : e)'), '(?: a b (paren (?: c d e)))');
  });

  test('3a. `f<T>(x)` is a generic call, and so is `a < b > (c)` (speculative, as upstream)', () => {
    assert.equal(ex('f<T>(x)'), '(call<T> f x)');
    assert.equal(ex('f<list<int>, string?>(x, y)'), '(call<list<int>,string?> f x y)');
    assert.equal(ex('obj.method<int>(x)'), '(call<int> (. obj method) x)');
    // Upstream v0.7 tries the generic call first, so this reads as one too (tree-sitter 0.10 would not).
    assert.equal(ex('a < b > (c)'), '(call<b> a c)');
  });

  test('3b. `a < b` and `a < b > c` stay comparisons when no call follows', () => {
    assert.equal(ex('let v = a < b'), '(< a b)');
    assert.equal(ex('let v = a < b && c > d'), '(&& (< a b) (> c d))');
    assert.equal(ex('let v = a < b > c'), '(> (< a b) c)');
    const ifStmt = only('if a < b { f() }', 'If');
    assert.equal(sx(ifStmt.condition), '(< a b)');
  });

  test('4. calls apply to any expression (0.10), but a `(` on a new line starts a new statement', () => {
    assert.equal(ex('f(1)(2)'), '(call (call f 1) 2)');
    assert.equal(ex('xs[0](1)'), '(call ([] xs 0) 1)');
    assert.equal(ex('(f)(x)'), '(call (paren f) x)');
    assert.equal(ex('(outer(3))(4)'), '(call (paren (call outer 3)) 4)');
    const statements = clean('let separate = outer\n(5)');
    assert.deepEqual(kinds(statements), ['LetDecl', 'ExprStmt']);
    assert.equal(sx((statements[0] as A.LetDecl).init), 'outer');
    assert.equal(sx((statements[1] as A.ExprStmt).expr), '(paren 5)');
    // A `[` on a new line starts a new statement too.
    assert.deepEqual(kinds(clean('let a = b\n[1, 2]')), ['LetDecl', 'ExprStmt']);
  });

  test('5. keywords are accepted as member names, dict keys and shape fields', () => {
    assert.equal(ex('o.type'), '(. o type)');
    assert.equal(ex('o?.match'), '(?. o match)');
    assert.equal(ex('let d = {match: 1, if: 2, type: 3}'), '(dict match=1 if=2 type=3)');
    const alias = only('type T = {type: string, fn?: int}', 'TypeAliasDecl');
    assert.equal(tx(alias.type), '{type:string,fn?:int}');
    // v0.7 rejects `finally`, `require`, `select`, `skill` and `eval_pack` here; the workbench accepts
    // them too, since nothing else can follow `.` or precede `:` in a dict and the 0.10 grammar allows them.
    assert.equal(ex('o.select'), '(. o select)');
    assert.equal(ex('let d = {select: 1, finally: 2, require: 3, skill: 4, eval_pack: 5}'), '(dict select=1 finally=2 require=3 skill=4 eval_pack=5)');
    assert.equal(ex('call(type: "x")'), '(call call type="x")');
  });

  test('6. a missing separator at the top level is reported (upstream silently stops)', () => {
    const result = parse('let a = 1 let b = 2');
    assert.deepEqual(
      result.diagnostics.map((d) => [d.start, d.message]),
      [[10, "Expected statement separator (`;` or newline), got 'let'"]],
    );
    // Both statements are kept.
    assert.deepEqual(kinds(result.file.statements), ['LetDecl', 'LetDecl']);
    // `;` is a separator; `;;` is an empty statement.
    assert.deepEqual(kinds(clean('let a = 1; let b = 2')), ['LetDecl', 'LetDecl']);
    assert.match(firstMessage('let a = 1;; let b = 2'), /empty statement/);
  });

  test('7. recovery inside a block keeps the later statements and the enclosing declaration', () => {
    const source = 'pipeline test(task) {\n  let x = )\n  let y = 42\n  let z = )\n  log(y)\n}\nfn after() {}';
    const result = parse(source);
    assert.deepEqual(
      result.diagnostics.map((d) => d.message),
      ["Expected expression, got ')'", "Expected expression, got ')'"],
    );
    assert.deepEqual(kinds(result.file.statements), ['PipelineDecl', 'FnDecl']);
    const pipeline = result.file.statements[0] as A.PipelineDecl;
    assert.equal(pipeline.name?.text, 'test');
    assert.equal(pipeline.body?.closed, true);
    const body = bodyOf(pipeline);
    assert.deepEqual(kinds(body), ['LetDecl', 'LetDecl', 'LetDecl', 'ExprStmt']);
    assert.equal(sx((body[1] as A.LetDecl).init), '42');
    assert.equal(sx((body[3] as A.ExprStmt).expr), '(call log y)');
    // The broken `let` keeps its name for the outline.
    const broken0 = body[0] as A.LetDecl;
    assert.equal(broken0.pattern?.kind === 'Name' && broken0.pattern.text, 'x');
    assert.equal(broken0.init, undefined);
  });

  test('8a. the heredoc form `<<TAG` gets a dedicated message', () => {
    const result = broken('let s = <<EOF\nhello\nEOF');
    const first = defined(result.diagnostics[0], 'a diagnostic');
    assert.equal(first.code, 'heredoc');
    assert.match(first.message, /Heredoc \(`<<TAG`\) strings are not supported/);
  });

  test('8b. an attribute before `let` is an error', () => {
    const result = broken('@deprecated let x = 1');
    assert.equal(result.diagnostics.length, 1);
    const first = defined(result.diagnostics[0], 'a diagnostic');
    assert.match(first.message, /attributes cannot annotate bindings/);
    assert.equal(first.start, 12);
  });
});

// ------------------------------------------------------------------------------ §1.8 newer syntax

describe('§1.8 0.8–0.10 syntax', () => {
  test('const, pub const, pub let', () => {
    const c = only('const LIMIT = 10', 'LetDecl');
    assert.deepEqual([c.keyword, c.isPub, c.pattern?.kind === 'Name' && c.pattern.text], ['const', false, 'LIMIT']);
    const pc = only('pub const LIMIT: int = 10', 'LetDecl');
    assert.deepEqual([pc.keyword, pc.isPub, tx(pc.type), sx(pc.init), pc.start], ['const', true, 'int', '10', 0]);
    const pl = only('pub let name = "x"', 'LetDecl');
    assert.deepEqual([pl.keyword, pl.isPub], ['let', true]);
  });

  test('pub type', () => {
    const t = only('pub type Id = string | int', 'TypeAliasDecl');
    assert.deepEqual([t.isPub, t.name?.text, tx(t.type)], [true, 'Id', '(| string int)']);
  });

  test('fn … -> T throws E', () => {
    const fn = only('fn load(path: string) -> string throws IoError { read(path) }', 'FnDecl');
    assert.deepEqual([tx(fn.returnType), tx(fn.throwsType)], ['string', 'IoError']);
    const noReturn = only('fn fail() throws Err { throw "x" }', 'FnDecl');
    assert.deepEqual([noReturn.returnType, tx(noReturn.throwsType)], [undefined, 'Err']);
  });

  test('where T: A + B', () => {
    const fn = only('fn show<T, U>(x: T, y: U) -> string where T: Show + Debug, U: Show { x }', 'FnDecl');
    assert.deepEqual(
      fn.typeParams.map((p) => p.name.text),
      ['T', 'U'],
    );
    assert.equal(tx(fn.returnType), 'string');
    assert.equal(fn.body?.statements.length, 1);
  });

  test('type predicates `-> value is string` and `-> implies value is string`', () => {
    const two = only('fn is_text(value: unknown) -> value is string { return true }', 'FnDecl');
    assert.equal(tx(two.returnType), 'string');
    assert.deepEqual(kinds(bodyOf(two)), ['Return']);
    const one = only('fn is_text(value: unknown) -> implies value is string { return true }', 'FnDecl');
    assert.equal(tx(one.returnType), 'string');
    assert.equal(one.params[0]?.name.text, 'value');
  });

  test('block { } and scope { } are contextual: still usable as names', () => {
    const statements = clean('block { let inner = 1 }\nscope { spawn { work() } }');
    assert.deepEqual(
      statements.map((s) => s.kind === 'BlockStmt' && s.keyword),
      ['block', 'scope'],
    );
    const scope = statements[1] as A.BlockStmt;
    assert.equal(scope.body?.statements[0]?.kind, 'BlockStmt');
    const names = clean(
      'fn contextual(scope: int, block: int) {\n  scope += 1\n  block = block + scope\n  scope(scope)\n  const data = {scope: scope, block: block}\n  return data.scope + data.block\n}',
    );
    const body = bodyOf(names[0] as A.FnDecl);
    assert.deepEqual(kinds(body), ['Assign', 'Assign', 'ExprStmt', 'LetDecl', 'Return']);
    assert.equal(sx((body[2] as A.ExprStmt).expr), '(call scope scope)');
  });

  test('mutex(key) { } and plain mutex { }', () => {
    const keyed = only('mutex(account.id) { balance -= 1 }', 'BlockStmt');
    assert.deepEqual([keyed.keyword, sx(keyed.argument)], ['mutex', '(paren (. account id))']);
    assert.deepEqual(kinds(bodyOf(keyed)), ['Assign']);
    const plain = only('mutex { x = 1 }', 'BlockStmt');
    assert.equal(plain.argument, undefined);
  });

  test('cost_route { name: expr … stmts }', () => {
    const route = only('cost_route {\n  budget: 2.5\n  prefer: "fast"\n  let r = call()\n  log(r)\n}', 'BlockStmt');
    assert.equal(route.keyword, 'cost_route');
    const body = bodyOf(route);
    assert.deepEqual(kinds(body), ['Assign', 'Assign', 'LetDecl', 'ExprStmt']);
    const first = body[0] as A.AssignStmt;
    assert.deepEqual([first.operator, sx(first.target), sx(first.value)], [':', 'budget', '2.5']);
    // `cost_route` is still a name elsewhere.
    assert.equal(ex('let v = cost_route(1)'), '(call cost_route 1)');
    // Options may also be separated by commas (upstream 0.10); eval_pack entries may not (as upstream).
    const commas = bodyOf(only('cost_route { budget: 5, model: "m",\n  f()\n}', 'BlockStmt'));
    assert.deepEqual(
      commas.map((st) => (st.kind === 'Assign' ? `${sx(st.target)}:${sx(st.value)}` : st.kind)),
      ['budget:5', 'model:"m"', 'ExprStmt'],
    );
    assert.deepEqual(diagnosticsOf('eval_pack p { a: 1, b: 2 }'), ["18-19 syntax_error: Expected statement separator (`;` or newline), got ','"]);
  });

  test('HITL calls with named arguments', () => {
    assert.equal(ex('let ok = request_approval("deploy", reviewers: ["a"], timeout: 5m)'), '(call request_approval "deploy" reviewers=(list "a") timeout=5m)');
    assert.equal(ex('ask_user(prompt: "Continue?")'), '(call ask_user prompt="Continue?")');
    assert.equal(ex('dual_control(action: "x")'), '(call dual_control action="x")');
    assert.equal(ex('escalate_to("oncall", reason: r)'), '(call escalate_to "oncall" reason=r)');
  });

  test('HITL keywords cannot be binding names', () => {
    const result = broken('let request_approval = 1');
    assert.equal(result.diagnostics[0]?.message, "Expected variable name or destructuring pattern, got 'request_approval' (reserved keyword)");
  });

  test('`?.[i]` optional subscript', () => {
    assert.equal(ex('let v = xs?.[i]'), '(?[] xs i)');
    assert.equal(ex('let v = a?.b?.[0]?.c'), '(?. (?[] (?. a b) 0) c)');
  });

  test('calls on any expression', () => {
    assert.equal(ex('let v = make()(1)(2)'), '(call (call (call make) 1) 2)');
    assert.equal(ex('let v = handlers["x"](event)'), '(call ([] handlers "x") event)');
    assert.equal(ex('let v = {-> 1}()'), '(call (closure () 1))');
  });

  test('hashed raw strings r#"…"#', () => {
    assert.equal(ex('let s = r#"quoted "body" ${literal} \\\\ path"#'), JSON.stringify('quoted "body" ${literal} \\\\ path'));
  });

  test('scoped imports `pkg::mod::{a, b}`', () => {
    const imp = only('import std::agent::{run_loop, Options}', 'ImportDecl');
    assert.deepEqual(
      imp.scopedPath?.map((n) => n.text),
      ['std', 'agent'],
    );
    assert.deepEqual(
      imp.names?.map((n) => n.text),
      ['run_loop', 'Options'],
    );
    assert.equal(imp.path, undefined);
    const single = only('pub import pkg::mod::name', 'ImportDecl');
    assert.deepEqual([single.isPub, single.scopedPath?.map((n) => n.text), single.names], [true, ['pkg', 'mod', 'name'], undefined]);
  });

  test('namespace imports `import * as ui from "std/ui"`, also `pub`', () => {
    const source = 'import * as ui from "std/ui"';
    const imp = only(source, 'ImportDecl');
    assert.deepEqual(
      [imp.isPub, slice(source, imp.namespace), imp.path?.value, slice(source, imp.path), imp.names, imp.scopedPath, slice(source, imp)],
      [false, 'ui', 'std/ui', '"std/ui"', undefined, undefined, source],
    );
    const pub = only('pub import * as forms from "./forms"', 'ImportDecl');
    assert.deepEqual([pub.isPub, pub.namespace?.text, pub.path?.value, pub.start, pub.end], [true, 'forms', './forms', 0, 36]);
    // Newlines are free inside the import, as in `import { … } from`.
    assert.equal(only('import *\n  as ui\n  from "std/ui"', 'ImportDecl').namespace?.text, 'ui');
    const expected: Record<string, string[]> = {
      'import * from "x"': ["9-13 syntax_error: Expected 'as' after 'import *', got 'from'"],
      'import * as from "x"': ["12-16 syntax_error: Expected namespace name, got 'from'"],
      'import * as ui "x"': ["15-18 syntax_error: Expected 'from' after the namespace name, got string"],
      'import * as ui from x': ["20-21 syntax_error: Expected module path, got identifier 'x'"],
      'import * as ask_user from "x"': ["12-20 syntax_error: Expected namespace name, got 'ask_user' (reserved keyword)"],
    };
    for (const [broken, diagnostics] of Object.entries(expected)) assert.deepEqual(diagnosticsOf(broken), diagnostics, broken);
    // A half-written one keeps the name read so far.
    const partial = parse('import * as ui from\nfn f() {}').file.statements;
    assert.deepEqual(
      partial.map((s) => (s.kind === 'ImportDecl' ? `import ${s.namespace?.text ?? '∅'}` : s.kind)),
      ['import ui', 'FnDecl'],
    );
  });

  test('attribute values that are paths or calls', () => {
    const source = '@trigger(on: github.pr_opened, when: schedule("*/30 * * * *"))\npipeline review(task) {}';
    const decl = only(source, 'PipelineDecl');
    assert.equal(decl.attributes.length, 1);
    assert.deepEqual(defined(decl.attributes[0], 'the attribute').args.map(arg), ['on=(. github pr_opened)', 'when=(call schedule "*/30 * * * *")']);
    assert.equal(decl.start, 0);
  });

  test('optional types `T?`', () => {
    const fn = only('fn f(x: string?, ys: list<int?>?) -> Node? { x }', 'FnDecl');
    assert.deepEqual(
      fn.params.map((p) => tx(p.type)),
      ['string?', 'list<int?>?'],
    );
    assert.equal(tx(fn.returnType), 'Node?');
  });

  test('intersection types `A & B`', () => {
    const t = only('type T = A & B | C & {x: int}', 'TypeAliasDecl');
    assert.equal(tx(t.type), '(| (& A B) (& C {x:int}))');
  });

  test('row tails `{a: int, ...R}`', () => {
    const fn = only('fn name_of<R>(x: {name: string, ...R}) -> string { x.name }', 'FnDecl');
    assert.equal(tx(defined(fn.params[0], 'the parameter').type), '{name:string,...R}');
  });

  test('the entry point `fn main(harness: Harness)`', () => {
    const fn = only('fn main(harness: Harness) {\n  harness.stdio.println(harness.fs.read("x"))\n}', 'FnDecl');
    const harness = defined(fn.params[0], 'the parameter');
    assert.deepEqual([fn.name?.text, harness.name.text, tx(harness.type)], ['main', 'harness', 'Harness']);
    assert.equal(sx((bodyOf(fn)[0] as A.ExprStmt).expr), '(call (. (. harness stdio) println) (call (. (. harness fs) read) "x"))');
  });
});

// ------------------------------------------------------------------------------ §1.4 precedence

describe('§1.4 precedence', () => {
  test('`a ?? b + c` is `(a ?? b) + c`; `??` binds looser than `*`', () => {
    assert.equal(ex('let v = a ?? b + c'), '(+ (?? a b) c)');
    assert.equal(ex('let v = a + b ?? c'), '(+ a (?? b c))');
    assert.equal(ex('let v = a ?? b * c'), '(?? a (* b c))');
    assert.equal(ex('let v = a ?? b ?? c'), '(?? (?? a b) c)');
  });

  test('`**` is right-associative and binds tighter than `*`', () => {
    assert.equal(ex('let v = 2 ** 3 ** 2'), '(** 2 (** 3 2))');
    assert.equal(ex('let v = a * b ** c'), '(* a (** b c))');
    assert.equal(ex('let v = 2 ** -1'), '(** 2 (- 1))');
  });

  test('unary minus binds looser than `**` (0.10; v0.7 read `(-2) ** 2`)', () => {
    // §1.8: 0.10 aligns on `-(2 ** 2)`, as in mathematics.
    assert.equal(ex('let v = -2 ** 2'), '(- (** 2 2))');
    assert.equal(ex('let v = -a * b'), '(* (- a) b)');
    assert.equal(ex('let v = !a.b'), '(! (. a b))');
  });

  test('levels from `|>` down to `*`', () => {
    assert.equal(ex('let v = a |> f || g'), '(|> a (|| f g))');
    assert.equal(ex('let v = a || b && c'), '(|| a (&& b c))');
    assert.equal(ex('let v = a && b == c'), '(&& a (== b c))');
    assert.equal(ex('let v = a == b < c'), '(== a (< b c))');
    assert.equal(ex('let v = a < b + c'), '(< a (+ b c))');
    assert.equal(ex('let v = a - b * c % d'), '(- a (% (* b c) d))');
    assert.equal(ex('let v = a - b - c'), '(- (- a b) c)');
  });

  test('`in` and `not in` sit with the comparisons', () => {
    assert.equal(ex('let v = a in xs && b not in ys'), '(&& (in a xs) (not in b ys))');
    assert.equal(ex('let v = a + 1 in xs'), '(in (+ a 1) xs)');
  });

  test('ranges: `a to b [exclusive]` between `|>` and the ternary', () => {
    assert.equal(ex('let v = 1 to n + 1'), '(to 1 (+ n 1))');
    assert.equal(ex('let v = 0 to len(xs) exclusive'), '(to-excl 0 (call len xs))');
    assert.equal(ex('let v = 1 to 3 |> list'), '(|> (to 1 3) list)');
  });

  test('`|>` is the loosest and left-associative; `_` is an ordinary name on its right', () => {
    assert.equal(ex('let v = xs |> map(f) |> _ + 1'), '(|> (|> xs (call map f)) (+ _ 1))');
    assert.equal(ex('let v = a ? b : c |> f'), '(|> (?: a b c) f)');
  });

  test('postfix operators chain', () => {
    assert.equal(ex('let v = a.b(c)[d]?.e?[f]'), '(?[] (?. ([] (call (. a b) c) d) e) f)');
    assert.equal(ex('let v = xs[1:2]'), '([:] xs 1 2)');
    assert.equal(ex('let v = xs[:2]'), '([:] xs ∅ 2)');
    assert.equal(ex('let v = xs[1:]'), '([:] xs 1 ∅)');
    assert.equal(ex('let v = t.0'), '(. t 0)');
  });
});

// ---------------------------------------------------------------------------- line continuation

describe('line continuation (§1.4)', () => {
  test('a leading `|>`, `.`, `?.`, `&&`, `||`, `+`, `*`, `/`, `%`, `==`, `<`, `??` continues the expression', () => {
    assert.equal(ex('let v = xs\n  |> map(f)\n  |> sum'), '(|> (|> xs (call map f)) sum)');
    assert.equal(ex('let v = builder\n  .add(1)\n  ?.build()'), '(call (?. (call (. builder add) 1) build))');
    assert.equal(ex('let v = a\n  && b\n  || c'), '(|| (&& a b) c)');
    assert.equal(ex('let v = a\n  + b\n  * c'), '(+ a (* b c))');
    assert.equal(ex('let v = a\n  / 2\n  % 3'), '(% (/ a 2) 3)');
    assert.equal(ex('let v = a\n  == b'), '(== a b)');
    assert.equal(ex('let v = a\n  < b'), '(< a b)');
    assert.equal(ex('let v = a\n  ?? b'), '(?? a b)');
  });

  test('comments between the lines do not break a continuation', () => {
    assert.equal(ex('let v = value\n  // why\n  / 2'), '(/ value 2)');
    assert.equal(ex('let v = value\n  /* note /* nested */ end */\n  / 2'), '(/ value 2)');
  });

  test('a leading `-` starts a new statement', () => {
    const statements = clean('let v = a\n-b');
    assert.deepEqual(kinds(statements), ['LetDecl', 'ExprStmt']);
    assert.equal(sx((statements[1] as A.ExprStmt).expr), '(- b)');
  });

  test('a leading `in` or `to` starts a new statement (and fails)', () => {
    for (const source of ['let v = a\n  in b', 'let v = 1\n  to 5']) {
      const result = broken(source);
      assert.equal(sx((result.file.statements[0] as A.LetDecl).init), source.includes('1\n') ? '1' : 'a', source);
      assert.equal(result.file.statements.length, 2, source);
      assert.deepEqual(diagnosticsOf(source), [`12-14 syntax_error: Expected expression, got '${source.includes('in') ? 'in' : 'to'}'`], source);
    }
  });

  test('a leading `not in` starts a new statement too, where `not` is an ordinary name', () => {
    const statements = clean('let v = a\n  not in b');
    assert.deepEqual(kinds(statements), ['LetDecl', 'ExprStmt']);
    assert.equal(sx((statements[0] as A.LetDecl).init), 'a');
    assert.equal(sx((statements[1] as A.ExprStmt).expr), '(in not b)');
  });

  test('a trailing operator continues onto the next line', () => {
    assert.equal(ex('let v = a +\n  b'), '(+ a b)');
    assert.equal(ex('let v = a -\n  b'), '(- a b)');
    assert.equal(ex('let v = a ||\n  b'), '(|| a b)');
    assert.equal(ex('let v = 1 to\n  5'), '(to 1 5)');
  });

  test('newlines are free inside (), [] and {} literals, where commas are optional', () => {
    assert.equal(ex('let v = [1 2\n 3]'), '(list 1 2 3)');
    assert.equal(ex('log(1 2)'), '(call log 1 2)');
    assert.equal(ex('let v = f(\n  a,\n  -b\n)'), '(call f a (- b))');
    assert.equal(ex('let v = {\n  a: 1\n  b: 2\n}'), '(dict a=1 b=2)');
    assert.equal(ex('let v = (a\n  - b)'), '(paren (- a b))');
    const fn = only('fn f(a b) {}', 'FnDecl');
    assert.deepEqual(
      fn.params.map((p) => p.name.text),
      ['a', 'b'],
    );
  });

  test('`return`/`yield` take no value before a newline, `;` or `}`', () => {
    const fn = only('fn f() {\n  return\n  g()\n}', 'FnDecl');
    assert.deepEqual(kinds(bodyOf(fn)), ['Return', 'ExprStmt']);
    assert.equal((bodyOf(fn)[0] as A.SimpleStmt).value, undefined);
    const inline = only('fn f() { return }', 'FnDecl');
    assert.equal((bodyOf(inline)[0] as A.SimpleStmt).value, undefined);
    const gen = only('gen fn g() { yield; yield 1 }', 'FnDecl');
    assert.deepEqual(
      bodyOf(gen).map((s) => s.kind === 'Yield' && sx(s.value)),
      ['∅', '1'],
    );
  });
});

// ------------------------------------------------------------------- statements and declarations

describe('declarations (§1.2)', () => {
  test('imports', () => {
    const [a, b, c] = clean('import "std/agent"\nimport { a, b } from "./lib"\npub import {\n  x,\n  y\n} from "m"');
    assert.ok(a?.kind === 'ImportDecl' && b?.kind === 'ImportDecl' && c?.kind === 'ImportDecl');
    assert.equal(a.path?.value, 'std/agent');
    assert.deepEqual([b.names?.map((n) => n.text), b.path?.value], [['a', 'b'], './lib']);
    assert.deepEqual([c.isPub, c.names?.map((n) => n.text)], [true, ['x', 'y']]);
  });

  test('imports may follow declarations (0.10)', () => {
    assert.deepEqual(kinds(clean('fn f() {}\nimport "late"')), ['FnDecl', 'ImportDecl']);
  });

  test('pipelines with parameters, return type and extends; override inside', () => {
    const p = only('pipeline child(task, opts) -> string extends base {\n  override step(x) { x }\n}', 'PipelineDecl');
    assert.deepEqual([p.name?.text, p.params.map((x) => x.name.text), tx(p.returnType), p.extendsName?.text], ['child', ['task', 'opts'], 'string', 'base']);
    const o = bodyOf(p)[0];
    assert.ok(o?.kind === 'OverrideDecl');
    assert.equal(o.name?.text, 'step');
  });

  test('typed pipeline parameters and arrow-less fn types are accepted (deliberately more than v0.7)', () => {
    // v0.7's Rust parser rejects both; tree-sitter accepts them and the meaning is unambiguous, so
    // reporting them would only flag code the newer toolchain runs.
    const p = only('pipeline review(task: string, retries: int = 2) {}', 'PipelineDecl');
    assert.deepEqual(
      p.params.map((x) => [x.name.text, tx(x.type), sx(x.defaultValue)]),
      [
        ['task', 'string', '∅'],
        ['retries', 'int', '2'],
      ],
    );
    assert.equal(tx(only('type Callback = fn(string)', 'TypeAliasDecl').type), 'fn(string)->∅');
  });

  test('fn declarations: pub, gen, type parameters with variance, rest and default parameters', () => {
    const fn = only('pub gen fn walk<in T, out U>(root: T, depth: int = 3, ...rest) -> Iter<U> { yield root }', 'FnDecl');
    assert.deepEqual([fn.isPub, fn.isGen, fn.name?.text], [true, true, 'walk']);
    assert.deepEqual(
      fn.typeParams.map((p) => `${p.variance ?? ''}:${p.name.text}`),
      ['in:T', 'out:U'],
    );
    assert.deepEqual(
      fn.params.map((p) => [p.name.text, p.rest, tx(p.type), sx(p.defaultValue)]),
      [
        ['root', false, 'T', '∅'],
        ['depth', false, 'int', '3'],
        ['rest', true, '∅', '∅'],
      ],
    );
    assert.equal(tx(fn.returnType), 'Iter<U>');
  });

  test('a required parameter after a defaulted one is an error', () => {
    const result = broken('fn bad(x = 10, y) {\n  log(x + y)\n}');
    assert.deepEqual(
      result.diagnostics.map((d) => d.message),
      ['Required parameter cannot follow a parameter with a default value'],
    );
    assert.equal(result.file.statements[0]?.kind, 'FnDecl');
  });

  test('a rest parameter must come last', () => {
    const result = broken('fn f(...rest, last) {}');
    assert.deepEqual(
      result.diagnostics.map((d) => [d.start, d.message]),
      [[5, 'A rest parameter (`...name`) must be the last parameter']],
    );
    assert.deepEqual(
      only('fn f(a, b = 1, ...rest) {}', 'FnDecl').params.map((p) => p.rest),
      [false, false, true],
    );
  });

  test('tools with a description line', () => {
    const tool = only('tool search(query: string) -> list<string> {\n  description "Searches the web"\n  return [query]\n}', 'ToolDecl');
    assert.deepEqual([tool.name?.text, tool.description?.value, kinds(bodyOf(tool))], ['search', 'Searches the web', ['Return']]);
  });

  test('skills are key/value entries', () => {
    const skill = only('skill reviewer {\n  description "Reviews"\n  on_activate fn() { log(1) }\n}', 'SkillDecl');
    assert.deepEqual(
      skill.entries.map((e) => [e.key.text, sx(e.value)]),
      [
        ['description', '"Reviews"'],
        ['on_activate', '(fn ())'],
      ],
    );
  });

  test('eval packs: name, title, `key: value` entries, summarize blocks and statements', () => {
    const pack = only('eval_pack smoke "Smoke tests" {\n  dataset: "cases.jsonl"\n  summarize { log(1) }\n  let x = 1\n}', 'EvalPackDecl');
    assert.deepEqual([pack.name?.text, pack.title?.value], ['smoke', 'Smoke tests']);
    assert.deepEqual(
      bodyOf(pack).map((s) => (s.kind === 'BlockStmt' ? s.keyword : s.kind)),
      ['Assign', 'summarize', 'LetDecl'],
    );
    const titled = only('eval_pack "Only a title" {}', 'EvalPackDecl');
    assert.deepEqual([titled.name, titled.title?.value], [undefined, 'Only a title']);
  });

  test('structs, enums, interfaces and impls', () => {
    const [s, e, i, im, tr] = clean(
      'struct Point<T> {\n  x: int\n  label?: string,\n  z\n}\n' +
        'enum Shape { Circle(radius: float), Square(float), Empty }\n' +
        'interface Collection<T> {\n  type Item\n  fn get(self, index: int) -> T\n}\n' +
        'impl Point {\n  pub fn norm(self) { self.x }\n  fn zero() { 0 }\n}\n' +
        'impl Show for Point { fn show(self) { "p" } }',
    );
    assert.ok(s?.kind === 'StructDecl' && e?.kind === 'EnumDecl' && i?.kind === 'InterfaceDecl' && im?.kind === 'ImplDecl' && tr?.kind === 'ImplDecl');
    assert.deepEqual(
      s.fields.map((f) => `${f.name.text}${f.optional ? '?' : ''}:${tx(f.type)}`),
      ['x:int', 'label?:string', 'z:∅'],
    );
    assert.deepEqual(
      s.typeParams.map((p) => p.name.text),
      ['T'],
    );
    // `Square(float)` reads as a parameter named `float`, as upstream.
    assert.deepEqual(
      e.variants.map((v) => `${v.name.text}(${v.params.map((p) => p.name.text).join(',')})`),
      ['Circle(radius)', 'Square(float)', 'Empty()'],
    );
    assert.deepEqual([i.associatedTypes.map((t) => t.name?.text), i.methods.map((m) => [m.name?.text, m.body])], [['Item'], [['get', undefined]]]);
    assert.deepEqual(
      im.methods.map((m) => [m.name?.text, m.isPub]),
      [
        ['norm', true],
        ['zero', false],
      ],
    );
    assert.deepEqual([tr.traitName?.text, tr.name?.text], ['Show', 'Point']);
  });

  test('attributes: arguments of every kind; `pub` after the attributes; ranges start at the first `@`', () => {
    const fn = only('@deprecated\n@test(timeout: 5s, tags: ["a", "b"], level: -1, flaky: true, mode: nil, name: r"x")\npub fn f() {}', 'FnDecl');
    assert.deepEqual(
      fn.attributes.map((a) => a.name.text),
      ['deprecated', 'test'],
    );
    assert.deepEqual(defined(fn.attributes[1], 'the second attribute').args.map(arg), [
      'timeout=5s',
      'tags=(list "a" "b")',
      'level=(- 1)',
      'flaky=true',
      'mode=nil',
      'name="x"',
    ]);
    assert.deepEqual([fn.isPub, fn.start], [true, 0]);
  });

  test('declarations nest inside blocks, even at column 0 when the block is closed later', () => {
    const p = only('pipeline p(task) {\nfn helper() { 1 }\n  helper()\n}', 'PipelineDecl');
    assert.deepEqual(kinds(bodyOf(p)), ['FnDecl', 'ExprStmt']);
  });
});

describe('statements (§1.3)', () => {
  test('let/var with patterns, type annotations and defaults', () => {
    const [a, b, c, d] = clean('let x: int = 1\nvar {a, b: alias, c = 3, ...rest} = obj\nlet [first, second = 2, ...others] = xs\nvar y = nil');
    assert.ok(a?.kind === 'LetDecl' && b?.kind === 'LetDecl' && c?.kind === 'LetDecl' && d?.kind === 'LetDecl');
    assert.deepEqual([a.keyword, tx(a.type)], ['let', 'int']);
    assert.ok(b.pattern?.kind === 'DictPattern');
    assert.deepEqual(
      b.pattern.entries.map((e) => [e.key.text, e.alias?.text, sx(e.defaultValue), e.rest]),
      [
        ['a', undefined, '∅', false],
        ['b', 'alias', '∅', false],
        ['c', undefined, '3', false],
        ['rest', undefined, '∅', true],
      ],
    );
    assert.ok(c.pattern?.kind === 'ListPattern');
    assert.deepEqual(
      c.pattern.entries.map((e) => `${e.rest ? '...' : ''}${e.key.text}`),
      ['first', 'second', '...others'],
    );
    assert.equal(d.keyword, 'var');
  });

  test('a type annotation on a destructuring pattern is an error', () => {
    assert.match(firstMessage('let {a}: int = x'), /only allowed on a simple binding/);
  });

  test('if / else if / else, with newlines before `{` and `else`', () => {
    const ifStmt = only('if a {\n  x()\n}\nelse if b\n{\n  y()\n} else {\n  z()\n}', 'If');
    assert.equal(sx(ifStmt.condition), 'a');
    const elseIf = ifStmt.otherwise;
    assert.ok(elseIf?.kind === 'If');
    assert.equal(sx(elseIf.condition), 'b');
    assert.equal(elseIf.otherwise?.kind, 'Block');
    assert.equal(ifStmt.end, elseIf.end);
  });

  test('`; else` and `; catch` are errors', () => {
    assert.match(firstMessage('if true {\n  a()\n}; else {\n  b()\n}'), /got 'else'/);
    assert.match(firstMessage('try {\n  a()\n}; catch {\n  b()\n}'), /got 'catch'/);
  });

  test('a long `else if` ladder does not overflow the stack', () => {
    const source = 'if a {} ' + 'else if b {} '.repeat(20000) + 'else {}';
    const ifStmt = only(source, 'If');
    assert.equal(ifStmt.end, source.length);
  });

  test('for loops over names, patterns and (k, v) pairs', () => {
    const [a, b, c] = clean('for x in xs { log(x) }\nfor {name, age} in people {}\nfor (k, v) in dict { log(k) }');
    assert.ok(a?.kind === 'For' && b?.kind === 'For' && c?.kind === 'For');
    assert.deepEqual([a.pattern?.kind, sx(a.iterable)], ['Name', 'xs']);
    assert.equal(b.pattern?.kind, 'DictPattern');
    assert.ok(c.pattern?.kind === 'ListPattern');
    assert.deepEqual(
      c.pattern.entries.map((e) => e.key.text),
      ['k', 'v'],
    );
  });

  test('while, with or without parentheses', () => {
    assert.equal(sx(only('while (i < 3) { i += 1 }', 'While').condition), '(paren (< i 3))');
    assert.equal(sx(only('while i < 3 { i += 1 }', 'While').condition), '(< i 3)');
  });

  test('match: or-patterns, guards, enum patterns, arms on one line', () => {
    const m = only('match shape {\n  1 | 2 -> { "small" }\n  Shape.Circle(r) if r > 10 -> { "big" }\n  _ -> { "other" }\n}', 'Match');
    assert.deepEqual(
      m.arms.map((a) => [a.patterns.map(sx), sx(a.guard)]),
      [
        [['1', '2'], '∅'],
        [['(call (. Shape Circle) r)'], '(> r 10)'],
        [['_'], '∅'],
      ],
    );
    const oneLine = only('match x { 1 -> {"a"} _ -> {"b"} }', 'Match');
    assert.equal(oneLine.arms.length, 2);
  });

  test('retry takes a primary or a parenthesised expression; `retry n + 1 {` fails', () => {
    assert.equal(sx(only('retry 3 { f() }', 'Retry').count), '3');
    assert.equal(sx(only('retry (n + 1) { f() }', 'Retry').count), '(paren (+ n 1))');
    assert.equal(sx(only('retry attempts { f() }', 'Retry').count), 'attempts');
    assert.deepEqual(diagnosticsOf('retry n + 1 { f() }'), ["8-9 syntax_error: Expected '{' to start a block, got '+'"]);
  });

  test('parallel each/settle with options, bindings and `as stream`', () => {
    const p = only('parallel each items with { max_concurrent: 4 } { item -> process(item) } as stream', 'Parallel');
    assert.deepEqual(
      [p.mode, sx(p.subject), sx(p.options), p.binding.map((b) => b.text), p.stream],
      ['each', 'items', '(dict max_concurrent=4)', ['item'], true],
    );
    const s = only('parallel settle jobs { (i, job) -> run(job) }', 'Parallel');
    assert.deepEqual([s.mode, s.binding.map((b) => b.text), s.stream], ['settle', ['i', 'job'], false]);
    const n = only('parallel 3 { i -> work(i) }', 'Parallel');
    assert.deepEqual([n.mode, sx(n.subject)], [undefined, '3']);
    assert.match(firstMessage('parallel settle jobs { j -> run(j) } as stream'), /only allowed after 'parallel each'/);
  });

  test('try / catch / finally, bare try as an expression, try*', () => {
    const t = only('try { f() } catch (e: IoError) { log(e) } finally { close() }', 'Try');
    assert.deepEqual([t.catchName?.text, tx(t.catchType), t.finallyBody?.statements.length], ['e', 'IoError', 1]);
    const bare = only('try { f() } catch e { log(e) }', 'Try');
    assert.equal(bare.catchName?.text, 'e');
    assert.equal(ex('let r = try { f() }'), '(stmt Try)');
    const star = only('let r = try* fetch(url)', 'LetDecl');
    assert.ok(star.init?.kind === 'StmtExpr' && star.init.stmt.kind === 'Try');
    assert.equal(sx(star.init.stmt.starOperand), '(call fetch url)');
  });

  test('guard, require, throw, emit, defer, spawn, break, continue', () => {
    const statements = clean(
      'guard x else { return }\nrequire n > 0, "positive"\nthrow err\nemit event\ndefer { close() }\nspawn { work() }\nwhile true { break; continue }',
    );
    assert.deepEqual(
      statements.map((s) => (s.kind === 'BlockStmt' ? s.keyword : s.kind)),
      ['Guard', 'Require', 'Throw', 'Emit', 'defer', 'spawn', 'While'],
    );
    const req = statements[1] as A.RequireStmt;
    assert.deepEqual([sx(req.condition), sx(req.message)], ['(> n 0)', '"positive"']);
  });

  test('deadline takes a primary; `deadline seconds(5) {` fails', () => {
    assert.equal(sx(only('deadline 30s { f() }', 'BlockStmt').argument), '30s');
    assert.equal(sx(only('deadline (seconds(5)) { f() }', 'BlockStmt').argument), '(paren (call seconds 5))');
    assert.deepEqual(diagnosticsOf('deadline seconds(5) { f() }'), [
      "16-17 syntax_error: Expected '{' after the deadline (wrap a call in parentheses: deadline (f(x)) { … }), got '('",
    ]);
  });

  test('select: from, timeout and default cases, not both timeout and default', () => {
    const s = only('select {\n  msg from inbox { log(msg) }\n  timeout 5s { log("t") }\n}', 'Select');
    assert.deepEqual(
      s.cases.map((c) => [c.label, c.name?.text, sx(c.expr)]),
      [
        ['from', 'msg', 'inbox'],
        ['timeout', undefined, '5s'],
      ],
    );
    assert.match(firstMessage('select { default { a() }\n timeout 1s { b() } }'), /both 'timeout' and 'default'/);
  });

  test('assignments: names, fields and elements; anything else is reported', () => {
    const statements = clean('x = 1\na.b += 2\nxs[0] -= 3\nn *= 2\nn /= 2\nn %= 2');
    assert.deepEqual(
      statements.map((s) => s.kind === 'Assign' && `${s.operator} ${sx(s.target)}`),
      ['= x', '+= (. a b)', '-= ([] xs 0)', '*= n', '/= n', '%= n'],
    );
    assert.match(firstMessage('f() = 1'), /Invalid assignment target/);
  });

  test('control flow as expressions', () => {
    assert.equal(ex('let v = if a { 1 } else { 2 }'), '(stmt If)');
    assert.equal(ex('let v = match x { _ -> { 1 } }'), '(stmt Match)');
    assert.equal(ex('let h = spawn { work() }'), '(stmt BlockStmt)');
    assert.equal(ex('let r = parallel each xs { x -> f(x) }'), '(stmt Parallel)');
  });
});

describe('expressions (§1.4 primaries, §1.5 types)', () => {
  test('dict vs closure: `{}` is a dict; a `->` at depth 0 makes a closure', () => {
    assert.equal(ex('let v = {}'), '(dict)');
    assert.equal(ex('let v = {a: 1, "b": 2, [k]: 3, ...rest}'), '(dict a=1 "b"=2 [k]=3 ...rest)');
    assert.equal(ex('let f = { a, b -> a + b }'), '(closure (a b) 1)');
    assert.equal(ex('let f = { -> 1 }'), '(closure () 1)');
    assert.equal(ex('let d = {f: { x -> x }}'), '(dict f=(closure (x) 1))');
    const closure = only('let f = { x: int = 1 -> x }', 'LetDecl').init;
    assert.ok(closure?.kind === 'Closure');
    assert.deepEqual(
      closure.params.map((p) => [p.name.text, tx(p.type), sx(p.defaultValue)]),
      [['x', 'int', '1']],
    );
  });

  test('lists with spreads, fn expressions, nested literals', () => {
    assert.equal(ex('let v = [1, ...rest, [2]]'), '(list 1 (... rest) (list 2))');
    assert.equal(ex('let f = fn(a, b) -> int { a + b }'), '(fn (a b))');
  });

  test('types: unions, literals, lists, dicts, shapes, fn types, generics, qualified names', () => {
    const cases: Array<[string, string]> = [
      ['"a" | "b" | -1 | nil | true', '(| "a" "b" -1 nil true)'],
      ['| A | B', '(| A B)'],
      ['[int]', '[int]'],
      ['list<dict<string, int>>', 'list<dict<string,int>>'],
      ['{name: string, age?: int}', '{name:string,age?:int}'],
      ['fn(int, string) -> bool', 'fn(int,string)->bool'],
      ['fn(x: int) -> int', 'fn(int)->int'],
      ['mod.Type<T>', 'mod.Type<T>'],
      ['never', 'never'],
    ];
    for (const [source, expected] of cases) {
      assert.equal(tx(only(`type T = ${source}`, 'TypeAliasDecl').type), expected, source);
    }
  });
});

describe('positions', () => {
  test('node ranges slice the source', () => {
    const source = '/** doc */\npub fn add(a: int, b: int) -> int {\n  return a + b\n}\nlet total = add(1, 2).value';
    const [fn, let_] = clean(source);
    assert.ok(fn?.kind === 'FnDecl' && let_?.kind === 'LetDecl');
    assert.equal(slice(source, fn), source.slice(source.indexOf('pub'), source.indexOf('}') + 1));
    assert.equal(fn.doc, 'doc');
    assert.equal(slice(source, fn.name), 'add');
    assert.equal(slice(source, fn.params[1]), 'b: int');
    assert.equal(slice(source, fn.returnType), 'int');
    const ret = bodyOf(fn)[0] as A.SimpleStmt;
    assert.equal(slice(source, ret), 'return a + b');
    assert.equal(slice(source, ret.value), 'a + b');
    assert.equal(slice(source, let_), 'let total = add(1, 2).value');
    const member = let_.init as A.Member;
    assert.equal(slice(source, member.object), 'add(1, 2)');
    assert.equal(slice(source, member.property), 'value');
  });

  test('the file node spans the whole text', () => {
    const source = '\n\nlet x = 1\n\n';
    const result = parse(source);
    assert.deepEqual([result.file.start, result.file.end], [0, source.length]);
  });
});

describe('recovery', () => {
  test('a missing `}` is reported at end of file and at the opening brace', () => {
    const result = broken('pipeline p(x) {\n  log(x)\n');
    assert.deepEqual(result.diagnostics.map((d) => d.message).sort(), ["This '{' is never closed", 'Unexpected end of file, expected }']);
    const p = result.file.statements[0] as A.PipelineDecl;
    assert.equal(p.body?.closed, false);
    assert.deepEqual(kinds(bodyOf(p)), ['ExprStmt']);
  });

  test('a declaration at column 0 closes an unclosed block, keeping both declarations', () => {
    const result = broken('fn a() {\n  if x {\n    foo()\nfn b() {\n}');
    assert.deepEqual(kinds(result.file.statements), ['FnDecl', 'FnDecl']);
    // Both braces `fn b` closes: the function's and the `if`'s.
    assert.deepEqual(diagnosticsOf('fn a() {\n  if x {\n    foo()\nfn b() {\n}'), [
      "7-8 syntax_error: This '{' is not closed before the declaration at 'fn'",
      "16-17 syntax_error: This '{' is not closed before the declaration at 'fn'",
    ]);
    assert.deepEqual(
      result.file.statements.map((s) => (s as A.FnDecl).name?.text),
      ['a', 'b'],
    );
  });

  test('`let x =` at end of file', () => {
    const result = broken('let x =');
    assert.deepEqual(
      result.diagnostics.map((d) => d.message),
      ['Unexpected end of file, expected expression'],
    );
    const let_ = result.file.statements[0] as A.LetDecl;
    assert.equal(let_.pattern?.kind === 'Name' && let_.pattern.text, 'x');
  });

  test('`a.` while typing keeps a member without a name; the next line is not its name', () => {
    // A trailing `.` does not continue onto the next line (a leading one does): while typing `user.`
    // above another statement, that statement must stay whole.
    for (const next of ['let w = 1', 'log(w)', 'other.call()']) {
      const result = broken(`let v = user.\n${next}`);
      assert.equal(result.diagnostics.length, 1, next);
      assert.match(defined(result.diagnostics[0], 'a diagnostic').message, /Expected member name after '\.'/);
      const init = (result.file.statements[0] as A.LetDecl).init;
      assert.ok(init?.kind === 'Member');
      assert.deepEqual([sx(init.object), init.property], ['user', undefined]);
      assert.equal(result.file.statements.length, 2, next);
    }
  });

  test('an unclosed call keeps its callee and arguments', () => {
    const result = broken('log(a, b');
    const stmt = result.file.statements[0] as A.ExprStmt;
    assert.ok(stmt.expr.kind === 'Call');
    assert.deepEqual([stmt.expr.closed, stmt.expr.args.length], [false, 2]);
    assert.deepEqual(diagnosticsOf('log(a, b'), [
      "3-4 syntax_error: This '(' is never closed",
      "8-8 syntax_error: Unexpected end of file, expected ')' to close the argument list",
    ]);
  });

  test('a half-typed call in a block, cut off by `}` or by the next statement, stays in the tree; the diagnostics are unchanged', () => {
    const blockBody = (result: ParseResult): A.Stmt[] => (result.file.statements[0] as A.FnDecl).body?.statements ?? [];
    const closedByBrace = broken('fn f() {\n  add(1, g(2, \n}\n');
    const stmt = blockBody(closedByBrace)[0];
    assert.ok(stmt?.kind === 'ErrorStmt');
    assert.equal(sx(stmt.partial), '(call add 1 (call g 2))');
    assert.deepEqual([stmt.partial?.closed, stmt.partial?.args[1]?.value?.kind === 'Call' && stmt.partial.args[1].value.closed], [false, false]);
    assert.deepEqual(diagnosticsOf('fn f() {\n  add(1, g(2, \n}\n'), [
      "7-8 syntax_error: This '{' is never closed",
      "24-25 syntax_error: Expected ')' to close the argument list, got '}'",
      '26-26 syntax_error: Unexpected end of file, expected }',
    ]);

    const beforeLet = broken('fn f() {\n  add(x: 1, \n  let y = 2\n}\n');
    const [partial, next] = blockBody(beforeLet);
    assert.ok(partial?.kind === 'ErrorStmt');
    assert.equal(sx(partial.partial), '(call add x=1)');
    assert.equal(next?.kind, 'LetDecl');
    assert.deepEqual(diagnosticsOf('fn f() {\n  add(x: 1, \n  let y = 2\n}\n'), ["24-27 syntax_error: Expected expression, got 'let'"]);

    // A binding's value when the call is all of it; `a + f(…` keeps none rather than a wrong one.
    const bound = blockBody(broken('fn f() {\n  let z = add<int>(1, \n  let y = 2\n}\n'))[0];
    assert.ok(bound?.kind === 'LetDecl');
    assert.equal(sx(bound.init), '(call<int> add 1)');
    const summed = blockBody(broken('fn f() {\n  let z = a + add(1, \n  let y = 2\n}\n'))[0];
    assert.ok(summed?.kind === 'LetDecl');
    assert.equal(summed.init, undefined);
    // An error that is not in a call's arguments keeps no call.
    const plain = blockBody(broken('fn f() {\n  let = 3\n}\n'))[0];
    assert.deepEqual([plain?.kind, plain?.kind === 'ErrorStmt' ? plain.partial : 'n/a'], ['ErrorStmt', undefined]);
  });

  test('a half-typed call survives errors caught inside its arguments, and the statements after an error parse as before it', () => {
    // The inner error is recovered inside the closure body or the string hole; the outer call stays open and is kept.
    const afterClosure = broken('f(1, fn() { g(2, \n let y = 2 }, h(3, ]').file.statements[0];
    assert.ok(afterClosure?.kind === 'ErrorStmt');
    assert.equal(sx(afterClosure.partial), '(call f 1 (fn ()) (call h 3))');
    const afterHole = broken('f(1, "${g(2, ]}", h(3, ]').file.statements[0];
    assert.ok(afterHole?.kind === 'ErrorStmt');
    assert.equal(sx(afterHole.partial), '(call f 1 (interp ∅) (call h 3))');
    // An attribute's arguments are no call: the half-read call inside them is the one kept.
    const inAttribute = broken('@attr(1, g(2, ]\nfn k() {}').file.statements;
    assert.deepEqual(
      inAttribute.map((s) => (s.kind === 'ErrorStmt' ? sx(s.partial) : s.kind)),
      ['(call g 2)', 'FnDecl'],
    );
    // However the inner call is reached (a call's result called, `?.(`, a spread, inside a list or an attribute), the
    // outermost half-read call keeps it as its last argument.
    const partialOf = (source: string): string => {
      const stmt = broken(source).file.statements[0];
      return stmt?.kind === 'ErrorStmt' ? sx(stmt.partial) : stmt?.kind === 'LetDecl' ? sx(stmt.init) : String(stmt?.kind);
    };
    assert.deepEqual(
      ['f(1)(2, g(3, ]', 'a?.(1, g(2, ]', 'let x = f(1, ...g(2, ]', 'x = [f(1, g(2, ]]', '@a(f(1, g(2, ])\nfn k() {}', 'let x = -f(1, g(2, ]'].map(partialOf),
      ['(call (call f 1) 2 (call g 3))', '(call a 1 (call g 2))', '(call f 1 ...(call g 2))', '(call f 1 (call g 2))', '(call f 1 (call g 2))', '∅'],
    );
    // Nested generic calls cut short: the outermost keeps the inner ones as its arguments.
    const nested = broken(nestedGenericCalls(3)).file.statements[0];
    assert.ok(nested?.kind === 'LetDecl');
    assert.equal(sx(nested.init), '(call<b> a (call<b> a (call<b> a x)))');
    // Newlines separate statements again after an error inside brackets: `(c)` is not a call of `b`.
    const body = (broken('fn f() {\n  g(1, ]\n  let a = b\n  (c)\n}').file.statements[0] as A.FnDecl).body?.statements ?? [];
    assert.deepEqual(
      body.map((s) => (s.kind === 'LetDecl' ? sx(s.init) : s.kind === 'ExprStmt' ? sx(s.expr) : s.kind)),
      ['ErrorStmt', 'b', '(paren c)'],
    );
    // The nesting depth comes back too: many statements that each fail 100 levels deep never reach the limit.
    const deepFailures = `let a = ${'('.repeat(100)}x ]\n`.repeat(50) + `let b = ${'['.repeat(100)}1${']'.repeat(100)}`;
    const codes = parse(deepFailures).diagnostics.map((d) => d.code);
    assert.deepEqual([codes.length, codes.includes('nesting_too_deep')], [50, false]);
  });

  test('a partly written declaration stays in the tree', () => {
    const result = broken('fn half(a: int, \nfn next() {}');
    assert.deepEqual(
      result.file.statements.map((s) => (s.kind === 'FnDecl' ? s.name?.text : s.kind)),
      ['half', 'next'],
    );
    assert.deepEqual(diagnosticsOf('fn half(a: int, \nfn next() {}'), ["17-19 syntax_error: Expected parameter name, got 'fn'"]);
  });

  test('a broken impl method keeps the impl and its other methods', () => {
    const result = broken('impl P {\n  fn a(self { 1 }\n  fn b(self) { 2 }\n}');
    const impl = result.file.statements[0] as A.ImplDecl;
    assert.equal(impl.kind, 'ImplDecl');
    assert.deepEqual(
      impl.methods.map((m) => m.name?.text),
      ['a', 'b'],
    );
    assert.deepEqual(diagnosticsOf('impl P {\n  fn a(self { 1 }\n  fn b(self) { 2 }\n}'), ["21-22 syntax_error: Expected parameter name, got '{'"]);
  });

  test('one mistake, one diagnostic', () => {
    // The separator check and the statement that then fails both stop at the `:`.
    assert.deepEqual(diagnosticsOf('let v = x : y'), ["10-11 syntax_error: Expected statement separator (`;` or newline), got ':'"]);
  });

  test('nesting deeper than the parser follows is one diagnostic, not a stack overflow', () => {
    for (const source of [
      'let x = ' + '('.repeat(5000) + '1' + ')'.repeat(5000),
      'let x = ' + '['.repeat(20000),
      '-'.repeat(50000) + '1',
      'if x {\n'.repeat(5000),
      '"${'.repeat(3000),
      'type T = ' + 'list<'.repeat(5000),
    ]) {
      const result = parse(source);
      const deep = result.diagnostics.filter((d) => d.code === 'nesting_too_deep');
      assert.equal(deep.length, 1, source.slice(0, 20));
    }
    // Ordinary deep code is fine.
    assert.equal(ex('let x = ' + '('.repeat(3) + '1' + ')'.repeat(3)), '(paren (paren (paren 1)))');
    assert.equal(ex('let x = ' + '('.repeat(60) + '1' + ')'.repeat(60)), '(paren '.repeat(60) + '1' + ')'.repeat(60));
  });

  test('speculative generic calls are not retried: nested `a < b > (` ends with one diagnostic', { timeout: 60_000 }, () => {
    // Each failed `f<T>(…)` attempt used to re-read its contents as a comparison, doubling per level (the
    // time is measured in test/bench/parserEdges.ts: nested_generic_calls_*).
    const source = nestedGenericCalls(40);
    assert.deepEqual(diagnosticsOf(source), ["370-371 syntax_error: Expected ')' to close the argument list, got ']'"]);
    // The well-formed version is still a chain of generic calls.
    assert.equal(ex('let v = ' + 'a < b > ('.repeat(3) + 'x' + ')'.repeat(3)), '(call<b> a (call<b> a (call<b> a x)))');
  });

  test('many unclosed braces: one diagnostic per dict up to the cap, then too_many_errors', { timeout: 60_000 }, () => {
    // How the time grows with the lines is measured in test/bench/parserEdges.ts (unclosed_braces_scaling).
    const source = unclosedBraces(20000);
    const diagnostics = diagnosticsOf(source);
    assert.equal(diagnostics.length, MAX_DIAGNOSTICS + 1);
    // Each `{` reads the next line's `let` as a key, then wants `:` where `x` is.
    assert.deepEqual(diagnostics.slice(0, 2), [
      "14-15 syntax_error: Expected ':' after the dict key, got identifier 'x'",
      "34-35 syntax_error: Expected ':' after the dict key, got identifier 'x'",
    ]);
    assert.deepEqual(diagnostics.slice(-2), [
      `${14 + 20 * (MAX_DIAGNOSTICS - 1)}-${15 + 20 * (MAX_DIAGNOSTICS - 1)} syntax_error: Expected ':' after the dict key, got identifier 'x'`,
      '20014-20014 too_many_errors: Too many syntax errors: 9000 more are not shown',
    ]);
  });
});
