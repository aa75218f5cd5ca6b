// ScopeStarts (scope.ts): whether a stretch holds one of a file's scope starts, asked in any order, is what a scan of
// the whole list says (the look-ups go on from the last one, forward or back).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScopeStarts } from '../../server/src/harn/scope';
import { prng } from '../support/random';

test('ScopeStarts.holds answers as a scan of every start, for stretches asked forward, backward and at random', () => {
  const random = prng(7);
  for (let round = 0; round < 200; round++) {
    const sorted = Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 500)).sort((a, b) => a - b);
    const starts = new ScopeStarts(sorted);
    // Mostly in source order, as the walk asks, with jumps back and far ahead.
    let at = 0;
    for (let q = 0; q < 100; q++) {
      const jump = random();
      at = jump < 0.1 ? Math.floor(random() * 500) : jump < 0.2 ? Math.max(0, at - Math.floor(random() * 50)) : at + Math.floor(random() * 8);
      const end = at + Math.floor(random() * 30);
      const expected = sorted.some((s) => at <= s && s <= end);
      assert.equal(starts.holds(at, end), expected, `starts ${JSON.stringify(sorted)}: [${at}, ${end}]`);
    }
  }
});
