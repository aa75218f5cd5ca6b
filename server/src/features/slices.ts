// Long work in the server runs in slices: a few milliseconds of steps (boundaries/steps.ts), then a yield
// so that pending messages (hovers, edits, cancellations) are answered in between; dropped as soon as it
// is cancelled (a newer run superseded it).

import { Steps } from '../boundaries/steps';
import { yieldToRequests } from './handler';

/** How long one slice may run before the server answers pending messages. */
export const SLICE_MS = 2;

/** Runs the steps to their end, yielding every SLICE_MS; undefined once `cancelled()` says so at a yield. */
export async function runInSlices<T>(steps: Steps<T>, cancelled: () => boolean, sliceMs = SLICE_MS): Promise<T | undefined> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart < sliceMs) continue;
    await yieldToRequests();
    if (cancelled()) return undefined;
    sliceStart = performance.now();
  }
}
