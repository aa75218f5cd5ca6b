// Re-indexing a file from its previous index (indexFile's `previous`): after every edit of a random sequence, each
// applied by HarnAnalysis.edited to the previous step's analysis, the incremental index gives exactly what indexing
// the text from scratch gives (occurrences in source order, declarations, symbols, exports, imports); and the
// statements an edit inside a function body leaves alone are really taken from the previous index, not walked.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { allOccurrences, FileIndex, indexFile, nameSet, occurrenceAt } from '../../server/src/harn/index/fileIndex';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { applyEdit as apply, edit, Edit, generatedFile } from '../support/harnEdits';
import { prng } from '../support/random';

const FILE = '/ws/main.harn';

/** Everything a query can read from a file's index. */
function answers(index: FileIndex): unknown {
  return {
    occurrences: allOccurrences(index),
    names: nameSet(index),
    declarations: index.declarations,
    symbols: index.symbols,
    exports: [...index.exports],
    wildcardImports: index.wildcardImports,
    pubWildcardImports: index.pubWildcardImports,
    importPaths: index.importPaths,
  };
}

function assertSameAsFromScratch(index: FileIndex, analysis: HarnAnalysis, label: string): void {
  const fresh = indexFile(FILE, new HarnAnalysis(analysis.text));
  assert.deepStrictEqual(answers(index), answers(fresh), label);
  // The lookup by offset too (it searches the packed table), at every occurrence's edges.
  for (const o of allOccurrences(fresh)) {
    assert.deepStrictEqual(occurrenceAt(index, o.start), occurrenceAt(fresh, o.start), `${label}: occurrenceAt ${o.start}`);
    assert.deepStrictEqual(occurrenceAt(index, o.end), occurrenceAt(fresh, o.end), `${label}: occurrenceAt ${o.end}`);
  }
}

/** Runs the edits from `source`, checking every step; returns how many steps reused statements, and how many were incremental parses. */
function runSequence(source: string, edits: readonly Edit[]): { reusing: number; incremental: number } {
  let analysis = new HarnAnalysis(source);
  let index = indexFile(FILE, analysis, { reusable: true });
  let reusing = 0;
  let incremental = 0;
  edits.forEach((e, step) => {
    analysis = HarnAnalysis.edited(analysis, apply(analysis, e));
    index = indexFile(FILE, analysis, { previous: index });
    if (analysis.reparsed !== 'full') incremental++;
    if (index.reusedStatements > 0) reusing++;
    assertSameAsFromScratch(index, analysis, `step ${step} (${JSON.stringify(e)})`);
  });
  return { reusing, incremental };
}

describe('harn index: re-indexing from the previous index', () => {
  test('equals indexing from scratch after every edit of a sequence, on generated files', (t) => {
    let steps = 0;
    let reusing = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.array(edit, { minLength: 1, maxLength: 10 }), (seed, edits) => {
        steps += edits.length;
        reusing += runSequence(generatedFile(seed, 8), edits).reusing;
      }),
      { numRuns: 120 },
    );
    t.diagnostic(`statements reused in ${reusing} of ${steps} steps`);
    // The comparison covered the reusing path, not only full re-indexes.
    assert.ok(reusing >= steps * 0.3, `statements reused in ${reusing} of ${steps} steps`);
  });

  test('equals indexing from scratch after every edit of a sequence, on corpus files', { skip: corpusSkip }, (t) => {
    const sources = corpusFiles()
      .map(readCorpus)
      .filter((s) => s.length < 60_000);
    let steps = 0;
    let reusing = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: sources.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 6 }), (i, edits) => {
        steps += edits.length;
        reusing += runSequence(sources[i] as string, edits).reusing;
      }),
      { numRuns: 200 },
    );
    t.diagnostic(`statements reused in ${reusing} of ${steps} steps`);
    assert.ok(reusing >= steps * 0.1, `statements reused in ${reusing} of ${steps} steps`);
  });

  test('typing inside a function body walks that function only: every other statement comes from the previous index', () => {
    for (let seed = 0; seed < 20; seed++) {
      const rng = prng(seed);
      let analysis = new HarnAnalysis(generatedFile(seed, 10));
      let index = indexFile(FILE, analysis, { reusable: true });
      const count = analysis.file.statements.length;
      const bodies = analysis.file.statements.flatMap((s) => (s.kind === 'FnDecl' && s.body ? [s.body] : []));
      const body = bodies[Math.floor(rng() * bodies.length)];
      assert.ok(body);
      let cursor = analysis.text.indexOf('\n', body.start) + 1;
      let incremental = 0;
      for (const key of [...'let w = v + 1\n  log(w)\n']) {
        const text = analysis.text;
        analysis = HarnAnalysis.edited(analysis, text.slice(0, cursor) + key + text.slice(cursor));
        cursor += 1;
        index = indexFile(FILE, analysis, { previous: index });
        assert.equal(analysis.file.statements.length, count);
        if (analysis.reparsed !== 'full') {
          incremental++;
          assert.equal(index.reusedStatements, count - 1, `seed ${seed}: after typing ${JSON.stringify(key)}`);
        }
        assertSameAsFromScratch(index, analysis, `seed ${seed}: after typing ${JSON.stringify(key)}`);
      }
      assert.ok(incremental > 15, `seed ${seed}: ${incremental} incremental parses`);
    }
  });

  test('an index several edits back (the server re-indexes lazily): every statement no edit touched comes from it', () => {
    let incremental = 0;
    for (let seed = 0; seed < 10; seed++) {
      const first = new HarnAnalysis(generatedFile(seed, 10));
      const previous = indexFile(FILE, first, { reusable: true });
      const count = first.file.statements.length;
      // A character typed into the first and into the last function body (statement counts stay), then re-indexed once.
      const bodies = first.file.statements.flatMap((s) => (s.kind === 'FnDecl' && s.body ? [s.body] : []));
      const targets = [bodies[0], bodies[bodies.length - 1]];
      let analysis = first;
      for (const body of targets.reverse()) {
        assert.ok(body);
        const at = analysis.text.indexOf('\n', body.start) + 1;
        analysis = HarnAnalysis.edited(analysis, `${analysis.text.slice(0, at)}log(1)\n${analysis.text.slice(at)}`);
      }
      const index = indexFile(FILE, analysis, { previous });
      if (analysis.reparsed !== 'full') {
        incremental++;
        const touched = analysis.file.statements.filter((s, i) => s !== first.file.statements[i]).length;
        assert.ok(touched >= 1 && touched <= 2, `seed ${seed}: ${touched} statements touched`);
        assert.equal(index.reusedStatements, count - touched, `seed ${seed}`);
      }
      assertSameAsFromScratch(index, analysis, `seed ${seed}`);
    }
    assert.ok(incremental >= 8, `${incremental} of 10 seeds re-parsed the last edit alone`);
  });

  test('a new top-level name invalidates what the other statements contributed (they may refer to it now)', () => {
    const before = 'fn a() {\n  helper(LIMIT)\n}\n';
    const first = new HarnAnalysis(before);
    const previous = indexFile(FILE, first, { reusable: true });
    // The same statement object, followed by a new declaration of a name it mentions (as an edit reusing it would give).
    const text = `${before}fn helper(x) {}\n`;
    const reparsed = new HarnAnalysis(text);
    const statements = [first.file.statements[0] as (typeof first.file.statements)[number], ...reparsed.file.statements.slice(1)];
    const parsed = { ...reparsed.parsed, file: { ...reparsed.file, statements } };
    const analysis = new HarnAnalysis(text, { lineIndex: reparsed.lineIndex, parsed, reparsed: { from: before.length, to: text.length } });
    const index = indexFile(FILE, analysis, { previous });
    assert.equal(index.reusedStatements, 0);
    assertSameAsFromScratch(index, analysis, 'a new top-level name');
    const call = allOccurrences(index).find((o) => o.name === 'helper' && !o.write);
    assert.deepEqual(call?.ref, { kind: 'local', declStart: text.indexOf('helper(x)') });
  });

  test("another file's index, or one not made reusable, is not reused", () => {
    const analysis = new HarnAnalysis(generatedFile(1, 3));
    const reusable = indexFile(FILE, analysis, { reusable: true });
    assert.equal(indexFile(FILE, analysis, { previous: reusable }).reusedStatements, analysis.file.statements.length);
    assert.equal(indexFile('/ws/other.harn', analysis, { previous: reusable }).reusedStatements, 0);
    assert.equal(indexFile(FILE, analysis, { previous: indexFile(FILE, analysis) }).reusedStatements, 0);
  });
});
