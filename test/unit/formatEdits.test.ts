// The formatter's output as text edits (server/src/harn/format/edits.ts): the edits give the formatter's text
// exactly (random texts and the corpus oracle), are in order and never overlap, are small (an indentation change
// edits only the leading spaces), keep CRLF and a BOM; range and on-type formatting touch only their items.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { format, DEFAULT_FORMAT_OPTIONS, type FormatOptions } from '../../server/src/harn/format';
import {
  commonSubsequence,
  documentFormatEdits,
  type FormatEdits,
  minimalEdits,
  onTypeFormatEdits,
  rangeFormatEdits,
  splitLines,
  type TextEdit,
} from '../../server/src/harn/format/edits';
import { parse } from '../../server/src/harn/parser';
import { LineIndex } from '../../server/src/text/lineIndex';
import { corpusFiles, corpusPath, corpusSkip, readCorpus } from '../support/corpus';
import { existsSync } from 'node:fs';

const apply = (text: string, edits: TextEdit[]): string => TextDocument.applyEdits(TextDocument.create('file:///t.harn', 'harn', 1, text), edits);

const before = (a: { line: number; character: number }, b: { line: number; character: number }): boolean =>
  a.line < b.line || (a.line === b.line && a.character <= b.character);

function assertOrderedDisjoint(edits: TextEdit[]): void {
  for (let i = 1; i < edits.length; i++) {
    const previous = edits[i - 1] as TextEdit;
    const edit = edits[i] as TextEdit;
    assert.ok(before(previous.range.end, edit.range.start), `edits ${i - 1} and ${i} overlap or are out of order: ${JSON.stringify([previous, edit])}`);
  }
}

function editsOf(result: FormatEdits): TextEdit[] {
  if ('refused' in result) throw new Error(`refused: ${result.refused}`);
  return result.edits;
}

function formatted(text: string, options: FormatOptions = DEFAULT_FORMAT_OPTIONS): string {
  const result = format(text, options);
  if ('refused' in result) throw new Error(`refused: ${result.refused}`);
  return result.text;
}

const lines = (...l: string[]): string => l.join('\n') + '\n';

describe('minimalEdits', () => {
  const unit = fc.constantFrom('a', 'b', ' ', ' ', '\n', '\n', '\r', '\r\n', '{', '}', 'é', '😀');
  const text = fc.array(unit, { maxLength: 60 }).map((u) => u.join(''));

  test('applying the edits gives the new text; they are in order and never overlap (random texts)', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const edits = minimalEdits(a, b);
        assertOrderedDisjoint(edits);
        assert.equal(apply(a, edits), b);
      }),
      { numRuns: 3000 },
    );
  });

  test('a text and a variant of it (lines re-indented, dropped, added): the edits give it; re-indenting alone is an edit of the spaces of each line re-indented', () => {
    const doc = fc.array(fc.tuple(fc.nat({ max: 6 }), fc.constantFrom('let x = 1', 'log(x)', '}', 'fn f() {', '')), { maxLength: 25 });
    fc.assert(
      fc.property(doc, fc.array(fc.tuple(fc.nat({ max: 30 }), fc.constantFrom('indent', 'drop', 'add')), { maxLength: 6 }), (rows, changes) => {
        const next = rows.map((r) => [...r] as [number, string]);
        for (const [at, what] of changes) {
          const i = next.length === 0 ? 0 : at % next.length;
          if (what === 'indent') {
            if (next[i]) next[i][0] = (next[i][0] + 1) % 7;
          } else if (what === 'drop') next.splice(i, 1);
          else next.splice(i, 0, [0, 'add(1)']);
        }
        const render = (r: [number, string][]): string => r.map(([n, s]) => ' '.repeat(n) + s + '\n').join('');
        const a = render(rows);
        const b = render(next);
        const edits = minimalEdits(a, b);
        assertOrderedDisjoint(edits);
        assert.equal(apply(a, edits), b);
        if (changes.every(([, what]) => what === 'indent')) {
          assert.ok(edits.length <= changes.length, `${edits.length} edits for ${changes.length} re-indented lines`);
          assert.ok(
            edits.every((e) => e.range.start.line === e.range.end.line && /^ *$/.test(e.newText)),
            JSON.stringify(edits),
          );
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('an indentation change is an edit of the leading spaces only, one per line', () => {
    const a = lines('fn f() {', '      let x = 1', '    if x {', 'log(x)', '    }', '}');
    const b = lines('fn f() {', '  let x = 1', '  if x {', '    log(x)', '  }', '}');
    const edits = minimalEdits(a, b);
    assert.equal(edits.length, 4);
    for (const e of edits) {
      assert.equal(e.range.start.line, e.range.end.line);
      assert.match(e.newText, /^ *$/);
      const line = splitLines(a)[e.range.start.line] ?? '';
      assert.match(line.slice(e.range.start.character, e.range.end.character), /^ *$/);
      assert.ok(e.range.end.character <= line.length - line.trimStart().length, 'the edit stays inside the leading spaces');
    }
    assert.equal(apply(a, edits), b);
  });

  test('CRLF line breaks are never split by an edit; equal texts give no edits', () => {
    assert.deepEqual(minimalEdits('a\r\nb\r\n', 'a\r\nb\r\n'), []);
    const edits = minimalEdits('a\r\nb\r\n', 'a\nb\r\n');
    assert.equal(apply('a\r\nb\r\n', edits), 'a\nb\r\n');
    assert.ok(edits.every((e) => e.range.start.character <= 1 && e.range.end.character <= 1));
  });

  test('commonSubsequence is a longest one (checked against the quadratic table)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 3 }), { maxLength: 20 }), fc.array(fc.nat({ max: 3 }), { maxLength: 20 }), (a, b) => {
        const pairs = commonSubsequence(a, b, (x, y) => x === y) ?? [];
        const table: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
        for (let i = a.length - 1; i >= 0; i--)
          for (let j = b.length - 1; j >= 0; j--)
            (table[i] as number[])[j] = a[i] === b[j] ? (table[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(table[i + 1]?.[j] ?? 0, table[i]?.[j + 1] ?? 0);
        assert.equal(pairs.length, table[0]?.[0]);
        for (let k = 0; k < pairs.length; k++) {
          const [i, j] = pairs[k] as [number, number];
          assert.equal(a[i], b[j]);
          if (k > 0) assert.ok(i > (pairs[k - 1] as [number, number])[0] && j > (pairs[k - 1] as [number, number])[1]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('document formatting edits', () => {
  test("a badly indented file: the edits give the formatter's text", () => {
    const text = 'fn a() {\n    let x = 1\n      log(x)\n}\nfn b() {\nlog(2)\n}\n';
    const edits = editsOf(documentFormatEdits(text, DEFAULT_FORMAT_OPTIONS));
    assert.equal(apply(text, edits), formatted(text));
    assert.equal(edits.length, 4, JSON.stringify(edits));
  });

  test('CRLF stays CRLF and a BOM stays', () => {
    const text = '\uFEFFfn a() {\r\n    log(1)\r\n}\r\nfn b() {\r\nlog(2)\r\n}\r\n';
    const result = apply(text, editsOf(documentFormatEdits(text, DEFAULT_FORMAT_OPTIONS)));
    assert.equal(result, '\uFEFF' + formatted(text).replace(/\n/g, '\r\n'));
  });

  test('a refusal is passed on (an unterminated block comment)', () => {
    const result = documentFormatEdits('/* open\nfn a() {}\n', DEFAULT_FORMAT_OPTIONS);
    assert.ok('refused' in result && /Unterminated block comment/.test(result.refused), JSON.stringify(result));
  });

  test('the options are honoured (line width)', () => {
    const text = 'let x = [aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd]\n';
    const narrow = { ...DEFAULT_FORMAT_OPTIONS, lineWidth: 40 };
    assert.equal(apply(text, editsOf(documentFormatEdits(text, narrow))), formatted(text, narrow));
    assert.notEqual(formatted(text, narrow), formatted(text));
  });

  test('every changed corpus file: the edits give the oracle, in LF and in CRLF', { skip: corpusSkip }, () => {
    let checked = 0;
    for (const file of corpusFiles().filter((f) => f.startsWith('fmt-oracle/formatted/'))) {
      const source = readCorpus(file.slice('fmt-oracle/formatted/'.length));
      const oracle = readCorpus(file);
      const edits = editsOf(documentFormatEdits(source, DEFAULT_FORMAT_OPTIONS));
      assertOrderedDisjoint(edits);
      assert.equal(apply(source, edits), formatted(source), file);
      const crlf = source.replace(/\r?\n/g, '\r\n');
      assert.equal(apply(crlf, editsOf(documentFormatEdits(crlf, DEFAULT_FORMAT_OPTIONS))), formatted(source).replace(/\n/g, '\r\n'), `${file} (CRLF)`);
      // The edits are small: none replaces more than the oracle's changed stretch of the file.
      assert.ok(edits.length > 0 || oracle === source, file);
      checked++;
    }
    assert.equal(checked, 29);
  });
});

/** Each top-level item's first and last line. */
function itemSpans(text: string): { first: number; last: number }[] {
  const index = new LineIndex(text);
  return parse(text).file.statements.map((s) => ({ first: index.lineAt(s.start), last: index.lineAt(Math.max(s.start, s.end - 1)) }));
}

describe('range formatting edits', () => {
  const text = 'fn a() {\n    log(1)\n}\nfn b() {\n        log(2)\n}\n\n\nfn c() {\n      log(3)\n}\n';

  test('only the item the range is in is formatted', () => {
    const edits = editsOf(rangeFormatEdits(text, { start: { line: 4, character: 3 }, end: { line: 4, character: 5 } }, DEFAULT_FORMAT_OPTIONS));
    assert.deepEqual(edits, [{ range: { start: { line: 4, character: 2 }, end: { line: 4, character: 8 } }, newText: '' }]);
  });

  test('a range over two items formats both; a whole-line selection ends on the line before its end', () => {
    const edits = editsOf(rangeFormatEdits(text, { start: { line: 1, character: 0 }, end: { line: 8, character: 0 } }, DEFAULT_FORMAT_OPTIONS));
    // a and b (the blank line between them is the formatter's), not c.
    assert.equal(apply(text, edits), 'fn a() {\n  log(1)\n}\n\nfn b() {\n  log(2)\n}\n\n\nfn c() {\n      log(3)\n}\n');
  });

  test('a range between items (blank lines) changes nothing', () => {
    assert.deepEqual(editsOf(rangeFormatEdits(text, { start: { line: 6, character: 0 }, end: { line: 7, character: 0 } }, DEFAULT_FORMAT_OPTIONS)), []);
  });

  test('a file with a syntax error: the clean item is formatted, the broken one gives no edits', () => {
    const broken = 'fn a() {\n    log(1)\n}\nfn b( {\n    x\n}\n';
    const edits = editsOf(rangeFormatEdits(broken, { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, DEFAULT_FORMAT_OPTIONS));
    assert.deepEqual(edits, [{ range: { start: { line: 1, character: 2 }, end: { line: 1, character: 4 } }, newText: '' }]);
    const inBroken = rangeFormatEdits(broken, { start: { line: 4, character: 0 }, end: { line: 4, character: 1 } }, DEFAULT_FORMAT_OPTIONS);
    assert.ok('refused' in inBroken || inBroken.edits.length === 0, JSON.stringify(inBroken));
    // And the whole document: the broken item byte-identical.
    const whole = apply(broken, editsOf(documentFormatEdits(broken, DEFAULT_FORMAT_OPTIONS)));
    assert.ok(whole.includes('fn b( {\n    x\n}\n'), whole);
    assert.ok(whole.startsWith('fn a() {\n  log(1)\n}\n'), whole);
  });

  test('part of an import run the file sorts across: refused, saying why; the whole run is formatted', () => {
    const imports = 'import "lib/c"\nimport "lib/a"\nimport "lib/b"\n\nfn f() {\n}\n';
    const part = rangeFormatEdits(imports, { start: { line: 0, character: 0 }, end: { line: 1, character: 3 } }, DEFAULT_FORMAT_OPTIONS);
    assert.ok('refused' in part && /imports sorted across them/.test(part.refused), JSON.stringify(part));
    const all = editsOf(rangeFormatEdits(imports, { start: { line: 0, character: 0 }, end: { line: 2, character: 3 } }, DEFAULT_FORMAT_OPTIONS));
    assert.equal(apply(imports, all), formatted(imports));
  });

  test("CRLF: the range's edits keep CRLF", () => {
    const crlf = text.replace(/\n/g, '\r\n');
    const edited = apply(crlf, editsOf(rangeFormatEdits(crlf, { start: { line: 0, character: 0 }, end: { line: 10, character: 1 } }, DEFAULT_FORMAT_OPTIONS)));
    assert.equal(edited, 'fn a() {\r\n  log(1)\r\n}\r\n\r\nfn b() {\r\n  log(2)\r\n}\r\n\r\nfn c() {\r\n  log(3)\r\n}\r\n');
  });

  test('the claim: every item of the corpus formats alone as it does in its file, and range formatting it changes only its lines', { skip: corpusSkip }, () => {
    let items = 0;
    const mismatches: string[] = [];
    for (const file of corpusFiles()) {
      if (!existsSync(corpusPath(file))) continue;
      const text = readCorpus(file).replace(/\r\n?/g, '\n');
      const whole = format(text);
      if ('refused' in whole) continue;
      const textLines = splitLines(text);
      for (const { first, last } of itemSpans(text)) {
        items++;
        const result = rangeFormatEdits(text, { start: { line: first, character: 0 }, end: { line: first, character: 0 } }, DEFAULT_FORMAT_OPTIONS);
        if ('refused' in result) {
          mismatches.push(`${file}:${first + 1}: ${result.refused}`);
          continue;
        }
        const edited = splitLines(apply(text, result.edits));
        const span = edited.length - textLines.length + (last - first + 1);
        assert.deepEqual(edited.slice(0, first), textLines.slice(0, first), `${file}:${first + 1}: lines before the item changed`);
        assert.deepEqual(edited.slice(first + span), textLines.slice(last + 1), `${file}:${first + 1}: lines after the item changed`);
        const itemText = edited.slice(first, first + span).join('');
        if (!`\n${whole.text}`.includes(`\n${itemText}`)) mismatches.push(`${file}:${first + 1}: not as in the whole file:\n${itemText}`);
      }
    }
    assert.deepEqual(mismatches, []);
    assert.ok(items > 1000, `${items} items`);
  });
});

describe('on-type formatting edits (`}`)', () => {
  const text = 'fn a() {\n    if true {\n          log(1)\n    log(2)\n    }\n    log(3)\n}\n';

  test('the block the `}` closes is re-indented, nothing outside it', () => {
    const edits = editsOf(onTypeFormatEdits(text, { line: 4, character: 5 }, DEFAULT_FORMAT_OPTIONS));
    assert.ok(edits.length > 0);
    for (const e of edits) assert.ok(e.range.start.line >= 1 && e.range.end.line <= 4, JSON.stringify(e));
    assert.equal(apply(text, edits), 'fn a() {\n  if true {\n    log(1)\n    log(2)\n  }\n    log(3)\n}\n');
  });

  test("the item's own `}` re-indents the whole item", () => {
    assert.equal(apply(text, editsOf(onTypeFormatEdits(text, { line: 6, character: 1 }, DEFAULT_FORMAT_OPTIONS))), formatted(text));
  });

  test('a `}` in a string or a comment, or a position after no `}`, gives nothing', () => {
    const inString = 'fn a() {\n    log("}")\n}\n';
    assert.deepEqual(editsOf(onTypeFormatEdits(inString, { line: 1, character: 10 }, DEFAULT_FORMAT_OPTIONS)), []);
    const inComment = 'fn a() {\n    // }\n    log(1)\n}\n';
    assert.deepEqual(editsOf(onTypeFormatEdits(inComment, { line: 1, character: 8 }, DEFAULT_FORMAT_OPTIONS)), []);
    assert.deepEqual(editsOf(onTypeFormatEdits(text, { line: 2, character: 3 }, DEFAULT_FORMAT_OPTIONS)), []);
  });

  test('a broken item gives nothing', () => {
    const broken = 'fn a( {\n    if true {\n          log(1)\n    }\n}\n';
    const result = onTypeFormatEdits(broken, { line: 3, character: 5 }, DEFAULT_FORMAT_OPTIONS);
    assert.ok('refused' in result || result.edits.length === 0, JSON.stringify(result));
  });
});
