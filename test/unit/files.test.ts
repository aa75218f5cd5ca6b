// workspace/files.ts, the one module every read of a workspace file goes through: a FIFO, a folder, a socket or a
// device is refused with its reason and never read (opening a FIFO must not block: the synchronous readers run in
// a child with a timeout, so a regression fails instead of hanging the suite); O_NOFOLLOW refuses a final link;
// the byte consumers see the same bytes synchronously, asynchronously and in memory, and stop on cancellation.

import assert from 'node:assert/strict';
import { constants } from 'node:buffer';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  consumeBytes,
  consumeFile,
  consumeFileSync,
  readFileBytesSync,
  readFileText,
  readFileTextSync,
  regularFileInfo,
  type ByteConsumer,
} from '../../server/src/workspace/files';
import { FIFO_SKIP, mkfifo, runTypeScript } from '../support/hostileFiles';

const FILES_MODULE = path.resolve(__dirname, '..', '..', 'server', 'src', 'workspace', 'files.ts');

const FIFO = 'is a FIFO, not a regular file';
const DIRECTORY = 'is a directory, not a regular file';
const SOCKET = 'is a socket, not a regular file';
const DEVICE = 'is a device, not a regular file';
const LINK = 'is a symbolic link, not a regular file';

describe('workspace/files: only regular files are read', { skip: FIFO_SKIP }, () => {
  let dir: string;
  let server: net.Server;
  const at = (name: string): string => path.join(dir, name);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-files-'));
    fs.writeFileSync(at('regular.txt'), 'hello\n');
    mkfifo(at('pipe'));
    fs.mkdirSync(at('folder'));
    fs.symlinkSync(at('regular.txt'), at('link'));
    fs.symlinkSync(at('pipe'), at('link-to-pipe'));
    server = net.createServer();
    await new Promise<void>((resolve) => server.listen(at('socket'), resolve));
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every synchronous reader refuses a FIFO, a folder, a socket and a device with its reason, without blocking', () => {
    // In a child with a timeout: a blocking open of the FIFO would hang it, not this suite.
    const results = runTypeScript<Record<string, string[]>>(
      dir,
      `import * as files from ${JSON.stringify(FILES_MODULE)};
const out: Record<string, string[]> = {};
const reason = (r: { ok: boolean; reason?: string }): string => (r.ok ? 'read' : (r.reason ?? '?'));
function* drain(): files.ByteConsumer<number> {
  let n = 0;
  for (let c = yield { read: 'next' }; c !== undefined; c = yield { read: 'next' }) n += c.length;
  return n;
}
for (const name of ['pipe', 'folder', 'socket', '/dev/null', '/dev/zero', 'link-to-pipe', 'missing']) {
  const p = name.startsWith('/') ? name : ${JSON.stringify(dir)} + '/' + name;
  const opened = files.openFileSync(p);
  if (opened.ok) require('node:fs').closeSync(opened.fd);
  out[name] = [
    reason(opened),
    reason(files.readFileTextSync(p)),
    reason(files.readFileBytesSync(p)),
    reason(files.readFileHeadSync(p, 10)),
    reason(files.consumeFileSync(p, drain())),
    reason(files.regularFileInfo(p)),
    String(files.isRegularFile(p)),
  ];
}
console.log(JSON.stringify(out));
`,
    );
    const each = (reason: string): string[] => [reason, reason, reason, reason, reason, reason, 'false'];
    assert.deepEqual(results, {
      pipe: each(FIFO),
      folder: each(DIRECTORY),
      socket: each(SOCKET),
      '/dev/null': each(DEVICE),
      '/dev/zero': each(DEVICE),
      'link-to-pipe': each(FIFO),
      missing: each('does not exist'),
    });
  });

  test('the asynchronous readers refuse them too, and never hold a thread on the FIFO', { timeout: 20_000 }, async () => {
    for (const [name, reason] of [
      ['pipe', FIFO],
      ['folder', DIRECTORY],
      ['socket', SOCKET],
    ] as const) {
      const text = await readFileText(at(name));
      assert.deepEqual(text, { ok: false, path: at(name), code: 'not_regular', reason }, name);
      const consumed = await consumeFile(at(name), drain());
      assert.deepEqual(consumed, { ok: false, path: at(name), code: 'not_regular', reason }, name);
    }
    // libuv has 4 pool threads: a blocking open of the FIFO would take one for good, 5 of them every one.
    const many = await Promise.all(Array.from({ length: 8 }, () => readFileText(at('pipe'))));
    assert.ok(many.every((r) => !r.ok && 'reason' in r && r.reason === FIFO));
    assert.deepEqual(await readFileText(at('regular.txt')), { ok: true, text: 'hello\n', size: 6, mtimeMs: fs.statSync(at('regular.txt')).mtimeMs });
  });

  test('noFollow refuses a final symbolic link; by default it is followed', () => {
    assert.deepEqual(readFileTextSync(at('link'), { noFollow: true }), { ok: false, path: at('link'), code: 'not_regular', reason: LINK });
    const followed = readFileTextSync(at('link'));
    assert.ok(followed.ok && followed.text === 'hello\n');
  });

  test('a regular file is read whole, within maxBytes; its size and mtime come from the same descriptor', () => {
    const stat = fs.statSync(at('regular.txt'));
    assert.deepEqual(readFileTextSync(at('regular.txt')), { ok: true, text: 'hello\n', size: 6, mtimeMs: stat.mtimeMs });
    assert.deepEqual(readFileBytesSync(at('regular.txt'), { maxBytes: 4 }), {
      ok: false,
      path: at('regular.txt'),
      code: 'too_large',
      reason: 'is too large to read whole (6 bytes, over 4)',
    });
    assert.deepEqual(regularFileInfo(at('regular.txt')), { ok: true, size: 6, mtimeMs: stat.mtimeMs });
  });
});

/** Counts the bytes of every chunk. */
function* drain(): ByteConsumer<number> {
  let n = 0;
  for (let chunk = yield { read: 'next' }; chunk !== undefined; chunk = yield { read: 'next' }) n += chunk.length;
  return n;
}

/** Copies every chunk (they are only valid until the next request), then reads two ranges again. */
function* copyThenRanges(ranges: [number, number][]): ByteConsumer<{ whole: string; ranges: string[]; chunks: number }> {
  const parts: Buffer[] = [];
  let chunks = 0;
  for (let chunk = yield { read: 'next' }; chunk !== undefined; chunk = yield { read: 'next' }) {
    parts.push(Buffer.from(chunk));
    chunks++;
  }
  const again: string[] = [];
  for (const [start, length] of ranges) {
    const bytes = yield { read: 'range', start, length };
    again.push(bytes === undefined ? '<none>' : Buffer.from(bytes).toString());
  }
  return { whole: Buffer.concat(parts).toString(), ranges: again, chunks };
}

describe('workspace/files: byte consumers', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-consume-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the same bytes and ranges from a file (sync and async) and from memory; a range past the end is cut', async () => {
    const text = 'abcdefghijklmnopqrstuvwxyz';
    const file = path.join(dir, 'letters.txt');
    fs.writeFileSync(file, text);
    const ranges: [number, number][] = [
      [3, 4],
      [24, 10],
      [40, 2],
    ];
    const expected = { whole: text, ranges: ['defg', 'yz', ''], chunks: 4 };
    const sync = consumeFileSync(file, copyThenRanges(ranges), { chunkBytes: 7 });
    assert.ok(sync.ok);
    assert.deepEqual(sync.value, expected);
    const async = await consumeFile(file, copyThenRanges(ranges), { chunkBytes: 7 });
    assert.ok(async.ok);
    assert.deepEqual(async.value, expected);
    assert.deepEqual(consumeBytes(Buffer.from(text), copyThenRanges(ranges), 7), expected);
  });

  test('a cancelled token stops the asynchronous reader between chunks', async () => {
    const file = path.join(dir, 'big.bin');
    fs.writeFileSync(file, Buffer.alloc(64 * 1024));
    const token = { isCancellationRequested: false };
    let seen = 0;
    function* cancelAfterTwo(): ByteConsumer<number> {
      for (let chunk = yield { read: 'next' }; chunk !== undefined; chunk = yield { read: 'next' }) {
        if (++seen === 2) token.isCancellationRequested = true;
      }
      return seen;
    }
    assert.deepEqual(await consumeFile(file, cancelAfterTwo(), { chunkBytes: 1024, token }), { ok: false, cancelled: true });
    assert.equal(seen, 2);
    const whole = await consumeFile(file, drain(), { chunkBytes: 1024 });
    assert.ok(whole.ok && whole.value === 64 * 1024);
  });

  test('a read that fails midway: the consumer sees the end there, nothing more is read, the result says why (sync and async)', async () => {
    const file = path.join(dir, 'failing.txt');
    fs.writeFileSync(file, 'abcdefgh');
    // A chunk, then a range longer than any buffer (its read fails), then asking on after the end was seen.
    function* failingRange(): ByteConsumer<string[]> {
      const seen: string[] = [];
      const chunk = yield { read: 'next' };
      seen.push(chunk === undefined ? 'end' : Buffer.from(chunk).toString());
      for (const request of [
        { read: 'range', start: 0, length: constants.MAX_LENGTH + 1 },
        { read: 'next' },
        { read: 'range', start: 0, length: 2 },
      ] as const) {
        const answer = yield request;
        seen.push(answer === undefined ? 'end' : Buffer.from(answer).toString());
      }
      return seen;
    }
    const expected = ['abcd', 'end', 'end', 'end'];
    const sync = consumeFileSync(file, failingRange(), { chunkBytes: 4 });
    assert.ok(sync.ok);
    assert.deepEqual(sync.value, expected);
    assert.match(sync.readError ?? '', /./);
    const async = await consumeFile(file, failingRange(), { chunkBytes: 4 });
    assert.ok(async.ok && !('cancelled' in async));
    assert.deepEqual(async.value, expected);
    assert.match(async.readError ?? '', /./);
    const whole = consumeFileSync(file, drain(), { chunkBytes: 4 });
    assert.ok(whole.ok && whole.value === 8 && whole.readError === undefined);
  });
});
