// The `harn fmt` rules (server/src/harn/format, rule book server/src/harn/format/RULES.md — § numbers below): small
// inputs → exact outputs, each taken from a rule of the book (most from the oracle cases it cites), and
// every output checked to be a fixed point.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { format, type FormatOptions } from '../../server/src/harn/format';
import { formatDuration, formatFloat, formatInt, utf8Length } from '../../server/src/harn/format/literals';
import { parse } from '../../server/src/harn/parser';
import { normalised } from '../support/formatAst';

function fmt(text: string, options?: FormatOptions): string {
  const result = format(text, options);
  if (!('text' in result)) throw new Error(`refused: ${result.refused}`);
  const again = format(result.text, options);
  assert.ok('text' in again && again.text === result.text, `not idempotent:\n${result.text}`);
  return result.text;
}

const lines = (...l: string[]): string => l.join('\n') + '\n';

/** The two texts parse to the same AST, up to what the formatter may respell (test/support/formatAst.ts). */
function assertSameAst(before: string, after: string): void {
  assert.equal(JSON.stringify(normalised(parse(after).file)), JSON.stringify(normalised(parse(before).file)), `AST changed:\n${after}`);
}

describe('harn fmt: blank lines, indentation, file end (§3)', () => {
  test('blank lines inside blocks go, one blank line separates top-level items, the header comment is glued', () => {
    const input = '// Header\n\nfn a() {\n\n    let x = 1\n\n\n    log(x)\n}\nfn b() {\n}\n\n\n\npipeline main() {\n  a()\n}\n';
    assert.equal(fmt(input), lines('// Header', 'fn a() {', '  let x = 1', '  log(x)', '}', '', 'fn b() {', '}', '', 'pipeline main() {', '  a()', '}'));
  });

  test('an empty file formats to one newline; CRLF and a BOM are dropped; the shebang stays on line 1', () => {
    assert.equal(fmt(''), '\n');
    assert.equal(fmt('\uFEFFlet x = 1\r\nlog(x)\r\n'), lines('let x = 1', '', 'log(x)'));
    assert.equal(fmt('#!/usr/bin/env harn\npipeline main() {\n  log(1)\n}'), lines('#!/usr/bin/env harn', 'pipeline main() {', '  log(1)', '}'));
  });

  test('semicolons split statements onto their own lines (§3.7)', () => {
    assert.equal(fmt('fn f() {\n  let a = 1; let b = 2\n}\n'), lines('fn f() {', '  let a = 1', '  let b = 2', '}'));
  });
});

describe('harn fmt: imports (§6.1)', () => {
  test('the leading import run is sorted (std/ first, plain before selective), names sorted, no blank lines', () => {
    const input = 'import { b, a } from "lib/x"\n\nimport "lib/x"\nimport { z } from "std/json"\n\nfn f() {\n}\n';
    assert.equal(fmt(input), lines('import { z } from "std/json"', 'import "lib/x"', 'import { a, b } from "lib/x"', '', 'fn f() {', '}'));
  });

  test('paths are sorted by UTF-8 bytes, not UTF-16 units: U+FF5E before U+1F600 (whose surrogates are below it)', () => {
    const input = 'import "lib/😀"\nimport "lib/～"\nimport "lib/a"\n';
    assert.equal(fmt(input), 'import "lib/a"\nimport "lib/～"\nimport "lib/😀"\n');
  });
});

describe('harn fmt: comma sequences (§5.1)', () => {
  test('a call is measured without its statement prefix: joined when name + args + 1 fits in 100', () => {
    const arg = 'x'.repeat(80);
    const input = `fn f() {\n  let result = llm_call(\n    prompt,\n    "${arg}",\n  )\n}\n`;
    // `llm_call(` is 9 bytes and `prompt, "x…"` 90: 9 + 90 + 1 = 100 ≤ 100, joined into a 115-column line.
    assert.equal(fmt(input), lines('fn f() {', `  let result = llm_call(prompt, "${arg}")`, '}'));
  });

  test('one byte more wraps: one item per line at depth+1, trailing comma on every item, `)` at depth', () => {
    const arg = 'x'.repeat(81);
    const input = `fn f() {\n  let result = llm_call(prompt, "${arg}")\n}\n`;
    assert.equal(fmt(input), lines('fn f() {', '  let result = llm_call(', '    prompt,', `    "${arg}",`, '  )', '}'));
  });

  test('widths count UTF-8 bytes, not characters', () => {
    assert.equal(utf8Length('—'), 3);
    const arg = '—'.repeat(35); // 105 bytes but 35 characters: 4 + 110 + 1 > 100 only when counting bytes
    assert.equal(fmt(`log(a, "${arg}")\n`), lines('log(', '  a,', `  "${arg}",`, ')'));
  });

  test('a hand-wrapped dict that fits is joined; lists and dicts have no spaces inside the brackets', () => {
    assert.equal(fmt('let d = {\n  index: 1,\n  name: "a",\n}\n'), lines('let d = {index: 1, name: "a"}'));
    assert.equal(fmt('let l = [ 1 ,2 ]\n'), lines('let l = [1, 2]'));
  });

  test('a sole dict argument does not hug the parentheses (multi-agent.harn)', () => {
    const input = 'spawn_agent({\n  name: "a",\n  task: { x -> log(x) },\n  other: if ok {\n    1\n  } else {\n    2\n  },\n})\n';
    assert.equal(
      fmt(input),
      lines(
        'spawn_agent(',
        '  {',
        '    name: "a",',
        '    task: { x -> log(x) },',
        '    other: if ok {',
        '      1',
        '    } else {',
        '      2',
        '    },',
        '  },',
        ')',
      ),
    );
  });
});

describe('harn fmt: binary operators (§5.2) and parentheses (§7.3)', () => {
  test('a break in the source is kept before the operator at depth+1, and `\\` is dropped before `==`', () => {
    const input = 'fn f() {\n  let ok = "delegate" \\\n    == "delegate"\n}\n';
    assert.equal(fmt(input), lines('fn f() {', '  let ok = "delegate"', '    == "delegate"', '}'));
  });

  test('breaking before an operator outside the safe list keeps a `\\` continuation', () => {
    // A line starting with `-` would start a new statement, so the source needs the backslash too.
    const input = 'fn f() {\n  let d = total \\\n        - used\n}\n';
    assert.equal(fmt(input), lines('fn f() {', '  let d = total \\', '    - used', '}'));
  });

  test('operands on one source line stay joined while 2·depth + inline fits', () => {
    assert.equal(fmt('let s = a +  b*c\n'), lines('let s = a + b * c'));
  });

  test('redundant parentheses go; right operands of equal precedence and &&/|| mixes keep theirs', () => {
    assert.equal(fmt('fn f() {\n  return (timestamp() - ts) > max_age_seconds\n}\n'), lines('fn f() {', '  return timestamp() - ts > max_age_seconds', '}'));
    assert.equal(fmt('let a = ((x + y) + z)\n'), lines('let a = x + y + z'));
    assert.equal(fmt('let a = x - (y - z)\n'), lines('let a = x - (y - z)'));
    assert.equal(fmt('let a = (x && y) || z\n'), lines('let a = (x && y) || z'));
    assert.equal(fmt('let a = (x + y) * z\n'), lines('let a = (x + y) * z'));
    assert.equal(fmt('let a = 2 ** 3 ** 2\n'), lines('let a = 2 ** 3 ** 2'));
  });

  test('receivers that are operators keep their parentheses: (1 to 10).map(…)', () => {
    assert.equal(fmt('let r = (1 to 10).map({ x -> x * 2 })\n'), lines('let r = (1 to 10).map({ x -> x * 2 })'));
  });
});

describe('harn fmt: method chains and closures (§5.3, §7.5)', () => {
  test('a method call whose `)` is on a later line than its receiver moves to its own line (path.harn shape)', () => {
    const input = 'fn f() {\n  return entries.filter({ name ->\n    let full = path_join(dir, name)\n    return full\n  })\n}\n';
    assert.equal(
      fmt(input),
      lines(
        'fn f() {',
        '  return entries',
        '    .filter(',
        '    { name ->',
        '      let full = path_join(dir, name)',
        '      return full',
        '    },',
        '  )',
        '}',
      ),
    );
  });

  test('a single simple statement closure stays inline; a call on the same line stays attached', () => {
    assert.equal(fmt('let r = xs.map({ x ->\n  x + 1\n})\n'), lines('let r = xs', '  .map({ x -> x + 1 })'));
    assert.equal(fmt('let r = xs.map({ x -> x + 1 }).sort()\n'), lines('let r = xs.map({ x -> x + 1 }).sort()'));
  });
});

describe('harn fmt: parameterless closures (house rule, §13 N)', () => {
  test('an explicit `{ -> … }` keeps its arrow, so that it cannot read back as a dict or block', () => {
    assert.equal(fmt('run({ ->\n  const _ = f()\n  log(1)\n})\n'), lines('run(', '  { ->', '    const _ = f()', '    log(1)', '  },', ')'));
    assert.equal(fmt('run({ -> log(1) })\n'), lines('run({ -> log(1) })'));
  });
});

describe('harn fmt: control flow (§6.3)', () => {
  test('one-line if blocks expand; else-if collapses in statement position', () => {
    assert.equal(fmt('fn f() {\n  if dot < 0 { return base }\n}\n'), lines('fn f() {', '  if dot < 0 {', '    return base', '  }', '}'));
    assert.equal(
      fmt('fn f() {\n  if a { x() } else { if b { y() } }\n}\n'),
      lines('fn f() {', '  if a {', '    x()', '  } else if b {', '    y()', '  }', '}'),
    );
  });

  test('in expression position else-if is expanded into a nested block (if_as_expression.harn)', () => {
    assert.equal(
      fmt('let g = if s >= 90 { "A" } else if s >= 80 { "B" } else { "C" }\n'),
      lines('let g = if s >= 90 {', '  "A"', '} else {', '  if s >= 80 {', '    "B"', '  } else {', '    "C"', '  }', '}'),
    );
  });

  test('match arms: a simple body stays on the arm line; enum variants lose their commas', () => {
    assert.equal(
      fmt(
        'enum Op {\n  Create,\n  Delete\n}\n\nfn f(op) {\n  match op {\n    "Create" -> { log("c") }\n    _ -> {\n      let x = 1\n      log(x)\n    }\n  }\n}\n',
      ),
      lines(
        'enum Op {',
        '  Create',
        '  Delete',
        '}',
        '',
        'fn f(op) {',
        '  match op {',
        '    "Create" -> { log("c") }',
        '    _ -> {',
        '      let x = 1',
        '      log(x)',
        '    }',
        '  }',
        '}',
      ),
    );
  });
});

describe('harn fmt: comments (§4)', () => {
  test('a comment between statements is printed above the next statement at its depth', () => {
    assert.equal(fmt('fn f() {\n  a()\n      // note\n  b()\n}\n'), lines('fn f() {', '  a()', '  // note', '  b()', '}'));
  });

  test('a trailing comment inside a loop is hoisted after the loop (eval-workflow.harn)', () => {
    const input =
      'pipeline main() {\n  for tc in cases {\n    let answer = tc.expected  // mock for demo\n    log(answer)\n  }\n  // Record aggregate metrics\n  done()\n}\n';
    assert.equal(
      fmt(input),
      lines(
        'pipeline main() {',
        '  for tc in cases {',
        '    let answer = tc.expected',
        '    log(answer)',
        '  }',
        '  // mock for demo',
        '  // Record aggregate metrics',
        '  done()',
        '}',
      ),
    );
  });

  test('doc comments are re-rendered as canonical /** */ blocks (§4.3)', () => {
    assert.equal(fmt('/// Adds.\n///\n/// Twice.\nfn f() {\n}\n'), lines('/**', ' * Adds.', ' *', ' * Twice.', ' */', 'fn f() {', '}'));
    assert.equal(fmt('/**\n * Only line.\n */\nfn f() {\n}\n'), lines('/** Only line. */', 'fn f() {', '}'));
    assert.equal(fmt('/** */\nfn f() {\n}\n'), lines('/** */', 'fn f() {', '}'));
    // 100,000 blank doc lines before the text (one shift() each was quadratic), and as many after it.
    const blanks = '///\n'.repeat(100_000);
    assert.equal(fmt(`${blanks}/// Text.\n${blanks}fn f() {\n}\n`), lines('/** Text. */', 'fn f() {', '}'));
    assert.equal(
      fmt(`/**\n${' *\n'.repeat(100_000)} * One.\n *\n * Two.\n */\nfn f() {\n}\n`),
      lines('/**', ' * One.', ' *', ' * Two.', ' */', 'fn f() {', '}'),
    );
    assert.equal(
      fmt('fn f() {\n  a()\n      /**\n    * one\n  * two\n*/\n  let b = 1\n}\n'),
      lines('fn f() {', '  a()', '  /**', '   * one', '   * two', '   */', '  let b = 1', '}'),
    );
    const long = 'word '.repeat(19) + 'end';
    assert.equal(fmt(`/// ${long}\nfn f() {\n}\n`), lines('/**', ` * ${long}`, ' */', 'fn f() {', '}'));
  });

  test('a comment on the first line of a top-level item is hoisted below it, not dropped (§13 A)', () => {
    assert.equal(fmt('fn f() { // c\n  a()\n}\nfn g() {\n}\n'), lines('fn f() {', '  a()', '}', '', '// c', 'fn g() {', '}'));
    assert.equal(fmt('let x = 1 // last\n'), lines('let x = 1', '// last'));
  });

  test('comments inside an expression are hoisted below the statement (parallel-pipeline.harn)', () => {
    const input = 'pipeline main() {\n  let r = f(\n    // in production\n    1,\n  )\n  log(r)\n}\n';
    assert.equal(fmt(input), lines('pipeline main() {', '  let r = f(1)', '  // in production', '  log(r)', '}'));
  });
});

describe('harn fmt: literals and dict keys (§7.1, §7.4)', () => {
  test('numbers and durations are printed from their values', () => {
    assert.equal(formatFloat('1.50'), '1.5');
    assert.equal(formatFloat('1e3'), '1000.0');
    assert.equal(formatFloat('0.0'), '0.0');
    assert.equal(formatFloat('1e21'), '1000000000000000000000.0');
    assert.equal(formatFloat('1.5e-7'), '0.00000015');
    assert.equal(formatInt('1_000'), '1000');
    assert.equal(formatDuration('60s'), '1m');
    assert.equal(formatDuration('1000ms'), '1s');
    assert.equal(formatDuration('120s'), '2m');
    assert.equal(formatDuration('24h'), '24h');
    assert.equal(formatDuration('0s'), '0ms');
    assert.equal(formatDuration('1500ms'), '1500ms');
    assert.equal(fmt('let t = 60s\n'), lines('let t = 1m'));
  });

  test('identifier-like string keys print bare, others computed', () => {
    assert.equal(fmt('let d = {"name": 1, "content-type": 2}\n'), lines('let d = {name: 1, ["content-type"]: 2}'));
  });

  test('multi-line strings are copied verbatim, trailing spaces included (triple_quoted_preserve.harn)', () => {
    const input = 'let s = """\n  keep: exact  \n"""\n';
    assert.equal(fmt(input), input);
  });

  test('types never wrap (vision.harn)', () => {
    const fields = Array.from({ length: 12 }, (_, i) => `field_${i}: string`);
    assert.equal(fmt(`type T = {\n  ${fields.join(',\n  ')},\n}\n`), lines(`type T = {${fields.join(', ')}}`));
  });
});

describe('harn fmt: files with syntax errors (issue 16; upstream refuses them)', () => {
  test('the broken declaration is copied byte for byte, the clean ones around it are formatted', () => {
    const broken = 'fn b() {\n   let  y = )\n   log( y)\n}';
    const input = `fn a() {\n\n  let x =  1\n}\n${broken}\n// about c\nfn c() {\n    log(3)\n}\n`;
    assert.equal(fmt(input), lines('fn a() {', '  let x = 1', '}', '', broken, '', '// about c', 'fn c() {', '  log(3)', '}'));
  });

  test('stray text before the first declaration stays as it is, whole lines', () => {
    assert.equal(fmt('  )\nfn c() {\n    log(3)\n}\n'), lines('  )', '', 'fn c() {', '  log(3)', '}'));
  });

  test('a declaration sharing a line with the broken one is copied with it', () => {
    const input = 'let x =  1   let y = (\nfn c() {\n    log(3)\n}\n';
    assert.equal(fmt(input), input);
  });

  test('a long broken file: each broken item copied, every clean one formatted, at any distance (owner lookups, 1000 errors)', () => {
    // 40,000 items and 1,000 errors spread over them: the item lookup per token and the overlap check per
    // error once scanned every item (quadratic); the output must be the same as for a short file.
    const input: string[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 40_000; i++) {
      if (i % 40 === 7) {
        input.push(`let  b${i} = )`);
        expected.push(`let  b${i} = )`);
      } else {
        input.push(`let  a${i}  =  ${i}`);
        expected.push(`let a${i} = ${i}`);
      }
    }
    assert.equal(parse(input.join('\n')).diagnostics.length, 1000);
    assert.equal(fmt(input.join('\n') + '\n'), expected.join('\n\n') + '\n');
  });
});

describe('harn fmt: top-level section bars (§4.4)', () => {
  const bar80 = `// ${'-'.repeat(77)}`;
  const bar40 = `// ${'-'.repeat(37)}`;
  const input = lines(
    '// ---- Tools ----',
    'fn a() {',
    '  // ---- inner bars stay ----',
    '  x()',
    '}',
    '// -----',
    '//   Section  ',
    '// ---------',
    '// about b',
    'fn b() {',
    '}',
    '//----------',
    'fn c() {',
    '}',
  );

  test('bars, titled bars and three-line headers between items are redrawn, with a blank line around', () => {
    assert.equal(
      fmt(input),
      lines(
        bar80,
        '// Tools',
        bar80,
        '',
        'fn a() {',
        '  // ---- inner bars stay ----',
        '  x()',
        '}',
        '',
        bar80,
        '// Section',
        bar80,
        '',
        '// about b',
        'fn b() {',
        '}',
        '',
        bar80,
        '',
        'fn c() {',
        '}',
      ),
    );
  });

  test('the width is separatorWidth; a header at the end of the file keeps the blank line after it', () => {
    const options = { lineWidth: 100, separatorWidth: 40 };
    assert.equal(fmt('fn c() {\n}\n// ---- tail\n', options), lines('fn c() {', '}', '', bar40, '// tail', bar40, ''));
    assert.equal(fmt(input, options).split('\n')[0], bar40);
  });

  test('three dashes and block or doc comments are not bars; a bar after another comment on its line is one', () => {
    const plain = lines('// ---', '/** ---- */', 'fn a() {', '}', '', '/* ---- */ // ----', 'fn b() {', '}');
    // The two comments of one line go on two lines (§4.3); the bar, then alone, is redrawn (a fixed point).
    assert.equal(fmt(plain), lines('// ---', '/** ---- */', 'fn a() {', '}', '', '/* ---- */', '', bar80, '', 'fn b() {', '}'));
  });
});

describe('harn fmt: fuzz regressions (FMT_FUZZ_SEEDS=1500 and 3000)', () => {
  test('seeds 374, 592, 708, 1264: selective import names are sorted by UTF-8 bytes, in broken files too', () => {
    // The formatter was right (§6.1); the AST comparison took the names' order for meaning.
    for (const [input, output] of [
      ['pub import { 䎵alpha, beta } from "lib"\n', 'pub import { beta, 䎵alpha } from "lib"\n'],
      ['import { clear_ho,t_mocks, mock_host_response } from "std/testing"\n', 'import { clear_ho, mock_host_response, t_mocks } from "std/testing"\n'],
      // Our parser reads names without a comma between them (it should not; upstream's does not either).
      ['import { merge, odeadline mit } from "std/json"\n', 'import { merge, mit, odeadline } from "std/json"\n'],
    ] as const) {
      assert.equal(fmt(input), output);
      assertSameAst(input, output);
    }
    const broken = 'import { b, a } from "x"\nimport { c } from {"y"\n';
    assert.equal(fmt(broken), lines('import { a, b } from "x"', '', 'import { c } from {"y"'));
  });

  test('seeds 891, 285, 867, 2196, 2419, 2445: a broken item ending inside an unterminated string keeps its end byte for byte', () => {
    // A newline added after (891) or taken from (285 …) the end of the file became part of the string.
    for (const tail of ['', '\n', '\n\n']) {
      const input = `fn a() {\n    log(1)\n}\nfn b() {\n  let s = """abc${tail}`;
      const output = fmt(input);
      assert.equal(output, `fn a() {\n  log(1)\n}\n\nfn b() {\n  let s = """abc${tail}`);
      assertSameAst(input, output);
    }
  });
});

describe('harn fmt: comments around attributes and doc comments (§4.1.7, §13 Q)', () => {
  test('comments between a doc comment, the attributes and the declaration stay between them, in order', () => {
    const input = lines(
      '/** Doc. */',
      '// between doc and attribute',
      '@deprecated // why',
      '// between attributes',
      '@test(1)',
      '// after the attributes',
      '/** a doc after the attributes */',
      'pub fn f() {',
      '  a()',
      '}',
      'fn g() {',
      '  @x',
      '  // before h',
      '  fn h() {',
      '  }',
      '}',
    );
    const output = fmt(input);
    assert.equal(
      output,
      lines(
        '/** Doc. */',
        '// between doc and attribute',
        '@deprecated',
        '// why',
        '// between attributes',
        '@test(1)',
        '// after the attributes',
        '/** a doc after the attributes */',
        'pub fn f() {',
        '  a()',
        '}',
        '',
        'fn g() {',
        '  @x',
        '  // before h',
        '  fn h() {',
        '  }',
        '}',
      ),
    );
    assertSameAst(input, output);
  });
});

describe('harn fmt: the other §13 rows (I, J, K, O)', () => {
  test('I: declarations inside a closure body are printed with the statement rules at their depth', () => {
    const input = 'let f = { x ->\n  enum E { A, B }\n  struct S { a: int }\n  fn inner(y) { return y }\n  type T = int\n  inner(x)\n}\n';
    const output = fmt(input);
    assert.equal(
      output,
      lines(
        'let f = { x ->',
        '  enum E {',
        '    A',
        '    B',
        '  }',
        '  struct S {',
        '    a: int',
        '  }',
        '  fn inner(y) {',
        '    return y',
        '  }',
        '  type T = int',
        '  inner(x)',
        '}',
      ),
    );
    assertSameAst(input, output);
  });

  test('J: CRLF becomes LF, a BOM is dropped, trailing blanks of a comment line go, string escapes stay', () => {
    assert.equal(fmt('\uFEFF// c  \r\nfn f() {\r\n  let s = "a\\r"\r\n}\r\n'), lines('// c', 'fn f() {', '  let s = "a\\r"', '}'));
  });

  test('K: a `///` run becomes one /** */ block, a one-line run a one-line block, inside bodies too', () => {
    assert.equal(
      fmt('/// One.\nfn f() {\n  /// Two\n  ///   indented\n  let x = 1\n}\n'),
      lines('/** One. */', 'fn f() {', '  /**', '   * Two', '   *   indented', '   */', '  let x = 1', '}'),
    );
  });

  test('O: an empty or blank file is one newline; a comments-only file is its comments, blank lines dropped', () => {
    assert.equal(fmt(''), '\n');
    assert.equal(fmt('\n\n  \n'), '\n');
    assert.equal(fmt('// only\n\n\n/* block */\n/// doc\n'), lines('// only', '/* block */', '/** doc */'));
  });
});

describe('harn fmt: huge runs of comments', () => {
  // 300,000 lines: past the number of arguments a `push(...lines)` spread can take.
  const N = 300_000;
  test('line comments between top-level items, and a doc comment of that many lines, are all kept', () => {
    const between = fmt('fn a() {\n}\n' + '// c\n'.repeat(N) + 'fn b() {\n}\n');
    assert.equal(between.split('\n').filter((l) => l === '// c').length, N);
    const doc = fmt('/**\n' + ' * c\n'.repeat(N) + ' */\nfn a() {\n}\n');
    assert.equal(doc.split('\n').filter((l) => l === ' * c').length, N);
    assert.ok(doc.endsWith(' */\nfn a() {\n}\n'));
  });
});
