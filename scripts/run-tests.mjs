// Runs the test suites with node's test runner. Node 20 does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.mjs [suite...]   (suites: unit, corpus, lsp, e2e, electron; default: all)
// `electron` is not node:test: it runs test/electron/run.ts, which runs its mocha suite inside a desktop
// VS Code (@vscode/test-electron) or prints why it skipped.
//
// A suite that finds no test file fails (a renamed folder must not pass by running nothing). Each
// node:test suite prints node's spec output and also reports every outcome through
// test/support/countReporter.mjs into a temporary file; the electron suite's mocha summary
// (`N passing`, `N failing`, `N pending`) and its `SKIP electron:` line are read from its output. The
// last line is the total over all suites, alone on its line in exactly this form (CI reads it):
//   N passed, N failed, N skipped
// A skipped suite counts as one skipped test (node does not list the tests of a skipped `describe`).
// With CI=true, tests that need ../shared fail instead of skipping (test/support/corpus.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const reporter = pathToFileURL(join(repoRoot, 'test', 'support', 'countReporter.mjs')).href;
const all = ['unit', 'corpus', 'lsp', 'e2e', 'electron'];
const suites = process.argv.slice(2).length ? process.argv.slice(2) : all;

function testFiles(dir) {
  let out = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(testFiles(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** @typedef {{ suite: string, passed: number, failed: number, skipped: number, failures: string[] }} SuiteCount */

/** @returns {SuiteCount} */
function count(suite) {
  return { suite, passed: 0, failed: 0, skipped: 0, failures: [] };
}

function fail(counts, why) {
  counts.failed++;
  counts.failures.push(why);
}

/** Runs one node:test suite; its counts come from the count reporter's lines. */
function runNodeSuite(suite) {
  const counts = count(suite);
  const dir = join('test', suite);
  const files = testFiles(dir);
  if (!files.length) {
    console.log(`\n=== ${suite}: no test files`);
    console.log(`FAIL ${suite}: no *.test.ts file under ${dir}`);
    fail(counts, `${suite}: no test files under ${dir}`);
    return counts;
  }
  console.log(`\n=== ${suite}: ${files.length} file(s)`);
  const tmp = mkdtempSync(join(tmpdir(), 'harn-test-counts-'));
  const destination = join(tmp, `${suite}.txt`);
  try {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${reporter}`,
        `--test-reporter-destination=${destination}`,
        ...files,
      ],
      { stdio: 'inherit' },
    );
    let lines = [];
    try {
      lines = readFileSync(destination, 'utf8').split('\n').filter(Boolean);
    } catch {
      // No report: counted as a failure below.
    }
    for (const line of lines) {
      const [outcome, file, name] = line.split('\t');
      if (outcome === 'pass') counts.passed++;
      else if (outcome === 'skip') counts.skipped++;
      else if (outcome === 'fail') fail(counts, `${suite}: ${name} (${file})`);
    }
    const status = result.error ? result.error.message : result.status !== 0 ? `exited with ${result.status ?? result.signal}` : undefined;
    if (status && counts.failed === 0) fail(counts, `${suite}: node --test ${status} with no failed test reported`);
    if (!status && counts.passed + counts.failed + counts.skipped === 0) fail(counts, `${suite}: ${files.length} file(s) but no test ran`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return counts;
}

/** The last `N <word>` of a mocha summary in `text`, or undefined. */
function mochaCount(text, word) {
  const matches = [...text.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'gm'))];
  const last = matches.at(-1);
  return last ? Number(last[1]) : undefined;
}

/** Runs test/electron/run.ts, echoing its output, and reads the counts from its mocha summary and SKIP line. */
async function runElectron() {
  const counts = count('electron');
  console.log('\n=== electron: test/electron/run.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'electron', 'run.ts')], { stdio: ['inherit', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  const status = await new Promise((resolve) => {
    child.on('error', (error) => resolve(error.message));
    child.on('close', (code, signal) => resolve(code === 0 ? undefined : `exited with ${code ?? signal}`));
  });
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
  const skip = /^SKIP electron: .*$/m.exec(plain);
  // No desktop VS Code: that run is one skipped test (the same suite may then run in code-server's host).
  if (skip) counts.skipped++;
  const passing = mochaCount(plain, 'passing');
  const failing = mochaCount(plain, 'failing') ?? 0;
  const pending = mochaCount(plain, 'pending') ?? 0;
  if (passing !== undefined) {
    counts.passed += passing;
    counts.skipped += pending;
    for (let i = 0; i < failing; i++) fail(counts, `electron: ${failing} mocha test(s) failing`);
  } else if (!skip && !status) {
    counts.passed++;
  }
  if (status && counts.failed === 0) fail(counts, `electron: test/electron/run.ts ${status}`);
  return counts;
}

const results = [];
for (const suite of suites) results.push(suite === 'electron' ? await runElectron() : runNodeSuite(suite));

const total = { passed: 0, failed: 0, skipped: 0 };
console.log('\n=== summary');
for (const r of results) {
  console.log(`${r.suite}: passed ${r.passed}, failed ${r.failed}, skipped ${r.skipped}`);
  total.passed += r.passed;
  total.failed += r.failed;
  total.skipped += r.skipped;
}
const failures = [...new Set(results.flatMap((r) => r.failures))];
if (failures.length) {
  console.log('failed:');
  for (const f of failures.slice(0, 50)) console.log(`  ${f}`);
  if (failures.length > 50) console.log(`  … and ${failures.length - 50} more`);
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
