// Small helpers shared by the benchmarks: the tests' seeded PRNG (so every run generates the same inputs)
// and order statistics.

import { defined } from '../support/assertions';

/** A deterministic PRNG (mulberry32). */
export { prng as mulberry32 } from '../support/random';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return defined(sorted[Math.floor(sorted.length / 2)], 'the median of no values');
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return defined(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)], `the ${p}th percentile of no values`);
}
