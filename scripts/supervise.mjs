#!/usr/bin/env node
// Runs one command and makes sure that it, and every process it starts, ends when the parent of this
// supervisor ends, however the parent ends (SIGKILL included). `npm start` runs code-server through it.
//
// Usage, from the parent (no shell; the supervisor's stdin must be a pipe the parent keeps open):
//   const child = spawn(process.execPath, ['scripts/supervise.mjs', '--', command, ...args],
//     { stdio: ['pipe', 'inherit', 'inherit', 'pipe'], detached: true });
//   child.stdio[3] yields one line, the command's pid (= its process group id).
//
// How: the command is spawned detached, so it leads a process group of its own that holds everything it
// starts (code-server's server, extension host, pty host, watchers). When the parent dies the kernel
// closes its end of the stdin pipe, the supervisor reads end-of-file and ends that group: SIGTERM,
// then SIGKILL after a grace period. The same on SIGINT, SIGTERM or SIGHUP, and when the parent closes
// the pipe on purpose (its way of saying "stop"). When the command exits by itself, whatever it left
// in its group is killed too, and the supervisor exits with the command's status.
// The parent starts the supervisor detached as well, so that a signal to the terminal's foreground
// process group (Ctrl-C, or kill -9 of that whole group) does not reach it: the supervisor outlives its
// parent just long enough to clean up. Only one case is left: a SIGKILL of the supervisor itself, which
// the parent handles by killing the command's group (it has its pid from fd 3).
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';

// HARN_SUPERVISE_GRACE_MS: the time between SIGTERM and SIGKILL (5 s; the unit test shortens it).
const GRACE_MS = Number(process.env.HARN_SUPERVISE_GRACE_MS ?? 5_000);

const separator = process.argv.indexOf('--');
const [command, ...args] = separator >= 0 ? process.argv.slice(separator + 1) : [];
if (!command) {
  console.error('usage: node scripts/supervise.mjs -- COMMAND [ARG...]');
  process.exit(2);
}

const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
const group = child.pid;
if (group === undefined) {
  child.once('error', (error) => {
    console.error(`[supervise] ${command} could not start: ${error.message}`);
    process.exit(1);
  });
} else {
  try {
    writeSync(3, `${group}\n`);
  } catch {
    // no fd 3: nobody asked for the pid
  }
}

function killGroup(signal) {
  if (group === undefined) return;
  try {
    process.kill(-group, signal);
  } catch {
    // the group is gone
  }
}

function groupAlive() {
  if (group === undefined) return false;
  try {
    process.kill(-group, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

let stopping = false;
let deadline = 0;
function stop() {
  if (stopping) return;
  stopping = true;
  deadline = Date.now() + GRACE_MS;
  killGroup('SIGTERM');
  setTimeout(() => {
    killGroup('SIGKILL');
    process.exit(1);
  }, GRACE_MS).unref();
}

child.on('exit', (code, signal) => {
  const status = stopping ? 0 : (code ?? (signal ? 128 : 1));
  // The leader is gone; what it left in its group (a server it forked, say) goes too: SIGTERM, and
  // SIGKILL for whatever is still there when the grace period ends.
  if (!stopping) {
    deadline = Date.now() + GRACE_MS;
    killGroup('SIGTERM');
  }
  const poll = setInterval(() => {
    if (groupAlive() && Date.now() < deadline) return;
    clearInterval(poll);
    killGroup('SIGKILL');
    process.exit(status);
  }, 50);
});

// The parent's death (or its deliberate close) ends stdin.
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
