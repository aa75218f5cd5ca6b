// `check` over training example files (dist/cli.js, as shipped): a folder with a valid and an invalid example (and
// a JSONL batch, a `.json` recognised by its schema_version, a file that is not UTF-8) reports exactly the invalid
// ones' problems, source harn.training, in every format, counts them in the summary, and exits 1; only valid ones
// exit 0.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_LINE_BYTES_LIMIT } from '../../server/src/artifacts/jsonl';
import type { FileDiagnostic } from '../../server/src/report/format';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const DEMO_EXAMPLE = path.join(REPO, 'examples', 'demo', 'runs', 'training', 'mispaired.training.json');
const run = (args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

type Json = Record<string, unknown>;

function valid(): Json {
  const e = JSON.parse(fs.readFileSync(DEMO_EXAMPLE, 'utf8')) as Json;
  delete e.reviewer_note;
  const assistant = (e.messages as Json[])[2] ?? {};
  assistant.tool_calls = (assistant.tool_calls as Json[]).slice(0, 1);
  return e;
}

describe('harn-workbench check and training example files', () => {
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-training-cli-'));
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, 'good.training.json'), JSON.stringify(valid(), null, 2) + '\n');
    const bad = valid();
    (bad.provenance as Json).usage = { provider_calls: 2, input_tokens: 900 };
    fs.writeFileSync(path.join(dir, 'bad.training.json'), JSON.stringify(bad, null, 2) + '\n');
    fs.writeFileSync(path.join(dir, 'batch.training.jsonl'), [JSON.stringify(valid()), JSON.stringify({ ...valid(), messages: [] })].join('\n') + '\n');
    // Recognised by its schema_version (serde's first key), with a BOM: a note, and the positions as VS Code counts them.
    fs.writeFileSync(path.join(dir, 'export.json'), '\ufeff' + JSON.stringify({ ...valid(), schema_version: 'harn.agent_training_example.v1' }));
    // Latin-1 bytes in a content string: upstream cannot read the file as UTF-8.
    const latin = Buffer.from(JSON.stringify(valid()).replace('Charged twice', 'Charged tw\u00ffce'), 'latin1');
    fs.writeFileSync(path.join(dir, 'latin1.training.jsonl'), latin);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the invalid files’ problems, on the right lines, source harn.training; exit 1', () => {
    const r = run(['check', '.', '--format', 'json'], dir);
    assert.equal(r.status, 1, r.stderr);
    const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: FileDiagnostic[] };
    assert.deepEqual(
      diagnostics.map((d) => `${d.path}:${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.source}/${d.code}`),
      [
        `bad.training.json:${JSON.stringify(valid(), null, 2)
          .split('\n')
          .findIndex((l) => l.includes('"usage"'))}:4 error harn.training/invalid_training_example`,
        `batch.training.jsonl:1:${JSON.stringify({ ...valid(), messages: [] }).indexOf('"messages"')} error harn.training/missing_terminal_assistant`,
        'export.json:0:0 information harn.training/utf8_bom',
        `latin1.training.jsonl:0:${JSON.stringify(valid()).indexOf('Charged tw') + 'Charged tw'.length} error harn.training/invalid_utf8`,
      ],
    );
    assert.match(diagnostics[0]?.message ?? '', /`provenance\.usage\.output_tokens` is required/);
    assert.match(diagnostics[3]?.message ?? '', /the byte ff at byte offset \d+ is not UTF-8/);
  });

  test('the text summary counts the training example files in their own category', () => {
    const r = run(['check', '.'], dir);
    const summary = r.stdout.trimEnd().split('\n').pop() ?? '';
    assert.match(summary, /^3 errors, 0 warnings, 1 info in 5 files \(0 \.harn, 0 run artifacts, 5 training example files\); /);
    assert.match(summary, /other: 3 errors \(1 invalid_training_example, 1 invalid_utf8, 1 missing_terminal_assistant\), 1 info \(1 utf8_bom\)$/);
  });

  test('only valid files: exit 0, no diagnostics', () => {
    const r = run(['check', 'good.training.json', '--format', 'json'], dir);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { diagnostics: unknown[] }).diagnostics, []);
    assert.match(run(['check', 'good.training.json'], dir).stdout, /in 1 file \(0 \.harn, 0 run artifacts, 1 training example file\)/);
  });

  test('a file larger than one string can hold is not read: one clear error (a sparse file, nothing allocated)', () => {
    const big = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-training-big-'));
    try {
      const file = path.join(big, 'huge.training.jsonl');
      fs.writeFileSync(file, '');
      fs.truncateSync(file, MAX_LINE_BYTES_LIMIT + 1);
      const r = run(['check', 'huge.training.jsonl', '--format', 'json'], big);
      assert.equal(r.status, 1, r.stderr);
      const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: FileDiagnostic[] };
      assert.deepEqual(
        diagnostics.map((d) => [d.path, d.code, d.source]),
        [['huge.training.jsonl', 'file_too_large', 'harn.training']],
      );
      assert.match(diagnostics[0]?.message ?? '', new RegExp(`the file is ${MAX_LINE_BYTES_LIMIT + 1} bytes`));
    } finally {
      fs.rmSync(big, { recursive: true, force: true });
    }
  });

  test('github and sarif formats carry the same findings', () => {
    const github = run(['check', 'bad.training.json', '--format', 'github'], dir);
    assert.match(github.stdout, /^::error file=bad\.training\.json,line=\d+,/m);
    const sarif = JSON.parse(run(['check', 'bad.training.json', '--format', 'sarif'], dir).stdout) as { runs: { results: { ruleId: string }[] }[] };
    assert.deepEqual(
      sarif.runs[0]?.results.map((r) => r.ruleId),
      ['harn.training/invalid_training_example'],
    );
  });
});
