// The stdin framing check (server/src/features/stdioFraming.ts): well-formed LSP messages pass through byte for
// byte however they are split; a header block without a usable Content-Length is reported and skipped with
// everything up to the next `Content-Length:`, so that the next message is read.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LspFrameScanner } from '../../server/src/features/stdioFraming';

const frame = (body: string, header = `Content-Length: ${Buffer.byteLength(body)}`): string => `${header}\r\n\r\n${body}`;

/** Feeds `input` in chunks of `size` bytes; the frames as text and the problems. */
function scan(input: string, size = Infinity): { frames: string[]; problems: string[] } {
  const scanner = new LspFrameScanner();
  const bytes = Buffer.from(input, 'utf8');
  const frames: string[] = [];
  const problems: string[] = [];
  const step = Number.isFinite(size) ? size : bytes.length || 1;
  for (let i = 0; i < bytes.length; i += step) {
    const out = scanner.push(bytes.subarray(i, i + step));
    frames.push(...out.frames.map((f) => f.toString('utf8')));
    problems.push(...out.problems);
  }
  return { frames, problems };
}

const A = frame('{"jsonrpc":"2.0","id":1,"method":"a","params":{"text":"😀 Content-Length: 3"}}');
const B = frame('{"jsonrpc":"2.0","id":2,"method":"b"}', 'content-length: 37\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8');

describe('LspFrameScanner', () => {
  test('well-formed messages, whole or split at every byte', () => {
    for (const size of [Infinity, 1, 2, 7]) assert.deepEqual(scan(A + B, size), { frames: [A, B], problems: [] }, `chunks of ${size}`);
  });

  test('a header without Content-Length: reported, skipped with its body; the next message is read', () => {
    const lost = '{"jsonrpc":"2.0","id":9,"method":"shutdown"}';
    for (const size of [Infinity, 1, 5]) {
      assert.deepEqual(
        scan(`X-Foo: bar\r\n\r\n${lost}` + B, size),
        {
          frames: [B],
          problems: ['a message header without Content-Length ("X-Foo: bar"); skipped it and its body, up to the next Content-Length header'],
        },
        `chunks of ${size}`,
      );
    }
  });

  test('a Content-Length that is no number, and a header line without a colon', () => {
    assert.deepEqual(scan('Content-Length: 12abc\r\n\r\n{}' + A), {
      frames: [A],
      problems: [
        'a message header whose Content-Length "12abc" is no number of bytes ("Content-Length: 12abc"); skipped it and its body, up to the next Content-Length header',
      ],
    });
    assert.deepEqual(scan('garbage\r\n\r\n' + A), {
      frames: [A],
      problems: ['a message header with a line that is no `Name: value` ("garbage"); skipped it and its body, up to the next Content-Length header'],
    });
  });

  test('bytes that never end a header: reported once they exceed 64 KB, then the next message is read', () => {
    const junk = 'x'.repeat(70 * 1024);
    assert.deepEqual(scan(junk + A, 4096), {
      frames: [A],
      problems: ['a message header ran over 65536 bytes without ending; skipped up to the next Content-Length header'],
    });
  });

  test('an incomplete message waits for the rest', () => {
    const scanner = new LspFrameScanner();
    const bytes = Buffer.from(A, 'utf8');
    assert.deepEqual(scanner.push(bytes.subarray(0, bytes.length - 1)), { frames: [], problems: [] });
    assert.deepEqual(
      scanner.push(bytes.subarray(bytes.length - 1)).frames.map((f) => f.toString('utf8')),
      [A],
    );
  });
});
