// Tests for the TextMate grammar (syntaxes/harn.tmLanguage.json) and the language configuration, run with the
// engine VS Code itself uses: vscode-textmate + vscode-oniguruma.
//
// 1. Snapshots: every test/unit/grammar/*.harn fixture is tokenized line by line (the rule stack carried across
//    lines) and rendered one token per line as `line:col "text"  scope scope …` (1-based line and column, the root
//    `source.harn` scope left out, whitespace-only tokens left out unless they are string or comment text). The result is
//    compared with the `.snap` file next to the fixture. `UPDATE_SNAPSHOTS=1` rewrites the snapshots: read the diff.
// 2. Explicit assertions on the cases that matter most (interpolation, nesting, raw strings, durations, doc comments).
// 3. Robustness: every .harn file of the shared corpus (when present) and 1 MB single lines tokenize without throwing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';
import { corpusFiles, corpusRoot, corpusSkip, requireCorpus } from '../support/corpus';

const REPO_ROOT = resolve(__dirname, '..', '..');
const GRAMMAR_PATH = join(REPO_ROOT, 'syntaxes', 'harn.tmLanguage.json');
const LANGUAGE_CONFIGURATION_PATH = join(REPO_ROOT, 'language-configuration.json');
const FIXTURE_DIR = join(__dirname, 'grammar');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

// ------------------------------------------------------------------------------------------------ engine

let grammarPromise: Promise<vsctm.IGrammar> | undefined;

function loadGrammar(): Promise<vsctm.IGrammar> {
  grammarPromise ??= (async () => {
    const wasmPath = join(dirname(require.resolve('vscode-oniguruma')), 'onig.wasm');
    const wasm = readFileSync(wasmPath);
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: (scopeName: string) =>
        Promise.resolve(scopeName === 'source.harn' ? vsctm.parseRawGrammar(readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH) : null),
    });
    const grammar = await registry.loadGrammar('source.harn');
    if (!grammar) throw new Error('source.harn did not load');
    return grammar;
  })();
  return grammarPromise;
}

interface Token {
  /** 0-based line index. */
  line: number;
  /** 0-based UTF-16 column. */
  start: number;
  end: number;
  text: string;
  scopes: readonly string[];
}

interface Tokenized {
  lines: string[];
  tokens: Token[][];
  /** The rule stack after the last line. */
  finalState: vsctm.StateStack;
}

function tokenize(grammar: vsctm.IGrammar, source: string): Tokenized {
  const lines = source.split(/\r?\n/);
  let state: vsctm.StateStack = vsctm.INITIAL;
  const tokens: Token[][] = [];
  lines.forEach((text, line) => {
    const result = grammar.tokenizeLine(text, state);
    state = result.ruleStack;
    tokens.push(
      result.tokens.map((t) => ({
        line,
        start: t.startIndex,
        end: Math.min(t.endIndex, text.length),
        text: text.slice(t.startIndex, t.endIndex),
        scopes: t.scopes,
      })),
    );
  });
  return { lines, tokens, finalState: state };
}

function renderSnapshot(name: string, result: Tokenized): string {
  const out: string[] = [`# ${name}: one token per line, "line:col text  scopes" (1-based; source.harn and bare whitespace left out)`];
  for (const lineTokens of result.tokens) {
    for (const token of lineTokens) {
      const innermost = token.scopes[token.scopes.length - 1] ?? '';
      if (token.text.trim() === '' && (innermost === 'source.harn' || innermost.startsWith('meta.'))) continue;
      const scopes = token.scopes.filter((s) => s !== 'source.harn').join(' ');
      out.push(`${token.line + 1}:${token.start + 1} ${JSON.stringify(token.text)}  ${scopes}`.trimEnd());
    }
  }
  return out.join('\n') + '\n';
}

/** The token that covers the `nth` occurrence of `needle` in line `line` (0-based) of `result`. */
function tokenAt(result: Tokenized, line: number, needle: string, nth = 0): Token {
  const text = result.lines[line];
  assert.ok(text !== undefined, `no line ${line}`);
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = text.indexOf(needle, index + 1);
    assert.ok(index >= 0, `"${needle}" (occurrence ${nth}) not found in line ${line}: ${text}`);
  }
  const token = result.tokens[line]?.find((t) => t.start <= index && index < t.end);
  assert.ok(token, `no token at ${line}:${index}`);
  return token;
}

/** Tokens whose text overlaps `needle` (all of it), for a one-line source. */
function tokensOver(result: Tokenized, line: number, needle: string): Token[] {
  const text = result.lines[line] ?? '';
  const start = text.indexOf(needle);
  assert.ok(start >= 0, `"${needle}" not found in: ${text}`);
  const end = start + needle.length;
  return (result.tokens[line] ?? []).filter((t) => t.end > start && t.start < end);
}

function has(token: Token, scopePrefix: string): boolean {
  return token.scopes.some((s) => s === scopePrefix || s.startsWith(scopePrefix + '.'));
}

function assertScope(token: Token, scopePrefix: string): void {
  assert.ok(has(token, scopePrefix), `"${token.text}" should have ${scopePrefix}; has ${token.scopes.join(' ')}`);
}

function assertNoScope(token: Token, scopePrefix: string): void {
  assert.ok(!has(token, scopePrefix), `"${token.text}" should not have ${scopePrefix}; has ${token.scopes.join(' ')}`);
}

async function tok(source: string): Promise<Tokenized> {
  return tokenize(await loadGrammar(), source);
}

// ------------------------------------------------------------------------------------------------ 0. files

test('grammar file: valid JSON, scopeName source.harn, every include resolves', () => {
  const raw: unknown = JSON.parse(readFileSync(GRAMMAR_PATH, 'utf8'));
  assert.ok(raw && typeof raw === 'object');
  const grammar = raw as { scopeName?: unknown; repository?: Record<string, unknown> };
  assert.equal(grammar.scopeName, 'source.harn');
  const repository = grammar.repository ?? {};
  const includes = JSON.stringify(raw).match(/"include":"#[^"]+"/g) ?? [];
  for (const include of includes) {
    const name = include.slice('"include":"#'.length, -1);
    assert.ok(name in repository, `#${name} is included but not defined`);
  }
});

test('language configuration: comments, pairs and regexes', () => {
  const config = JSON.parse(readFileSync(LANGUAGE_CONFIGURATION_PATH, 'utf8')) as {
    comments: { lineComment: string; blockComment: [string, string] };
    autoClosingPairs: { open: string; close: string }[];
    wordPattern: string;
    folding: { markers: { start: string; end: string } };
    indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
    onEnterRules: { beforeText: string; afterText?: string }[];
  };
  assert.equal(config.comments.lineComment, '//');
  assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
  const pairs = config.autoClosingPairs.map((p) => `${p.open}${p.close}`);
  for (const pair of ['{}', '[]', '()', '""', '/** */']) assert.ok(pairs.includes(pair), `missing pair ${pair}`);

  const word = new RegExp(config.wordPattern, 'g');
  assert.deepEqual('let café = naïve_1 + 5ms'.match(word), ['let', 'café', 'naïve_1', '5ms']);
  assert.deepEqual('x?.y |> f(a, b)'.match(word), ['x', 'y', 'f', 'a', 'b']);

  assert.ok(new RegExp(config.folding.markers.start).test('  // #region setup'));
  assert.ok(new RegExp(config.folding.markers.end).test('// #endregion'));
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  assert.ok(increase.test('fn f() {'));
  assert.ok(increase.test('let xs = ['));
  assert.ok(!increase.test('fn f() { return 1 }'));
  assert.ok(!increase.test('// a comment {'));
  assert.ok(decrease.test('  }'));
  assert.ok(new RegExp(config.onEnterRules[0]?.beforeText ?? '^$').test('  /** doc'));
  for (const rule of config.onEnterRules) {
    new RegExp(rule.beforeText);
    if (rule.afterText) new RegExp(rule.afterText);
  }
});

// ------------------------------------------------------------------------------------------------ 1. snapshots

const fixtures = existsSync(FIXTURE_DIR)
  ? readdirSync(FIXTURE_DIR)
      .filter((f) => f.endsWith('.harn'))
      .sort()
  : [];

test('grammar fixtures exist', () => {
  assert.deepEqual(fixtures, ['comments.harn', 'declarations.harn', 'expressions.harn', 'strings.harn'], `the fixtures in ${FIXTURE_DIR}`);
});

for (const fixture of fixtures) {
  test(`snapshot: ${fixture}`, async () => {
    const source = readFileSync(join(FIXTURE_DIR, fixture), 'utf8');
    const result = await tok(source);
    const actual = renderSnapshot(fixture, result);
    const snapPath = join(FIXTURE_DIR, fixture.replace(/\.harn$/, '.snap'));
    if (UPDATE) {
      writeFileSync(snapPath, actual);
      return;
    }
    assert.ok(existsSync(snapPath), `${relative(REPO_ROOT, snapPath)} is missing: run with UPDATE_SNAPSHOTS=1`);
    assert.equal(actual, readFileSync(snapPath, 'utf8'), `${fixture}: tokens changed (UPDATE_SNAPSHOTS=1 to accept)`);
    assert.equal(result.finalState.depth, 1, `${fixture}: a rule is still open at the end of the file`);
  });
}

// ------------------------------------------------------------------------------------------------ 2. assertions

test('interpolation in a triple-quoted string is an embedded expression', async () => {
  const r = await tok('let s = """hello ${name}"""');
  const name = tokenAt(r, 0, 'name');
  assertScope(name, 'meta.embedded.expression');
  assertScope(name, 'variable.other.readwrite');
  const hello = tokenAt(r, 0, 'hello');
  assertScope(hello, 'string.quoted.triple');
  assertNoScope(hello, 'meta.embedded.expression');
  assertScope(tokenAt(r, 0, '${'), 'punctuation.section.embedded.begin');
  assertScope(tokenAt(r, 0, '}'), 'punctuation.section.embedded.end');
  assert.deepEqual(tokenAt(r, 0, '"""', 1).text, '"""');
  assertScope(tokenAt(r, 0, '"""', 1), 'punctuation.definition.string.end');
});

test('interpolation: multi-line holes in """ and balanced braces inside a hole', async () => {
  const r = await tok('let s = "${ {a: 1}.a } tail"\nlet t = """\n${items.map({ x ->\n  x.id\n})}\n"""\nlet after = 1');
  assertScope(tokenAt(r, 0, 'a:'), 'meta.embedded.expression');
  assertScope(tokenAt(r, 0, 'a:'), 'variable.other.property');
  assertScope(tokenAt(r, 0, '1'), 'constant.numeric.integer');
  // The `}` after `.a ` closes the hole, not the `{a: 1}` dict.
  const close = tokenAt(r, 0, '}', 1);
  assertScope(close, 'punctuation.section.embedded.end');
  const tail = tokenAt(r, 0, 'tail');
  assertScope(tail, 'string.quoted.double');
  assertNoScope(tail, 'meta.embedded.expression');
  assertScope(tokenAt(r, 3, 'id'), 'meta.embedded.expression');
  assertScope(tokenAt(r, 2, 'x'), 'variable.parameter');
  assertScope(tokenAt(r, 5, '"""'), 'punctuation.definition.string.end');
  assertScope(tokenAt(r, 6, 'let'), 'keyword');
  assertNoScope(tokenAt(r, 6, 'let'), 'string');
});

test('escapes in "…" strings; a hole can hold a string with quotes and braces', async () => {
  const r = await tok('"a\\n\\t\\\\\\"\\$\\r\\0 \\q ${f("}")} ${x}"');
  for (const escape of ['\\n', '\\t', '\\\\', '\\"', '\\$', '\\r', '\\0']) {
    const t = tokenAt(r, 0, escape);
    assert.equal(t.text, escape);
    assertScope(t, 'constant.character.escape');
  }
  assertNoScope(tokenAt(r, 0, '\\q'), 'constant.character.escape');
  assertScope(tokenAt(r, 0, 'f('), 'entity.name.function');
  assertScope(tokenAt(r, 0, 'x}'), 'meta.embedded.expression');
  const last = r.tokens[0]?.at(-1);
  assert.ok(last);
  assertScope(last, 'punctuation.definition.string.end');
});

test('\\$ escapes a hole; a lone $ is text', async () => {
  const r = await tok('"\\${x} costs $5"');
  assert.ok(r.tokens[0]?.every((t) => !has(t, 'meta.embedded.expression')));
});

test('nested block comments close at the matching */', async () => {
  const r = await tok('/* a /* b */ c */ let x = 1');
  assertScope(tokenAt(r, 0, 'c'), 'comment.block');
  const keyword = tokenAt(r, 0, 'let');
  assertScope(keyword, 'keyword');
  assertNoScope(keyword, 'comment');
  assertScope(tokenAt(r, 0, '1'), 'constant.numeric');

  const multi = await tok('/* one\n /* two\n */ still comment\n*/ let y = 2');
  assertScope(tokenAt(multi, 2, 'still'), 'comment.block');
  assertScope(tokenAt(multi, 3, 'let'), 'keyword');
  assertNoScope(tokenAt(multi, 3, 'let'), 'comment');
});

test('doc comments: /** */ and legacy ///; not /**/, /***, ////', async () => {
  const r = await tok('/** Doc. @effects: [host] */\n/**/ x\n/*** banner */\n/// legacy\n//// plain\n// plain');
  assertScope(tokenAt(r, 0, 'Doc'), 'comment.block.documentation');
  assertScope(tokenAt(r, 0, 'effects'), 'storage.type.class.doc');
  assertNoScope(tokenAt(r, 1, '/**/'), 'comment.block.documentation');
  assertScope(tokenAt(r, 1, '/**/'), 'comment.block');
  assertNoScope(tokenAt(r, 1, 'x'), 'comment');
  assertNoScope(tokenAt(r, 2, 'banner'), 'comment.block.documentation');
  assertScope(tokenAt(r, 2, 'banner'), 'comment.block');
  assertScope(tokenAt(r, 3, 'legacy'), 'comment.line.triple-slash.documentation');
  assertNoScope(tokenAt(r, 4, 'plain'), 'comment.line.triple-slash.documentation');
  assertScope(tokenAt(r, 4, 'plain'), 'comment.line.double-slash');
  assertScope(tokenAt(r, 5, 'plain'), 'comment.line.double-slash');
});

test('shebang only on the first line at column 0', async () => {
  const r = await tok('#!/usr/bin/env harn\n#!not a shebang');
  assertScope(tokenAt(r, 0, 'usr'), 'comment.line.number-sign.shebang');
  assertNoScope(tokenAt(r, 1, 'not'), 'comment');
  const indented = await tok('  #!x');
  assertNoScope(tokenAt(indented, 0, 'x'), 'comment');
});

test('durations: 5m is a duration, 5min is an integer then a name', async () => {
  const r = await tok('let a = [5m, 5min, 250ms, 2s, 1h, 3d, 1w, 5s_x, 1.5s, 42, 3.14]');
  for (const d of ['5m', '250ms', '2s', '1h', '3d', '1w']) {
    const t = tokenAt(r, 0, d);
    assert.equal(t.text, d);
    assertScope(t, 'constant.numeric.duration');
  }
  const five = tokenAt(r, 0, '5min');
  assert.equal(five.text, '5');
  assertScope(five, 'constant.numeric.integer');
  const min = tokenAt(r, 0, 'min');
  assertNoScope(min, 'constant.numeric');
  assertNoScope(tokenAt(r, 0, '5s_x'), 'constant.numeric.duration');
  assert.equal(tokenAt(r, 0, '1.5s').text, '1.5');
  assertScope(tokenAt(r, 0, '1.5s'), 'constant.numeric.float');
  assertScope(tokenAt(r, 0, '42'), 'constant.numeric.integer');
  assertScope(tokenAt(r, 0, '3.14'), 'constant.numeric.float');
  const method = await tok('42.to_string()');
  assert.equal(tokenAt(method, 0, '42').text, '42');
  assertScope(tokenAt(method, 0, 'to_string'), 'entity.name.function');
});

test('raw strings: r#"a "quoted" b"# is one string; r"…" has no holes or escapes', async () => {
  const r = await tok('let s = r#"a "quoted" b"# + r##"x "# y"## + r"${no} \\n" + 1');
  for (const t of tokensOver(r, 0, 'r#"a "quoted" b"#')) assertScope(t, 'string.quoted.raw');
  for (const t of tokensOver(r, 0, 'r##"x "# y"##')) assertScope(t, 'string.quoted.raw');
  assertNoScope(tokenAt(r, 0, '+'), 'string');
  assertNoScope(tokenAt(r, 0, '+', 1), 'string');
  for (const t of tokensOver(r, 0, 'r"${no} \\n"')) {
    assertScope(t, 'string.quoted.raw');
    assertNoScope(t, 'meta.embedded.expression');
    assertNoScope(t, 'constant.character.escape');
  }
  assertScope(tokenAt(r, 0, '1'), 'constant.numeric.integer');
});

test('unterminated single-line strings stop at the end of their line', async () => {
  const r = await tok('let a = "open ${x\nlet b = r"open\nlet c = r#"open\nlet d = 1');
  for (const line of [1, 2, 3]) {
    assertScope(tokenAt(r, line, 'let'), 'keyword');
    assertNoScope(tokenAt(r, line, 'let'), 'string');
  }
  assert.equal(r.finalState.depth, 1);
});

test('keywords, HITL words and contextual words', async () => {
  const r = await tok(
    [
      'pub gen fn f() {}',
      'let x = parallel each xs { v -> v } as stream',
      'let y = request_approval(action: "deploy")',
      'if a not in b { return nil }',
      'let r = 1 to 10 exclusive',
    ].join('\n'),
  );
  assertScope(tokenAt(r, 0, 'pub'), 'storage.modifier');
  assertScope(tokenAt(r, 0, 'gen'), 'storage.modifier');
  assertScope(tokenAt(r, 0, 'fn'), 'keyword.declaration.function');
  assertScope(tokenAt(r, 1, 'parallel'), 'keyword.control');
  assertScope(tokenAt(r, 1, 'each'), 'keyword.control');
  assertScope(tokenAt(r, 1, 'v'), 'variable.parameter');
  assertScope(tokenAt(r, 1, 'as'), 'keyword.control');
  assertScope(tokenAt(r, 1, 'stream'), 'keyword.control');
  assertScope(tokenAt(r, 2, 'request_approval'), 'keyword.control.hitl');
  assertScope(tokenAt(r, 2, 'action'), 'variable.other.property');
  assertScope(tokenAt(r, 3, 'not'), 'keyword.operator.expression');
  assertScope(tokenAt(r, 3, 'return'), 'keyword.control');
  assertScope(tokenAt(r, 3, 'nil'), 'constant.language');
  assertScope(tokenAt(r, 4, 'to'), 'keyword.operator.range');
  assertScope(tokenAt(r, 4, 'exclusive'), 'keyword.operator.range');
});

test('keywords used as member names or dict keys are not keywords', async () => {
  const r = await tok('let k = {type: "a", tool: 1, select: 2}\nlet m = event.type + o?.select + x.fn');
  for (const word of ['type', 'tool', 'select']) {
    const t = tokenAt(r, 0, word);
    assertScope(t, 'variable.other.property');
    assertNoScope(t, 'keyword');
  }
  for (const word of ['type', 'select', 'fn']) {
    const t = tokenAt(r, 1, word);
    assertScope(t, 'variable.other.property');
    assertNoScope(t, 'keyword');
  }
});

test('declarations: names, parameters and types', async () => {
  const r = await tok(
    [
      'fn add(a: int, b = 1) -> list<string> { return [] }',
      'pipeline main(task) extends base {}',
      'tool search(query: string) -> {hits: [string]} {}',
      'struct Point { x: float, y?: float }',
      'pub type Mode = "a" | Custom',
      '@deprecated(since: "0.9")',
    ].join('\n'),
  );
  assertScope(tokenAt(r, 0, 'add'), 'entity.name.function');
  assertScope(tokenAt(r, 0, 'a:'), 'variable.parameter');
  assertScope(tokenAt(r, 0, 'b ='), 'variable.parameter');
  assertScope(tokenAt(r, 0, 'int'), 'support.type.primitive');
  assertScope(tokenAt(r, 0, 'list'), 'support.type.builtin');
  assertScope(tokenAt(r, 0, 'string'), 'support.type.primitive');
  assertScope(tokenAt(r, 0, 'return'), 'keyword.control');
  assertScope(tokenAt(r, 1, 'main'), 'entity.name.function');
  assertScope(tokenAt(r, 1, 'task'), 'variable.parameter');
  assertScope(tokenAt(r, 1, 'base'), 'entity.other.inherited-class');
  assertScope(tokenAt(r, 2, 'search'), 'entity.name.function');
  assertScope(tokenAt(r, 2, 'hits'), 'variable.other.property');
  assertScope(tokenAt(r, 2, 'string', 1), 'support.type.primitive');
  assertNoScope(tokenAt(r, 2, '{}'), 'meta.type.shape');
  assertScope(tokenAt(r, 3, 'Point'), 'entity.name.type');
  assertScope(tokenAt(r, 3, 'y'), 'variable.other.property');
  assertScope(tokenAt(r, 3, 'float', 1), 'support.type.primitive');
  assertScope(tokenAt(r, 4, 'Mode'), 'entity.name.type');
  assertScope(tokenAt(r, 4, 'Custom'), 'entity.name.type');
  assertScope(tokenAt(r, 5, 'deprecated'), 'meta.annotation');
  assertScope(tokenAt(r, 5, 'deprecated'), 'entity.name.function.decorator');
});

test('calls: user functions and builtins', async () => {
  const r = await tok('log(len(xs)); my_fn(1); xs.map(f); parse<int>("1")');
  assertScope(tokenAt(r, 0, 'log'), 'support.function.builtin');
  assertScope(tokenAt(r, 0, 'len'), 'support.function.builtin');
  assertScope(tokenAt(r, 0, 'my_fn'), 'entity.name.function');
  assertScope(tokenAt(r, 0, 'map'), 'entity.name.function');
  assertScope(tokenAt(r, 0, 'parse'), 'entity.name.function');
  assertScope(tokenAt(r, 0, 'int'), 'support.type.primitive');
});

test('operators', async () => {
  const r = await tok('a |> b ?? c?.d -> e == f != g <= h >= i && j || !k ** l + m - n * o / p % q = r ? s : t');
  // [where to look, the operator token's text, scope]
  const expected: [string, string, string][] = [
    ['|>', '|>', 'keyword.operator.pipe'],
    ['??', '??', 'keyword.operator.null-coalescing'],
    ['?.', '?.', 'punctuation.accessor.optional'],
    ['->', '->', 'keyword.operator.arrow'],
    ['==', '==', 'keyword.operator.comparison'],
    ['!=', '!=', 'keyword.operator.comparison'],
    ['<=', '<=', 'keyword.operator.comparison'],
    ['>=', '>=', 'keyword.operator.comparison'],
    ['&&', '&&', 'keyword.operator.logical'],
    ['||', '||', 'keyword.operator.logical'],
    ['!k', '!', 'keyword.operator.logical'],
    ['**', '**', 'keyword.operator.arithmetic'],
    ['+', '+', 'keyword.operator.arithmetic'],
    ['- n', '-', 'keyword.operator.arithmetic'],
    ['* o', '*', 'keyword.operator.arithmetic'],
    ['/', '/', 'keyword.operator.arithmetic'],
    ['%', '%', 'keyword.operator.arithmetic'],
    ['= r', '=', 'keyword.operator.assignment'],
    ['? s', '?', 'keyword.operator'],
  ];
  for (const [needle, text, scope] of expected) {
    const t = tokenAt(r, 0, needle);
    assert.equal(t.text, text, `token at "${needle}"`);
    assertScope(t, scope);
  }
});

test('Unicode identifiers are single tokens', async () => {
  const r = await tok('let café = naïve + 日本');
  assert.equal(tokenAt(r, 0, 'café').text, 'café');
  assert.equal(tokenAt(r, 0, 'naïve').text, 'naïve');
  assert.equal(tokenAt(r, 0, '日本').text, '日本');
});

// ------------------------------------------------------------------------------------------------ 3. robustness

test('corpus: every .harn file tokenizes and closes every rule it opens', { skip: corpusSkip }, async () => {
  requireCorpus();
  const grammar = await loadGrammar();
  const files = corpusFiles().map((f) => join(corpusRoot, f));
  // The shared corpus: 874 .harn files (harn-v0.7, harn-0.10 and the formatter oracle's inputs).
  assert.equal(files.length, 874);
  const unbalanced: string[] = [];
  for (const file of files) {
    const result = tokenize(grammar, readFileSync(file, 'utf8'));
    // Files meant to fail lexing may leave a string or comment open; everything else must end at the root.
    if (result.finalState.depth !== 1 && !/[/\\]errors[/\\]syntax[/\\]/.test(file)) {
      unbalanced.push(relative(corpusRoot, file));
    }
  }
  assert.deepEqual(unbalanced, [], 'files that end with a rule still open');
});

test('a 1 MB single line tokenizes without throwing', async () => {
  const grammar = await loadGrammar();
  const MB = 1024 * 1024;
  const repeat = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  const lines = [
    repeat('let x = foo(a, "s ${b.c} \\n", r#"raw"#) + 5ms ?? {k: [1, 2.5]} |> f(_); /* c */ '),
    // Deep nesting: one balanced-group rule per character.
    repeat('('),
  ];
  for (const line of lines) {
    // tokenizeLine2 is what VS Code calls. The time limit only bounds the loop (it cannot interrupt one runaway
    // regex search, which is what this test would catch); whether it stopped early is not asserted.
    const result = grammar.tokenizeLine2(line, vsctm.INITIAL, 5_000);
    // Two entries (offset, metadata) per token: the statement line has many, the nest of `(` is one run.
    if (!result.stoppedEarly) assert.equal(result.tokens.length, line.startsWith('(') ? 2 : 209_716);
    assert.ok(result.ruleStack);
  }
});
