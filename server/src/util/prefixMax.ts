// Searches over the prefixes of a list of numbers, for the formatter's broken-file pass (which once scanned
// every item for every token): "the last item starting at or before this offset" and "the items starting
// before here that reach past there" in logarithmic time, for any order of the values.

/** Each value replaced by the largest of it and those before it: a non-decreasing array. */
export function runningMax(values: readonly number[]): number[] {
  const out: number[] = [];
  let max = -Infinity;
  for (const v of values) {
    if (v > max) max = v;
    out.push(max);
  }
  return out;
}

/** The last index whose value is at most `x` in a non-decreasing array, or -1. */
export function lastAtMost(sorted: readonly number[], x: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] ?? Infinity) <= x) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

/**
 * Values by index, each taken out once it is found: take(last, x) answers every index in [0, last] whose value is
 * at least `x` and removes them, so a sequence of queries costs O((n + found) log n) in all.
 */
export class TakeAtLeast {
  private readonly size: number;
  /** A binary tree of maxima: node k has children 2k and 2k+1, the leaves start at `size`. */
  private readonly max: number[];

  constructor(values: readonly number[]) {
    let size = 1;
    while (size < values.length) size *= 2;
    this.size = size;
    this.max = new Array<number>(2 * size).fill(-Infinity);
    values.forEach((v, i) => (this.max[size + i] = v));
    for (let k = size - 1; k >= 1; k--) this.max[k] = Math.max(this.max[2 * k] ?? -Infinity, this.max[2 * k + 1] ?? -Infinity);
  }

  take(last: number, x: number): number[] {
    const found: number[] = [];
    if (last >= 0) this.collect(1, 0, this.size - 1, Math.min(last, this.size - 1), x, found);
    for (const i of found) {
      let k = this.size + i;
      this.max[k] = -Infinity;
      for (k >>= 1; k >= 1; k >>= 1) this.max[k] = Math.max(this.max[2 * k] ?? -Infinity, this.max[2 * k + 1] ?? -Infinity);
    }
    return found;
  }

  /** Depth is log2(size): recursion is safe. */
  private collect(node: number, from: number, to: number, last: number, x: number, found: number[]): void {
    if (from > last || (this.max[node] ?? -Infinity) < x) return;
    if (from === to) {
      found.push(from);
      return;
    }
    const mid = (from + to) >> 1;
    this.collect(2 * node, from, mid, last, x, found);
    this.collect(2 * node + 1, mid + 1, to, last, x, found);
  }
}
