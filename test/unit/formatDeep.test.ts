// The formatter on chains as long as a file makes them (the LSP fuzzer's harn/chain and harn/huge-line
// generators): `1 + 1 + …`, `a.b.b…`, `f()()…`, an `else if` ladder. The parser does not bound them (only real
// nesting, MAX_NESTING), so the printer walks them with loops: each one answers, with exactly the text the
// rules give (the same as for a short chain, continued), or, for a ladder too deep to print, a refusal.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_FORMAT_OPTIONS, format } from '../../server/src/harn/format';
import { documentFormatEdits, FormatEdits, onTypeFormatEdits, rangeFormatEdits } from '../../server/src/harn/format/edits';

/** Deep enough that a call per link overflows the stack (it did at a few thousand). */
const N = 20_000;

const formatted = (text: string): string => {
  const result = format(text);
  if ('refused' in result) assert.fail(`refused: ${result.refused}`);
  return result.text;
};

describe('harn fmt: long chains', () => {
  test('a left-nested operator chain breaks before each operator once the line is full', () => {
    // `1` and 24 ` + 1` fill 97 columns; the 25th operator would pass 100.
    assert.equal(formatted(`let x = 1${' + 1'.repeat(N)}\n`), `let x = 1${' + 1'.repeat(24)}${'\n  + 1'.repeat(N - 24)}\n`);
    assert.equal(formatted(`let x = a${' ?? a'.repeat(N)}\n`), `let x = a${' ?? a'.repeat(19)}${'\n  ?? a'.repeat(N - 19)}\n`);
    assert.equal(formatted(`let x = 1${' |> f'.repeat(N)}\n`), `let x = 1${' |> f'.repeat(19)}${'\n  |> f'.repeat(N - 19)}\n`);
    // `-` is not safe to start a line with: the break keeps a `\` continuation.
    assert.equal(formatted(`let x = 1${' - 1'.repeat(N)}\n`), `let x = 1${' - 1'.repeat(24)}${' \\\n  - 1'.repeat(N - 24)}\n`);
    // Source line breaks before the operators are kept, one level deeper inside a pipeline.
    assert.equal(formatted(`pipeline main(task) {\n  let x = 1${'\n + 1'.repeat(N)}\n}\n`), `pipeline main(task) {\n  let x = 1${'\n    + 1'.repeat(N)}\n}\n`);
    // Mixed `&&` in `||` keeps its parentheses at every link.
    assert.equal(formatted(`let x = a${' && b || c'.repeat(3)}\n`), 'let x = (a && b) || (c && b) || (c && b) || c\n');
    assert.equal(formatted(`let x = a${' && b || c'.repeat(N)}\n`), `let x = (a && b)${' || (c && b)'.repeat(7)}${'\n  || (c && b)'.repeat(N - 8)}\n  || c\n`);
  });

  test('a postfix chain is printed on one line, or one operation a line when its source broke', () => {
    for (const link of ['.b', '?.b', '()', '[0]', '[1:2]', '.m()', '.m()[0]()'])
      assert.equal(formatted(`let x = a${link.repeat(N)}\n`), `let x = a${link.repeat(N)}\n`, link);
    assert.equal(formatted(`let x = a${'\n.b'.repeat(N)}\n`), `let x = a${'.b'.repeat(N)}\n`);
    assert.equal(formatted(`let x = a${'\n.m()'.repeat(N)}\n`), `let x = a${'\n  .m()'.repeat(N)}\n`);
  });

  test('a statement `else if` ladder stays flat', () => {
    assert.equal(formatted(`if a {}${' else if a {}'.repeat(N)}\n`), `if a {\n}${' else if a {\n}'.repeat(N)}\n`);
  });

  test('an expression `else if` ladder nests a block per branch, and is refused past 1000', () => {
    const ladder = (n: number): string => `let x = if a { 1 }${' else if a { 1 }'.repeat(n)} else { 2 }\n`;
    const nested = (n: number): string => {
      let text = 'let x = if a {\n  1\n}';
      for (let d = 1; d <= n; d++) text += ` else {\n${'  '.repeat(d)}if a {\n${'  '.repeat(d + 1)}1\n${'  '.repeat(d)}}`;
      text += ` else {\n${'  '.repeat(n + 1)}2\n${'  '.repeat(n)}}`;
      for (let d = n - 1; d >= 0; d--) text += `\n${'  '.repeat(d)}}`;
      return `${text}\n`;
    };
    assert.equal(formatted(ladder(3)), nested(3));
    assert.equal(formatted(ladder(1000)), nested(1000));
    for (const n of [1001, N]) {
      const result = format(ladder(n));
      assert.ok('refused' in result, `${n} branches`);
      assert.match(result.refused, /^cannot format: an `else if` ladder in an expression nests deeper than 1000 blocks once printed$/);
    }
  });

  test('range and on-type formatting of a file that is one huge line: the whole file formatted, or nothing for a broken one', () => {
    const apply = (text: string, result: FormatEdits): string => {
      if ('refused' in result) assert.fail(`refused: ${result.refused}`);
      return TextDocument.applyEdits(TextDocument.create('file:///t.harn', 'harn', 1, text), result.edits);
    };
    // The fuzzer's huge-line chain: 1.5 MB on line 0.
    const n = 386_000;
    const chain = `let x = 1${' + 1'.repeat(n)}`;
    const expected = `let x = 1${' + 1'.repeat(24)}${'\n  + 1'.repeat(n - 24)}\n`;
    const range = { start: { line: 0, character: 1_000_000 }, end: { line: 0, character: 1_200_000 } };
    assert.equal(apply(chain, rangeFormatEdits(chain, range, DEFAULT_FORMAT_OPTIONS)), expected);
    assert.equal(apply(chain, documentFormatEdits(chain, DEFAULT_FORMAT_OPTIONS)), expected);
    // 3 MB of `{` (past the parser's nesting limit: copied as it is) with a `}` typed in it.
    const braces = `${'{'.repeat(1_500_000)}}${'{'.repeat(1_500_000)}\n`;
    assert.deepEqual(rangeFormatEdits(braces, range, DEFAULT_FORMAT_OPTIONS), { edits: [] });
    assert.deepEqual(onTypeFormatEdits(braces, { line: 0, character: 1_500_001 }, DEFAULT_FORMAT_OPTIONS), { edits: [] });
  });
});
