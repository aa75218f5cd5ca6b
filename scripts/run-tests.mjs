// Runs the test suites with node's test runner. Node 20 does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.mjs [suite...]   (suites: unit, corpus, lsp, e2e, electron; default: all)
// `electron` is not node:test: it runs test/electron/run.ts, which runs its mocha suite inside a desktop
// VS Code (@vscode/test-electron) or prints why it skipped.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

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

let failed = false;
for (const suite of suites) {
  if (suite === 'electron') {
    console.log('\n=== electron: test/electron/run.ts');
    const result = spawnSync(process.execPath, ['--import', 'tsx', join('test', 'electron', 'run.ts')], { stdio: 'inherit' });
    if (result.status !== 0) failed = true;
    continue;
  }
  const files = testFiles(join('test', suite));
  if (!files.length) continue;
  console.log(`\n=== ${suite}: ${files.length} file(s)`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
