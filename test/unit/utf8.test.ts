// Bytes that are not UTF-8 in `.harn` files: decodeUtf8 says where each ill-formed sequence was read as U+FFFD
// (WHATWG's maximal subparts, as TextDecoder and Buffer decode), the CLI reports each run as invalid_utf8 on the
// U+FFFD the editor shows, and the loud-boundary gate keeps the files it read from disk that are not UTF-8.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS } from '../../server/src/boundaries/workspaceGate';
import { invalidUtf8Diagnostics, MAX_ENCODING_DIAGNOSTICS, replacementCharacterDiagnostics } from '../../server/src/diagnostics';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { LineIndex } from '../../server/src/text/lineIndex';
import { decodeUtf8, replacementRuns } from '../../server/src/text/utf8';

const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
const runs = (b: Buffer): [number, number, number, string][] =>
  decodeUtf8(b).invalid.map((r) => [r.start, r.end, r.byteOffset, Buffer.from(r.bytes).toString('hex')]);

describe('decodeUtf8', () => {
  test('valid text: no runs, a BOM kept', () => {
    assert.deepEqual(decodeUtf8(bytes('\ufeffcafé 😀')), { text: '\ufeffcafé 😀', invalid: [] });
  });

  test('Latin-1, truncated and overlong sequences, surrogates: one U+FFFD per maximal subpart, adjacent ones merged', () => {
    // `café` in Latin-1: e9 starts a 3-byte sequence that the quote ends.
    assert.deepEqual(runs(bytes('caf', [0xe9], '"')), [[3, 4, 3, 'e9']]);
    // e9 e9: two sequences, one run of two U+FFFD.
    assert.deepEqual(runs(bytes('a', [0xe9, 0xe9], 'b')), [[1, 3, 1, 'e9e9']]);
    // A 4-byte sequence cut after 3 bytes is one U+FFFD; an emoji before it counts two UTF-16 units.
    assert.deepEqual(runs(bytes('😀', [0xf0, 0x9f, 0x98])), [[2, 3, 4, 'f09f98']]);
    // c0 80 (overlong NUL) and ed a0 80 (a surrogate): every byte is its own U+FFFD.
    assert.deepEqual(runs(bytes('x', [0xc0, 0x80], 'y', [0xed, 0xa0, 0x80])), [
      [1, 3, 1, 'c080'],
      [4, 7, 4, 'eda080'],
    ]);
    assert.equal(decodeUtf8(bytes('caf', [0xe9], '"')).text, 'caf\ufffd"');
  });

  test('any bytes: the text is what TextDecoder gives, U+FFFD exactly where the runs are, valid UTF-8 between (property)', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const pick = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0xe9, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0xbf, 0xed, 0xef, 0x41, 0x0a));
    fc.assert(
      fc.property(fc.array(pick, { maxLength: 60 }), (list) => {
        const b = Uint8Array.from(list);
        const { text, invalid } = decodeUtf8(b);
        if (text !== new TextDecoder('utf-8', { ignoreBOM: true }).decode(b)) return false;
        let at = 0;
        let byte = 0;
        for (const run of invalid) {
          if (text.slice(at, run.start) !== strict.decode(b.subarray(byte, run.byteOffset))) return false;
          if (text.slice(run.start, run.end) !== '\ufffd'.repeat(run.end - run.start)) return false;
          at = run.end;
          byte = run.byteOffset + run.bytes.length;
        }
        return text.slice(at) === strict.decode(b.subarray(byte));
      }),
      { numRuns: 3000 },
    );
  });

  test('replacementRuns: runs of U+FFFD in a text', () => {
    assert.deepEqual(replacementRuns('a\ufffd\ufffdb\ufffd'), [
      { start: 1, end: 3 },
      { start: 4, end: 5 },
    ]);
    assert.deepEqual(replacementRuns('clean'), []);
  });
});

describe('invalid_utf8 and replacement_character diagnostics', () => {
  test('on the U+FFFD, with the bytes and their offset; capped with a note', () => {
    const decoded = decodeUtf8(bytes('let a = 1\nlet caf', [0xe9], ' = 2\n'));
    assert.deepEqual(invalidUtf8Diagnostics(decoded.invalid, new LineIndex(decoded.text)), [
      {
        range: { start: { line: 1, character: 7 }, end: { line: 1, character: 8 } },
        severity: 'error',
        source: 'harn.syntax',
        code: 'invalid_utf8',
        message: 'Not UTF-8: the byte e9 at byte offset 17 is not UTF-8 (read as U+FFFD); Harn source files must be UTF-8.',
        data: { byteOffset: 17 },
      },
    ]);
    const many = decodeUtf8(Buffer.from(Array.from({ length: 250 }, (_, i) => (i % 2 === 0 ? 0xff : 0x20))));
    const capped = invalidUtf8Diagnostics(many.invalid, new LineIndex(many.text));
    assert.equal(capped.length, MAX_ENCODING_DIAGNOSTICS + 1);
    assert.deepEqual(capped.at(-1), {
      range: { start: { line: 0, character: 200 }, end: { line: 0, character: 201 } },
      severity: 'error',
      source: 'harn.syntax',
      code: 'invalid_utf8',
      message: `25 more places from here on are not UTF-8; only the first ${MAX_ENCODING_DIAGNOSTICS} are shown.`,
    });
  });

  test('an editor text with U+FFFD: replacement_character warnings, one per run', () => {
    const analysis = new HarnAnalysis('let a = "caf\ufffd"\n// \ufffd\ufffd\n');
    assert.deepEqual(
      replacementCharacterDiagnostics(analysis).map((d) => [d.code, d.severity, d.range]),
      [
        ['replacement_character', 'warning', { start: { line: 0, character: 12 }, end: { line: 0, character: 13 } }],
        ['replacement_character', 'warning', { start: { line: 1, character: 3 }, end: { line: 1, character: 5 } }],
      ],
    );
    assert.equal(
      replacementCharacterDiagnostics(analysis)[0]?.message,
      'U+FFFD (the replacement character): how the editor shows bytes of the file that are not UTF-8; saving the file writes U+FFFD in their place. `harn-workbench check` reads the bytes and reports them as invalid_utf8.',
    );
  });
});

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-utf8-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the CLI on a .harn file with Latin-1 bytes', () => {
  test('invalid_utf8 on each run, at the U+FFFD, beside the syntax error the byte makes outside a string', () => {
    const root = path.join(scratch, 'cli');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.harn'), bytes('let name = "na', [0xef], 've ', [0xe9, 0xe9], '"\n// caf', [0xe9], '\nlet x', [0xe9], ' = 1\n'));
    const cli = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
    const result = spawnSync(process.execPath, [cli, 'check', '.', '--root', '.', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    assert.equal(result.status, 1, result.stderr);
    const diagnostics = (
      JSON.parse(result.stdout) as {
        diagnostics: { code: string; range: { start: { line: number; character: number }; end: { line: number; character: number } }; message: string }[];
      }
    ).diagnostics;
    const at = (d: (typeof diagnostics)[number]): string => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`;
    assert.deepEqual(
      diagnostics.map((d) => [d.code, at(d), d.message]),
      [
        ['invalid_utf8', '0:14-0:15', 'Not UTF-8: the byte ef at byte offset 14 is not UTF-8 (read as U+FFFD); Harn source files must be UTF-8.'],
        ['invalid_utf8', '0:18-0:20', 'Not UTF-8: the bytes e9 e9 at byte offset 18 are not UTF-8 (read as U+FFFD); Harn source files must be UTF-8.'],
        ['invalid_utf8', '1:6-1:7', 'Not UTF-8: the byte e9 at byte offset 28 is not UTF-8 (read as U+FFFD); Harn source files must be UTF-8.'],
        ['invalid_utf8', '2:5-2:6', 'Not UTF-8: the byte e9 at byte offset 35 is not UTF-8 (read as U+FFFD); Harn source files must be UTF-8.'],
        ['unexpected_character', '2:5-2:6', "Unexpected character '\ufffd' at 3:6"],
      ],
    );
  });
});

describe('the loud-boundary gate on files that are not UTF-8', () => {
  test('a scanned file and the registry read from disk are kept with where they are not UTF-8; sites are still found', () => {
    const root = path.join(scratch, 'gate');
    const write = (relative: string, data: Buffer | string): void => {
      fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
      fs.writeFileSync(path.join(root, relative), data);
    };
    write(DEFAULT_GATE_SETTINGS.registryPath, bytes('# caf', [0xe9], '\n[[boundary]]\nid = "chat_turn_cap"\nanchors = ["crates/a.harn"]\n'));
    write(
      DEFAULT_GATE_SETTINGS.funnelPath,
      'pub enum BoundaryId {\n    ChatTurnCap,\n}\n\nimpl BoundaryId {\n    pub fn as_str(self) -> &\'static str {\n        match self {\n            Self::ChatTurnCap => "chat_turn_cap",\n        }\n    }\n}\n',
    );
    write('crates/a.harn', bytes('// r', [0xe9], 'sum', [0xe9], '\nlet x = { boundary: "chat_turn_cap" }\n'));
    const gate = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS);
    const run = gate.run();
    assert.deepEqual(
      run.allSites.map((s) => [s.path, s.id, s.range]),
      [['crates/a.harn', 'chat_turn_cap', { start: 30, end: 45 }]],
    );
    const found = [...gate.filesNotUtf8].map(([relative, bad]) => [relative, bad.invalid.map((r) => [r.start, r.end, r.byteOffset])]);
    assert.deepEqual(
      found.sort(),
      [
        [
          'crates/a.harn',
          [
            [4, 5, 4],
            [8, 9, 8],
          ],
        ],
        [DEFAULT_GATE_SETTINGS.registryPath, [[5, 6, 5]]],
      ].sort(),
    );
    gate.invalidate('crates/a.harn');
    write('crates/a.harn', '// fixed\nlet x = { boundary: "chat_turn_cap" }\n');
    gate.run();
    assert.deepEqual([...gate.filesNotUtf8.keys()], [DEFAULT_GATE_SETTINGS.registryPath]);
  });
});
