// scripts/run-tests.mjs and test/support/corpus.ts, run on a scratch repository: a suite without test
// files fails, skipped suites count as skipped tests in the last line (`N passed, N failed, N skipped`),
// the electron suite is counted from its mocha summary and SKIP line, and with CI=true a test that
// needs ../shared fails instead of skipping.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot } from '../support/corpus';

let scratch: string;
let repo: string;

function write(relative: string, text: string): void {
  const file = path.join(repo, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function copy(relative: string): void {
  write(relative, fs.readFileSync(path.join(repoRoot, relative), 'utf8'));
}

/** Runs the scratch repository's scripts/run-tests.mjs; CI is set only when `ci` is given. */
function run(suites: string[], ci?: string): { status: number | null; stdout: string; last: string } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CI;
  delete env.NODE_TEST_CONTEXT;
  if (ci !== undefined) env.CI = ci;
  const result = spawnSync(process.execPath, [path.join('scripts', 'run-tests.mjs'), ...suites], { cwd: repo, env, encoding: 'utf8' });
  const lines = result.stdout.trimEnd().split('\n');
  return { status: result.status, stdout: result.stdout, last: lines[lines.length - 1] ?? '' };
}

const UNIT = `import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
test('one', () => assert.equal(1, 1));
test('two', () => assert.equal(2, 2));
test('skipped', { skip: 'not here' }, () => assert.fail('runs'));
describe('a skipped suite of two', { skip: 'not here either' }, () => {
  test('a', () => assert.fail('runs'));
  test('b', () => assert.fail('runs'));
});
`;

const CORPUS = `import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
test('needs nothing', () => assert.equal(1, 1));
describe('needs ../shared', { skip: corpusSkip }, () => {
  test('lists the corpus', () => assert.deepEqual(corpusFiles(), ['a.harn']));
  test('reads the corpus', () => assert.equal(readCorpus('a.harn'), 'pipeline main() {}\\n'));
});
`;

const FAILING = `import assert from 'node:assert/strict';
import { test } from 'node:test';
test('passes', () => assert.equal(1, 1));
test('fails', () => assert.equal(1, 2));
`;

/** Prints what test/electron/run.ts prints when it falls back to code-server's host: a SKIP line, then mocha's summary. */
const ELECTRON = `console.log('SKIP electron: no desktop VS Code (set HARN_VSCODE_EXECUTABLE)');
console.log('\\u001b[0m  scenario 1\\u001b[0m');
console.log('\\u001b[92m \\u001b[0m\\u001b[32m 5 passing\\u001b[0m\\u001b[90m (3s)\\u001b[0m');
console.log('\\u001b[36m 1 pending\\u001b[0m');
console.log('[electron] passed');
`;

describe('scripts/run-tests.mjs', { timeout: 120_000 }, () => {
  before(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-run-tests-'));
    // ../shared of the scratch repository is scratch/shared: present or not as each test needs.
    repo = path.join(scratch, 'repo');
    fs.mkdirSync(repo);
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(repo, 'node_modules'), 'dir');
    write('package.json', '{ "name": "scratch", "private": true }\n');
    for (const file of ['scripts/run-tests.mjs', 'test/support/countReporter.mjs', 'test/support/corpus.ts']) copy(file);
    write('test/unit/a.test.ts', UNIT);
    write('test/corpus/c.test.ts', CORPUS);
    write('test/failing/f.test.ts', FAILING);
    write('test/electron/run.ts', ELECTRON);
    fs.mkdirSync(path.join(repo, 'test', 'lsp'));
  });
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  test('counts passed and skipped tests; a skipped suite is one skipped test', () => {
    const r = run(['unit']);
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /^unit: passed 2, failed 0, skipped 2$/m);
    assert.equal(r.last, '2 passed, 0 failed, 2 skipped');
  });

  test('a failing test fails the run and is named', () => {
    const r = run(['unit', 'failing']);
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /^failing: passed 1, failed 1, skipped 0$/m);
    assert.match(r.stdout, /^ {2}failing: fails \(.*f\.test\.ts\)$/m);
    assert.equal(r.last, '3 passed, 1 failed, 2 skipped');
  });

  test('a suite with no test file fails, and so does an unknown one', () => {
    const r = run(['lsp', 'nosuch']);
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /^FAIL lsp: no \*\.test\.ts file under test[/\\]lsp$/m);
    assert.match(r.stdout, /^FAIL nosuch: no \*\.test\.ts file under test[/\\]nosuch$/m);
    assert.equal(r.last, '0 passed, 2 failed, 0 skipped');
  });

  test('electron: the mocha summary and the SKIP line are counted', () => {
    const r = run(['electron']);
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /^electron: passed 5, failed 0, skipped 2$/m);
    assert.equal(r.last, '5 passed, 0 failed, 2 skipped');
  });

  test('electron: a run that exits non-zero without a mocha summary is one failed test', () => {
    write('test/electron/run.ts', `console.error('FAIL electron: bundling failed');\nprocess.exit(1);\n`);
    try {
      const r = run(['electron']);
      assert.equal(r.status, 1, r.stdout);
      assert.equal(r.last, '0 passed, 1 failed, 0 skipped');
    } finally {
      write('test/electron/run.ts', ELECTRON);
    }
  });

  describe('tests that need ../shared', () => {
    test('without it they skip (their suite is one skipped test)', () => {
      const r = run(['corpus']);
      assert.equal(r.status, 0, r.stdout);
      assert.equal(r.last, '1 passed, 0 failed, 1 skipped');
    });

    test('without it and with CI=true they fail, saying why', () => {
      const r = run(['corpus'], 'true');
      assert.equal(r.status, 1, r.stdout);
      assert.equal(r.last, '1 passed, 2 failed, 0 skipped');
      const missing = `Harn corpus not found at ${path.join(scratch, 'shared', 'corpus')}`;
      assert.ok(
        r.stdout.includes(
          `${missing} (it sits beside the repository in sessions and CI, not in a plain clone); CI=true, so a test that needs ../shared fails instead of skipping`,
        ),
        r.stdout,
      );
    });

    test('with it they run, with CI=true or not', () => {
      fs.mkdirSync(path.join(scratch, 'shared', 'corpus'), { recursive: true });
      fs.writeFileSync(path.join(scratch, 'shared', 'corpus', 'a.harn'), 'pipeline main() {}\n');
      try {
        for (const ci of [undefined, 'true']) {
          const r = run(['corpus'], ci);
          assert.equal(r.status, 0, r.stdout);
          assert.equal(r.last, '3 passed, 0 failed, 0 skipped');
        }
      } finally {
        fs.rmSync(path.join(scratch, 'shared'), { recursive: true, force: true });
      }
    });
  });
});
