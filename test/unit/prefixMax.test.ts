import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { lastAtMost, runningMax, TakeAtLeast } from '../../server/src/util/prefixMax';

const values = fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 40 });

describe('prefixMax: the broken-file searches of the formatter', () => {
  test('runningMax then lastAtMost is the scan from the first value while values are at most x', () => {
    fc.assert(
      fc.property(values, fc.integer({ min: -60, max: 60 }), (vs, x) => {
        let scan = -1;
        for (let i = 0; i < vs.length && (vs[i] ?? 0) <= x; i++) scan = i;
        assert.equal(lastAtMost(runningMax(vs), x), scan);
      }),
    );
    assert.deepEqual(runningMax([3, 1, 4, 1, 5]), [3, 3, 4, 4, 5]);
    assert.equal(lastAtMost([], 0), -1);
  });

  test('take(last, x) answers each index up to last with a value ≥ x exactly once, like a scan that skips taken ones', () => {
    const queries = fc.array(fc.tuple(fc.integer({ min: -1, max: 45 }), fc.integer({ min: -60, max: 60 })), { maxLength: 20 });
    fc.assert(
      fc.property(values, queries, (vs, qs) => {
        const tree = new TakeAtLeast(vs);
        const taken = new Set<number>();
        for (const [last, x] of qs) {
          const expected = vs.flatMap((v, i) => (i <= last && v >= x && !taken.has(i) ? [i] : []));
          assert.deepEqual(
            [...tree.take(last, x)].sort((a, b) => a - b),
            expected,
          );
          for (const i of expected) taken.add(i);
        }
      }),
    );
  });
});
