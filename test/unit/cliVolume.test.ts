// The CLI on volume (issue 9, "caps instead of crashes"): a hundred thousand bad rows used to overflow the
// stack (`diagnostics.push(...found)`), a million printed half a gigabyte; now every format lists at most
// 1,000 diagnostics per file and one note, and says how many it left out. Every input is generated here.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

function run(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface JsonReport {
  version: number;
  diagnostics: Array<{
    path: string;
    range: { start: { line: number; character: number } };
    severity: string;
    source: string;
    code: string;
    message: string;
    data?: unknown;
  }>;
  omitted?: number;
}

const NOTE_130K = '129,001 more problems in this file are not shown (129,000 errors, 1 warning): at most 1,000 are listed per file, the most severe first.';

describe("check on 130,000 rows without a type (`yes '{}' | head -n 130000`)", () => {
  let root: string;
  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-volume-'));
    fs.writeFileSync(path.join(root, 'llm_transcript.jsonl'), '{}\n'.repeat(130_000));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('text: exit 1 (not an internal error), the first 1,000, the note, and a summary counting all', () => {
    const { status, stdout, stderr } = run(['check', 'llm_transcript.jsonl', '--root', '.'], root);
    assert.equal(stderr, '');
    assert.equal(status, 1);
    const lines = stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1002);
    assert.equal(
      lines[0],
      'llm_transcript.jsonl:1:1: error [harn.artifacts/invalid_row] This transcript row has no `type`: it is required (Harn rejects rows without it).',
    );
    assert.equal(lines[1000], `llm_transcript.jsonl:1001:1: error [harn.workbench/too_many_diagnostics] ${NOTE_130K}`);
    assert.equal(
      lines[1001],
      '130000 errors, 1 warning in 1 file (0 .harn, 1 run artifact); gate not run on .: no scripts/loud_boundaries.toml in it (--root); ' +
        'other: 130000 errors (1000 invalid_row, 129000 not shown), 1 warning (1 not shown); 129001 not shown (at most 1000 are listed per file)',
    );
  });

  test('json: the contract kept, `omitted` added, the note last with its counts', () => {
    const { status, stdout } = run(['check', 'llm_transcript.jsonl', '--root', '.', '--format', 'json'], root);
    assert.equal(status, 1);
    const report = JSON.parse(stdout) as JsonReport;
    assert.deepEqual(Object.keys(report), ['version', 'diagnostics', 'omitted']);
    assert.equal(report.version, 1);
    assert.equal(report.omitted, 129_001);
    assert.equal(report.diagnostics.length, 1001);
    assert.deepEqual(report.diagnostics.at(-1), {
      path: 'llm_transcript.jsonl',
      range: { start: { line: 1000, character: 0 }, end: { line: 1000, character: 0 } },
      severity: 'error',
      source: 'harn.workbench',
      code: 'too_many_diagnostics',
      message: NOTE_130K,
      data: { omitted: 129001, error: 129000, warning: 1, information: 0, hint: 0 },
    });
  });

  test('transcript FILE: the same cap', () => {
    const { status, stdout } = run(['transcript', 'llm_transcript.jsonl', '--format', 'json'], root);
    assert.equal(status, 1);
    const report = JSON.parse(stdout) as JsonReport;
    assert.equal(report.omitted, 129_001);
    assert.equal(report.diagnostics.length, 1001);
  });
});

describe('check on a million bad rows: bounded output in every format', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-volume-'));
    fs.mkdirSync(path.join(root, 'runs'));
    fs.writeFileSync(path.join(root, 'runs', 'llm_transcript.jsonl'), '{}\n'.repeat(1_000_000));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  // Unbounded, the text report was about 145 MB and the JSON one about 490 MB.
  for (const [format, limit] of [
    ['text', 200_000],
    ['json', 600_000],
    ['github', 250_000],
    ['sarif', 1_000_000],
  ] as const) {
    test(`${format}: under ${limit.toLocaleString('en-US')} bytes, and says how many are not shown`, () => {
      const { status, stdout, stderr } = run(['check', '--root', '.', '--format', format], root);
      assert.equal(stderr, '');
      assert.equal(status, 1);
      assert.ok(stdout.length < limit, `${stdout.length} bytes`);
      assert.match(stdout, /999,001 more problems in this file are not shown \(999,000 errors, 1 warning\)/);
      if (format === 'json') assert.equal((JSON.parse(stdout) as JsonReport).omitted, 999_001);
      if (format === 'github') assert.equal(stdout.trimEnd().split('\n').length, 1001);
      if (format === 'sarif') assert.equal((JSON.parse(stdout) as { runs: Array<{ results: unknown[] }> }).runs[0]?.results.length, 1001);
    });
  }
});

describe('check-loud-boundaries with more than 1,000 findings in the registry', () => {
  let root: string;
  const ENTRIES = 1200;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-volume-'));
    fs.mkdirSync(path.join(root, 'scripts'));
    fs.mkdirSync(path.join(root, 'crates', 'harn-vm', 'src'), { recursive: true });
    // Each entry has no anchors, no test, no variant and no site: no_anchor, stale_entry, no_test, and orphan_entry.
    let registry = '';
    for (let i = 0; i < ENTRIES; i++) registry += `[[boundary]]\nid = "b_${i}"\n\n`;
    fs.writeFileSync(path.join(root, 'scripts', 'loud_boundaries.toml'), registry);
    fs.writeFileSync(
      path.join(root, 'crates', 'harn-vm', 'src', 'boundary.rs'),
      'pub enum BoundaryId {\n    Only,\n}\nimpl BoundaryId {\n    pub fn as_str(self) -> &\'static str {\n        match self {\n            Self::Only => "only",\n        }\n    }\n}\n',
    );
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test("text (upstream's form): the true count in the header, 1,000 lines for the registry, then how many more", () => {
    const { status, stderr } = run(['check-loud-boundaries', '--root', '.'], root);
    assert.equal(status, 1);
    const lines = stderr.trimEnd().split('\n');
    const findings = 4 * ENTRIES + 1; // + the funnel's unregistered_boundary `only`
    assert.equal(lines[0], `::error::loud-boundary registry failed (${findings} finding(s)):`);
    assert.equal(lines.filter((l) => l.startsWith('  [')).length, 1001);
    assert.ok(
      lines.includes(`  … ${4 * ENTRIES - 1000} more finding(s) in scripts/loud_boundaries.toml not shown (at most 1000 are listed per file)`),
      lines.slice(-3).join('\n'),
    );
  });

  test("json: the gate's order kept, each file capped, `omitted` counted", () => {
    const { status, stdout } = run(['check-loud-boundaries', '--root', '.', '--format', 'json'], root);
    assert.equal(status, 1);
    const report = JSON.parse(stdout) as JsonReport;
    assert.equal(report.omitted, 4 * ENTRIES - 1000);
    const registry = report.diagnostics.filter((d) => d.path === 'scripts/loud_boundaries.toml');
    assert.equal(registry.length, 1001);
    assert.equal(registry.at(-1)?.code, 'too_many_diagnostics');
    assert.equal(
      report.diagnostics
        .filter((d) => d.path !== 'scripts/loud_boundaries.toml')
        .map((d) => d.code)
        .join(),
      'unregistered_boundary',
    );
    // The gate's order: the funnel's finding (rule 1) between the registry's orphan entries, as upstream prints.
    assert.equal(report.diagnostics[0]?.code, 'unregistered_boundary');
  });
});

describe('no unbounded spread in argument lists', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-volume-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('a 200,000-line doc comment without stars (Math.min(...lines) overflowed)', () => {
    fs.writeFileSync(path.join(root, 'doc.harn'), `/**\n${'  x\n'.repeat(200_000)}*/\nfn f() {\n  return 1\n}\n`);
    const { status, stdout, stderr } = run(['check', 'doc.harn', '--root', '.'], root);
    assert.equal(stderr, '');
    assert.equal(
      stdout,
      '0 errors, 0 warnings in 1 file (1 .harn, 0 run artifacts); gate not run on .: no scripts/loud_boundaries.toml in it (--root); other: none\n',
    );
    assert.equal(status, 0);
  });

  test('a run record whose relative_path has 200,000 segments (path.join(...parts) overflowed)', () => {
    const dir = path.join(root, 'run');
    fs.mkdirSync(dir);
    // The demo's broken run record, its first transcript pointer kept with a hostile relative_path.
    const record = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'examples', 'demo', 'runs', 'broken', 'run.json'), 'utf8')) as {
      observability: { transcript_pointers: Array<{ descriptor?: { relative_path?: string } | null }> };
    };
    const pointer = record.observability.transcript_pointers.find((p) => p.descriptor);
    assert.ok(pointer?.descriptor);
    pointer.descriptor.relative_path = `${'a/'.repeat(200_000)}t.jsonl`;
    record.observability.transcript_pointers = [pointer];
    fs.writeFileSync(path.join(dir, 'run.json'), JSON.stringify(record, null, 2));
    const { status, stdout, stderr } = run(['check', 'run/run.json', '--root', '.', '--format', 'json'], root);
    assert.equal(stderr, '');
    assert.equal(status, 1);
    const codes = (JSON.parse(stdout) as JsonReport).diagnostics.map((d) => d.code);
    assert.ok(codes.includes('unavailable'), codes.join());
  });
});
