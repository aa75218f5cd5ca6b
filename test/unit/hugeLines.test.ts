// Huge lines in run artifacts: a line over maxLineBytes is one `line_too_long` (never decoded, never a misreported
// "string too long"), the lines around it are still read, a line longer than what is held in memory but within the
// limit is read again by its byte range, and the run record's transcript facts hash every byte while the rows stop
// at the unread line. Big inputs are generated here (sparse files of NULs, or streamed writes) and deleted.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DEFAULT_MAX_LINE_BYTES,
  effectiveMaxLineBytes,
  forEachLine,
  forEachLineAsync,
  HEAD_BYTES,
  MAX_LINE_BYTES_LIMIT,
  readFirstLines,
  readLineAt,
  type ByteLineScan,
} from '../../server/src/artifacts/jsonl';
import { TranscriptScanner, transcriptFacts, transcriptFactsAsync, transcriptFactsFromFile } from '../../server/src/artifacts/runRecord';
import type { ArtifactProblem } from '../../server/src/artifacts/types';
import { validateArtifact, validateArtifactFile, validateArtifactFileAsync } from '../../server/src/artifacts/validate';
import { readSettings } from '../../server/src/workspace/settings';
import { sparseFile } from '../support/hostileFiles';

const MiB = 1024 * 1024;

/** The message of a line_too_long problem. */
const tooLongMessage = (bytes: number, limit: number): string =>
  `This line is ${bytes} bytes long, over the limit of ${limit} bytes (harn.artifacts.maxLineBytes): it is not read, so its row is not checked.`;

function tooLong(line: number, byteOffset: number | undefined, byteLength: number, maxLineBytes: number): ArtifactProblem {
  return {
    line,
    startCharacter: 0,
    endLine: line,
    endCharacter: 0,
    code: 'line_too_long',
    severity: 'error',
    message: tooLongMessage(byteLength, maxLineBytes),
    data: byteOffset === undefined ? { byteLength, maxLineBytes } : { byteOffset, byteLength, maxLineBytes },
  };
}

interface Visited {
  lines: Array<[number, number, string]>;
  unread: Array<[number, number, number]>;
}

function visitor(): { seen: Visited; visit: (text: string, line: number, at: number) => void; unread: (line: number, at: number, length: number) => void } {
  const seen: Visited = { lines: [], unread: [] };
  return {
    seen,
    visit: (text, line, at) => {
      // Long texts are kept as their length and ends, so a failure prints readably.
      seen.lines.push([line, at, text.length > 40 ? `${text.slice(0, 8)}…${text.slice(-8)} (${text.length})` : text]);
    },
    unread: (line, at, length) => {
      seen.unread.push([line, at, length]);
    },
  };
}

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-huge-lines-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const at = (name: string): string => path.join(dir, name);

describe('jsonl: lines over maxLineBytes', () => {
  test('one line_too_long each, with its offset and length; the lines around it are read; the index still has it', async () => {
    const text = '{"a":1}\n' + 'x'.repeat(11) + '\r\n{"b":2}\n' + 'y'.repeat(10) + '\n' + 'z'.repeat(12);
    const file = at('small-limit.jsonl');
    fs.writeFileSync(file, text);
    const expectedProblems = [tooLong(1, 8, 11, 10), tooLong(4, 40, 12, 10)];
    const expectedSeen: Visited = {
      lines: [
        [0, 0, '{"a":1}'],
        [2, 21, '{"b":2}'],
        [3, 29, 'yyyyyyyyyy'],
      ],
      unread: [
        [1, 8, 11],
        [4, 40, 12],
      ],
    };
    const check = (scan: ByteLineScan | undefined, seen: Visited, what: string): void => {
      assert.ok(scan, what);
      assert.deepEqual(scan.problems, expectedProblems, what);
      assert.deepEqual(seen, expectedSeen, what);
      assert.deepEqual(scan.index, { lineStarts: [0, 8, 21, 29, 40], byteLength: text.length }, what);
      assert.equal(scan.lineCount, 5, what);
      assert.equal(scan.complete, true, what);
      assert.equal(scan.endsWithNewline, false, what);
    };
    for (const [what, source] of [
      ['buffer', Buffer.from(text)],
      ['file', file],
    ] as const) {
      const v = visitor();
      check(forEachLine(source, v.visit, { maxLineBytes: 10, unread: v.unread }), v.seen, what);
    }
    const v = visitor();
    check(await forEachLineAsync(file, v.visit, { maxLineBytes: 10, unread: v.unread }), v.seen, 'async');
    // A line over the limit is not read back either (hover, narrowing a diagnostic).
    const index = { lineStarts: [0, 8, 21, 29, 40], byteLength: text.length };
    assert.equal(readLineAt(file, index, 1, 10), undefined);
    assert.equal(readLineAt(file, index, 4, 10), undefined);
    assert.equal(readLineAt(file, index, 3, 10), 'yyyyyyyyyy');
  });

  test('a line longer than what is held in memory (16 MB) but within the limit is read again by its range', async () => {
    const long = 'L'.repeat(20 * MiB);
    const text = `{"a":1}\n"${long}"\n{"b":2}`;
    const file = at('long-within.jsonl');
    fs.writeFileSync(file, text);
    const expected: Visited = {
      lines: [
        [0, 0, '{"a":1}'],
        [1, 8, `"LLLLLLL…LLLLLLL" (${long.length + 2})`],
        [2, 8 + long.length + 3, '{"b":2}'],
      ],
      unread: [],
    };
    for (const source of [file, Buffer.from(text)]) {
      const v = visitor();
      const scan = forEachLine(source, v.visit, { unread: v.unread });
      assert.deepEqual(scan.problems, []);
      assert.deepEqual(v.seen, expected);
    }
    const v = visitor();
    const scan = await forEachLineAsync(file, v.visit, { unread: v.unread });
    assert.deepEqual(scan?.problems, []);
    assert.deepEqual(v.seen, expected);
    // Over a limit between what is held and the line: not read.
    const w = visitor();
    const limited = forEachLine(file, w.visit, { maxLineBytes: 18 * MiB, unread: w.unread });
    assert.deepEqual(limited.problems, [tooLong(1, 8, long.length + 2, 18 * MiB)]);
    assert.deepEqual(w.seen.unread, [[1, 8, long.length + 2]]);
  });

  test('the limit defaults to 256 MB and never exceeds the longest string V8 can make', () => {
    assert.equal(DEFAULT_MAX_LINE_BYTES, 256 * MiB);
    assert.equal(effectiveMaxLineBytes(undefined), 256 * MiB);
    assert.equal(effectiveMaxLineBytes(4 * 1024 * MiB), MAX_LINE_BYTES_LIMIT);
    assert.equal(MAX_LINE_BYTES_LIMIT, 536870888);
    const { settings, problems } = readSettings({ artifacts: { maxLineBytes: 600 * 1000 * 1000 } });
    assert.equal(settings.artifacts.maxLineBytes, 256 * MiB);
    assert.deepEqual(problems, ['harn.artifacts.maxLineBytes must be at most 536870888 (the longest line that can be decoded); using the default']);
    assert.deepEqual(readSettings({ artifacts: { maxLineBytes: 1.5 } }).problems, [
      'harn.artifacts.maxLineBytes must be a whole number of bytes; using the default',
    ]);
    assert.deepEqual(readSettings({ artifacts: { maxLineBytes: 0 } }).problems, ['harn.artifacts.maxLineBytes must be at least 1; using the default']);
    assert.equal(readSettings({ artifacts: { maxLineBytes: 4096 } }).settings.artifacts.maxLineBytes, 4096);
  });

  test('kind detection reads at most HEAD_BYTES of a file, however long its first line', () => {
    const file = sparseFile(at('head.jsonl'), 64 * MiB, '{"type":"');
    const lines = readFirstLines(file, 5);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.length, HEAD_BYTES);
  });
});

describe('validation: a line over the limit', () => {
  const ROWS = ['{"type":"a"}', 'x'.repeat(40), '{"type":"b"}'];

  test('from disk (sync and async) and from text: one line_too_long, nothing else about that line', async () => {
    const text = ROWS.join('\n') + '\n';
    const file = at('rows.jsonl');
    fs.writeFileSync(file, text);
    const fromDisk = validateArtifactFile('jsonl', file, { maxLineBytes: 32 });
    assert.deepEqual(fromDisk.problems, [tooLong(1, 13, 40, 32)]);
    assert.deepEqual(
      fromDisk.summaries.map((s) => [s.shape, s.length]),
      [
        ['row', 12],
        ['unread', 0],
        ['row', 12],
      ],
    );
    const fromDiskAsync = await validateArtifactFileAsync('jsonl', file, { maxLineBytes: 32 });
    assert.deepEqual(fromDiskAsync?.problems, fromDisk.problems);
    const fromText = validateArtifact('jsonl', text, { maxLineBytes: 32 });
    assert.deepEqual(fromText.problems, [tooLong(1, undefined, 40, 32)]);
    // Multi-byte characters count as their UTF-8 bytes: 20 × "é" is 40 bytes.
    assert.deepEqual(validateArtifact('jsonl', 'é'.repeat(20), { maxLineBytes: 32 }).problems, [tooLong(0, undefined, 40, 32)]);
    assert.deepEqual(validateArtifact('jsonl', `"${'é'.repeat(15)}"`, { maxLineBytes: 32 }).problems, []);
  });

  test('an unread last line without a line break is not a truncated_last_line, and no transcript is called incomplete for it', () => {
    const file = at('llm_transcript-unread.jsonl');
    fs.writeFileSync(file, '{"type":"message"');
    assert.deepEqual(validateArtifactFile('transcript', file, { maxLineBytes: 8 }).problems, [tooLong(0, 0, 17, 8)]);
  });

  test('a 600 MB line of NULs is line_too_long, a 1 MB one (within the limit) is malformed_jsonl: never invalid_utf8', async () => {
    const big = sparseFile(at('nul-600mb.jsonl'), 600 * 1000 * 1000);
    assert.deepEqual(validateArtifactFile('transcript', big).problems, [tooLong(0, 0, 600 * 1000 * 1000, 256 * MiB)]);
    assert.deepEqual((await validateArtifactFileAsync('transcript', big))?.problems, [tooLong(0, 0, 600 * 1000 * 1000, 256 * MiB)]);
    const small = sparseFile(at('nul-1mb.jsonl'), MiB);
    assert.deepEqual(
      validateArtifactFile('jsonl', small).problems.map((p) => [p.code, p.line]),
      [
        ['malformed_jsonl', 0],
        ['truncated_last_line', 0],
      ],
    );
    fs.rmSync(big);
  });
});

describe('transcript facts: a line over the limit', () => {
  const sha = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

  test('line_too_long at its line and offset; sha256 and byte_len cover every byte; the same pushed, from a file and async', async () => {
    const bytes = Buffer.from('{"type":"a"}\n' + 'x'.repeat(40) + '\n{"type":"b"}\n');
    const file = at('facts.jsonl');
    fs.writeFileSync(file, bytes);
    const expected = {
      sha256: sha(bytes),
      byte_len: bytes.length,
      event_count: 1,
      first_event_type: 'a',
      first_event_id: 'row:1',
      last_event_type: 'a',
      last_event_id: 'row:1',
      complete: false,
      terminal_status: null,
      session_id: null,
      effective_tool_format: null,
      tool_schema_hash: null,
      error: {
        kind: 'line_too_long',
        message: 'line 2 is 40 bytes long, over the limit of 32 bytes (harn.artifacts.maxLineBytes), so it is not read and the rows are not checked',
        line: 2,
        byteOffset: 13,
      },
    };
    assert.deepEqual(transcriptFacts(bytes, 5, { maxLineBytes: 32 }), expected);
    assert.deepEqual(transcriptFactsFromFile(file, 5, { maxLineBytes: 32 }), expected);
    assert.deepEqual(await transcriptFactsAsync(file, { maxLineBytes: 32 }), expected);
    const scanner = new TranscriptScanner({ maxLineBytes: 32 });
    for (let i = 0; i < bytes.length; i += 3) scanner.update(bytes.subarray(i, i + 3));
    assert.deepEqual(scanner.finish(), expected);
    // Invalid UTF-8 anywhere else still wins, as upstream decodes the whole file first.
    const bad = Buffer.concat([bytes, Buffer.from([0xff, 0x0a])]);
    assert.equal(transcriptFacts(bad, 5, { maxLineBytes: 32 }).error?.kind, 'invalid_utf8');
  });

  test('a line longer than what is held but within the limit is read again: the same facts as from the bytes', () => {
    const bytes = Buffer.from(`{"type":"a","content":"${'c'.repeat(20 * MiB)}"}\n{"type":"agent_session_finalized","final_status":"done"}\n`);
    const file = at('facts-long.jsonl');
    fs.writeFileSync(file, bytes);
    const facts = transcriptFactsFromFile(file);
    assert.deepEqual(facts, transcriptFacts(bytes, bytes.length));
    assert.equal(facts.error, null);
    assert.equal(facts.event_count, 2);
    assert.equal(facts.terminal_status, 'done');
  });

  test('600 MB of NULs: line_too_long, not "invalid_utf8: byte 0"; 1 MB of NULs: malformed_jsonl', () => {
    const big = sparseFile(at('facts-nul.jsonl'), 600 * 1000 * 1000);
    const facts = transcriptFactsFromFile(big);
    assert.equal(facts.byte_len, 600 * 1000 * 1000);
    assert.deepEqual(facts.error, {
      kind: 'line_too_long',
      message: `line 1 is 600000000 bytes long, over the limit of ${256 * MiB} bytes (harn.artifacts.maxLineBytes), so it is not read and the rows are not checked`,
      line: 1,
      byteOffset: 0,
    });
    fs.rmSync(big);
    const small = transcriptFacts(Buffer.alloc(MiB));
    assert.equal(small.error?.kind, 'malformed_jsonl');
    assert.match(small.error.message, /^line 1 is not JSON: /);
  });
});
