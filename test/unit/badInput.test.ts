// Hostile and unusual input: NUL bytes, megabyte lines, CRLF, a BOM, astral and CJK characters before
// an error, binary garbage. Nothing may throw, every range stays inside the text, diagnostics stay
// bounded, and LSP positions (LineIndex) count UTF-16 code units and never a line break character.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_DIAGNOSTICS, parse } from '../../server/src/harn/parser';
import { LineIndex } from '../../server/src/text/lineIndex';
import { checkParse, prng } from '../support/fuzz';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { defined } from '../support/assertions';
import { megabyteLine } from '../support/parserInputs';

/** Parses, asserts every structural invariant (see checkParse) and returns the result. */
function sound(text: string): ReturnType<typeof parse> {
  // No time limit here: the parser's speed on these inputs is measured in test/bench/parserEdges.ts.
  assert.deepEqual(checkParse(text, Infinity), []);
  return parse(text);
}

/** Diagnostics as `line:character message` (0-based LSP positions). */
function positions(text: string): string[] {
  const index = new LineIndex(text);
  return parse(text).diagnostics.map((d) => {
    const s = index.positionAt(d.start);
    const e = index.positionAt(d.end);
    return `${s.line}:${s.character}-${e.line}:${e.character} ${d.message}`;
  });
}

const BROKEN_PROGRAM = [
  'pipeline main(task) {',
  '  let a = "unterminated',
  '  let b = )',
  '  log(a, b',
  '  let c = `bad` + 1',
  '  if Foo {}',
  '}',
  'fn after(x = 1, y) {',
  '  return x +',
  '}',
  'let tail = "${x',
  '',
].join('\n');

describe('NUL bytes', () => {
  test('NULs between statements are one diagnostic and the statements survive', () => {
    const text = 'let a = 1\0\0\0\nlet b = 2';
    const result = sound(text);
    assert.equal(result.diagnostics.length, 1);
    const d = defined(result.diagnostics[0], 'the diagnostic');
    assert.deepEqual([d.start, d.end], [9, 12]);
    // The NULs themselves become an error statement between the two.
    assert.deepEqual(
      result.file.statements.map((s) => s.kind),
      ['LetDecl', 'ErrorStmt', 'LetDecl'],
    );
  });

  test('a NUL is shown escaped in the message', () => {
    assert.match(defined(parse('let a = \0').diagnostics[0], 'the diagnostic').message, /'\\0'/);
  });

  test('NULs inside strings and comments are just content', () => {
    const result = sound('let s = "a\0b" // c\0d\n/* \0 */ let t = r"\0"');
    assert.deepEqual(result.diagnostics, []);
  });

  test('a file of NULs', () => {
    const result = sound('\0'.repeat(100000));
    assert.equal(result.diagnostics.length, 1);
  });
});

// A generous timeout guards against a hang; how fast these parse is a benchmark (test/bench/parserEdges.ts).
describe('megabyte lines', { timeout: 120_000 }, () => {
  test('a 1 MB line of valid code parses cleanly', () => {
    const text = megabyteLine();
    assert.equal(text.length, 1_048_602);
    assert.equal(text.includes('\n'), false);
    const result = sound(text);
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.file.statements.length, 22_083);
    assert.deepEqual(
      result.file.statements.map((s) => s.kind),
      Array.from({ length: 22_083 }, () => 'LetDecl'),
    );
  });

  test('a 1 MB expression (long operator chain) parses cleanly', () => {
    const text = 'let x = ' + Array.from({ length: 210000 }, (_, i) => `a${i % 10}`).join(' + ');
    assert.equal(text.length, 1_050_005);
    assert.deepEqual(sound(text).diagnostics, []);
  });

  test('a 1 MB line of garbage stays bounded', () => {
    const rng = prng(11);
    const alphabet = ' ~`#{}()[]"$\\abc;:?.<>=!@&|0123456789';
    const text = Array.from({ length: 1 << 20 }, () => alphabet[Math.floor(rng() * alphabet.length)]).join('');
    const result = sound(text);
    // Capped: MAX_DIAGNOSTICS, then one saying how many more there are, at the last one's end.
    assert.equal(result.diagnostics.length, MAX_DIAGNOSTICS + 1);
    assert.deepEqual(result.diagnostics.slice(0, 2), [
      { start: 0, end: 2, message: "Expected expression, got '?.'", code: 'syntax_error' },
      { start: 6, end: 7, message: "Unexpected character '`' at 1:7", code: 'unexpected_character' },
    ]);
    const last = result.diagnostics[MAX_DIAGNOSTICS];
    assert.equal(last?.code, 'too_many_errors');
    assert.match(last?.message ?? '', /^Too many syntax errors: \d+ more are not shown$/);
  });
});

describe('CRLF line endings', () => {
  test('diagnostics sit at the same line:character as with LF, and the messages agree', () => {
    const crlf = BROKEN_PROGRAM.replace(/\n/g, '\r\n');
    const lf = positions(BROKEN_PROGRAM);
    assert.deepEqual(lf, [
      '1:10-1:23 Unterminated string at 2:11',
      "2:10-2:11 Expected expression, got ')'",
      "4:2-4:5 Expected expression, got 'let'",
      "4:10-4:11 Unexpected character '`' at 5:11",
      "4:14-4:15 Unexpected character '`' at 5:15",
      "6:0-6:1 Expected '{' to start a block, got '}'",
      '7:16-7:17 Required parameter cannot follow a parameter with a default value',
      "9:0-9:1 Expected expression, got '}'",
      '10:11-10:15 Unterminated string at 11:12',
    ]);
    assert.deepEqual(positions(crlf), lf);
    sound(crlf);
  });

  test('the AST has the same shape; only offsets move by one per earlier line', () => {
    const crlf = BROKEN_PROGRAM.replace(/\n/g, '\r\n');
    const a = parse(BROKEN_PROGRAM).file;
    const b = parse(crlf).file;
    assert.deepEqual(
      b.statements.map((s) => s.kind),
      a.statements.map((s) => s.kind),
    );
    const lfIndex = new LineIndex(BROKEN_PROGRAM);
    const crlfIndex = new LineIndex(crlf);
    for (const [i, lf] of a.statements.entries()) {
      const cr = defined(b.statements[i], `CRLF statement ${i}`);
      assert.deepEqual(crlfIndex.rangeOf(cr.start, cr.end), lfIndex.rangeOf(lf.start, lf.end));
    }
  });

  test('a CR is never counted in a character', () => {
    const crlf = BROKEN_PROGRAM.replace(/\n/g, '\r\n');
    const index = new LineIndex(crlf);
    const result = parse(crlf);
    for (const d of result.diagnostics) {
      for (const offset of [d.start, d.end]) {
        const p = index.positionAt(offset);
        assert.ok(p.character <= index.lineText(p.line).length, `${offset} -> ${p.line}:${p.character}`);
        assert.ok(!index.lineText(p.line).includes('\r'));
      }
    }
    // An unterminated string stops before the CR.
    const unterminated = defined(
      result.diagnostics.find((d) => d.code === 'unterminated_string'),
      'the unterminated_string diagnostic',
    );
    assert.notEqual(crlf[unterminated.end - 1], '\r');
    assert.equal(index.positionAt(unterminated.end).character, '  let a = "unterminated'.length);
  });

  test('LineIndex: offsets on a CR or LF map to the end of the line content, and back', () => {
    const text = 'ab\r\ncd\re\nf';
    const index = new LineIndex(text);
    assert.equal(index.lineCount, 4);
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((o) => index.positionAt(o)),
      [
        { line: 0, character: 0 },
        { line: 0, character: 1 },
        { line: 0, character: 2 },
        { line: 0, character: 2 },
        { line: 1, character: 0 },
      ],
    );
    assert.deepEqual(index.positionAt(6), { line: 1, character: 2 });
    assert.deepEqual(index.positionAt(7), { line: 2, character: 0 });
    assert.deepEqual(
      [0, 1, 2, 3].map((l) => index.lineText(l)),
      ['ab', 'cd', 'e', 'f'],
    );
    // Characters past the content clamp to it, never onto the CR.
    assert.equal(index.offsetAt({ line: 0, character: 99 }), 2);
    assert.equal(index.offsetAt({ line: 1, character: 1 }), 5);
    for (let offset = 0; offset <= text.length; offset++) {
      const back = index.offsetAt(index.positionAt(offset));
      assert.ok(back <= offset && text.slice(back, offset).replace(/[\r\n]/g, '') === '', `${offset} -> ${back}`);
    }
  });

  test('CRLF source is a statement separator like LF', () => {
    const result = sound('let a = 1\r\nlet b = 2\r\n');
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.file.statements.length, 2);
  });

  test('a lone CR is a line break too, as LineIndex and the editor count it', () => {
    const text = 'let a = 1\rlet b = "x\r// comment\rlet c = )';
    const result = sound(text);
    assert.deepEqual(
      result.file.statements.map((s) => s.kind),
      ['LetDecl', 'LetDecl', 'LetDecl'],
    );
    const index = new LineIndex(text);
    assert.deepEqual(
      result.diagnostics.map((d) => [d.code, index.positionAt(d.start), index.positionAt(d.end)]),
      [
        ['unterminated_string', { line: 1, character: 8 }, { line: 1, character: 10 }],
        ['syntax_error', { line: 3, character: 8 }, { line: 3, character: 9 }],
      ],
    );
  });

  test('line comments and shebangs end before the CR of a CRLF', () => {
    const text = '#!/usr/bin/env harn\r\n// note\r\n/// doc\r\nfn f() {}\r\n';
    const result = sound(text);
    assert.deepEqual(
      result.comments.map((c) => text.slice(c.start, c.end)),
      ['#!/usr/bin/env harn', '// note', '/// doc'],
    );
    const first = defined(result.file.statements[0], 'the first statement');
    assert.equal(first.kind === 'FnDecl' && first.doc, 'doc');
  });

  test('corpus files converted to CRLF still parse cleanly', { skip: corpusSkip }, () => {
    const files = corpusFiles().filter((f) => !/errors\/syntax|_invalid|stdlib\/json\.harn/.test(f));
    for (const file of files.filter((_, i) => i % 7 === 0)) {
      const text = readCorpus(file).replace(/\r?\n/g, '\r\n');
      assert.deepEqual(parse(text).diagnostics, [], file);
    }
  });
});

describe('BOM', () => {
  test('a leading BOM is skipped', () => {
    const result = sound('\uFEFFlet x = 1');
    assert.deepEqual(result.diagnostics, []);
    assert.equal(defined(result.tokens[0], 'the first token').start, 1);
  });

  test('a BOM then a shebang', () => {
    assert.deepEqual(sound('\uFEFF#!/usr/bin/env harn\nlet x = 1').diagnostics, []);
  });

  test('errors after a BOM are at their UTF-16 column', () => {
    const text = '\uFEFFlet x = )';
    const d = defined(parse(text).diagnostics[0], 'the diagnostic');
    assert.deepEqual(new LineIndex(text).positionAt(d.start), { line: 0, character: text.indexOf(')') });
  });

  test('a BOM elsewhere is an unexpected character', () => {
    assert.equal(parse('let x = 1\n\uFEFFlet y = 2').diagnostics.length, 1);
  });
});

describe('non-ASCII text before an error on the same line', () => {
  const cases: Array<[string, string]> = [
    ['emoji (surrogate pairs)', '  let s = "😀🎉👩‍👩‍👧" + )'],
    ['CJK', '  let 名前 = "日本語のテキスト" + )'],
    ['emoji and CJK in a comment', '  /* 😀 中文 */ let x = )'],
    ['astral identifier characters', '  let 𝒳 = )'],
  ];
  for (const [name, line] of cases) {
    test(`${name}: the LSP character equals the UTF-16 column`, () => {
      const text = `fn f() {\n${line}\n}`;
      const result = sound(text);
      assert.equal(result.diagnostics.length, 1, JSON.stringify(result.diagnostics));
      const d = defined(result.diagnostics[0], 'the diagnostic');
      const column = line.indexOf(')');
      assert.deepEqual(new LineIndex(text).positionAt(d.start), { line: 1, character: column });
      assert.deepEqual(new LineIndex(text).positionAt(d.end), { line: 1, character: column + 1 });
    });
  }

  test('an unexpected character after an emoji is reported at its UTF-16 column', () => {
    const text = 'let x = "😀" `';
    const d = defined(parse(text).diagnostics[0], 'the diagnostic');
    // `let x = "` is 9 code units, the emoji 2, then `" ` 2: the backtick is at UTF-16 column 13.
    assert.equal(d.message, "Unexpected character '`' at 1:14");
    assert.deepEqual(new LineIndex(text).positionAt(d.start), { line: 0, character: 13 });
  });

  test('an unexpected astral character is one diagnostic covering both code units', () => {
    const text = 'let x = 1 😀';
    const d = defined(parse(text).diagnostics[0], 'the diagnostic');
    assert.deepEqual([d.start, d.end], [10, 12]);
    assert.match(d.message, /Unexpected character '😀'/);
  });

  test('lone surrogates do not crash', () => {
    sound('let x = "\uD83D" + \uDE00 + \uD83D');
  });
});

describe('binary garbage', () => {
  test('a run of unreadable characters is one diagnostic', () => {
    const text = 'let a = 1\n' + '\u0001\u0002\u0003\u00A7\u00B6~`'.repeat(2000) + '\nlet b = 2';
    const result = sound(text);
    assert.equal(result.diagnostics.length, 1);
    assert.match(defined(result.diagnostics[0], 'the diagnostic').message, /Unexpected characters at 2:1/);
    assert.deepEqual(
      result.file.statements.map((s) => s.kind),
      ['LetDecl', 'ErrorStmt', 'LetDecl'],
    );
  });

  test('random bytes yield a bounded number of diagnostics', { timeout: 120_000 }, () => {
    const rng = prng(3);
    // The first character of each text is unreadable (the seed decides which).
    const firsts: Record<number, string> = { 256: '¸', 65536: '꒘', 32: '\u0002' };
    for (const range of [256, 65536, 32]) {
      const text = Array.from({ length: 200000 }, () => String.fromCharCode(Math.floor(rng() * range))).join('');
      const result = sound(text);
      assert.equal(result.diagnostics.length, MAX_DIAGNOSTICS + 1, `range ${range}`);
      assert.deepEqual(
        result.diagnostics[0],
        { start: 0, end: 1, message: `Unexpected character '${firsts[range]}' at 1:1`, code: 'unexpected_character' },
        `range ${range}`,
      );
      const last = result.diagnostics[MAX_DIAGNOSTICS];
      assert.equal(last?.code, 'too_many_errors', `range ${range}`);
      assert.match(last?.message ?? '', /^Too many syntax errors: \d+ more are not shown$/, `range ${range}`);
    }
  });

  test('diagnostics come sorted by position', () => {
    const starts = parse(BROKEN_PROGRAM).diagnostics.map((d) => d.start);
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => a - b),
    );
  });
});
