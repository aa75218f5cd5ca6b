// The CLI on run artifacts: the demo's healthy run (clean) and broken run (every code, at its place), the
// `transcript` command in every format, exit codes, and hostile files (a 10 MB line, invalid UTF-8, CRLF, BOM).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  BROKEN_RUN_CODES,
  DEMO,
  EVENT_LOG,
  expectedBrokenRun,
  expectedRunRecord,
  expectedTranscript,
  HEALTHY,
  RUN_RECORD,
  TRANSCRIPT,
  UNFINISHED,
  type Expected,
} from '../support/brokenRun';
import { defined } from '../support/assertions';
import { validateArtifact } from '../../server/src/artifacts/validate';
import type { FileDiagnostic } from '../../server/src/report/format';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd = DEMO): Result {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What `--format json` prints per diagnostic: the CLI's own type. */
type JsonDiagnostic = FileDiagnostic;

function json(result: Result): JsonDiagnostic[] {
  const parsed = JSON.parse(result.stdout) as { version: number; diagnostics: JsonDiagnostic[] };
  assert.equal(parsed.version, 1);
  return parsed.diagnostics;
}

const key = (d: { path: string; code: string; severity: string; range: Expected['range'] }): string =>
  `${d.path} ${d.code} ${d.severity} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`;

describe('harn-workbench on the demo runs', () => {
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

  test('the healthy run: exit 0, no diagnostic in any format', () => {
    const result = run(['check', 'runs/healthy', '--root', '.', '--format', 'json']);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual(json(result), []);
    const text = run(['check', 'runs/healthy', '--root', '.']);
    assert.equal(text.status, 0);
    assert.match(text.stdout, /^0 errors, 0 warnings in 3 files \(0 \.harn, 3 run artifacts\); gate on \.: 0 findings; other: none$/m);
    assert.equal(run(['check', 'runs/healthy', '--root', '.', '--format', 'github']).stdout, '');
    const sarif = JSON.parse(run(['check', HEALTHY, '--root', DEMO, '--format', 'sarif']).stdout) as { runs: Array<{ results: unknown[] }> };
    assert.deepEqual(defined(sarif.runs[0], 'the run').results, []);
  });

  test('the broken run: every code, each at its place, paths relative to --root, source harn.artifacts', () => {
    // From another working directory: the paths are relative to --root, not to the current directory.
    const result = run(['check', path.join(DEMO, 'runs', 'broken'), '--root', DEMO, '--format', 'json'], os.tmpdir());
    assert.equal(result.status, 1);
    // The training projector's note (harn.training, trainingExport.test.ts) aside.
    const diagnostics = json(result).filter((d) => d.source !== 'harn.training');
    for (const d of diagnostics) {
      assert.equal(d.source, 'harn.artifacts');
      assert.ok(!path.isAbsolute(d.path) && !d.path.includes('\\') && d.path.startsWith('runs/broken/'), d.path);
      assert.ok(d.message.length > 0 && d.message.length < 600, `a short message: ${d.message.slice(0, 80)}`);
    }
    // Exactly the expected diagnostics: nothing missing, nothing else.
    assert.deepEqual(diagnostics.map(key).sort(), expectedBrokenRun().map(key).sort());
    const codes = new Set(diagnostics.map((d) => d.code));
    for (const code of BROKEN_RUN_CODES) assert.ok(codes.has(code), `${code} is produced`);
  });

  test('the broken run: positions are 0-based UTF-16 code units', () => {
    const diagnostics = json(run(['check', 'runs/broken/event_log.jsonl', '--root', '.', '--format', 'json']));
    const unreported = diagnostics.find((d) => d.code === 'unreported_boundary_failure');
    assert.ok(unreported);
    // Row 10 of the file is line 9; an emoji (two UTF-16 units, four bytes) comes before `"unreported"`.
    assert.equal(unreported.range.start.line, 9);
    const line = defined(fs.readFileSync(path.join(DEMO, EVENT_LOG), 'utf8').split('\n')[9], 'line 9');
    const utf16 = line.indexOf('"unreported"');
    assert.equal(unreported.range.start.character, utf16);
    assert.notEqual(Buffer.byteLength(line.slice(0, utf16)), utf16, 'bytes differ from UTF-16 units on this line');
    assert.notEqual([...line.slice(0, utf16)].length, utf16, 'code points differ from UTF-16 units on this line');
  });

  test('each pointer of the broken run record shows exactly its one problem, with both values', () => {
    const diagnostics = json(run(['check', RUN_RECORD, '--root', '.', '--format', 'json'])).filter((d) => d.source !== 'harn.training');
    assert.deepEqual(diagnostics.map(key), expectedRunRecord().map(key));
    const byCode = new Map(diagnostics.map((d) => [d.code, d]));
    const of = (code: string): JsonDiagnostic => defined(byCode.get(code), `the ${code} diagnostic`);
    assert.match(of('digest_mismatch').message, /descriptor is sha256:[0-9a-f]{64}, the transcript on disk hashes to sha256:[0-9a-f]{64}/);
    assert.match(of('byte_len_mismatch').message, /byte_len in the descriptor is 2111, the transcript on disk is 2109 bytes long/);
    assert.match(of('event_count_mismatch').message, /event_count in the descriptor is 8, the transcript on disk has 7 events/);
    assert.match(of('run_id_mismatch').message, /"r12".*"r13"/);
    assert.equal(of('unverified_descriptor').severity, 'warning');
  });
});

describe('harn-workbench transcript FILE --run-record PATH', () => {
  const args = ['transcript', TRANSCRIPT, '--run-record', RUN_RECORD, '--root', '.'];
  const expected = () => [...expectedTranscript(), ...expectedRunRecord()];

  test('json: the transcript and the run record, relative paths', () => {
    const result = run([...args, '--format', 'json']);
    assert.equal(result.status, 1);
    assert.deepEqual(json(result).map(key).sort(), expected().map(key).sort());
  });

  test('text: one line per diagnostic, 1-based positions, and a summary', () => {
    const result = run(args);
    assert.equal(result.status, 1);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, expected().length + 1);
    assert.match(
      result.stdout,
      /^runs\/broken\/run-llm\/llm_transcript\.jsonl:14:152: error \[harn\.artifacts\/malformed_jsonl\] Not valid JSON at character 151: unterminated string/m,
    );
    assert.match(result.stdout, /^runs\/broken\/run\.json:\d+:\d+: error \[harn\.artifacts\/digest_mismatch\] /m);
    assert.match(
      defined(lines.at(-1), 'the summary line'),
      /^runs\/broken\/run-llm\/llm_transcript\.jsonl checked as a transcript with runs\/broken\/run\.json: 18 errors \(2 malformed_jsonl, .*\), 3 warnings \(1 row_after_terminal, 1 unpaired_tool_call, 1 unverified_descriptor\), 1 info \(1 unknown_row_type\)$/,
    );
  });

  test('github: workflow commands with file, line, columns and title', () => {
    const result = run([...args, '--format', 'github']);
    assert.equal(result.status, 1);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, expected().length);
    // Each line: the command (information is a notice), its 1-based position and title, then `::` and the message.
    const level = { error: 'error', warning: 'warning', information: 'notice' } as const;
    const commands = lines.map((l) => l.slice(0, l.indexOf('::', 2) + 2));
    const wanted = expected().map(
      (e) =>
        `::${level[e.severity]} file=${e.path},line=${e.range.start.line + 1},col=${e.range.start.character + 1},` +
        `endLine=${e.range.end.line + 1},endColumn=${e.range.end.character + 1},title=harn.artifacts/${e.code}::`,
    );
    assert.deepEqual(commands.sort(), wanted.sort());
    assert.ok(
      lines.includes(
        '::error file=runs/broken/run-llm/llm_transcript.jsonl,line=16,col=76,endLine=16,endColumn=91,title=harn.artifacts/invalid_row::Invalid provider_call_response row: `iteration` must be a number, got the string "1".',
      ),
      lines.join('\n'),
    );
  });

  test('sarif: 2.1.0, one result per diagnostic, UTF-16 columns', () => {
    const result = run([...args, '--format', 'sarif']);
    assert.equal(result.status, 1);
    interface SarifResult {
      ruleId: string;
      level: string;
      locations: Array<{
        physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } };
      }>;
    }
    const sarif = JSON.parse(result.stdout) as { version: string; runs: Array<{ columnKind: string; results: SarifResult[] }> };
    assert.equal(sarif.version, '2.1.0');
    const sarifRun = defined(sarif.runs[0], 'the run');
    assert.equal(sarifRun.columnKind, 'utf16CodeUnits');
    const results = sarifRun.results;
    const want = expected();
    assert.equal(results.length, want.length);
    const got = results.map((r) => {
      const loc = defined(r.locations[0], `a location of ${r.ruleId}`).physicalLocation;
      return `${loc.artifactLocation.uri} ${r.ruleId} ${r.level} ${loc.region.startLine}:${loc.region.startColumn}-${loc.region.endLine}:${loc.region.endColumn}`;
    });
    // Information is a SARIF note.
    const level = { error: 'error', warning: 'warning', information: 'note' } as const;
    const wanted = want.map(
      (e) =>
        `${e.path} harn.artifacts/${e.code} ${level[e.severity]} ${e.range.start.line + 1}:${e.range.start.character + 1}-${e.range.end.line + 1}:${e.range.end.character + 1}`,
    );
    assert.deepEqual(got.sort(), wanted.sort());
  });

  test('the healthy transcript with its run record: exit 0, nothing reported', () => {
    const result = run(['transcript', 'runs/healthy/run-llm/llm_transcript.jsonl', '--run-record', 'runs/healthy/run.json', '--root', '.', '--format', 'json']);
    assert.equal(result.status, 0, result.stdout);
    assert.deepEqual(json(result), []);
  });

  test('an event log given to `transcript` is read as an event log', () => {
    const result = run(['transcript', EVENT_LOG, '--root', '.']);
    assert.equal(result.status, 1);
    assert.match(
      result.stdout,
      /^runs\/broken\/event_log\.jsonl checked as an event log: 1 error \(1 unreported_boundary_failure\), 3 warnings \(1 boundary_failure, 1 event_index_duplicate, 1 event_index_gap\)$/m,
    );
  });
});

describe('harn-workbench exit codes on artifacts', () => {
  test('0 with only warnings, 1 with errors', () => {
    const warnings = run(['transcript', UNFINISHED, '--root', '.', '--format', 'json']);
    assert.equal(warnings.status, 0);
    assert.deepEqual(
      json(warnings).map((d) => d.code),
      ['incomplete_source'],
    );
    assert.equal(run(['transcript', TRANSCRIPT, '--root', '.']).status, 1);
    assert.equal(run(['check', 'runs', '--root', '.']).status, 1);
  });

  test('2 for a missing file or a bad option', () => {
    const cases: Array<[string[], RegExp]> = [
      [['transcript', 'runs/nope.jsonl'], /^harn-workbench: no such file: runs\/nope\.jsonl$/m],
      [['transcript', TRANSCRIPT, '--run-record', 'runs/nope/run.json'], /^harn-workbench: no such file: runs\/nope\/run\.json$/m],
      [['check', 'runs/nope'], /no such file or folder: runs\/nope/],
      [['transcript', TRANSCRIPT, '--format', 'xml'], /--format must be one of text, json, github, sarif, not xml/],
      [['transcript', TRANSCRIPT, '--frobnicate'], /unknown option --frobnicate/],
      [['transcript', TRANSCRIPT, '--run-record'], /--run-record needs a value/],
      [['transcript'], /transcript takes exactly one FILE/],
      [['transcript', TRANSCRIPT, UNFINISHED], /transcript takes exactly one FILE/],
      [['transcript', 'runs/broken'], /^harn-workbench: runs\/broken is a directory, not a regular file$/m],
    ];
    for (const [argv, stderr] of cases) {
      const result = run(argv);
      assert.equal(result.status, 2, `${argv.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, stderr, argv.join(' '));
      assert.equal(result.stdout, '', `nothing on stdout for ${argv.join(' ')}`);
    }
  });
});

describe('harn-workbench on hostile artifact files', () => {
  let root: string;
  const healthyRows = fs
    .readFileSync(path.join(HEALTHY, 'run-llm', 'llm_transcript.jsonl'), 'utf8')
    .trimEnd()
    .split('\n');
  const finalRow = defined(healthyRows.at(-1), 'the final row');

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cli-artifacts-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  function write(name: string, data: string | Buffer): string {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
    return name;
  }

  test('a 10 MB line: a valid one passes, a cut-off one is reported once with a short message', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const row = JSON.stringify({
      type: 'message',
      timestamp: '1767225600.003',
      span_id: null,
      session_id: 's-42',
      message_index: 0,
      role: 'user',
      content: huge,
    });
    const ok = write('big/llm_transcript.jsonl', `${row}\n${finalRow}\n`);
    const passed = run(['transcript', ok, '--root', '.', '--format', 'json'], root);
    assert.equal(passed.status, 0, passed.stderr);
    assert.deepEqual(json(passed), []);

    const cut = write('cut/llm_transcript.jsonl', `${row.slice(0, -10)}\n${finalRow}\n`);
    const result = run(['transcript', cut, '--root', '.', '--format', 'json'], root);
    assert.equal(result.status, 1, result.stderr);
    const diagnostics = json(result);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['malformed_jsonl'],
    );
    assert.equal(defined(diagnostics[0], 'the diagnostic').range.start.line, 0);
    assert.ok(result.stdout.length < 10_000, `the output does not echo the line (${result.stdout.length} chars)`);
  });

  test('invalid UTF-8: reported at the first bad byte in UTF-16 units of the line; the rest is still checked', () => {
    const before = Buffer.from(
      '{"type":"message","timestamp":"1767225600.003","span_id":null,"session_id":"s-42","message_index":0,"role":"user","content":"😀 caf',
      'utf8',
    );
    const bad = Buffer.concat([before, Buffer.from([0xe9, 0xff]), Buffer.from('"}\n' + '{"type":"tool_result"}\n' + finalRow + '\n')]);
    const file = write('utf8/llm_transcript.jsonl', bad);
    const result = run(['transcript', file, '--root', '.', '--format', 'json'], root);
    assert.equal(result.status, 1, result.stderr);
    const diagnostics = json(result);
    const invalid = diagnostics.find((d) => d.code === 'invalid_utf8');
    assert.ok(invalid, JSON.stringify(diagnostics));
    const character = before.toString('utf8').length; // UTF-16 units before the bad byte (the emoji counts 2)
    assert.deepEqual(invalid.range, { start: { line: 0, character }, end: { line: 0, character: character + 1 } });
    // The next row's own problems are still found: each required property it lacks, on the whole row.
    const row = { start: { line: 1, character: 0 }, end: { line: 1, character: '{"type":"tool_result"}'.length } };
    assert.deepEqual(
      diagnostics.slice(1).map((d) => [d.code, d.range, d.message]),
      ['schema_version', 'session_id', 'message_index', 'call_id', 'tool_name', 'ok'].map((p) => [
        'invalid_row',
        row,
        `Invalid tool_result row: \`${p}\` is required.`,
      ]),
    );
    assert.equal(diagnostics.length, 7);
  });

  test('CRLF line breaks: the healthy run converted to CRLF is read as the same rows', () => {
    const crlf = write('crlf/run-llm/llm_transcript.jsonl', healthyRows.map((r) => r + '\r\n').join(''));
    const result = run(['transcript', crlf, '--root', '.', '--format', 'json'], root);
    assert.equal(result.status, 0, result.stdout);
    assert.deepEqual(json(result), []);
    // A problem on a CRLF line ends before the \r.
    const rows = [...healthyRows];
    rows[2] = defined(rows[2], 'row 2').replace('"message_index":0', '"message_index":-1');
    const badFile = write('crlf-bad/llm_transcript.jsonl', rows.map((r) => r + '\r\n').join(''));
    const bad = json(run(['transcript', badFile, '--root', '.', '--format', 'json'], root));
    const at = rows[2].indexOf('"message_index":-1');
    assert.deepEqual(
      bad.filter((d) => d.code === 'invalid_row').map((d) => d.range),
      [{ start: { line: 2, character: at }, end: { line: 2, character: at + '"message_index":-1'.length } }],
    );
  });

  test('a UTF-8 BOM: noted once, skipped, and line 0 is counted without it', () => {
    const rows = [...healthyRows];
    rows[0] = defined(rows[0], 'row 0').replace('"span_id":null', '"span_id":"seven"');
    const file = write('bom/llm_transcript.jsonl', '\ufeff' + rows.join('\n') + '\n');
    const result = run(['transcript', file, '--root', '.', '--format', 'json'], root);
    assert.equal(result.status, 1);
    const diagnostics = json(result);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['utf8_bom', 'invalid_row'],
    );
    const at = rows[0].indexOf('"span_id":"seven"');
    assert.deepEqual(defined(diagnostics[1], 'the invalid_row diagnostic').range.start, { line: 0, character: at });
    assert.equal(defined(diagnostics[0], 'the utf8_bom diagnostic').severity, 'information');
  });

  test('a BOM in the middle (files concatenated): utf8_bom on its line, at the positions the editor gives', () => {
    const rows = [...healthyRows];
    rows[2] = '\ufeff' + (rows[2] ?? '').replace('"span_id":null', '"span_id":"seven"');
    rows[5] = '\ufeff' + (rows[5] ?? '').slice(0, 40);
    const text = rows.join('\n') + '\n';
    const file = write('bom-middle/llm_transcript.jsonl', text);
    const result = run(['transcript', file, '--root', '.', '--format', 'json'], root);
    assert.equal(result.status, 1);
    const fromCli = json(result).map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.message]);
    const at = (rows[2] ?? '').indexOf('"span_id":"seven"');
    const bom = 'A UTF-8 byte order mark starts this line; Harn never writes one. It is skipped.';
    assert.deepEqual(
      fromCli.filter(([code]) => code !== 'invalid_row'),
      [
        ['utf8_bom', 2, 0, 2, 1, bom],
        ['utf8_bom', 5, 0, 5, 1, bom],
        ['malformed_jsonl', 5, 31, 5, 41, 'Not valid JSON at character 31: unterminated string, and the line ends there: the row is cut off.'],
      ],
    );
    assert.deepEqual(
      fromCli.filter(([code]) => code === 'invalid_row').map((d) => d.slice(1, 5)),
      [[2, at, 2, at + '"span_id":"seven"'.length]],
    );
    // The editor's validation of the same text (VS Code keeps a BOM that is not the file's first character).
    const fromEditor = validateArtifact('transcript', text, { fileName: 'llm_transcript.jsonl' }).problems.map((p) => [
      p.code,
      p.line,
      p.startCharacter,
      p.endLine,
      p.endCharacter,
      p.message,
    ]);
    assert.deepEqual(fromCli, fromEditor);
  });

  test('a run record with a BOM and CRLF line breaks still verifies its transcript', () => {
    fs.cpSync(HEALTHY, path.join(root, 'healthy-copy'), { recursive: true });
    const record = path.join(root, 'healthy-copy', 'run.json');
    fs.writeFileSync(record, '\ufeff' + fs.readFileSync(record, 'utf8').replace(/\n/g, '\r\n'));
    const result = run(['check', 'healthy-copy', '--root', '.', '--format', 'json'], root);
    assert.equal(result.status, 0, result.stdout);
    // The training projector reads it as upstream does (serde_json refuses a BOM): an information note, not an error.
    assert.deepEqual(
      json(result).map((d) => [d.source, d.severity, d.code]),
      [['harn.training', 'information', 'run_record_unreadable']],
    );
  });
});
