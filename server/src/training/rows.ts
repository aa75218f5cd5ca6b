// Where a projector refusal's `event_index` (upstream's 1-based row number) is in a transcript's text.
// Upstream numbers rows over Rust's `str::lines()` (split on "\n", one trailing "\r" dropped) and skips the
// lines that `str::trim` leaves empty. An editor also breaks lines at a lone "\r", so the line returned counts
// those too. A BOM is part of line 0 and is not whitespace to Rust, so a line holding only a BOM is a row.

import { rustTrim } from '../artifacts/runRecord';

/** The 0-based editor line of the `eventIndex`-th (1-based) non-blank row of `text`, or undefined past the end. */
export function lineOfEventIndex(text: string, eventIndex: number): number | undefined {
  if (!Number.isInteger(eventIndex) || eventIndex < 1) return undefined;
  let rows = 0;
  let editorLine = 0;
  let start = 0;
  while (start <= text.length) {
    const lf = text.indexOf('\n', start);
    const end = lf < 0 ? text.length : lf;
    if (lf < 0 && start === text.length) break; // after a final "\n" there is no further Rust line
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const line = text.slice(start, stop);
    if (rustTrim(line) !== '') {
      rows++;
      if (rows === eventIndex) return editorLine;
    }
    // A lone "\r" inside the Rust line is an editor line break of its own.
    for (let cr = line.indexOf('\r'); cr >= 0; cr = line.indexOf('\r', cr + 1)) editorLine++;
    editorLine++;
    if (lf < 0) break;
    start = lf + 1;
  }
  return undefined;
}
