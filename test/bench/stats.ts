// Small helpers shared by the benchmarks: the tests' seeded PRNG (so every run generates the same inputs)
// and order statistics.

/** A deterministic PRNG (mulberry32). */
export { prng as mulberry32 } from '../support/random';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
