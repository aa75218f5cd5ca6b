// The parentheses the formatter must add (rule book §13 F): random expression trees, built as fully
// parenthesised text (so the intended tree is what parses), printed as `let x = <expr>` through `format`,
// re-parsed: the AST must be the same up to what the formatter may respell (test/support/formatAst.ts),
// and the output a fixed point. Plus exact outputs for the cases this property found.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { format } from '../../server/src/harn/format';
import { parse } from '../../server/src/harn/parser';
import { normalised } from '../support/formatAst';

const BINARY = ['|>', '||', '&&', '==', '!=', '<', '>', '<=', '>=', 'in', 'not in', '+', '-', '??', '*', '/', '%', '**'];

const p = (text: string): string => `(${text})`;

/** Fully parenthesised expression text: every operand in parentheses, so the tree is exactly the one built. */
const expression = fc.letrec<{ expr: string }>((tie) => {
  const e = tie('expr');
  const sub = e.map(p);
  return {
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('a', 'b', 'xs', '0', '42', '1.5', '"s"', '"v${a}"', 'true', 'nil', '5s'),
      fc.tuple(sub, fc.constantFrom(...BINARY), sub).map(([l, op, r]) => `${l} ${op} ${r}`),
      fc.tuple(fc.constantFrom('!', '-'), sub).map(([op, x]) => op + x),
      fc.tuple(sub, sub, sub).map(([c, t, f]) => `${c} ? ${t} : ${f}`),
      fc.tuple(sub, sub, fc.boolean()).map(([from, to, exclusive]) => `${from} to ${to}${exclusive ? ' exclusive' : ''}`),
      fc.tuple(sub, fc.constantFrom('.p', '?.p')).map(([o, m]) => o + m),
      fc.tuple(sub, fc.array(sub, { maxLength: 2 })).map(([o, args]) => `${o}.m(${args.join(', ')})`),
      fc.tuple(sub, fc.array(sub, { maxLength: 2 })).map(([f, args]) => `${f}(${args.join(', ')})`),
      fc.tuple(sub, sub).map(([o, i]) => `${o}[${i}]`),
      fc.tuple(sub, fc.option(sub), fc.option(sub)).map(([o, from, to]) => `${o}[${from ?? ''}:${to ?? ''}]`),
      sub.map((o) => `${o}?`),
      fc.array(sub, { maxLength: 2 }).map((items) => `[${items.join(', ')}]`),
      fc.array(sub, { minLength: 1, maxLength: 2 }).map((values) => `{${values.map((v, i) => `k${i}: ${v}`).join(', ')}}`),
      sub.map((body) => `{ x -> ${body} }`),
      sub.map((value) => `{ x -> b = ${value} }`),
      fc.array(sub, { maxLength: 2 }).map((values) => `Point {${values.map((v, i) => `f${i}: ${v}`).join(', ')}}`),
      sub.map((body) => `fn(x) { ${body} }`),
      fc.tuple(sub, sub, sub).map(([c, t, f]) => `if ${c} { ${t} } else { ${f} }`),
      fc.tuple(sub, sub, sub).map(([s, t, f]) => `match ${s} { 1 -> { ${t} } _ -> { ${f} } }`),
      sub.map((x) => `try* ${x}`),
    ),
  };
}).expr;

const ast = (text: string): string => JSON.stringify(normalised(parse(text).file));

function formatted(text: string): string {
  const result = format(text);
  if (!('text' in result)) throw new Error(`refused: ${result.refused}\n${text}`);
  return result.text;
}

/** The formatter's output for `let x = <expr>` keeps the AST and is a fixed point; the reason when not. */
function check(expr: string): string | undefined {
  const source = `let x = ${expr}\n`;
  const output = formatted(source);
  const reparsed = parse(output);
  if (reparsed.diagnostics.length > 0) return `output does not parse (${reparsed.diagnostics[0]?.message}):\n${output}`;
  if (ast(output) !== ast(source)) return `AST changed:\n${source}→\n${output}`;
  if (formatted(output) !== output) return `not idempotent:\n${output}`;
  return undefined;
}

describe('harn fmt: parentheses re-derived for a faithful re-parse (§7.3, §13 F)', () => {
  test('random expression trees print to text that parses back to the same tree', () => {
    let parsed = 0;
    fc.assert(
      fc.property(expression, (expr) => {
        if (parse(`let x = ${expr}\n`).diagnostics.length > 0) return true;
        parsed++;
        const problem = check(expr);
        assert.equal(problem, undefined, problem);
        return true;
      }),
      { numRuns: Number(process.env.FMT_PROPERTY_RUNS ?? 2000), seed: Number(process.env.FMT_PROPERTY_SEED ?? 16) },
    );
    // The generator builds only what parses: if it did not, the property would test nothing.
    assert.ok(parsed > 1500, `only ${parsed} generated expressions parsed`);
  });
});

describe('harn fmt: the parentheses the property found missing (exact outputs)', () => {
  const cases: [string, string][] = [
    ['(a ? b : c) + 1', '(a ? b : c) + 1'],
    ['a + (b to c)', 'a + (b to c)'],
    ['(a to b) ? c : d', '(a to b) ? c : d'],
    ['a ? (b to c) : d', 'a ? (b to c) : d'],
    ['(a ? b : c) ? d : e', '(a ? b : c) ? d : e'],
    ['((a |> f) to b)', '(a |> f) to b'],
    ['a |> (b to c)', 'a |> b to c'],
    ['(-a) ** 2', '(-a) ** 2'],
    ['(try* a).p', '(try* a).p'],
    ['try* (a + b)', 'try* (a + b)'],
    ['(a?).m()', '(a?).m()'],
    ['!(a?)', '!(a?)'],
  ];
  for (const [expr, expected] of cases) {
    test(`let x = ${expr}`, () => {
      assert.equal(formatted(`let x = ${expr}\n`), `let x = ${expected}\n`);
      assert.equal(check(expr), undefined);
    });
  }

  test('a statement that starts with a block-valued expression and continues is parenthesised', () => {
    const input = 'fn f() {\n  (match a { 1 -> { b } _ -> { c } } |> g)\n}\n';
    assert.equal(formatted(input), 'fn f() {\n  (match a {\n    1 -> { b }\n    _ -> { c }\n  }\n    |> g)\n}\n');
    assert.equal(ast(formatted(input)), ast(input));
  });

  test('`match (a?) {`: a postfix `?` before the block would read as a ternary', () => {
    assert.equal(check('a ? match (a?) { 1 -> { a } _ -> { a } } : a'), undefined);
    assert.ok(formatted('let x = match a? { 1 -> { a } _ -> { a } }\n').startsWith('let x = match (a?) {'));
  });

  test('a left operand or arguments printed on several lines break at once, as the next run would (fixed points)', () => {
    assert.equal(formatted('let x = if c { a } else { b } + 1\n'), 'let x = if c {\n  a\n} else {\n  b\n}\n  + 1\n');
    assert.equal(formatted('let x = a.m(if c { a } else { b })\n'), 'let x = a\n  .m(\n  if c {\n    a\n  } else {\n    b\n  },\n)\n');
  });
});
