// The LSP base protocol's framing on stdin, checked before vscode-jsonrpc reads it. Its reader, given a header
// block without a usable Content-Length, reports an error nobody listens to and leaves the body in its buffer,
// where it is read as the next header block: every later message is lost and the server is alive but silent for
// good. Here a bad header block is logged and skipped, and so is everything up to the next `Content-Length:`, so
// that the next well-formed message is answered. Well-formed messages pass through byte for byte.

import { Transform, TransformCallback } from 'node:stream';

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = 'content-length:';
/** A header block longer than this without its blank line is not a header (the base protocol's are tiny). */
const MAX_HEADER_BYTES = 64 * 1024;

/** What the scanner found in what it was given: whole messages (header and body) and problems, in order. */
export interface FrameScan {
  frames: Buffer[];
  problems: string[];
}

/**
 * Splits a byte stream into LSP messages (`Content-Length: N\r\n…\r\n\r\n` + N bytes). Pure but for its buffer:
 * bytes in, frames and problems out. After a bad header block it skips to the next `Content-Length:` it sees.
 */
export class LspFrameScanner {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The length of the current message (header and body) once its header is read. */
  private frameLength: number | undefined;
  private resyncing = false;

  push(chunk: Buffer): FrameScan {
    const out: FrameScan = { frames: [], problems: [] };
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.size += chunk.length;
    }
    for (;;) {
      if (this.frameLength !== undefined) {
        if (this.size < this.frameLength) return out;
        out.frames.push(this.take(this.frameLength));
        this.frameLength = undefined;
        continue;
      }
      const head = this.peek(Math.min(this.size, MAX_HEADER_BYTES + HEADER_END.length));
      if (this.resyncing) {
        const at = head.toString('latin1').toLowerCase().indexOf(CONTENT_LENGTH);
        if (at < 0) {
          // Keep a tail that may be the start of a split `Content-Length:`.
          this.take(Math.max(0, head.length - (CONTENT_LENGTH.length - 1)));
          return out;
        }
        this.take(at);
        this.resyncing = false;
        continue;
      }
      const end = head.indexOf(HEADER_END);
      if (end < 0) {
        if (head.length > MAX_HEADER_BYTES) {
          out.problems.push(`a message header ran over ${MAX_HEADER_BYTES} bytes without ending; skipped up to the next Content-Length header`);
          this.take(1);
          this.resyncing = true;
          continue;
        }
        return out;
      }
      const block = head.subarray(0, end).toString('latin1');
      const length = contentLength(block);
      if (typeof length === 'number') {
        this.frameLength = end + HEADER_END.length + length;
        continue;
      }
      out.problems.push(`a message header ${length} (${JSON.stringify(block.slice(0, 200))}); skipped it and its body, up to the next Content-Length header`);
      this.take(end + HEADER_END.length);
      this.resyncing = true;
    }
  }

  /** The first `n` bytes, without consuming them. */
  private peek(n: number): Buffer {
    const first = this.chunks[0];
    if (first !== undefined && first.length >= n) return first.subarray(0, n);
    const joined = Buffer.concat(this.chunks, this.size);
    this.chunks = [joined];
    return joined.subarray(0, n);
  }

  /** Removes and returns the first `n` bytes. */
  private take(n: number): Buffer {
    const all = this.peek(this.size);
    // Chunks from a stream are never reused by it, so a view of them is safe to hand on.
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    return taken;
  }
}

/** The Content-Length of a header block (lines `Name: value`), or why there is none usable. */
function contentLength(block: string): number | string {
  let value: string | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) return 'with a line that is no `Name: value`';
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') value = line.slice(colon + 1).trim();
  }
  if (value === undefined) return 'without Content-Length';
  if (!/^\d{1,15}$/.test(value)) return `whose Content-Length ${JSON.stringify(value.slice(0, 40))} is no number of bytes`;
  return Number(value);
}

/** stdin as vscode-jsonrpc should read it: only well-formed messages; every framing problem goes to `report`. */
export class FramedInput extends Transform {
  private readonly scanner = new LspFrameScanner();

  constructor(private readonly report: (problem: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const { frames, problems } = this.scanner.push(chunk);
    for (const problem of problems) this.report(problem);
    for (const frame of frames) this.push(frame);
    done();
  }
}
