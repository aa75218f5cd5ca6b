// The LSP fuzzer seeds each step of a run apart, so that one step can be replayed alone: the steps of a run must
// differ whatever the run's seed (the default seed is any 32-bit number).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepSeed } from '../support/lspFuzz';

test('every step of a run has its own seed, for small and large run seeds alike', () => {
  for (const seed of [0, 1, 42, 1_502_197_350, 0xffff_ffff]) {
    const seeds = new Set(Array.from({ length: 1000 }, (_, step) => stepSeed(seed, step)));
    assert.equal(seeds.size, 1000, `run seed ${seed}`);
    for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 0 && s < 2 ** 32);
  }
  // A step's seed depends on the run's seed and the step only (a failure file replays it).
  assert.equal(stepSeed(1_502_197_350, 7), stepSeed(1_502_197_350, 7));
});
