// How deep a JSON text nests, found before anything parses it. Harn reads its artifacts with serde_json, whose
// recursion limit refuses the 128th nested array or object ("recursion limit exceeded"); jsonc-parser and every
// walk over a parsed value recurse once per level, so a few kilobytes of `[` would overflow the stack. A text
// that reaches the limit is reported where it does and never parsed. Pure.

/** serde_json's recursion limit: the `[` or `{` that would be the 128th level open is refused. */
export const JSON_NESTING_LIMIT = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * The offset of the `[` or `{` (outside strings) that opens level `limit` of a JSON text, where serde_json stops
 * with "recursion limit exceeded"; -1 when the text never nests that deep. Iterative and linear in the text;
 * one with fewer than `limit` brackets in all (nearly every row) costs two native scans. The text need not be
 * valid JSON: an unterminated string ends the scan, a stray closer never takes the depth below 0.
 */
export function jsonNestingLimitAt(text: string, limit = JSON_NESTING_LIMIT): number {
  if (!hasBrackets(text, limit)) return -1;
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return -1;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth >= limit) return i;
    } else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth > 0) {
      depth--;
    }
  }
  return -1;
}

/** Whether the text holds at least `count` opening brackets (`[` and `{`, strings included). */
function hasBrackets(text: string, count: number): boolean {
  let seen = 0;
  for (const opener of ['[', '{']) {
    for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at + 1)) {
      if (++seen >= count) return true;
    }
  }
  return false;
}

/** The offset of the quote closing the string opened at `open`, or -1 when it is not closed. */
function stringEnd(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    // Escaped when an odd number of backslashes precede it.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** The message of a text refused at the limit: what Harn does with it, and what to do. */
export function nestingLimitMessage(what: string): string {
  return (
    `JSON nesting limit (${JSON_NESTING_LIMIT}) exceeded here: Harn reads ${what} with serde_json, which refuses arrays and ` +
    `objects nested ${JSON_NESTING_LIMIT} deep ("recursion limit exceeded"), so it cannot read it. Flatten the value, or store it as a JSON string.`
  );
}
