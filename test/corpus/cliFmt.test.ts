// `harn-workbench fmt` (dist/cli.js) on copies of the formatter oracle's files (../shared/corpus/fmt-oracle):
// `--check` over the 798 files upstream leaves alone exits 0 and says nothing; over the 29 it changes it names
// exactly those 29 (exit 1), and `--write` makes each one byte-identical to the oracle's output.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { corpusPath, corpusSkip, readCorpus } from '../support/corpus';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const ORACLE = 'fmt-oracle';
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-fmt-corpus-')));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder holding copies of these corpus files at their corpus paths, a `.git` at its top (no harn.toml above counts). */
function copyOf(name: string, files: readonly string[]): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(corpusPath(rel), path.join(dir, rel));
  }
  return dir;
}

/** The sources the oracle changes: the paths under formatted/. */
function changedSources(): string[] {
  const root = corpusPath(path.join(ORACLE, 'formatted'));
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.harn')) out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out;
}

const lines = (text: string): string[] => text.split('\n').filter(Boolean);

describe('harn-workbench fmt on the formatter oracle', { skip: corpusSkip }, () => {
  test('--check over the 798 unchanged files: exit 0, nothing printed, nothing written', () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)');
    const unchanged = lines(readCorpus(path.join(ORACLE, 'unchanged.txt')));
    assert.equal(unchanged.length, 798);
    const dir = copyOf('unchanged', unchanged);
    const r = cli(['fmt', '--check', '.'], dir);
    assert.equal(r.stderr, '', 'files named as would be reformatted, or errors');
    assert.deepEqual(r, { status: 0, stdout: '', stderr: '' });
    // And write mode finds nothing to write.
    assert.deepEqual(cli(['fmt', '.'], dir), { status: 0, stdout: '', stderr: '' });
  });

  test('over the 29 changed sources: --check names exactly them (exit 1); --write makes them the oracle’s output', () => {
    const changed = changedSources();
    assert.equal(changed.length, 29);
    const dir = copyOf('changed', changed);
    const checked = cli(['fmt', '--check', '.'], dir);
    assert.equal(checked.status, 1, checked.stderr);
    assert.equal(checked.stdout, '');
    assert.deepEqual(lines(checked.stderr).sort(), changed.map((rel) => `./${rel}: would be reformatted`).sort());
    const written = cli(['fmt', '--write', '.'], dir);
    assert.equal(written.status, 0, written.stderr);
    assert.equal(written.stderr, '');
    assert.deepEqual(lines(written.stdout).sort(), changed.map((rel) => `formatted ./${rel}`).sort());
    const mismatches = changed.filter((rel) => fs.readFileSync(path.join(dir, rel), 'utf8') !== readCorpus(path.join(ORACLE, 'formatted', rel)));
    assert.deepEqual(mismatches, [], 'written files that differ from the oracle');
    assert.deepEqual(cli(['fmt', '--check', '.'], dir), { status: 0, stdout: '', stderr: '' }, 'the output is a fixed point');
  });
});
