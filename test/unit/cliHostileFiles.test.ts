// The CLI on files that are not regular files and on huge lines. A FIFO named on the command line, given as
// --run-record or --registry, configured as the registry or the funnel, or pointed at by a run record, is refused
// with its reason (exit 2 for a path the user named, a diagnostic for one the tree names) and never opened for a
// blocking read: every run has a timeout, so a regression fails instead of hanging. A 2 GiB one-line transcript
// (exactly 2^31 bytes) and 600 MB of NULs behind a run record are `line_too_long`, with the digest over every byte.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FIFO_SKIP, mkfifo, runChild, sparseFile, type ChildResult } from '../support/hostileFiles';
import type { FileDiagnostic } from '../../server/src/report/format';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const DEMO = path.join(REPO, 'examples', 'demo');
const FIFO = 'is a FIFO, not a regular file';
const MiB = 1024 * 1024;

function cli(args: string[], cwd: string): ChildResult {
  return runChild([CLI, ...args], { cwd });
}

/** What `--format json` prints per diagnostic: the CLI's own type. */
type JsonDiagnostic = FileDiagnostic;

function diagnostics(result: ChildResult): JsonDiagnostic[] {
  return (JSON.parse(result.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
}

const at0 = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** A run record whose one llm_jsonl descriptor points at `relative` with the given digest and length. */
export function runRecordText(relative: string, sha256: string, byteLen: number): string {
  const descriptor = {
    schema_version: 'harn.llm_transcript_artifact.v1',
    artifact_kind: 'llm_jsonl',
    run_id: 'r1',
    session_id: null,
    path: '',
    relative_path: relative,
    sha256,
    byte_len: byteLen,
    event_count: 1,
    first_event_type: null,
    first_event_id: null,
    last_event_type: null,
    last_event_id: null,
    complete: false,
    terminal_status: null,
    effective_tool_format: null,
    tool_schema_hash: null,
  };
  const pointer = {
    id: 'run:llm_transcript',
    label: 'LLM transcript',
    kind: 'llm_jsonl',
    location: 'run-llm',
    path: null,
    available: true,
    verification_status: 'verified',
    verification_error: null,
    descriptor,
  };
  return JSON.stringify({ _type: 'run_record', id: 'r1', observability: { transcript_pointers: [pointer] } }, null, 2) + '\n';
}

/** The range of the string value of `"key": "…"` in a pretty-printed ASCII JSON text. */
export function valueRange(text: string, key: string): JsonDiagnostic['range'] {
  const offset = text.indexOf(`"${key}": "`) + key.length + 4;
  const end = text.indexOf('"', offset + 1) + 1;
  const position = (at: number): { line: number; character: number } => {
    const before = text.slice(0, at).split('\n');
    return { line: before.length - 1, character: (before.at(-1) ?? '').length };
  };
  return { start: position(offset), end: position(end) };
}

describe('harn-workbench on files that are not regular files', { skip: FIFO_SKIP }, () => {
  let dir: string;
  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build`');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cli-fifo-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A copy of the demo repository with some of its files replaced by FIFOs. */
  function demoWith(name: string, fifos: string[]): string {
    const root = path.join(dir, name);
    fs.cpSync(DEMO, root, { recursive: true });
    for (const rel of fifos) {
      fs.rmSync(path.join(root, rel), { force: true });
      mkfifo(path.join(root, rel));
    }
    return root;
  }

  test('a FIFO named on the command line: exit 2 with its reason (check, transcript, --run-record)', () => {
    const root = demoWith('named', ['runs/healthy/run-llm/llm_transcript.jsonl']);
    mkfifo(path.join(root, 'x.jsonl'));
    mkfifo(path.join(root, 'record.json'));
    const cases: Array<[string[], string]> = [
      [['check', 'x.jsonl'], `harn-workbench: x.jsonl ${FIFO}\n`],
      [['transcript', 'x.jsonl'], `harn-workbench: x.jsonl ${FIFO}\n`],
      [['transcript', 'runs/healthy/run-llm/llm_transcript.jsonl'], `harn-workbench: runs/healthy/run-llm/llm_transcript.jsonl ${FIFO}\n`],
      [['transcript', 'runs/broken/run-llm/llm_transcript-clean.jsonl', '--run-record', 'record.json'], `harn-workbench: record.json ${FIFO}\n`],
    ];
    for (const [args, stderr] of cases) {
      const result = cli(args, root);
      assert.deepEqual(result, { status: 2, stdout: '', stderr }, args.join(' '));
    }
  });

  test('a FIFO as the registry or the funnel: check-loud-boundaries exits 2, check reports it on the file', () => {
    const registry = 'scripts/loud_boundaries.toml';
    const funnel = 'crates/harn-vm/src/boundary.rs';
    for (const [name, rel] of [
      ['registry', registry],
      ['funnel', funnel],
    ] as const) {
      const root = demoWith(name, [rel]);
      const message = `${rel} ${FIFO}; it is not read`;
      assert.deepEqual(cli(['check-loud-boundaries', '--root', '.'], root), { status: 2, stdout: '', stderr: `harn-workbench: ${message}\n` }, name);
      const checked = cli(['check', '.', '--root', '.', '--format', 'json'], root);
      assert.equal(checked.status, 1, checked.stderr);
      const gate = diagnostics(checked).filter((d) => d.source === 'harn.boundaries');
      assert.deepEqual(
        gate,
        [
          {
            path: rel,
            range: at0,
            severity: 'error',
            source: 'harn.boundaries',
            code: 'unreadable_file',
            message,
            data: { id: '', kind: 'unreadable_file', path: rel },
          },
        ],
        name,
      );
    }
    // Named with --registry / --funnel: the same refusal.
    const root = demoWith('options', []);
    mkfifo(path.join(root, 'pipe.toml'));
    assert.deepEqual(cli(['check-loud-boundaries', '--root', '.', '--registry', 'pipe.toml'], root), {
      status: 2,
      stdout: '',
      stderr: `harn-workbench: pipe.toml ${FIFO}; it is not read\n`,
    });
    assert.deepEqual(cli(['check-loud-boundaries', '--root', '.', '--funnel', 'pipe.toml'], root), {
      status: 2,
      stdout: '',
      stderr: `harn-workbench: pipe.toml ${FIFO}; it is not read\n`,
    });
  });

  test('a FIFO in the tree: skipped by the walk; as a .gitignore: no ignore file; behind a run record: unavailable', () => {
    const root = path.join(dir, 'tree');
    fs.mkdirSync(path.join(root, 'run', 'run-llm'), { recursive: true });
    mkfifo(path.join(root, '.gitignore'));
    mkfifo(path.join(root, 'run', '.gitignore'));
    mkfifo(path.join(root, 'run', 'run-llm', 'llm_transcript.jsonl'));
    mkfifo(path.join(root, 'run', 'event_log.jsonl'));
    const text = runRecordText('run-llm/llm_transcript.jsonl', 'sha256:00', 1);
    fs.writeFileSync(path.join(root, 'run', 'run.json'), text);
    const result = cli(['check', '.', '--root', '.', '--format', 'json'], root);
    assert.equal(result.status, 1, result.stderr);
    const transcript = path.join(fs.realpathSync(root), 'run', 'run-llm', 'llm_transcript.jsonl');
    const descriptorLine = text.slice(0, text.indexOf('"descriptor"')).split('\n');
    const descriptorKey = { line: descriptorLine.length - 1, character: (descriptorLine.at(-1) ?? '').length };
    assert.deepEqual(diagnostics(result), [
      {
        // Nor is it read by the training projector (the FIFO is refused, never opened to block): said on the descriptor.
        path: 'run/run.json',
        range: { start: descriptorKey, end: { line: descriptorKey.line, character: descriptorKey.character + '"descriptor"'.length } },
        severity: 'information',
        source: 'harn.training',
        code: 'unavailable',
        message: `This run cannot be exported as a training example: failed to read run/run-llm/llm_transcript.jsonl: ${FIFO}`,
      },
      {
        path: 'run/run.json',
        range: valueRange(text, 'relative_path'),
        severity: 'error',
        source: 'harn.artifacts',
        code: 'unavailable',
        // The message names the transcript relative to the root; data keeps the checking machine's path.
        message: `The transcript relative_path points to, run/run-llm/llm_transcript.jsonl, cannot be read (${FIFO}).`,
        data: { field: 'relative_path', path: transcript },
      },
    ]);
  });
});

describe('harn-workbench on huge lines', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cli-huge-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The descriptor and the transcript's own diagnostic for a one-line transcript of NULs behind a run record. */
  function nulRun(name: string, size: number, sha256: string): void {
    const run = path.join(dir, name);
    const transcript = sparseFile(path.join(run, 'run-llm', 'llm_transcript.jsonl'), size);
    const text = runRecordText('run-llm/llm_transcript.jsonl', sha256, size);
    fs.writeFileSync(path.join(run, 'run.json'), text);
    const limit = 256 * MiB;
    try {
      const result = cli(['transcript', 'run-llm/llm_transcript.jsonl', '--run-record', 'run.json', '--root', '.', '--format', 'json'], run);
      assert.equal(result.status, 1, result.stderr);
      const real = fs.realpathSync(transcript);
      assert.deepEqual(diagnostics(result), [
        {
          path: 'run-llm/llm_transcript.jsonl',
          range: at0,
          severity: 'error',
          source: 'harn.artifacts',
          code: 'line_too_long',
          message: `This line is ${size} bytes long, over the limit of ${limit} bytes (harn.artifacts.maxLineBytes): it is not read, so its row is not checked.`,
          data: { byteOffset: 0, byteLength: size, maxLineBytes: limit },
        },
        {
          path: 'run.json',
          range: valueRange(text, 'relative_path'),
          severity: 'error',
          source: 'harn.artifacts',
          code: 'line_too_long',
          message:
            `The transcript relative_path points to, run-llm/llm_transcript.jsonl, has a line too long to read: line 1 is ${size} bytes long, over the limit of ${limit} bytes ` +
            '(harn.artifacts.maxLineBytes), so it is not read and the rows are not checked.',
          data: { field: 'relative_path', path: real, line: 1, byteOffset: 0 },
        },
      ]);
    } finally {
      fs.rmSync(run, { recursive: true, force: true });
    }
  }

  test('a one-line transcript of exactly 2^31 bytes: line_too_long (not empty_transcript); its digest and length still match', () => {
    // sha256 of 2^31 zero bytes: the descriptor agrees, so no digest_mismatch or byte_len_mismatch may appear.
    nulRun('two-gib', 2 ** 31, 'sha256:a7c744c13cc101ed66c29f672f92455547889cc586ce6d44fe76ae824958ea51');
  });

  test('600 MB of NULs on one line: line_too_long (not "invalid_utf8: byte 0")', () => {
    // sha256 of 600,000,000 zero bytes.
    nulRun('nul-600mb', 600 * 1000 * 1000, 'sha256:6abed397aee08fde271430d40c2407613c7cf79abfcf35fa40bb55ba5fe1cd0a');
  });

  test('--max-line-bytes: the limit in the message; a bad value is a usage error', () => {
    nulRunSmall();
    const bad = cli(['check', '.', '--max-line-bytes', '600000000'], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^harn-workbench: --max-line-bytes must be a whole number from 1 to 536870888, not 600000000\n/);
  });

  function nulRunSmall(): void {
    const size = 3 * MiB;
    const run = path.join(dir, 'small');
    sparseFile(path.join(run, 'llm_transcript.jsonl'), size);
    const result = cli(['transcript', 'llm_transcript.jsonl', '--format', 'json', '--max-line-bytes', String(MiB)], run);
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual(diagnostics(result), [
      {
        path: 'llm_transcript.jsonl',
        range: at0,
        severity: 'error',
        source: 'harn.artifacts',
        code: 'line_too_long',
        message: `This line is ${size} bytes long, over the limit of ${MiB} bytes (harn.artifacts.maxLineBytes): it is not read, so its row is not checked.`,
        data: { byteOffset: 0, byteLength: size, maxLineBytes: MiB },
      },
    ]);
  }
});
