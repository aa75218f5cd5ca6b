// Lines of a JSONL artifact, from text (an open document) or streamed from disk (a Buffer or a file path).
//
// Line breaks are \n, \r\n and a lone \r, as in the LSP specification and VS Code, so line numbers agree with
// the editor's. The empty segment after a final line break is not a line of the artifact (it is where the next
// row will go): it is never visited. A UTF-8 BOM at the very start is reported as information and skipped, so
// line 0's characters are counted as VS Code counts them (it hides the BOM).
//
// Streaming keeps memory at O(lines) (one byte offset per line) plus one line: bytes are read in 1 MB chunks and
// each line is decoded on its own with a fatal UTF-8 decoder. A line that is not valid UTF-8 is reported
// (`invalid_utf8`, at the first bad byte) and then visited decoded with U+FFFD replacements, so its JSON is still
// checked. Nothing here throws: an unreadable file is an `unreadable_file` problem.

import { closeSync, openSync, readSync } from 'node:fs';
import type { ArtifactProblem } from './types';

/** Called once per line; return `false` to stop reading. `byteOffset` is where the line starts in the file. */
export type ByteLineVisitor = (text: string, line: number, byteOffset: number) => void | boolean;

/** Called once per line of a text; `offset` is the UTF-16 offset of the line's first character in the text. */
export type TextLineVisitor = (text: string, line: number, offset: number) => void | boolean;

/**
 * The byte-offset line index of a file: enough to read any one line back from disk (hover, narrowing a
 * diagnostic) without holding the file. Line i spans bytes [lineStarts[i], lineStarts[i + 1]) minus its line
 * break; the last line ends at `byteLength`.
 */
export interface LineByteIndex {
  /** Byte offset of the first byte of each visited line (line 0 starts after a BOM). */
  lineStarts: number[];
  /** Bytes read: the file's length, unless the visitor stopped early. */
  byteLength: number;
}

/** What reading found besides the lines themselves. */
export interface LineScan {
  /** Lines visited. */
  lineCount: number;
  /** True when the last line ended with a line break (or there were no lines). */
  endsWithNewline: boolean;
  /** True when the source started with a UTF-8 BOM (skipped). */
  bom: boolean;
  /** False when the visitor stopped early or the file could not be read to the end. */
  complete: boolean;
  /** `utf8_bom` (information), `invalid_utf8` (error), `unreadable_file` (error). */
  problems: ArtifactProblem[];
}

export interface ByteLineScan extends LineScan {
  index: LineByteIndex;
}

const CHUNK_BYTES = 1 << 20;
const LF = 10;
const CR = 13;

export function bomProblem(): ArtifactProblem {
  return {
    line: 0,
    startCharacter: 0,
    endLine: 0,
    endCharacter: 0,
    code: 'utf8_bom',
    severity: 'information',
    message: 'The file starts with a UTF-8 byte order mark; Harn never writes one. It is skipped.',
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Text.

/**
 * Visits every line of `text` (\n, \r\n or lone \r breaks; a leading BOM skipped and reported; the empty segment
 * after a final break not visited). Offsets are UTF-16 offsets into `text`.
 */
export function forEachTextLine(text: string, visit: TextLineVisitor): LineScan {
  const problems: ArtifactProblem[] = [];
  let pos = 0;
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) {
    pos = 1;
    problems.push(bomProblem());
  }
  const length = text.length;
  let line = 0;
  let endsWithNewline = true;
  let nextLf = text.indexOf('\n', pos);
  let nextCr = text.indexOf('\r', pos);
  while (pos < length) {
    let end: number;
    let breakLength: number;
    if (nextCr !== -1 && (nextLf === -1 || nextCr < nextLf)) {
      end = nextCr;
      breakLength = text.charCodeAt(nextCr + 1) === LF ? 2 : 1;
    } else if (nextLf !== -1) {
      end = nextLf;
      breakLength = 1;
    } else {
      end = length;
      breakLength = 0;
      endsWithNewline = false;
    }
    if (visit(text.slice(pos, end), line, pos) === false) {
      return { lineCount: line + 1, endsWithNewline, bom, complete: false, problems };
    }
    line++;
    pos = end + breakLength;
    if (nextLf !== -1 && nextLf < pos) nextLf = text.indexOf('\n', pos);
    if (nextCr !== -1 && nextCr < pos) nextCr = text.indexOf('\r', pos);
  }
  return { lineCount: line, endsWithNewline, bom, complete: true, problems };
}

/** The lines of `text` (see forEachTextLine), without the BOM. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  forEachTextLine(text, (line) => {
    lines.push(line);
  });
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------
// Bytes.

/** A source of chunks: the next one, or undefined at the end. */
type ChunkReader = () => Buffer | undefined;

/**
 * Visits every line of a file (by path) or a Buffer, decoding each line as UTF-8 on its own (see the header).
 * Returns the byte-offset line index and the reading problems. Never throws (a visitor that throws excepted).
 */
export function forEachLine(source: Buffer | string, visit: ByteLineVisitor): ByteLineScan {
  if (typeof source !== 'string') {
    let done = false;
    return scanChunks(() => {
      if (done) return undefined;
      done = true;
      return source;
    }, visit);
  }
  let fd: number;
  try {
    fd = openSync(source, 'r');
  } catch (error) {
    return unreadable(source, error);
  }
  let readError: unknown;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    const scan = scanChunks(() => {
      try {
        const n = readSync(fd, buffer, 0, CHUNK_BYTES, null);
        return n > 0 ? buffer.subarray(0, n) : undefined;
      } catch (error) {
        readError = error;
        return undefined;
      }
    }, visit);
    if (readError !== undefined) {
      scan.complete = false;
      scan.problems.push(unreadableProblem(source, readError, Math.max(0, scan.lineCount - 1)));
    }
    return scan;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing useful to do: the lines were read.
    }
  }
}

function unreadableProblem(path: string, error: unknown, line: number): ArtifactProblem {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    line,
    startCharacter: 0,
    endLine: line,
    endCharacter: 0,
    code: 'unreadable_file',
    severity: 'error',
    message: `Cannot read ${path}: ${reason}`,
  };
}

function unreadable(path: string, error: unknown): ByteLineScan {
  return {
    lineCount: 0,
    endsWithNewline: true,
    bom: false,
    complete: false,
    problems: [unreadableProblem(path, error, 0)],
    index: { lineStarts: [], byteLength: 0 },
  };
}

/**
 * The line splitter over chunks. A chunk returned by `next` is only valid until the next call (the file reader
 * reuses its buffer), so the part of a line that spans chunks is copied.
 */
function scanChunks(next: ChunkReader, visit: ByteLineVisitor): ByteLineScan {
  // ignoreBOM: a BOM at the start of a later line (files concatenated) is kept, so that the line is reported
  // (`utf8_bom`) and its positions count it, as in the editor; the decoder would drop it at every decode call.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const problems: ArtifactProblem[] = [];
  const lineStarts: number[] = [];
  let line = 0;
  let base = 0; // absolute offset of chunk[0]
  let lineStart = 0; // absolute offset of the current line's first byte
  let pending: Buffer[] = []; // the current line's bytes from earlier chunks (copies)
  let pendingBytes = 0;
  let skipLf = false; // the previous chunk ended with \r: a \n first in this chunk belongs to that break
  let first = true;
  let bom = false;
  let endsWithNewline = true;
  let stopped = false;

  const emit = (chunk: Buffer, start: number, end: number): boolean => {
    let bytes: Buffer;
    if (pendingBytes > 0) {
      pending.push(chunk.subarray(start, end));
      bytes = Buffer.concat(pending, pendingBytes + end - start);
      pending = [];
      pendingBytes = 0;
    } else {
      bytes = chunk.subarray(start, end);
    }
    lineStarts.push(lineStart);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      text = bytes.toString('utf8');
      problems.push(invalidUtf8Problem(bytes, line, lineStart));
    }
    const keepGoing = visit(text, line, lineStart) !== false;
    line++;
    return keepGoing;
  };

  for (let chunk = next(); chunk !== undefined; chunk = next()) {
    const length = chunk.length;
    if (length === 0) continue;
    let pos = 0;
    if (first) {
      first = false;
      if (length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        bom = true;
        pos = 3;
        lineStart = 3;
        problems.push(bomProblem());
      }
    }
    if (skipLf) {
      skipLf = false;
      if (chunk[0] === LF) {
        pos = 1;
        lineStart = base + 1;
      }
    }
    let nextLf = chunk.indexOf(LF, pos);
    let nextCr = chunk.indexOf(CR, pos);
    for (;;) {
      let end: number;
      let breakLength: number;
      if (nextCr !== -1 && (nextLf === -1 || nextCr < nextLf)) {
        end = nextCr;
        if (nextCr + 1 < length) {
          breakLength = chunk[nextCr + 1] === LF ? 2 : 1;
        } else {
          breakLength = 1;
          skipLf = true;
        }
      } else if (nextLf !== -1) {
        end = nextLf;
        breakLength = 1;
      } else {
        break;
      }
      if (!emit(chunk, pos, end)) {
        stopped = true;
        break;
      }
      pos = end + breakLength;
      lineStart = base + pos;
      if (nextLf !== -1 && nextLf < pos) nextLf = chunk.indexOf(LF, pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = chunk.indexOf(CR, pos);
    }
    if (stopped) {
      base += pos;
      break;
    }
    if (pos < length) {
      pending.push(Buffer.from(chunk.subarray(pos)));
      pendingBytes += length - pos;
    }
    base += length;
  }
  if (!stopped && pendingBytes > 0) {
    endsWithNewline = false;
    const empty = Buffer.alloc(0);
    stopped = !emit(empty, 0, 0);
  }
  return {
    lineCount: line,
    endsWithNewline,
    bom,
    complete: !stopped,
    problems,
    index: { lineStarts, byteLength: base },
  };
}

/** `invalid_utf8` at the first bad byte of the line, in UTF-16 characters of its lossy decoding. */
function invalidUtf8Problem(bytes: Buffer, line: number, lineStart: number): ArtifactProblem {
  const bad = firstInvalidUtf8(bytes);
  const at = bad < 0 ? 0 : bad;
  const character = bytes.toString('utf8', 0, at).length;
  const shown = Array.from(bytes.subarray(at, Math.min(at + 4, bytes.length)), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return {
    line,
    startCharacter: character,
    endLine: line,
    endCharacter: character + 1,
    code: 'invalid_utf8',
    severity: 'error',
    message:
      `Invalid UTF-8 at byte ${at} of the line (file offset ${lineStart + at}: ${shown || 'end of line'}); ` +
      'the line is read with U+FFFD replacements. Harn rejects the whole transcript (invalid_utf8).',
    data: { byteOffset: lineStart + at },
  };
}

/** Index of the first byte that starts an ill-formed UTF-8 sequence, or -1 (RFC 3629 rules). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] ?? 0; // i < n: always a byte
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number; // lowest allowed second byte
    let max: number; // highest allowed second byte
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
      max = 0xbf;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = b === 0xe0 ? 0xa0 : 0x80;
      max = b === 0xed ? 0x9f : 0xbf;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = b === 0xf0 ? 0x90 : 0x80;
      max = b === 0xf4 ? 0x8f : 0xbf;
    } else {
      return i;
    }
    if (i + need >= n) return i; // truncated sequence
    const second = bytes[i + 1] ?? 0; // i + need < n: present (0 would be rejected anyway)
    if (second < min || second > max) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k] ?? 0;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading lines back.

/**
 * The text of one line read back from disk through its byte index (for hover and for narrowing a diagnostic),
 * decoded with U+FFFD replacements and without its line break; undefined when the line does not exist or the
 * file cannot be read. `fd` may be an open descriptor (to read many lines) or a path.
 */
export function readLineAt(file: string | number, index: LineByteIndex, line: number): string | undefined {
  const start = index.lineStarts[line];
  if (line < 0 || start === undefined) return undefined;
  const end = index.lineStarts[line + 1] ?? index.byteLength;
  let fd: number;
  try {
    fd = typeof file === 'number' ? file : openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const bytes = Buffer.allocUnsafe(end - start);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, start + read);
      if (n <= 0) break;
      read += n;
    }
    // A line's content never holds \r or \n, so trailing ones are its line break.
    let contentEnd = read;
    if (contentEnd > 0 && bytes[contentEnd - 1] === LF) contentEnd--;
    if (contentEnd > 0 && bytes[contentEnd - 1] === CR) contentEnd--;
    return bytes.toString('utf8', 0, contentEnd);
  } catch {
    return undefined;
  } finally {
    if (typeof file !== 'number') {
      try {
        closeSync(fd);
      } catch {
        // ignore
      }
    }
  }
}

/** Several lines read back through one open descriptor (lines that do not exist or cannot be read are left out). */
export function readLinesAt(path: string, index: LineByteIndex, lines: Iterable<number>): Map<number, string> {
  const out = new Map<number, string>();
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return out;
  }
  try {
    for (const line of lines) {
      const text = readLineAt(fd, index, line);
      if (text !== undefined) out.set(line, text);
    }
  } finally {
    try {
      closeSync(fd);
    } catch {
      // ignore
    }
  }
  return out;
}

/** The first `count` lines of a file or Buffer (for kind detection), read without reading the rest. */
export function readFirstLines(source: Buffer | string, count: number): string[] {
  const lines: string[] = [];
  if (count <= 0) return lines;
  forEachLine(source, (text) => {
    lines.push(text);
    return lines.length < count;
  });
  return lines;
}
