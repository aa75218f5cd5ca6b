// Lexer tests (spec/harn-language.md §1.1): tokens, comments, numbers and durations, strings and
// interpolation holes, line joining, the shebang, and local (never fatal) lexer errors.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lex } from '../../server/src/harn/lexer';
import { parse } from '../../server/src/harn/parser';
import type { Expr, StringLit } from '../../server/src/harn/ast';
import { KEYWORDS, TokenKind } from '../../server/src/harn/tokens';
import { defined } from '../support/assertions';

/** `Kind:text` for every token but EOF. */
function toks(source: string): string[] {
  return lex(source)
    .tokens.filter((t) => t.kind !== TokenKind.EOF)
    .map((t) => `${TokenKind[t.kind]}:${source.slice(t.start, t.end)}`);
}

function codes(source: string): string[] {
  return lex(source).diagnostics.map((d) => d.code);
}

/** The initializer of the first `let` in a source that must parse cleanly. */
function initOf(source: string): Expr {
  const result = parse(source);
  assert.deepEqual(result.diagnostics, [], `unexpected diagnostics for ${JSON.stringify(source)}`);
  const first = defined(result.file.statements[0], 'the first statement');
  assert.equal(first.kind, 'LetDecl');
  assert.ok(first.init);
  return first.init;
}

function stringInit(source: string): StringLit {
  const init = initOf(source);
  assert.equal(init.kind, 'String');
  return init;
}

describe('lexer: operators and punctuation (§1.1)', () => {
  test('two-character operators are single tokens', () => {
    const ops = ['==', '!=', '&&', '||', '|>', '??', '**', '?.', '->', '<=', '>=', '+=', '-=', '*=', '/=', '%='];
    assert.deepEqual(
      toks(ops.join(' ')),
      ops.map((o) => `Punct:${o}`),
    );
  });

  test('single-character operators, including the 0.10 `&`', () => {
    const ops = '= ! . + - * / % < > ? | @ { } ( ) [ ] , : ; &'.split(' ');
    assert.deepEqual(
      toks(ops.join(' ')),
      ops.map((o) => `Punct:${o}`),
    );
    assert.deepEqual(codes(ops.join(' ')), []);
  });

  test('two-character operators win over single ones without spaces', () => {
    assert.deepEqual(toks('a??b|>c'), ['Identifier:a', 'Punct:??', 'Identifier:b', 'Punct:|>', 'Identifier:c']);
    assert.deepEqual(toks('x?.y'), ['Identifier:x', 'Punct:?.', 'Identifier:y']);
  });

  test('`...` is one spread token, `=>` is not an operator', () => {
    assert.deepEqual(toks('...xs'), ['Punct:...', 'Identifier:xs']);
    assert.deepEqual(toks('=>'), ['Punct:=', 'Punct:>']);
    assert.deepEqual(toks('..'), ['Punct:.', 'Punct:.']);
  });
});

describe('lexer: words', () => {
  test('the 46 v0.7 keywords plus const and the HITL keywords are keywords', () => {
    for (const word of ['let', 'var', 'select', 'eval_pack', 'exclusive', 'const', 'ask_user', 'dual_control', 'escalate_to', 'request_approval']) {
      assert.ok(KEYWORDS.has(word), word);
      assert.deepEqual(toks(word), [`Keyword:${word}`]);
    }
    assert.equal(KEYWORDS.size, 51);
  });

  test('contextual words are identifiers to the lexer', () => {
    for (const word of [
      'gen',
      'each',
      'settle',
      'with',
      'as',
      'stream',
      'timeout',
      'default',
      'where',
      'not',
      'self',
      'block',
      'scope',
      'throws',
      'is',
      'implies',
      'cost_route',
      'max_concurrent',
    ]) {
      assert.deepEqual(toks(word), [`Identifier:${word}`]);
    }
  });

  test('identifiers may use Unicode letters', () => {
    assert.deepEqual(toks('let café = 1'), ['Keyword:let', 'Identifier:café', 'Punct:=', 'Int:1']);
    assert.deepEqual(toks('名前'), ['Identifier:名前']);
    // Astral letters are surrogate pairs: both code units belong to the identifier.
    assert.deepEqual(toks('let 𝒳 = 1'), ['Keyword:let', 'Identifier:𝒳', 'Punct:=', 'Int:1']);
    assert.deepEqual(toks('a𝒳b'), ['Identifier:a𝒳b']);
  });
});

describe('lexer: numbers and durations', () => {
  test('ints and floats', () => {
    assert.deepEqual(toks('123 1.5 0'), ['Int:123', 'Float:1.5', 'Int:0']);
  });

  test('`42.method()` is an int followed by a member call', () => {
    assert.deepEqual(toks('42.method()'), ['Int:42', 'Punct:.', 'Identifier:method', 'Punct:(', 'Punct:)']);
    const init = initOf('let v = 42.method()');
    assert.equal(init.kind, 'Call');
    assert.equal(init.kind === 'Call' && init.callee.kind, 'Member');
  });

  test('every duration suffix', () => {
    assert.deepEqual(toks('5ms 5s 5m 5h 5d 5w'), ['Duration:5ms', 'Duration:5s', 'Duration:5m', 'Duration:5h', 'Duration:5d', 'Duration:5w']);
  });

  test('`5min` is `5` then `min`; a suffix followed by `_` is no suffix (0.10)', () => {
    assert.deepEqual(toks('5min'), ['Int:5', 'Identifier:min']);
    assert.deepEqual(toks('5s_x'), ['Int:5', 'Identifier:s_x']);
    assert.deepEqual(toks('1.5s'), ['Float:1.5', 'Identifier:s']);
  });

  test('`sleep(5min)` reads as a call with two arguments (commas are optional)', () => {
    const result = parse('sleep(5min)');
    assert.deepEqual(result.diagnostics, []);
    const stmt = defined(result.file.statements[0], 'the statement');
    assert.ok(stmt.kind === 'ExprStmt' && stmt.expr.kind === 'Call');
    assert.deepEqual(
      stmt.expr.args.map((a) => a.value?.kind),
      ['Int', 'Identifier'],
    );
  });

  test('an int that does not fit in i64 is an error (0.10), the largest one is not', () => {
    assert.deepEqual(codes('9223372036854775807'), []);
    const diags = lex('let x = 9223372036854775808').diagnostics;
    assert.equal(diags.length, 1);
    const d = defined(diags[0], 'the diagnostic');
    assert.match(d.message, /is out of range for int/);
    assert.deepEqual([d.start, d.end], [8, 27]);
  });
});

describe('lexer: comments', () => {
  test('block comments nest', () => {
    const source = '/* a /* b */ still comment */ x';
    const { tokens, comments, diagnostics } = lex(source);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      comments.map((c) => source.slice(c.start, c.end)),
      ['/* a /* b */ still comment */'],
    );
    assert.equal(defined(tokens[0], 'the first token').value, 'x');
  });

  test('an unterminated block comment is a local error at its start', () => {
    const diags = lex('x\n/* open /* inner */').diagnostics;
    assert.deepEqual(
      diags.map((d) => [d.code, d.start]),
      [['unterminated_comment', 2]],
    );
  });

  test('doc comments: `/** */` and legacy `///`; `/**/`, `/***`, `////` and `//` are not doc comments', () => {
    const source = '/** doc */\n/**/\n/*** stars */\n/// legacy\n//// four\n// plain\n';
    const kinds = lex(source).comments.map((c) => `${c.kind}:${source.slice(c.start, c.end)}`);
    assert.deepEqual(kinds, ['doc:/** doc */', 'block:/**/', 'block:/*** stars */', 'legacyDoc:/// legacy', 'line://// four', 'line:// plain']);
  });

  test('doc comments attach to the declaration below them', () => {
    const result = parse('/**\n * Adds.\n */\nfn add(a, b) { a + b }\n/// Old style\n/// two lines\nfn old() {}\n// not a doc\nfn plain() {}');
    assert.deepEqual(result.diagnostics, []);
    const docs = result.file.statements.map((s) => (s.kind === 'FnDecl' ? s.doc : 'not a fn'));
    assert.deepEqual(docs, ['Adds.', 'Old style\ntwo lines', undefined]);
    const margins = parse('/** One line. */\nfn a() {}\n/**\n * Text\n *   code\n */\nfn b() {}\n/**\n  Plain\n    indented\n*/\nfn c() {}');
    assert.deepEqual(
      margins.file.statements.map((s) => (s.kind === 'FnDecl' ? s.doc : '')),
      ['One line.', 'Text\n  code', 'Plain\n  indented'],
    );
  });
});

describe('lexer: lines', () => {
  test('a newline sets nlBefore; `\\` + newline joins lines', () => {
    const { tokens } = lex('a \\\nb\nc');
    assert.deepEqual(
      tokens.slice(0, 3).map((t) => [t.value, t.nlBefore]),
      [
        ['a', true],
        ['b', false],
        ['c', true],
      ],
    );
    const init = initOf('let v = 1 + \\\n  2');
    assert.equal(init.kind, 'Binary');
  });

  test('`\\` + CRLF joins lines too', () => {
    const { tokens } = lex('a \\\r\nb');
    assert.equal(defined(tokens[1], 'the second token').nlBefore, false);
  });

  test('a shebang is a comment only at offset 0', () => {
    const ok = lex('#!/usr/bin/env harn\nlet x = 1');
    assert.deepEqual(ok.diagnostics, []);
    assert.deepEqual(
      ok.comments.map((c) => [c.kind, c.start, c.end]),
      [['line', 0, 19]],
    );
    assert.equal(defined(ok.tokens[0], 'the first token').value, 'let');

    const late = lex('let x = 1\n#!/usr/bin/env harn');
    assert.deepEqual(
      late.diagnostics.map((d) => [d.code, d.start]),
      [['unexpected_character', 10]],
    );
    assert.deepEqual(codes(' #!/bin/harn'), ['unexpected_character']);
  });

  test('any `#` outside a shebang or raw string is an error', () => {
    const diags = lex('let x = 1 # comment?').diagnostics;
    assert.equal(diags.length, 1);
    assert.match(defined(diags[0], 'the diagnostic').message, /Unexpected character '#' at 1:11/);
  });
});

describe('lexer: strings', () => {
  test('plain strings decode the escapes `\\n \\t \\\\ \\" \\$ \\r \\0`; other escapes stay as written', () => {
    assert.equal(stringInit('let s = "a\\nb\\t\\\\\\"\\$\\r\\0"').value, 'a\nb\t\\"$\r\0');
    assert.equal(stringInit('let s = "\\q\\d"').value, '\\q\\d');
  });

  test('a lone `$` is plain text; `${` starts a hole', () => {
    assert.deepEqual(toks('"cost: $5"'), ['String:"cost: $5"']);
    assert.deepEqual(toks('"${a}-${b}"'), ['StringHead:"${', 'Identifier:a', 'StringMiddle:}-${', 'Identifier:b', 'StringTail:}"']);
  });

  test('`${}` holes are parsed into expression nodes with absolute offsets', () => {
    const source = 'let s = "hi ${name}, ${user.id + 1}!"';
    const str = stringInit(source);
    assert.deepEqual(
      str.parts.map((p) => p.kind),
      ['Text', 'Hole', 'Text', 'Hole', 'Text'],
    );
    const [, hole1, text2, hole2, text3] = str.parts;
    assert.ok(hole1 && text2 && hole2 && text3, 'five parts');
    assert.ok(hole1.kind === 'Hole' && hole1.expr?.kind === 'Identifier');
    assert.equal(hole1.expr.name, 'name');
    assert.equal(source.slice(hole1.expr.start, hole1.expr.end), 'name');
    assert.equal(source.slice(hole1.start, hole1.end), 'name');
    assert.equal(source.slice(text2.start, text2.end), ', ');
    assert.ok(hole2.kind === 'Hole' && hole2.expr?.kind === 'Binary');
    assert.equal(source.slice(hole2.expr.start, hole2.expr.end), 'user.id + 1');
    const left = hole2.expr.left;
    assert.ok(left.kind === 'Member' && left.object.kind === 'Identifier');
    assert.equal(source.slice(left.object.start, left.object.end), 'user');
    assert.equal(source.slice(text3.start, text3.end), '!');
  });

  test('holes are string-aware: quotes and braces inside a nested string do not end the hole', () => {
    const source = 'let s = "${join(xs, " ")} and ${f("}")}"';
    const str = stringInit(source);
    const holes = str.parts.filter((p) => p.kind === 'Hole');
    assert.equal(holes.length, 2);
    const hole = defined(holes[1], 'the second hole');
    assert.ok(hole.kind === 'Hole' && hole.expr?.kind === 'Call');
    assert.equal(source.slice(hole.expr.start, hole.expr.end), 'f("}")');
  });

  test('strings nest inside holes, holes inside those strings', () => {
    const source = 'let s = "a ${"b ${c} e"} d"';
    const outer = stringInit(source);
    const hole = defined(outer.parts[1], 'the outer hole');
    assert.ok(hole.kind === 'Hole' && hole.expr?.kind === 'String');
    const inner = defined(hole.expr.parts[1], 'the inner hole');
    assert.ok(inner.kind === 'Hole' && inner.expr?.kind === 'Identifier');
    assert.equal(source.slice(inner.expr.start, inner.expr.end), 'c');
    const tail = defined(outer.parts[2], 'the outer tail');
    assert.equal(source.slice(tail.start, tail.end), ' d');
  });

  test('dict braces inside a hole are counted', () => {
    const source = 'let s = "${ {a: 1}.a }"';
    const hole = defined(stringInit(source).parts[1], 'the hole');
    assert.ok(hole.kind === 'Hole' && hole.expr?.kind === 'Member');
  });

  test('`${}` is an error', () => {
    const result = parse('let s = "a ${} b"');
    assert.equal(result.diagnostics.length, 1);
    assert.match(defined(result.diagnostics[0], 'the diagnostic').message, /Empty interpolation/);
  });

  test('an escaped quote inside a hole is reported at the backslash (0.10) and the string still closes', () => {
    const source = 'log("value=${x ?? \\"y\\"}")\nlet after = 1';
    const result = parse(source);
    // One per backslash, each on it.
    const hint = '(a string inside `${…}` uses plain quotes)';
    assert.deepEqual(result.diagnostics, [
      { start: 18, end: 19, code: 'unexpected_character', message: `Unexpected character '\\' at 1:19 ${hint}` },
      { start: 21, end: 22, code: 'unexpected_character', message: `Unexpected character '\\' at 1:22 ${hint}` },
    ]);
    assert.deepEqual([source[18], source[21]], ['\\', '\\']);
    assert.deepEqual(
      result.file.statements.map((s) => s.kind),
      ['ExprStmt', 'LetDecl'],
    );
  });

  test('an unterminated string ends at its line and the next line still parses', () => {
    const source = 'let a = "oops\nlet b = 2';
    const result = parse(source);
    assert.deepEqual(
      result.diagnostics.map((d) => [d.code, d.start, d.end, d.message]),
      [['unterminated_string', 8, 13, 'Unterminated string at 1:9']],
    );
    const a = defined(result.file.statements[0], 'the first statement');
    const b = defined(result.file.statements[1], 'the second statement');
    assert.equal(a.kind, 'LetDecl');
    assert.equal(a.init?.kind, 'String');
    assert.equal(b.kind, 'LetDecl');
    assert.equal(b.pattern?.kind === 'Name' && b.pattern.text, 'b');
    assert.equal(b.init?.kind, 'Int');
  });

  test('an unterminated interpolated string ends at its line too', () => {
    const result = parse('let a = "x ${y\nlet b = 2');
    assert.deepEqual(
      result.diagnostics.map((d) => d.code),
      ['unterminated_string'],
    );
    assert.deepEqual(
      result.file.statements.map((s) => s.kind),
      ['LetDecl', 'LetDecl'],
    );
  });

  test('a hole may span lines inside its brackets (0.10), unless the next line starts a statement', () => {
    const source = 'const x = "${render(\n  "a",\n  b,\n)} end"\nconst y = 1\n';
    const result = parse(source);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(
      result.file.statements.map((s) => s.kind),
      ['LetDecl', 'LetDecl'],
    );
    const str = stringInit(source);
    assert.deepEqual(
      str.parts.map((p) => `${p.kind}:${p.kind === 'Hole' ? source.slice(p.expr?.start, p.expr?.end) : source.slice(p.start, p.end)}`),
      ['Text:', 'Hole:render(\n  "a",\n  b,\n)', 'Text: end'],
    );
    // At the hole's top level, or before a line that starts a statement, the line break still ends the string.
    const typing = parse('let s = "${f(\nlet x = 1\nfn g() { return 2 }');
    assert.deepEqual(
      typing.diagnostics.map((d) => `${d.start}-${d.end} ${d.code}: ${d.message}`),
      ['8-13 unterminated_string: Unterminated string at 1:9', "14-17 syntax_error: Expected expression, got 'let'"],
    );
    assert.deepEqual(
      typing.file.statements.map((s) => s.kind),
      ['LetDecl', 'LetDecl', 'FnDecl'],
    );
    assert.deepEqual(codes('let s = "${a +\n b}"'), ['unterminated_string', 'unterminated_string']);
  });

  test('`\\${` in a triple-quoted string is a literal `${` (0.10); other backslashes stay as written', () => {
    const str = stringInit('let s = """\n  hi \\${VAR}\n  echo \\$PATH\n"""');
    assert.deepEqual([str.value, str.parts.length], ['hi ${VAR}\necho \\$PATH\n', 1]);
    const source = 'let s = """\n  hi \\${VAR} and ${name}\n"""';
    const holes = stringInit(source).parts.filter((p) => p.kind === 'Hole');
    assert.deepEqual(
      holes.map((p) => source.slice(p.start, p.end)),
      ['name'],
    );
  });

  test('triple-quoted strings span lines, drop the leading newline and strip the common indent', () => {
    const str = stringInit('let s = """\n    first\n      second\n    """');
    assert.equal(str.triple, true);
    assert.ok(str.value?.startsWith('first\n  second'), JSON.stringify(str.value));
  });

  test('triple-quoted strings may interpolate', () => {
    const source = 'let s = """\n  hi ${name}\n  """';
    const str = stringInit(source);
    const hole = defined(str.parts[1], 'the hole');
    assert.ok(hole.kind === 'Hole' && hole.expr?.kind === 'Identifier');
    assert.equal(source.slice(hole.expr.start, hole.expr.end), 'name');
  });

  test('raw strings: no escapes, no interpolation', () => {
    assert.deepEqual(toks('r"a\\n${x}"'), ['RawString:r"a\\n${x}"']);
    assert.equal(stringInit('let s = r"a\\n${x}"').value, 'a\\n${x}');
  });

  test('hashed raw strings `r#"…"#` close only on the same number of hashes', () => {
    assert.equal(stringInit('let s = r#"say "hi""#').value, 'say "hi"');
    assert.equal(stringInit('let s = r###"contains "# and "##, then ends"###').value, 'contains "# and "##, then ends');
    assert.equal(stringInit('let s = r#""#').value, '');
  });

  test('broken hashed raw strings are errors (tree-sitter 0.10 :error cases)', () => {
    const diagnostics = (source: string): string[] => parse(source).diagnostics.map((d) => `${d.start}-${d.end} ${d.code}: ${d.message}`);
    // Fewer closing hashes than opening ones: the raw string runs to the end and takes the `}` with it.
    assert.deepEqual(diagnostics('fn broken() { return r##"not closed"# }'), [
      "12-13 syntax_error: This '{' is never closed",
      '21-39 unterminated_string: Unterminated raw string at 1:22',
      '39-39 syntax_error: Unexpected end of file, expected }',
    ]);
    // A raw string ends at its line; the second line's `"# }` opens a plain string.
    assert.deepEqual(diagnostics('fn broken() { return r#"first\nsecond"# }'), [
      "12-13 syntax_error: This '{' is never closed",
      '21-29 unterminated_string: Unterminated raw string at 1:22',
      // The separator error on the same token adds nothing to the lexer's.
      '36-40 unterminated_string: Unterminated string at 2:7',
      '40-40 syntax_error: Unexpected end of file, expected }',
    ]);
    // More closing hashes than opening ones: the extra `#` is left over.
    assert.deepEqual(diagnostics('fn broken() { return r#"closed"## }'), ["32-33 unexpected_character: Unexpected character '#' at 1:33"]);
  });

  test('a `<<TAG` heredoc gets its own message', () => {
    const diags = lex('let s = <<EOF').diagnostics;
    assert.equal(diags.length, 1);
    const d = defined(diags[0], 'the diagnostic');
    assert.equal(d.code, 'heredoc');
    assert.match(d.message, /Heredoc/);
    assert.deepEqual([d.start, d.end], [8, 13]);
    // `a << b` with a space is two `<`, not a heredoc.
    assert.deepEqual(toks('a < <b'), ['Identifier:a', 'Punct:<', 'Punct:<', 'Identifier:b']);
  });
});

describe('lexer: errors stay local', () => {
  test('consecutive unreadable characters are one token and one diagnostic', () => {
    const { tokens, diagnostics } = lex('let x = `~~` + 1');
    assert.equal(diagnostics.length, 1);
    const d = defined(diagnostics[0], 'the diagnostic');
    assert.match(d.message, /Unexpected characters at 1:9/);
    assert.deepEqual([d.start, d.end], [8, 12]);
    assert.deepEqual(
      tokens.map((t) => TokenKind[t.kind]),
      ['Keyword', 'Identifier', 'Punct', 'Invalid', 'Punct', 'Int', 'EOF'],
    );
  });

  test('tokens after a lexer error are still produced', () => {
    const result = parse('let a = `\nlet b = 2');
    assert.deepEqual(
      result.diagnostics.map((d) => d.message),
      ["Unexpected character '`' at 1:9"],
    );
    assert.equal(defined(result.file.statements[1], 'the second statement').kind, 'LetDecl');
  });
});
