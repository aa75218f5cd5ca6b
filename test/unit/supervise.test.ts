// scripts/supervise.mjs, which runs code-server for `npm start`: the command and everything it started
// end when the supervisor's parent dies (SIGKILL included), when the parent closes the pipe, and when the
// command itself exits; a command that ignores SIGTERM gets SIGKILL after the grace period.
// Uses /proc to see processes, so it runs on Linux only.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot } from '../support/corpus';
import { running, waitAllGone } from '../support/processes';

const supervise = join(repoRoot, 'scripts', 'supervise.mjs');
const skip = process.platform === 'linux' ? false : 'reads /proc (Linux only)';

// The supervised command: starts a grandchild (in the command's process group), writes both pids, then
// sleeps (or exits with EXIT_CODE after EXIT_AFTER ms, leaving the grandchild behind). STUBBORN: both
// ignore SIGTERM. Bounds are generous: a loaded CI machine takes its time to start node.
const COMMAND = `
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const ignore = process.env.STUBBORN ? "process.on('SIGTERM', () => {});" : '';
if (process.env.STUBBORN) process.on('SIGTERM', () => {});
const grandchild = spawn(process.execPath, ['-e', ignore + 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
writeFileSync(process.env.PIDS_FILE, JSON.stringify({ child: process.pid, grandchild: grandchild.pid }));
if (process.env.EXIT_AFTER) setTimeout(() => process.exit(Number(process.env.EXIT_CODE)), Number(process.env.EXIT_AFTER));
else setInterval(() => {}, 1000);
`;

// The parent, as start.mjs runs it: the supervisor detached, stdin a pipe, the group's pid on fd 3;
// SIGUSR2 makes it close the pipe (start.mjs's way of stopping code-server).
const PARENT = `
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const [supervise, out, ...command] = process.argv.slice(2);
const sup = spawn(process.execPath, [supervise, '--', ...command], { stdio: ['pipe', 'inherit', 'inherit', 'pipe'], detached: true });
sup.stdio[3].on('data', (d) => writeFileSync(out, JSON.stringify({ supervisor: sup.pid, group: Number(String(d).trim()) })));
process.on('SIGUSR2', () => sup.stdin.end());
sup.on('exit', (code) => { writeFileSync(out + '.exit', String(code)); process.exit(0); });
setInterval(() => {}, 1000);
`;

let scratch: string;
const started: ChildProcess[] = [];

async function waitForFile(path: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path) || !readFileSync(path, 'utf8')) {
    if (Date.now() > deadline) throw new Error(`no ${path} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return readFileSync(path, 'utf8');
}

interface Tree {
  parent: ChildProcess;
  supervisor: number;
  group: number;
  child: number;
  grandchild: number;
  out: string;
}

/** Starts parent → supervisor → command → grandchild and waits until every pid is known. */
async function startTree(name: string, env: Record<string, string> = {}): Promise<Tree> {
  const out = join(scratch, `${name}.json`);
  const pidsFile = join(scratch, `${name}.pids.json`);
  const parentScript = join(scratch, 'parent.mjs');
  const parent = spawn(process.execPath, [parentScript, supervise, out, process.execPath, '-e', COMMAND], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PIDS_FILE: pidsFile, ...env },
  });
  started.push(parent);
  const { supervisor, group } = JSON.parse(await waitForFile(out)) as { supervisor: number; group: number };
  const { child, grandchild } = JSON.parse(await waitForFile(pidsFile)) as { child: number; grandchild: number };
  return { parent, supervisor, group, child, grandchild, out };
}

describe('scripts/supervise.mjs', { skip, timeout: 180_000 }, () => {
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'harn-supervise-'));
    writeFileSync(join(scratch, 'parent.mjs'), PARENT);
  });

  after(() => {
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  });

  test('a SIGKILL of the parent ends the supervisor, the command and what the command started', async (t) => {
    const tree = await startTree('sigkill');
    assert.equal(tree.group, tree.child, 'the command leads its own process group');
    for (const pid of [tree.supervisor, tree.child, tree.grandchild]) assert.ok(running(pid), `${pid} runs before the kill`);
    tree.parent.kill('SIGKILL');
    const ms = await waitAllGone([tree.supervisor, tree.child, tree.grandchild], 10_000);
    t.diagnostic(`all gone ${ms} ms after the parent's SIGKILL`);
  });

  test('a command that ignores SIGTERM is killed with SIGKILL when the grace period ends', async (t) => {
    const tree = await startTree('stubborn', { STUBBORN: '1', HARN_SUPERVISE_GRACE_MS: '600' });
    const killed = Date.now();
    tree.parent.kill('SIGKILL');
    await waitAllGone([tree.supervisor, tree.child, tree.grandchild], 10_000);
    const ms = Date.now() - killed;
    t.diagnostic(`all gone ${ms} ms after the parent's SIGKILL (grace 600 ms)`);
    assert.ok(ms >= 500, `SIGTERM was ignored, so they lived until the grace period ended (${ms} ms)`);
  });

  test('closing the pipe stops the command; the supervisor exits 0', async () => {
    const tree = await startTree('close');
    tree.parent.kill('SIGUSR2'); // the parent closes the supervisor's stdin
    assert.equal(await waitForFile(`${tree.out}.exit`), '0');
    await waitAllGone([tree.supervisor, tree.child, tree.grandchild], 10_000);
  });

  test("when the command exits by itself, what it left behind is killed and its status is the supervisor's", async () => {
    const tree = await startTree('exits', { EXIT_AFTER: '300', EXIT_CODE: '7' });
    assert.equal(await waitForFile(`${tree.out}.exit`), '7');
    await waitAllGone([tree.supervisor, tree.child, tree.grandchild], 10_000);
  });
});
