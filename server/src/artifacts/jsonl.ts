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
// checked. A line over maxLineBytes (harn.artifacts.maxLineBytes, 256 MB by default, never more than the longest
// string V8 can make) is never decoded: it is one `line_too_long` problem, and memory stays flat in its length
// (a line is held in memory only up to 16 MB while it is read; a longer one is read again by its range if it is
// within the limit). Files are read through workspace/files.ts: a FIFO, a folder or a device is refused, never
// opened for a blocking read. Nothing here throws: an unreadable file is an `unreadable_file` problem.

import { constants as bufferConstants } from 'node:buffer';
import {
  CHUNK_BYTES,
  consumeBytes,
  consumeFile,
  consumeFileSync,
  readFileHeadSync,
  refusalMessage,
  type ByteConsumer,
  type CancellationLike,
  type Consumed,
  type ReadRequest,
  type Refusal,
} from '../workspace/files';
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
  /** Why the file was not read at all ("PATH is a FIFO, not a regular file"); its `unreadable_file` problem says so too. */
  refused?: string;
}

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

/** The longest line decoded by default (harn.artifacts.maxLineBytes): longer ones are `line_too_long`. */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;
/** No line longer than this can be decoded at all (V8's longest string): the setting's upper bound. */
export const MAX_LINE_BYTES_LIMIT = bufferConstants.MAX_STRING_LENGTH;
/**
 * Bytes of one line held in memory while it is read. A longer line is only measured on the way, then read again
 * by its byte range if it is within the limit: memory stays flat in the line's length until then.
 */
const HOLD_BYTES = 16 * 1024 * 1024;

/** Called for a line that is not read (over maxLineBytes); return `false` to stop reading. */
export type UnreadLineVisitor = (line: number, byteOffset: number, byteLength: number) => void | boolean;

export interface LineReadOptions {
  /** Lines longer than this (in bytes, line break excluded) are not decoded: one `line_too_long` each. */
  maxLineBytes?: number;
  /** Called in line order for each line over maxLineBytes (the lines that `visit` does not see). */
  unread?: UnreadLineVisitor;
}

export function effectiveMaxLineBytes(maxLineBytes: number | undefined): number {
  return Math.max(0, Math.min(maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_LIMIT));
}

/**
 * Visits every line of a file (by path) or a Buffer, decoding each line as UTF-8 on its own (see the header).
 * Returns the byte-offset line index and the reading problems. Never throws (a visitor that throws excepted).
 * A file that is not a regular file (a FIFO, a folder, a device) is not read: one `unreadable_file` problem.
 */
export function forEachLine(source: Buffer | string, visit: ByteLineVisitor, options: LineReadOptions = {}): ByteLineScan {
  if (typeof source !== 'string') return consumeBytes(source, lineScanner(visit, options), CHUNK_BYTES);
  return scanResult(source, consumeFileSync(source, lineScanner(visit, options)));
}

/** forEachLine over a file, read asynchronously in chunks with other work in between; undefined once cancelled. */
export async function forEachLineAsync(
  path: string,
  visit: ByteLineVisitor,
  options: LineReadOptions & { token?: CancellationLike } = {},
): Promise<ByteLineScan | undefined> {
  const read = await consumeFile(path, lineScanner(visit, options), { token: options.token });
  if (!read.ok && 'cancelled' in read) return undefined;
  return scanResult(path, read);
}

function scanResult(path: string, read: Consumed<ByteLineScan> | Refusal): ByteLineScan {
  if (!read.ok) return unreadable(refusalMessage(read));
  const scan = read.value;
  if (read.readError !== undefined) {
    scan.complete = false;
    scan.problems.push(unreadableProblem(`${path} ${read.readError}`, Math.max(0, scan.lineCount - 1)));
  }
  return scan;
}

function unreadableProblem(what: string, line: number): ArtifactProblem {
  return {
    line,
    startCharacter: 0,
    endLine: line,
    endCharacter: 0,
    code: 'unreadable_file',
    severity: 'error',
    message: `${what}.`,
  };
}

function unreadable(what: string): ByteLineScan {
  return {
    lineCount: 0,
    endsWithNewline: true,
    bom: false,
    complete: false,
    problems: [unreadableProblem(what, 0)],
    index: { lineStarts: [], byteLength: 0 },
    refused: what,
  };
}

/** `line_too_long` on a line that is not read (`byteOffset` where it starts in the file, when read from one). */
export function lineTooLongProblem(line: number, byteOffset: number | undefined, byteLength: number, maxLineBytes: number): ArtifactProblem {
  return {
    line,
    startCharacter: 0,
    endLine: line,
    endCharacter: 0,
    code: 'line_too_long',
    severity: 'error',
    message:
      `This line is ${byteLength} bytes long, over the limit of ${maxLineBytes} bytes (harn.artifacts.maxLineBytes): ` +
      'it is not read, so its row is not checked.',
    data: byteOffset === undefined ? { byteLength, maxLineBytes } : { byteOffset, byteLength, maxLineBytes },
  };
}

/**
 * The line splitter, as a byte consumer (workspace/files.ts). A chunk is only valid until the next request (the
 * file reader reuses its buffer), so the part of a line that spans chunks is copied — up to HOLD_BYTES; a longer
 * line is measured, then read again by its range when it is within maxLineBytes, and otherwise not read at all.
 */
function* lineScanner(visit: ByteLineVisitor, options: LineReadOptions): ByteConsumer<ByteLineScan> {
  const maxLineBytes = effectiveMaxLineBytes(options.maxLineBytes);
  // ignoreBOM: a BOM at the start of a later line (files concatenated) is kept, so that the line is reported
  // (`utf8_bom`) and its positions count it, as in the editor; the decoder would drop it at every decode call.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const problems: ArtifactProblem[] = [];
  const lineStarts: number[] = [];
  let line = 0;
  let base = 0; // absolute offset of chunk[0]
  let lineStart = 0; // absolute offset of the current line's first byte
  let pending: Uint8Array[] = []; // the current line's bytes from earlier chunks (copies), while it is held
  let pendingBytes = 0; // the current line's bytes from earlier chunks, held or not
  let held = true; // false once the current line outgrew HOLD_BYTES
  let skipLf = false; // the previous chunk ended with \r: a \n first in this chunk belongs to that break
  let first = true;
  let bom = false;
  let endsWithNewline = true;
  let stopped = false;
  let ended = false; // the reader said there is no more (the end, or a read error)

  // Emits the line ending at chunk[end] (exclusive); false to stop.
  function* emit(chunk: Uint8Array, start: number, end: number): Generator<ReadRequest, boolean, Uint8Array | undefined> {
    const length = pendingBytes + end - start;
    const at = lineStart;
    const number = line++;
    lineStarts.push(at);
    let bytes: Uint8Array;
    if (length > maxLineBytes) {
      bytes = EMPTY;
    } else if (!held) {
      const again = yield { read: 'range', start: at, length };
      if (again === undefined) {
        ended = true;
        return false;
      }
      bytes = again;
    } else if (pendingBytes > 0) {
      pending.push(chunk.subarray(start, end));
      bytes = Buffer.concat(pending, length);
    } else {
      bytes = chunk.subarray(start, end);
    }
    pending = [];
    pendingBytes = 0;
    held = true;
    if (length > maxLineBytes) {
      problems.push(lineTooLongProblem(number, at, length, maxLineBytes));
      return options.unread?.(number, at, length) !== false;
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      // Only invalid UTF-8 can fail here: no line within maxLineBytes is longer than the longest string.
      const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      text = view.toString('utf8');
      problems.push(invalidUtf8Problem(view, number, at));
    }
    return visit(text, number, at) !== false;
  }

  for (let chunk = yield { read: 'next' }; chunk !== undefined && !ended; chunk = yield { read: 'next' }) {
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
      if (!(yield* emit(chunk, pos, end))) {
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
      pendingBytes += length - pos;
      if (held && pendingBytes > HOLD_BYTES) {
        held = false;
        pending = [];
      }
      if (held) pending.push(Buffer.from(chunk.subarray(pos)));
    }
    base += length;
  }
  if (!stopped && !ended && pendingBytes > 0) {
    endsWithNewline = false;
    stopped = !(yield* emit(EMPTY, 0, 0));
  }
  return {
    lineCount: line,
    endsWithNewline,
    bom,
    complete: !stopped && !ended,
    problems,
    index: { lineStarts, byteLength: base },
  };
}

const EMPTY = new Uint8Array(0);

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

/** The length of a line read back without its line break (a line's content never holds \r or \n). */
function contentLength(bytes: Uint8Array): number {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === LF) end--;
  if (end > 0 && bytes[end - 1] === CR) end--;
  return end;
}

/** A consumer reading lines back by their byte ranges; lines that do not exist or are over maxLineBytes are left out. */
function* linesReader(index: LineByteIndex, lines: Iterable<number>, maxLineBytes: number | undefined): ByteConsumer<Map<number, string>> {
  const limit = effectiveMaxLineBytes(maxLineBytes);
  const out = new Map<number, string>();
  for (const line of lines) {
    const start = index.lineStarts[line];
    if (line < 0 || start === undefined || out.has(line)) continue;
    const end = index.lineStarts[line + 1] ?? index.byteLength;
    // The range holds the line break: at most 2 bytes more than the line.
    if (end - start > limit + 2) continue;
    const bytes = yield { read: 'range', start, length: end - start };
    if (bytes === undefined) break;
    const length = contentLength(bytes);
    if (length <= limit) out.set(line, Buffer.from(bytes.buffer, bytes.byteOffset, length).toString('utf8'));
  }
  return out;
}

/**
 * The text of one line read back from disk through its byte index (for hover and for narrowing a diagnostic),
 * decoded with U+FFFD replacements and without its line break; undefined when the line does not exist, is over
 * maxLineBytes, or the file cannot be read.
 */
export function readLineAt(file: string, index: LineByteIndex, line: number, maxLineBytes?: number): string | undefined {
  return readLinesAt(file, index, [line], maxLineBytes).get(line);
}

/** Several lines read back through one open descriptor (lines that do not exist, are over maxLineBytes or cannot be read are left out). */
export function readLinesAt(path: string, index: LineByteIndex, lines: Iterable<number>, maxLineBytes?: number): Map<number, string> {
  const read = consumeFileSync(path, linesReader(index, lines, maxLineBytes));
  return read.ok ? read.value : new Map<number, string>();
}

/** readLinesAt, asynchronously (a chunk of other work between lines); undefined once cancelled. */
export async function readLinesAtAsync(
  path: string,
  index: LineByteIndex,
  lines: Iterable<number>,
  options: { maxLineBytes?: number; token?: CancellationLike } = {},
): Promise<Map<number, string> | undefined> {
  const read = await consumeFile(path, linesReader(index, lines, options.maxLineBytes), { token: options.token });
  if (!read.ok) return 'cancelled' in read ? undefined : new Map<number, string>();
  return read.value;
}

/** How much of a file readFirstLines reads at most: kind detection never reads a huge first line whole. */
export const HEAD_BYTES = 1 << 20;

/**
 * The first `count` lines of a file or Buffer (for kind detection), read without reading the rest: at most
 * HEAD_BYTES bytes (a longer line is cut there). A file that is not a regular file gives no lines.
 */
export function readFirstLines(source: Buffer | string, count: number): string[] {
  const lines: string[] = [];
  if (count <= 0) return lines;
  let head: Buffer;
  if (typeof source === 'string') {
    const read = readFileHeadSync(source, HEAD_BYTES);
    if (!read.ok) return lines;
    head = read.bytes;
  } else {
    head = source.subarray(0, HEAD_BYTES);
  }
  forEachLine(head, (text) => {
    lines.push(text);
    return lines.length < count;
  });
  return lines;
}
