// scripts/e2e/setup.mjs and the Debian packages: before it installs anything it prints which packages are
// missing and which are present (dpkg-query), why each is needed and the apt-get commands;
// HARN_WORKBENCH_NO_APT=1 / --no-apt never runs apt-get and says what will then not work, stopping only
// when a missing package is really needed; --editor-only (npm start) leaves chromium out.
// Run on a scratch copy of the script (so nothing is installed under the real .cache/e2e) with a fake
// dpkg-query and apt-get first on PATH; no real package is installed.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot } from '../support/corpus';

const ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

// Everything is installed but the names in FAKE_MISSING (comma-separated), as dpkg-query -W prints it.
const FAKE_DPKG_QUERY = `#!/usr/bin/env node
const missing = new Set((process.env.FAKE_MISSING ?? '').split(',').filter(Boolean));
const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
let status = 0;
for (const name of names) {
  if (missing.has(name)) { process.stderr.write('dpkg-query: no packages found matching ' + name + '\\n'); status = 1; }
  else process.stdout.write(name + '\\tinstall ok installed\\t1.0-fake\\n');
}
process.exit(status);
`;

// Logs each call; prints apt's summary for -s and --assume-no; FAKE_APT_INSTALL_STATUS for a real install.
const FAKE_APT_GET = `#!/usr/bin/env node
const { appendFileSync } = require('node:fs');
const args = process.argv.slice(2);
appendFileSync(process.env.FAKE_APT_LOG, args.join(' ') + '\\n');
if (args.includes('-s') || args.includes('--assume-no')) {
  console.log('The following NEW packages will be installed:\\n  fake-dependency ' + args.filter((a) => !a.startsWith('-') && a !== 'install').join(' '));
  console.log('0 upgraded, 47 newly installed, 0 to remove and 0 not upgraded.');
  if (args.includes('--assume-no')) console.log('Need to get 150 MB of archives.\\nAfter this operation, 440 MB of additional disk space will be used.\\nAbort.');
  process.exit(args.includes('--assume-no') ? 1 : 0);
}
process.exit(args[0] === 'install' ? Number(process.env.FAKE_APT_INSTALL_STATUS ?? 0) : 0);
`;

let scratch: string;
let repo: string;
let bin: string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  apt: string[];
}

function setup(args: string[], missing: string[], env: Record<string, string> = {}): Run {
  const aptLog = join(scratch, `apt-${Math.random().toString(36).slice(2)}.log`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.HARN_WORKBENCH_NO_APT;
  delete childEnv.CI;
  Object.assign(childEnv, { PATH: [bin, process.env.PATH ?? ''].join(delimiter), FAKE_MISSING: missing.join(','), FAKE_APT_LOG: aptLog }, env);
  const result = spawnSync(process.execPath, [join(repo, 'scripts', 'e2e', 'setup.mjs'), ...args], { cwd: repo, env: childEnv, encoding: 'utf8' });
  const apt = existsSync(aptLog) ? readFileSync(aptLog, 'utf8').trimEnd().split('\n') : [];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, apt };
}

/** The line of the plan's table for a package. */
function row(out: string, name: string): string {
  return out.split('\n').find((line) => line.includes(`  ${name} `)) ?? `(no row for ${name})`;
}

describe('scripts/e2e/setup.mjs: the Debian packages', { timeout: 120_000 }, () => {
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'harn-setup-apt-'));
    repo = join(scratch, 'repo');
    mkdirSync(join(repo, 'scripts', 'e2e'), { recursive: true });
    copyFileSync(join(repoRoot, 'scripts', 'e2e', 'setup.mjs'), join(repo, 'scripts', 'e2e', 'setup.mjs'));
    bin = join(scratch, 'bin');
    mkdirSync(bin);
    for (const [name, text] of [
      ['dpkg-query', FAKE_DPKG_QUERY],
      ['apt-get', FAKE_APT_GET],
    ] as const) {
      writeFileSync(join(bin, name), text);
      chmodSync(join(bin, name), 0o755);
    }
  });

  after(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  test('--plan --editor-only (npm start): missing and present packages, why, and the apt-get commands; chromium left out', (t) => {
    const run = setup(['--plan', '--editor-only'], ['chromium', 'libkrb5-dev', 'libxkbfile-dev']);
    for (const line of run.stdout.split('\n')) t.diagnostic(line);
    assert.equal(run.status, 0, run.stderr);
    assert.match(row(run.stdout, 'libkrb5-dev'), /MISSING .*Kerberos headers/);
    assert.match(row(run.stdout, 'libxkbfile-dev'), /MISSING/);
    assert.match(row(run.stdout, 'python3'), /present 1\.0-fake/);
    assert.match(row(run.stdout, 'chromium'), /missing .*not needed by npm start/);
    if (ROOT) {
      assert.match(run.stdout, /Would install the 2 MISSING package\(s\) SYSTEM-WIDE/);
      assert.match(run.stdout, /^\[e2e setup\] {3}apt-get update$/m);
      assert.match(run.stdout, /^\[e2e setup\] {3}apt-get install -y --no-install-recommends libkrb5-dev libxkbfile-dev$/m);
      assert.match(run.stdout, /apt-get -s: 0 upgraded, 47 newly installed/);
      assert.deepEqual(run.apt, ['install -s --no-install-recommends libkrb5-dev libxkbfile-dev'], 'only a simulation');
    } else {
      assert.match(run.stdout, /not running as root/);
      assert.deepEqual(run.apt, []);
    }
    assert.match(run.stdout, /code-server 4\.139\.1: to install and build/);
    assert.match(run.stdout, /--plan: nothing installed/);
  });

  test('nothing missing: one line naming what is present, and apt-get is not run', () => {
    const run = setup(['--plan', '--editor-only'], ['chromium']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Debian packages: all present \(build-essential 1\.0-fake, python3 1\.0-fake, libkrb5-dev 1\.0-fake/);
    assert.doesNotMatch(run.stdout, /chromium/);
    assert.deepEqual(run.apt, []);
  });

  test('HARN_WORKBENCH_NO_APT=1: a missing build package stops with what will not work and how to install it; apt-get never runs', (t) => {
    const run = setup(['--editor-only'], ['libkrb5-dev', 'libxkbfile-dev'], { HARN_WORKBENCH_NO_APT: '1' });
    for (const line of (run.stdout + run.stderr).split('\n')) t.diagnostic(line);
    assert.equal(run.status, 3, 'exit 3: cannot be set up here');
    assert.match(run.stdout, /Not installing libkrb5-dev libxkbfile-dev: HARN_WORKBENCH_NO_APT=1 \/ --no-apt: not running apt-get\. Without them:/);
    assert.match(run.stdout, /libkrb5-dev: code-server 4\.139\.1 cannot be built without it\./);
    assert.match(run.stdout, /libxkbfile-dev: going on without it/);
    assert.match(
      run.stderr,
      /CANNOT INSTALL .*code-server 4\.139\.1 cannot be built without libkrb5-dev\. Install them yourself \(.*apt-get install -y --no-install-recommends libkrb5-dev libxkbfile-dev\)/,
    );
    assert.deepEqual(run.apt, []);
  });

  test('--no-apt: only packages that are not really needed missing: it says so and goes on', () => {
    const run = setup(['--plan', '--editor-only', '--no-apt'], ['libxkbfile-dev', 'libsecret-1-dev']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /libxkbfile-dev: going on without it/);
    assert.match(run.stdout, /libsecret-1-dev: going on without it/);
    assert.deepEqual(run.apt, []);
  });

  test('the e2e toolchain (no --editor-only) with --no-apt and no chromium: stops, the e2e tests skip with that reason', () => {
    const run = setup(['--no-apt'], ['chromium']);
    assert.equal(run.status, 3);
    assert.match(run.stdout, /chromium: the e2e tests cannot open the editor in a browser/);
    assert.match(run.stderr, /the e2e tests need chromium/);
    assert.deepEqual(run.apt, []);
  });

  test("as root: the plan first, then apt-get update, apt's own account (--assume-no), then the install", { skip: ROOT ? false : 'needs root' }, (t) => {
    // The fake install fails, so that the script stops before it would install Node 24 and code-server.
    const run = setup(['--editor-only'], ['libkrb5-dev'], { CI: 'true', FAKE_APT_INSTALL_STATUS: '100' });
    for (const line of (run.stdout + run.stderr).split('\n')) t.diagnostic(line);
    assert.equal(run.status, 1, 'the failed install fails the setup');
    assert.match(run.stdout, /Installing the 1 MISSING package\(s\) SYSTEM-WIDE \(running as root\)/);
    const planAt = run.stdout.indexOf('apt-get install -y --no-install-recommends libkrb5-dev');
    const aptSays = run.stdout.indexOf('apt: 0 upgraded, 47 newly installed');
    assert.ok(planAt >= 0 && aptSays > planAt, "the plan is printed before apt is run, then apt's own account");
    assert.match(run.stdout, /apt: After this operation, 440 MB of additional disk space will be used\./);
    assert.deepEqual(run.apt, ['update', 'install --assume-no --no-install-recommends libkrb5-dev', 'install -y --no-install-recommends libkrb5-dev']);
  });
});
