// Seeded fuzzing of the lexer and parser: mutations of corpus files (deletions, duplications,
// insertions of tokens, brackets and quotes, truncations, swaps) and fast-check token soups. For every
// input: no throw, no hang, and every diagnostic, token and AST range inside the text with children
// nested in their parents (see checkParse). test/fuzz/long.ts runs the same mutator for longer.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { checkParse, FRAGMENTS, fuzzCase, mutate, prng, startWatchdog } from '../support/fuzz';

const SEED = 0x5eed_2026;
const MUTATIONS = 100000;

describe('fuzzing the parser', () => {
  test('the mutator is deterministic', () => {
    const sources = [['a.harn', 'pipeline p(task) {\n  let x = f(1, "two")\n}\n']] as const;
    const first = Array.from({ length: 50 }, (_, i) => fuzzCase(SEED + i, sources).text);
    const again = Array.from({ length: 50 }, (_, i) => fuzzCase(SEED + i, sources).text);
    assert.deepEqual(again, first);
    assert.equal(new Set(first).size, 50, 'cases differ from each other');
    assert.deepEqual(mutate('abc', prng(1)), { text: 'abab5sc', operations: ['move line 0 to 0', 'insert "5s" at 2', 'duplicate 2 at 0'] });
  });

  test(`${MUTATIONS} seeded mutations of corpus files`, { skip: corpusSkip }, () => {
    const sources = corpusFiles().map((f) => [f, readCorpus(f)] as const);
    assert.equal(sources.length, 874);
    // No time limit per case (the parser's speed on broken input is the mutated_corpus_vs_corpus
    // benchmark). A hang cannot be caught by a timeout in synchronous code: a watchdog thread names the
    // case and kills the run instead, after a generous 30 s without progress.
    const watchdog = startWatchdog(30000);
    const failures: string[] = [];
    try {
      for (let i = 0; i < MUTATIONS; i++) {
        const seed = SEED + i;
        watchdog.beat(`fuzz.test.ts case seed ${seed} (reproduce: node --import tsx test/fuzz/long.ts 1 --seed ${seed})`);
        const c = fuzzCase(seed, sources);
        const problems = checkParse(c.text, Infinity);
        if (problems.length > 0) {
          failures.push(`seed ${seed} (${c.source}: ${c.operations.join('; ')}): ${problems.slice(0, 3).join(' | ')}`);
          if (failures.length >= 10) break;
        }
      }
    } finally {
      watchdog.stop();
    }
    assert.deepEqual(failures, []);
  });

  test('fast-check: token soups', () => {
    const piece = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...FRAGMENTS) },
      { weight: 2, arbitrary: fc.constantFrom(' ', ' ', '\n', '\t', '') },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
      { weight: 1, arbitrary: fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,6}$/) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 1_000_000 }).map(String) },
    );
    const soup = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(soup, (text) => {
        assert.deepEqual(checkParse(text, Infinity), [], JSON.stringify(text));
      }),
      { seed: SEED, numRuns: 4000 },
    );
  });

  test('fast-check: balanced and unbalanced bracket nests', () => {
    const open = fc.constantFrom('(', '[', '{', '"${', 'f(', 'if x {', 'fn() {', '{ a ->', 'Foo {', 'a < b > (', 'c ? (', 'f<T>(');
    const close = fc.constantFrom(')', ']', '}', '}"', '', '\n');
    const nest = fc
      .tuple(fc.array(open, { maxLength: 200, size: 'max' }), fc.array(close, { maxLength: 200, size: 'max' }), fc.constantFrom('x', '1', '', 'a.', 'let'))
      .map(([opens, closes, middle]) => opens.join(' ') + middle + closes.join(' '));
    fc.assert(
      fc.property(nest, (text) => {
        assert.deepEqual(checkParse(text, Infinity), [], JSON.stringify(text));
      }),
      { seed: SEED + 1, numRuns: 1500 },
    );
  });
});
