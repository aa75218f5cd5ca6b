// Decoding a file's bytes as UTF-8 the way every reader here does (WHATWG: each ill-formed sequence becomes one
// U+FFFD; a BOM is kept as U+FEFF), and saying where the ill-formed sequences were: their UTF-16 offsets in the
// decoded text, so that a diagnostic sits on the U+FFFD the editor shows, and their bytes. Pure: bytes in.

/** A run of adjacent ill-formed sequences: [start, end) in the decoded text (one U+FFFD each), and their bytes. */
export interface InvalidUtf8 {
  start: number;
  end: number;
  byteOffset: number;
  bytes: Uint8Array;
}

export interface DecodedText {
  text: string;
  /** Empty when the bytes are valid UTF-8. */
  invalid: InvalidUtf8[];
}

const lossy = new TextDecoder('utf-8', { ignoreBOM: true });
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { text: strict.decode(bytes), invalid: [] };
  } catch {
    return { text: lossy.decode(bytes), invalid: invalidSequences(bytes) };
  }
}

/** The ill-formed sequences as the WHATWG decoder finds them (maximal subparts), merged into adjacent runs. */
export function invalidSequences(bytes: Uint8Array): InvalidUtf8[] {
  const runs: InvalidUtf8[] = [];
  const n = bytes.length;
  let i = 0;
  let out = 0; // UTF-16 units written so far
  const error = (from: number, to: number): void => {
    const last = runs.at(-1);
    if (last !== undefined && last.end === out && last.byteOffset + last.bytes.length === from) {
      last.end = out + 1;
      last.bytes = bytes.subarray(last.byteOffset, to);
    } else {
      runs.push({ start: out, end: out + 1, byteOffset: from, bytes: bytes.subarray(from, to) });
    }
    out++;
  };
  while (i < n) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      out++;
      continue;
    }
    let need: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else {
      error(i, i + 1);
      i++;
      continue;
    }
    let j = i + 1;
    let seen = 0;
    while (seen < need) {
      const c = bytes[j];
      // A missing or unexpected byte ends the sequence there; that byte is read again as the start of the next.
      if (c === undefined || c < lower || c > upper) break;
      lower = 0x80;
      upper = 0xbf;
      j++;
      seen++;
    }
    if (seen < need) error(i, j);
    else out += need === 3 ? 2 : 1;
    i = j;
  }
  return runs;
}

/** `e9 41`: bytes as hex, at most `max` of them. */
export function hexBytes(bytes: Uint8Array, max = 8): string {
  const shown = Array.from(bytes.subarray(0, max), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > max ? `${shown} …` : shown;
}

/** Runs of U+FFFD in a text (where an editor decoded bytes that were not UTF-8), as [start, end) offsets. */
export function replacementRuns(text: string): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  for (let at = text.indexOf('\ufffd'); at !== -1; at = text.indexOf('\ufffd', at)) {
    const start = at;
    while (text.charCodeAt(at) === 0xfffd) at++;
    runs.push({ start, end: at });
  }
  return runs;
}
