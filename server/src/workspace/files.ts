// Reading files from disk: the one module every read of a workspace file goes through, in the server and the CLI.
//
// A file is opened with O_RDONLY | O_NONBLOCK, so that opening a FIFO never blocks (nor holds one of libuv's pool
// threads for good), and then checked through its descriptor (fstat): anything that is not a regular file — a
// FIFO, a folder, a socket, a device — is refused with a reason ("is a FIFO, not a regular file") and never read.
// Callers turn a refusal into a diagnostic (a configured or referenced path) or an I/O error (a path named on the
// command line). O_NONBLOCK changes nothing for a regular file. `noFollow` adds O_NOFOLLOW, for callers that
// resolved the path themselves (a final symbolic link is then refused, never followed).
//
// Streaming: a byte consumer is a generator that asks for data (ReadRequest) and gets it back from `next`; the
// same consumer runs over a file synchronously (the CLI), over a file asynchronously, yielding to other work
// between chunks and stopping on cancellation (the server), or over bytes in memory. Consumers stay pure.
// A consumer that is refused or cancelled is simply dropped (consumers hold no resources: no `finally` in them).
// Nothing here throws for a file that cannot be read: every answer is a result or a refusal.

import { constants as bufferConstants } from 'node:buffer';
import * as fs from 'node:fs';

/** Why a file is not read. */
export interface Refusal {
  ok: false;
  path: string;
  /** `missing`: no such file; `not_regular`: a FIFO, folder, socket, device or (noFollow) symbolic link. */
  code: 'missing' | 'not_regular' | 'too_large' | 'unreadable';
  /** Ends a sentence about the path: "is a FIFO, not a regular file", "does not exist", "cannot be read (EACCES)". */
  reason: string;
}

/** "PATH is a FIFO, not a regular file". */
export function refusalMessage(refusal: Refusal, shownPath: string = refusal.path): string {
  return `${shownPath} ${refusal.reason}`;
}

export interface FileInfo {
  size: number;
  mtimeMs: number;
}

export interface OpenOptions {
  /** Refuse a final symbolic link instead of following it (O_NOFOLLOW). */
  noFollow?: boolean;
}

export interface ReadOptions extends OpenOptions {
  /** Refuse a file longer than this (default: the longest Buffer, or for text the longest string). */
  maxBytes?: number;
}

/** What fstat/stat say a file is, for the kinds that are refused (undefined for a regular file). */
export interface KindStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
}

/** Why a file is not read ("is a FIFO, not a regular file"), or undefined for a regular file. */
export function notRegularReason(stats: KindStats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return 'is a FIFO, not a regular file';
  if (stats.isDirectory()) return 'is a directory, not a regular file';
  if (stats.isSocket()) return 'is a socket, not a regular file';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'is a device, not a regular file';
  if (stats.isSymbolicLink()) return 'is a symbolic link, not a regular file';
  return 'is not a regular file';
}

const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function flags(options: OpenOptions): number {
  return fs.constants.O_RDONLY | O_NONBLOCK | (options.noFollow ? O_NOFOLLOW : 0);
}

function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** A refusal for an error of open/stat/read. */
function fromError(path: string, error: unknown, options: OpenOptions = {}): Refusal {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, path, code: 'missing', reason: 'does not exist' };
  if (code === 'ELOOP' && options.noFollow) return { ok: false, path, code: 'not_regular', reason: 'is a symbolic link, not a regular file' };
  if (code === 'EISDIR') return { ok: false, path, code: 'not_regular', reason: 'is a directory, not a regular file' };
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return { ok: false, path, code: 'unreadable', reason: `cannot be read (${detail})` };
}

/** Why open(2) failed: for a socket (ENXIO) and the like, what the path is rather than the errno. */
function openFailure(path: string, error: unknown, options: OpenOptions): Refusal {
  const refusal = fromError(path, error, options);
  if (refusal.code !== 'unreadable') return refusal;
  try {
    const stats = options.noFollow ? fs.lstatSync(path) : fs.statSync(path);
    const reason = notRegularReason(stats);
    if (reason !== undefined) return { ok: false, path, code: 'not_regular', reason };
  } catch {
    // The errno then says it best.
  }
  return refusal;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Nothing useful to do: the descriptor is gone either way.
  }
}

export interface OpenedFile extends FileInfo {
  ok: true;
  fd: number;
}

/** Opens a regular file for reading (never blocking on a FIFO), or says why not. Close `fd` with fs.closeSync. */
export function openFileSync(path: string, options: OpenOptions = {}): OpenedFile | Refusal {
  let fd: number;
  try {
    fd = fs.openSync(path, flags(options));
  } catch (error) {
    return openFailure(path, error, options);
  }
  try {
    const stats = fs.fstatSync(fd);
    const reason = notRegularReason(stats);
    if (reason !== undefined) {
      closeQuietly(fd);
      return { ok: false, path, code: 'not_regular', reason };
    }
    return { ok: true, fd, size: stats.size, mtimeMs: stats.mtimeMs };
  } catch (error) {
    closeQuietly(fd);
    return fromError(path, error, options);
  }
}

/** stat (following links) without opening: a regular file's size and mtime, or why it is not one. */
export function regularFileInfo(path: string): (FileInfo & { ok: true }) | Refusal {
  try {
    const stats = fs.statSync(path);
    const reason = notRegularReason(stats);
    if (reason !== undefined) return { ok: false, path, code: 'not_regular', reason };
    return { ok: true, size: stats.size, mtimeMs: stats.mtimeMs };
  } catch (error) {
    return fromError(path, error);
  }
}

/** Whether a path is a regular file (following links); never opens it. */
export function isRegularFile(path: string): boolean {
  return regularFileInfo(path).ok;
}

function tooLarge(path: string, size: number, maxBytes: number): Refusal {
  return { ok: false, path, code: 'too_large', reason: `is too large to read whole (${size} bytes, over ${maxBytes})` };
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
function readAtSync(fd: number, target: Buffer, position: number): number {
  let read = 0;
  while (read < target.length) {
    const n = fs.readSync(fd, target, read, target.length - read, position + read);
    if (n <= 0) break;
    read += n;
  }
  return read;
}

/** A whole regular file's bytes. */
export function readFileBytesSync(path: string, options: ReadOptions = {}): ({ ok: true; bytes: Buffer } & FileInfo) | Refusal {
  const opened = openFileSync(path, options);
  if (!opened.ok) return opened;
  try {
    const maxBytes = options.maxBytes ?? bufferConstants.MAX_LENGTH;
    if (opened.size > maxBytes) return tooLarge(path, opened.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    // Read to the end, not to the size fstat gave: the file may grow meanwhile (bounded by maxBytes).
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(64 * 1024, Math.min(opened.size - total, 1 << 24)));
      const n = readAtSync(opened.fd, chunk, total);
      if (n > 0) chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) return tooLarge(path, total, maxBytes);
      if (n < chunk.length) break;
    }
    return { ok: true, bytes: chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, total), size: total, mtimeMs: opened.mtimeMs };
  } catch (error) {
    return fromError(path, error, options);
  } finally {
    closeQuietly(opened.fd);
  }
}

/** The first `maxBytes` bytes of a regular file (all of it when shorter). */
export function readFileHeadSync(path: string, maxBytes: number, options: OpenOptions = {}): ({ ok: true; bytes: Buffer } & FileInfo) | Refusal {
  const opened = openFileSync(path, options);
  if (!opened.ok) return opened;
  try {
    const bytes = Buffer.allocUnsafe(Math.max(0, Math.min(maxBytes, opened.size)));
    const n = readAtSync(opened.fd, bytes, 0);
    return { ok: true, bytes: bytes.subarray(0, n), size: opened.size, mtimeMs: opened.mtimeMs };
  } catch (error) {
    return fromError(path, error, options);
  } finally {
    closeQuietly(opened.fd);
  }
}

/** A whole regular file as text (UTF-8, invalid bytes as U+FFFD, a BOM kept: as fs.readFileSync(path, 'utf8')). */
export function readFileTextSync(path: string, options: ReadOptions = {}): ({ ok: true; text: string } & FileInfo) | Refusal {
  const read = readFileBytesSync(path, { ...options, maxBytes: Math.min(options.maxBytes ?? Infinity, bufferConstants.MAX_STRING_LENGTH) });
  if (!read.ok) return read;
  return { ok: true, text: read.bytes.toString('utf8'), size: read.size, mtimeMs: read.mtimeMs };
}

// ---------------------------------------------------------------------------------------------------------------
// Streaming.

/** What a byte consumer asks for: the next chunk of the file, or a range of it again (a long line). */
export type ReadRequest = { read: 'next' } | { read: 'range'; start: number; length: number };

/**
 * A consumer of a file's bytes. Each `yield` asks for data and receives it: a chunk (valid only until the next
 * request: the reader reuses its buffer) or the range asked for (fewer bytes at the end of the file);
 * `undefined` means there is no more (the end, or a read error, which the driver reports): the consumer then
 * returns its result without asking again.
 */
export type ByteConsumer<R> = Generator<ReadRequest, R, Uint8Array | undefined>;

export const CHUNK_BYTES = 1 << 20;
/**
 * Chunks read asynchronously are smaller: each one is a slice of the event loop (its lines validated or hashed
 * before other work runs), so a quarter of a megabyte keeps a slice to a few milliseconds.
 */
export const ASYNC_CHUNK_BYTES = 1 << 18;

export interface Consumed<R> extends FileInfo {
  ok: true;
  value: R;
  /** Set when a read failed midway (the consumer saw the end there). */
  readError?: string;
}

export interface StreamOptions extends OpenOptions {
  chunkBytes?: number;
}

/** Runs a consumer over bytes in memory (chunks of `chunkBytes`, ranges as views). */
export function consumeBytes<R>(bytes: Uint8Array, consumer: ByteConsumer<R>, chunkBytes: number = bytes.length): R {
  let position = 0;
  const step = Math.max(1, chunkBytes);
  let answer: Uint8Array | undefined;
  for (;;) {
    const request = consumer.next(answer);
    if (request.done) return request.value;
    if (request.value.read === 'next') {
      answer = position < bytes.length ? bytes.subarray(position, Math.min(bytes.length, position + step)) : undefined;
      if (answer) position += answer.length;
    } else {
      const { start, length } = request.value;
      answer = bytes.subarray(Math.min(start, bytes.length), Math.min(bytes.length, start + length));
    }
  }
}

/**
 * What the file drivers (consumeFileSync, consumeFile) keep while a consumer runs over a file: where the next chunk
 * starts, the answer to its last request, and a read's failure, after which every request is answered with the end
 * (the consumer then returns). Each driver only reads what `next()` asks and hands the bytes or the error back.
 */
class FileConsumption<R> {
  /** Where the next chunk starts. */
  position = 0;
  private answer: Uint8Array | undefined;
  private readError: string | undefined;

  constructor(
    private readonly path: string,
    private readonly consumer: ByteConsumer<R>,
    private readonly info: FileInfo,
  ) {}

  /** The consumer's next request, or its result once it returns. */
  next(): { done: false; request: ReadRequest } | { done: true; result: Consumed<R> } {
    for (;;) {
      const request = this.consumer.next(this.answer);
      if (request.done) {
        const result: Consumed<R> = { ok: true, value: request.value, size: this.info.size, mtimeMs: this.info.mtimeMs };
        if (this.readError !== undefined) result.readError = this.readError;
        return { done: true, result };
      }
      this.answer = undefined;
      if (this.readError === undefined) return { done: false, request: request.value };
    }
  }

  /** The bytes read for a `next` request at `position` (none: the end). */
  chunk(bytes: Uint8Array): void {
    this.position += bytes.length;
    if (bytes.length > 0) this.answer = bytes;
  }

  /** The bytes read for a `range` request (fewer at the end of the file). */
  range(bytes: Uint8Array): void {
    this.answer = bytes;
  }

  failed(error: unknown): void {
    this.readError = fromError(this.path, error).reason;
  }
}

/** Runs a consumer over a regular file, synchronously. */
export function consumeFileSync<R>(path: string, consumer: ByteConsumer<R>, options: StreamOptions = {}): Consumed<R> | Refusal {
  const opened = openFileSync(path, options);
  if (!opened.ok) return opened;
  const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const run = new FileConsumption(path, consumer, opened);
  try {
    for (;;) {
      const step = run.next();
      if (step.done) return step.result;
      const { request } = step;
      try {
        if (request.read === 'next') {
          run.chunk(buffer.subarray(0, fs.readSync(opened.fd, buffer, 0, chunkBytes, run.position)));
        } else {
          const range = Buffer.allocUnsafe(Math.max(0, request.length));
          run.range(range.subarray(0, readAtSync(opened.fd, range, request.start)));
        }
      } catch (error) {
        run.failed(error);
      }
    }
  } finally {
    closeQuietly(opened.fd);
  }
}

/** Cancellation as the LSP's token offers it. */
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
}

export interface AsyncStreamOptions extends StreamOptions {
  token?: CancellationLike;
}

export interface Cancelled {
  ok: false;
  cancelled: true;
}

/** Lets other work (requests, edits, cancellations) run. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function openFileAsync(path: string, options: OpenOptions): Promise<({ ok: true; handle: fs.promises.FileHandle } & FileInfo) | Refusal> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(path, flags(options));
  } catch (error) {
    return openFailure(path, error, options);
  }
  try {
    const stats = await handle.stat();
    const reason = notRegularReason(stats);
    if (reason === undefined) return { ok: true, handle, size: stats.size, mtimeMs: stats.mtimeMs };
    await handle.close().catch(() => undefined);
    return { ok: false, path, code: 'not_regular', reason };
  } catch (error) {
    await handle.close().catch(() => undefined);
    return fromError(path, error, options);
  }
}

async function readAt(handle: fs.promises.FileHandle, target: Buffer, position: number): Promise<number> {
  let read = 0;
  while (read < target.length) {
    const { bytesRead } = await handle.read(target, read, target.length - read, position + read);
    if (bytesRead <= 0) break;
    read += bytesRead;
  }
  return read;
}

/**
 * Runs a consumer over a regular file without blocking the event loop: reads are asynchronous, and after each
 * chunk other work runs before the next. Stops (and closes the file) as soon as `token` is cancelled.
 */
export async function consumeFile<R>(path: string, consumer: ByteConsumer<R>, options: AsyncStreamOptions = {}): Promise<Consumed<R> | Refusal | Cancelled> {
  const opened = await openFileAsync(path, options);
  if (!opened.ok) return opened;
  const { handle } = opened;
  const chunkBytes = Math.max(1, options.chunkBytes ?? ASYNC_CHUNK_BYTES);
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const run = new FileConsumption(path, consumer, opened);
  try {
    for (;;) {
      if (options.token?.isCancellationRequested) return { ok: false, cancelled: true };
      const step = run.next();
      if (step.done) return step.result;
      const { request } = step;
      try {
        if (request.read === 'next') {
          await yieldToEventLoop();
          const { bytesRead } = await handle.read(buffer, 0, chunkBytes, run.position);
          run.chunk(buffer.subarray(0, bytesRead));
        } else {
          const range = Buffer.allocUnsafe(Math.max(0, request.length));
          run.range(range.subarray(0, await readAt(handle, range, request.start)));
        }
      } catch (error) {
        run.failed(error);
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** A whole regular file's bytes, read asynchronously (see readFileBytesSync). */
export async function readFileBytes(
  path: string,
  options: ReadOptions & { token?: CancellationLike } = {},
): Promise<({ ok: true; bytes: Buffer } & FileInfo) | Refusal | Cancelled> {
  const maxBytes = Math.min(options.maxBytes ?? Infinity, bufferConstants.MAX_LENGTH);
  function* collect(): ByteConsumer<Buffer | Refusal> {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = yield { read: 'next' };
      if (chunk === undefined) return Buffer.concat(chunks, total);
      total += chunk.length;
      if (total > maxBytes) return tooLarge(path, total, maxBytes);
      chunks.push(Buffer.from(chunk));
    }
  }
  const read = await consumeFile(path, collect(), options);
  if (!read.ok) return read;
  if (read.readError !== undefined) return { ok: false, path, code: 'unreadable', reason: read.readError };
  if (!Buffer.isBuffer(read.value)) return read.value;
  return { ok: true, bytes: read.value, size: read.size, mtimeMs: read.mtimeMs };
}

/** A whole regular file as text, read asynchronously (see readFileTextSync). */
export async function readFileText(
  path: string,
  options: ReadOptions & { token?: CancellationLike } = {},
): Promise<({ ok: true; text: string } & FileInfo) | Refusal | Cancelled> {
  const read = await readFileBytes(path, { ...options, maxBytes: Math.min(options.maxBytes ?? Infinity, bufferConstants.MAX_STRING_LENGTH) });
  if (!read.ok) return read;
  return { ok: true, text: read.bytes.toString('utf8'), size: read.size, mtimeMs: read.mtimeMs };
}
