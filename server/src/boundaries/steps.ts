// Long work of the gate (parsing a registry, scanning files, evaluating the rules) written once, as a
// generator that yields between small steps: the CLI runs it to the end at once (runSteps), the language
// server runs it in slices between requests (features/slices.ts), and drops it when a newer run
// supersedes it. Pure: a yield carries nothing and the steps read nothing but their inputs.

/** Work that yields (nothing) between steps and returns a T. */
export type Steps<T> = Generator<void, T, void>;

/** How many small steps (entries, sites, findings) to take between two yields (about a tenth of a millisecond). */
export const STEP_BATCH = 32;

/** Runs the steps to the end, at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Counts steps and says when `batch` of them have passed (then: yield). */
export class StepCounter {
  private n = 0;
  constructor(private readonly batch = STEP_BATCH) {}
  tick(): boolean {
    return ++this.n % this.batch === 0;
  }
}
