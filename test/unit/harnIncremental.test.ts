// HarnAnalysis.edited (harn/incremental.ts): after every edit of a fuzzed sequence, each one applied to the
// previous step's result, the analysis equals a full parse of the same text (tree, tokens, comments,
// diagnostics) and so do the outline, scopes and semantic tokens; the single-statement path is taken when typing
// inside function bodies, and not where the edit changes the structure around the statement.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { semanticTokens } from '../../server/src/harn/semanticTokens';
import { LineIndex } from '../../server/src/text/lineIndex';
import { HarnWorkspace, OpenDocument } from '../../server/src/workspace/harnWorkspace';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { prng } from '../support/random';

const FILE = '/ws/main.harn';

/** Asserts that `analysis` is what a from-scratch analysis of its text gives. */
function assertSameAsFull(analysis: HarnAnalysis, label: string): void {
  const full = new HarnAnalysis(analysis.text);
  assert.deepStrictEqual(analysis.lineIndex.lineStarts, full.lineIndex.lineStarts, `${label}: line starts`);
  assert.deepStrictEqual(analysis.parsed.diagnostics, full.parsed.diagnostics, `${label}: diagnostics`);
  assert.deepStrictEqual(analysis.parsed.tokens, full.parsed.tokens, `${label}: tokens`);
  assert.deepStrictEqual(analysis.parsed.comments, full.parsed.comments, `${label}: comments`);
  assert.deepStrictEqual(analysis.file, full.file, `${label}: tree`);
  assert.deepStrictEqual(analysis.cappedOutline, full.cappedOutline, `${label}: outline`);
  assert.deepStrictEqual(analysis.scopes, full.scopes, `${label}: scopes`);
  assert.deepStrictEqual(semanticTokens(analysis, FILE), semanticTokens(full, FILE), `${label}: semantic tokens`);
}

/** One edit: replace `[at, at + remove)` with `insert`; positions are fractions of the text, or pinned places. */
interface Edit {
  place: 'anywhere' | 'start' | 'end' | 'statementStart' | 'statementEnd' | 'insideBody';
  fraction: number;
  remove: number;
  insert: string;
}

const SNIPPETS = [
  'let x = 1\n',
  '  var y = f(a, b)\n',
  '"${a}"',
  '"""',
  '/* c */',
  '/*',
  '// note\n',
  '}',
  '{',
  '\nfn late() {\n',
  'fn ',
  '\r\n',
  '𝒳',
  '\u{1F600}',
  'match x { 1 -> { a } }',
  '@attr\n',
  ' ? b : c',
  '${',
  '\\"',
  'r#"raw"#',
  '\n/** doc */\npub fn g() { }\n',
];

/** A statement typed piece by piece: a pair (`()`, `""`) is typed at once and the cursor lands inside it. */
const TYPED = ['\n', ' ', ' ', ...'let q', ' ', '=', ' ', ...'foo', '()', 'x', ',', ' ', '[]', '1', ',', ' ', '""', ...'a b'];
const PAIRS = new Set(['()', '""', '[]']);

const CHARS = [...'ab z_1{}()[]"\'/*\n$;:,.?<>=\\'];

const edit: fc.Arbitrary<Edit> = fc.record({
  place: fc.constantFrom('anywhere', 'anywhere', 'start', 'end', 'statementStart', 'statementEnd', 'insideBody', 'insideBody', 'insideBody'),
  fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 40 })),
  insert: fc.oneof(fc.constantFrom(...CHARS), fc.constantFrom(...CHARS), fc.constantFrom(...SNIPPETS), fc.constant('')),
});

/** Where `e` applies in `analysis`'s text. */
function offsetOf(analysis: HarnAnalysis, e: Edit): number {
  const text = analysis.text;
  const statements = analysis.file.statements;
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.min(items.length - 1, Math.floor(e.fraction * items.length))];
  switch (e.place) {
    case 'start':
      return 0;
    case 'end':
      return text.length;
    case 'statementStart':
      return pick(statements)?.start ?? 0;
    case 'statementEnd':
      return pick(statements)?.end ?? text.length;
    case 'insideBody': {
      const bodies = statements.flatMap((s) => ('body' in s && s.body && s.body.kind === 'Block' && s.body.closed ? [s.body] : []));
      const body = pick(bodies);
      if (!body) return Math.floor(e.fraction * text.length);
      const inner = body.end - 1 - (body.start + 1);
      return body.start + 1 + Math.floor(((e.fraction * 7919) % 1) * Math.max(0, inner));
    }
    default:
      return Math.floor(e.fraction * text.length);
  }
}

function apply(analysis: HarnAnalysis, e: Edit): string {
  const text = analysis.text;
  const at = offsetOf(analysis, e);
  return text.slice(0, at) + e.insert + text.slice(Math.min(text.length, at + e.remove));
}

/** Runs `edits` one after the other from `source`, checking every step. Returns how many steps were incremental. */
function runSequence(source: string, edits: readonly Edit[]): number {
  let analysis = new HarnAnalysis(source);
  let incremental = 0;
  edits.forEach((e, step) => {
    const next = apply(analysis, e);
    analysis = HarnAnalysis.edited(analysis, next);
    if (analysis.reparsed !== 'full') incremental++;
    assertSameAsFull(analysis, `step ${step} (${JSON.stringify(e)})`);
  });
  return incremental;
}

/** A generated file: functions, pipelines and tools with bodies of statements, strings with holes, comments. */
function generatedFile(seed: number, functions: number): string {
  const parts: string[] = ['import { helper } from "./lib"\n', 'const LIMIT = 10\n'];
  for (let i = 0; i < functions; i++) {
    const n = (seed + i) % 5;
    if (n === 0) parts.push(`/** Function ${i}. */\n`);
    const header = n === 3 ? `pipeline p${i}(task)` : n === 4 ? `tool t${i}(a: string) -> string` : `pub fn f${i}(a: int, b: string = "x") -> int`;
    parts.push(`${header} {\n`);
    parts.push(`  let v${i} = a + ${i}\n`);
    parts.push(`  // step ${i}\n`);
    parts.push(`  if v${i} > LIMIT {\n    log("big \${v${i}} of \${b}")\n  } else {\n    helper(v${i}, [1, 2], {k: ${i}})\n  }\n`);
    parts.push(`  for item in [1, 2, 3] {\n    v${i} = v${i} + item\n  }\n`);
    parts.push(`  return v${i}\n}\n\n`);
  }
  return parts.join('');
}

describe('LineIndex.edited', () => {
  test('gives the line starts of a fresh index after any edit, CRLF pairs split and joined included', () => {
    const piece = fc.array(fc.constantFrom('a', '\n', '\r', '\r\n', ' '), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(piece, fc.nat(), fc.nat(), piece, (original, at, length, insert) => {
        const from = at % (original.length + 1);
        const oldTo = Math.min(original.length, from + (length % 4));
        const text = original.slice(0, from) + insert + original.slice(oldTo);
        const edited = LineIndex.edited(new LineIndex(original), text, from, oldTo, from + insert.length);
        assert.deepStrictEqual(edited.lineStarts, new LineIndex(text).lineStarts);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('HarnAnalysis.edited', () => {
  test('equals a full parse after every edit of a sequence, on generated files', (t) => {
    let steps = 0;
    let incremental = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.array(edit, { minLength: 1, maxLength: 12 }), (seed, edits) => {
        steps += edits.length;
        incremental += runSequence(generatedFile(seed, 12), edits);
      }),
      { numRuns: 150 },
    );
    t.diagnostic(`incremental in ${incremental} of ${steps} steps`);
    // The comparison must also have covered the single-statement path, not only full parses.
    assert.ok(incremental >= steps * 0.1, `incremental in ${incremental} of ${steps} steps`);
  });

  const files = corpusFiles();
  test('equals a full parse after every edit of a sequence, on corpus files', { skip: corpusSkip }, (t) => {
    const sources = files.map(readCorpus).filter((s) => s.length < 60_000);
    assert.ok(sources.length > 100, `corpus has ${sources.length} files`);
    let steps = 0;
    let incremental = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: sources.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 8 }), (index, edits) => {
        steps += edits.length;
        incremental += runSequence(sources[index] as string, edits);
      }),
      { numRuns: 250 },
    );
    t.diagnostic(`incremental in ${incremental} of ${steps} steps`);
    assert.ok(incremental >= steps * 0.05, `incremental in ${incremental} of ${steps} steps`);
  });

  test('equals a full parse after one odd edit inside a statement of a clean file', { skip: corpusSkip }, (t) => {
    // Most of these take the single-statement path with unusual text: quotes, holes, comments, CRLF, astral characters.
    const clean = files
      .map(readCorpus)
      .filter((s) => s.length < 30_000)
      .slice(0, 300)
      .concat([generatedFile(1, 10), generatedFile(2, 10)]);
    let steps = 0;
    let incremental = 0;
    const inside = fc.record({
      place: fc.constant('insideBody' as const),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      remove: fc.constantFrom(0, 0, 1, 2, 5),
      insert: fc.oneof(fc.constantFrom(...CHARS), fc.constantFrom(...SNIPPETS)),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: clean.length - 1 }), fc.array(inside, { minLength: 1, maxLength: 3 }), (index, edits) => {
        steps += edits.length;
        incremental += runSequence(clean[index] as string, edits);
      }),
      { numRuns: 400 },
    );
    t.diagnostic(`incremental in ${incremental} of ${steps} steps`);
    assert.ok(incremental >= steps * 0.25, `incremental in ${incremental} of ${steps} steps`);
  });

  test('equals a full parse through long runs of bracket edits that leave many statements unbalanced', (t) => {
    let steps = 0;
    let incremental = 0;
    const bracketEdit = fc.record({
      place: fc.constantFrom('insideBody' as const, 'insideBody' as const, 'anywhere' as const),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      remove: fc.constantFrom(0, 0, 0, 1),
      insert: fc.constantFrom(...'(){}[]', '->', 'a', ' ', '\n', 'x => y', '{ a -> b }', 'f(a) -> '),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.array(bracketEdit, { minLength: 10, maxLength: 40 }), (seed, edits) => {
        steps += edits.length;
        incremental += runSequence(generatedFile(seed, 6), edits);
      }),
      { numRuns: 60 },
    );
    t.diagnostic(`incremental in ${incremental} of ${steps} steps`);
    assert.ok(incremental >= steps * 0.25, `incremental in ${incremental} of ${steps} steps`);
  });

  test('takes the single-statement path when typing inside function bodies', (t) => {
    let steps = 0;
    let incremental = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (seed) => {
        const rng = prng(seed);
        let analysis = new HarnAnalysis(generatedFile(seed, 8));
        // A new statement typed at the end of a line of a body, as an editor with auto-closed pairs gives it,
        // with now and then a backspace.
        const bodies = analysis.file.statements.flatMap((s) => ('body' in s && s.body?.kind === 'Block' ? [s.body] : []));
        const body = bodies[Math.floor(rng() * bodies.length)];
        assert.ok(body);
        const lineEnds = [...analysis.text.slice(body.start, body.end - 1).matchAll(/\n/g)].map((m) => body.start + m.index);
        let cursor = lineEnds[Math.floor(rng() * lineEnds.length)] ?? body.start + 1;
        for (const piece of TYPED) {
          // A backspace next to a bracket or quote would delete its pair too: left out.
          const backspace = rng() < 0.15 && !/[()[\]"]/.test(analysis.text.charAt(cursor - 1));
          const text = analysis.text;
          const next = backspace ? text.slice(0, cursor - 1) + text.slice(cursor) : text.slice(0, cursor) + piece + text.slice(cursor);
          cursor += backspace ? -1 : piece.length - (piece.length === 2 && PAIRS.has(piece) ? 1 : 0);
          analysis = HarnAnalysis.edited(analysis, next);
          steps++;
          if (analysis.reparsed !== 'full') incremental++;
          assertSameAsFull(analysis, `typing ${JSON.stringify(piece)} at ${cursor} (seed ${seed})`);
        }
      }),
      { numRuns: 40 },
    );
    t.diagnostic(`incremental in ${incremental} of ${steps} steps`);
    assert.ok(incremental >= steps * 0.9, `incremental in ${incremental} of ${steps} steps`);
  });

  describe('re-reads one statement, or the file when it must', () => {
    const source = 'fn a() {\n  let x = 1\n  log(x)\n}\n\nfn b() {\n  let y = 2\n}\n\nfn c() {\n  return 3\n}\n';
    const inBody = source.indexOf('log(x)');
    const cases: { name: string; insert: string; remove?: number; at: number; expect: 'statement' | 'full' }[] = [
      { name: 'a letter inside a body', insert: 'z', at: inBody, expect: 'statement' },
      { name: 'a new line inside a body', insert: '\n  ', at: inBody, expect: 'statement' },
      { name: 'a balanced call inside a body', insert: 'f(1)\n  ', at: inBody, expect: 'statement' },
      { name: 'a single `"`, which ends at its line', insert: '"', at: inBody, expect: 'statement' },
      { name: '`"""`, which runs to the end of the file', insert: '"""', at: inBody, expect: 'full' },
      { name: '`/*`, which runs to the end of the file', insert: '/*', at: inBody, expect: 'full' },
      { name: '`}`, which closes the body early', insert: '}', at: inBody, expect: 'full' },
      // With no bracket left open before it, an unbalanced statement is read alone (what it leaves open is followed).
      { name: '`{`, which leaves the body open', insert: '{', at: inBody, expect: 'statement' },
      { name: 'an open `(`', insert: 'f(', at: inBody, expect: 'statement' },
      // A line break cuts the hole (the string ends at its line): the lexer is back in its ordinary state after it.
      { name: 'an open `${` hole', insert: '"${', at: inBody, expect: 'statement' },
      { name: 'an open `${` hole of a triple-quoted string', insert: '"""${', at: inBody, expect: 'full' },
      { name: 'text between two declarations', insert: 'x', at: source.indexOf('fn b'), expect: 'full' },
      { name: 'the name of a declaration', insert: 'x', at: source.indexOf('() {\n  let y'), expect: 'full' },
      { name: 'the parameters of a declaration', insert: 'x', at: source.indexOf('() {\n  let y') + 1, expect: 'statement' },
      { name: 'a blank line between declarations', insert: '\n', at: source.indexOf('fn b'), expect: 'statement' },
      { name: 'a comment between declarations', insert: '// note\n', at: source.indexOf('\nfn b'), expect: 'statement' },
      { name: 'a doc comment above a declaration (read again for its doc)', insert: '/** B. */\n', at: source.indexOf('fn b'), expect: 'statement' },
      { name: 'a space before a declaration (no longer at column 0)', insert: ' ', at: source.indexOf('fn b'), expect: 'full' },
      { name: 'the line breaks before a declaration removed', insert: '', remove: 2, at: source.indexOf('}\n\nfn b') + 1, expect: 'full' },
      { name: 'text at the end of the file after the last declaration', insert: '\n\n', at: source.length, expect: 'statement' },
      { name: 'the closing brace of a body deleted', insert: '', remove: 1, at: source.indexOf('}\n\nfn b'), expect: 'full' },
      { name: 'a space after the closing brace of a body', insert: ' ', at: source.indexOf('}\n\nfn b') + 1, expect: 'statement' },
      {
        name: '`fn` at column 0 inside a body that stays closed (a nested declaration)',
        insert: 'fn inner() {}\n',
        at: source.indexOf('  log(x)'),
        expect: 'statement',
      },
    ];
    for (const c of cases) {
      test(c.name, () => {
        const text = source.slice(0, c.at) + c.insert + source.slice(c.at + (c.remove ?? 0));
        const analysis = HarnAnalysis.edited(new HarnAnalysis(source), text);
        assertSameAsFull(analysis, c.name);
        assert.equal(analysis.reparsed === 'full' ? 'full' : 'statement', c.expect);
      });
    }

    test('typing in a doc comment gives the declaration below it its new doc, as a new object', () => {
      const documented = source.replace('fn b', '/** Bee */\nfn b');
      const previous = new HarnAnalysis(documented);
      const b = previous.file.statements[1];
      const c = previous.file.statements[2];
      const analysis = HarnAnalysis.edited(previous, documented.replace('Bee */', 'Beer */'));
      assertSameAsFull(analysis, 'doc');
      assert.notEqual(analysis.reparsed, 'full');
      assert.notEqual(analysis.file.statements[1], b);
      assert.equal(analysis.file.statements[2], c);
      assert.equal((analysis.file.statements[1] as { doc?: string }).doc, 'Beer');
    });

    test('after a statement that leaves a bracket open, one that treats it differently is left to a full parse', () => {
      const open = source.replace('log(x)', 'log(x');
      const previous = HarnAnalysis.edited(new HarnAnalysis(source), open);
      assert.notEqual(previous.reparsed, 'full', 'nothing is open before the first statement');
      const two = open.replace('let y = 2', 'let y = (2');
      const analysis = HarnAnalysis.edited(previous, two);
      assertSameAsFull(analysis, 'two unbalanced');
      assert.equal(analysis.reparsed, 'full');
      // A balanced edit inside the second one is read alone: it leaves the bracket open before it as it was.
      const typed = HarnAnalysis.edited(analysis, two.replace('let y = (2', 'let y = (2 + f(1)'));
      assertSameAsFull(typed, 'balanced edit in an unbalanced statement');
      assert.notEqual(typed.reparsed, 'full');
      // Closing the first one again: it was unbalanced, nothing was open before it.
      const closed = HarnAnalysis.edited(typed, typed.text.replace('log(x', 'log(x)'));
      assertSameAsFull(closed, 'closed again');
      assert.notEqual(closed.reparsed, 'full');
    });

    test('a `)` that closes a bracket left open by a statement before it is left to a full parse', () => {
      const open = source.replace('log(x)', 'log(x').replace('let y = 2', 'let y = (2');
      const closing = HarnAnalysis.edited(new HarnAnalysis(open), open.replace('let y = (2', 'let y = (2))'));
      assertSameAsFull(closing, 'closing a bracket opened before');
      assert.equal(closing.reparsed, 'full');
    });

    test('a diagnostic the edited statement gave past its end (at the end of the file) goes with it', () => {
      // Found by a long random session: the last statement's `Unexpected end of file` was kept as another's.
      const broken = 'pipeline p(task) {\n  let r = f(\n    1,\n  println(x == nil)\n  println(y == nil)\n}\n';
      const analysis = HarnAnalysis.edited(new HarnAnalysis(broken), broken.replace('println(x', 'println(}x'));
      assertSameAsFull(analysis, 'end of file');
    });

    test('a skill without a body keeps its bodyStart of 0 when shifted', () => {
      const text = 'fn a() {\n  log(1)\n}\n\nskill deploy\n  description "x"\n';
      const analysis = HarnAnalysis.edited(new HarnAnalysis(text), text.replace('log(1)', 'log(12)'));
      assert.notEqual(analysis.reparsed, 'full');
      assertSameAsFull(analysis, 'skill');
    });

    test('a statement that stands for a method of the interface its parse began as is left to a full parse', () => {
      // Found by a long random session: the parse of `interface` fails in a method and gives the method back.
      const text = 'let a = 1\ninterface P {\n  fn process(self) -> str(ing\n}\n';
      const previous = new HarnAnalysis(text);
      assert.equal(previous.file.statements[1]?.kind, 'FnDecl');
      const analysis = HarnAnalysis.edited(previous, text.replace('str(', 'strz('));
      assertSameAsFull(analysis, 'partial method');
    });

    test('a declaration at column 0 that closes a block left open stays at column 0', () => {
      const open = 'fn a() {\n  let x = 1\n\nfn b() {\n  log(2)\n}\n';
      const analysis = HarnAnalysis.edited(new HarnAnalysis(open), open.replace('\nfn b', '\n fn b'));
      assertSameAsFull(analysis, 'column 0');
      assert.equal(analysis.reparsed, 'full');
      assert.equal(analysis.file.statements.length, 1);
    });

    test('reuses the statements around the edited one, shifting those after it', () => {
      const previous = new HarnAnalysis(source);
      const [a, b, c] = previous.file.statements;
      const [scopeA, scopeB, scopeC] = previous.scopes.root.children;
      const text = source.slice(0, inBody) + 'zz' + source.slice(inBody);
      const analysis = HarnAnalysis.edited(previous, text);
      // The scopes of the reused statements are reused too (shifted), the edited one's built again.
      const [scopeA2, scopeB2, scopeC2] = analysis.scopes.root.children;
      assert.notEqual(scopeA2, scopeA);
      assert.equal(scopeB2, scopeB);
      assert.equal(scopeC2, scopeC);
      assert.equal(scopeB2?.start, source.indexOf('fn b') + 2);
      assert.deepEqual(analysis.reparsed, { from: 0, to: source.indexOf('}\n\nfn b') + 3 });
      const [a2, b2, c2] = analysis.file.statements;
      assert.notEqual(a2, a);
      assert.equal(b2, b);
      assert.equal(c2, c);
      assert.equal(b2?.start, source.indexOf('fn b') + 2);
      assertSameAsFull(analysis, 'shifted');
    });

    test('requotes the position in a lexer message after the edit', () => {
      const broken = source.replace('return 3', 'return 3 ¤');
      const text = broken.slice(0, inBody) + '\n\n' + broken.slice(inBody);
      const analysis = HarnAnalysis.edited(new HarnAnalysis(broken), text);
      assert.notEqual(analysis.reparsed, 'full');
      assert.match(analysis.parsed.diagnostics[0]?.message ?? '', /at 13:12/);
      assertSameAsFull(analysis, 'requoted');
    });
  });

  test('HarnWorkspace.analysisOf reads each new version of an open document from the one before', () => {
    const source = 'fn a() {\n  log(1)\n}\n\nfn b() {\n  log(2)\n}\n';
    let doc: OpenDocument = { uri: 'file:///ws/main.harn', version: 1, getText: () => source };
    const workspace = new HarnWorkspace({ get: (uri) => (uri === doc.uri ? doc : undefined) }, () => ['/ws']);
    const first = workspace.analysisOf(doc);
    assert.equal(first.reparsed, 'full');
    assert.equal(workspace.analysisOf(doc), first, 'the same version is analysed once');
    const b = first.file.statements[1];
    const text = source.replace('log(1)', 'log(1, 2)');
    doc = { uri: doc.uri, version: 2, getText: () => text };
    const second = workspace.analysisOf(doc);
    assert.deepEqual(second.reparsed, { from: 0, to: source.indexOf('}') + 4 });
    assert.equal(second.file.statements[1], b);
    assertSameAsFull(second, 'workspace');
  });
});
