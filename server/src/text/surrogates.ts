// UTF-16 surrogate pairs: the two checks, and the two cuts of a string that several modules share (a hover's
// JSON, a tree label, a call hierarchy's detail) so that none keeps half of a character. Pure.

/** The first half of a surrogate pair (U+D800–U+DBFF). */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The second half of a surrogate pair (U+DC00–U+DFFF). */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * `text` cut to at most `max` UTF-16 units, one fewer when the last one kept would be a high surrogate (half of a
 * pair, or a lone one): a prefix of `text` that never ends on a high surrogate once cut. `text` itself when it fits.
 */
export function cutUtf16(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max);
}

/**
 * The longest prefix of `text` with at most `max` code points, counted as the string's iterator (Array.from) counts
 * them: a pair is one, a lone surrogate is one too. `text` itself when it fits.
 */
export function cutCodePoints(text: string, max: number): string {
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) {
    end += isHighSurrogate(text.charCodeAt(end)) && isLowSurrogate(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  return end >= text.length ? text : text.slice(0, end);
}
