// Expand Selection on .harn files (harn/selectionRanges.ts): from the name under the cursor out through the
// AST, each step strictly larger and containing the one before, in a broken file too; comments and string
// text first where the cursor is in them.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { MAX_SELECTION_STEPS, selectionRangesAt } from '../../server/src/harn/selectionRanges';
import { prng } from '../support/random';

const TEXT = `fn broken() {
  let x = )
}

/** Adds. */
pipeline main(task) {
  let total = add(len(task), "a \${task} b")
  log(total)
}
`;

function steps(text: string, needle: string, delta = 0): string[] {
  const at = text.indexOf(needle) + delta;
  return selectionRangesAt(new HarnAnalysis(text), at).map((r) => text.slice(r.start, r.end));
}

describe('selection ranges', () => {
  test('a name inside nested calls, out to the document, after a broken declaration', () => {
    assert.deepEqual(steps(TEXT, 'task),', 1), [
      'task',
      'len(task)',
      'add(len(task), "a ${task} b")',
      'let total = add(len(task), "a ${task} b")',
      'let total = add(len(task), "a ${task} b")\n  log(total)',
      '{\n  let total = add(len(task), "a ${task} b")\n  log(total)\n}',
      'pipeline main(task) {\n  let total = add(len(task), "a ${task} b")\n  log(total)\n}',
      TEXT,
    ]);
  });

  test('in a string: its text, then the literal; in a hole: the expression first', () => {
    const inText = steps(TEXT, ' b")', 1);
    assert.deepEqual(inText.slice(0, 2), ['a ${task} b', '"a ${task} b"']);
    const inHole = steps(TEXT, 'task} b', 1);
    assert.deepEqual(inHole.slice(0, 3), ['task', 'a ${task} b', '"a ${task} b"']);
  });

  test('in a comment: the comment first', () => {
    assert.equal(steps(TEXT, 'Adds', 1)[0], '/** Adds. */');
  });

  test('every chain grows strictly and holds the cursor, at every offset of a mutated file', () => {
    const rng = prng(7);
    for (let round = 0; round < 20; round++) {
      let text = TEXT.replace(/\n/g, round % 2 ? '\r\n' : '\n');
      const at = Math.floor(rng() * text.length);
      text = text.slice(0, at) + ['(', '"', '${', '{', ''][round % 5] + text.slice(at);
      const analysis = new HarnAnalysis(text);
      for (let offset = 0; offset <= text.length; offset++) {
        const ranges = selectionRangesAt(analysis, offset);
        assert.ok(ranges.length > 0, `offset ${offset}`);
        assert.ok(ranges[0] && ranges[0].start <= offset && offset <= ranges[0].end);
        for (let i = 1; i < ranges.length; i++) {
          const [inner, outer] = [ranges[i - 1], ranges[i]];
          assert.ok(
            inner && outer && outer.start <= inner.start && inner.end <= outer.end && outer.end - outer.start > inner.end - inner.start,
            `round ${round} offset ${offset}`,
          );
        }
        assert.deepEqual(ranges.at(-1), { start: 0, end: text.length });
      }
    }
  });

  test('an expression chain as deep as it is long: the innermost steps, then the document, at most MAX_SELECTION_STEPS', () => {
    const text = 'let x = a' + '.b'.repeat(20_000) + '\n';
    const ranges = selectionRangesAt(new HarnAnalysis(text), text.indexOf('a.b') + 1);
    assert.equal(ranges.length, MAX_SELECTION_STEPS);
    assert.equal(text.slice(ranges[0]?.start, ranges[0]?.end), 'a');
    assert.equal(text.slice(ranges[1]?.start, ranges[1]?.end), 'a.b');
    assert.deepEqual(ranges.at(-1), { start: 0, end: text.length });
  });
});
