// Files that are not regular files, and huge files, for the tests of workspace/files.ts and its callers. A read
// that blocks on a FIFO would hang the test itself, so whatever may block runs in a child process with a timeout
// (a timed-out child is a failure that says so, never a hang).

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Why FIFO tests cannot run here (no mkfifo), or undefined. */
export const FIFO_SKIP: string | undefined =
  process.platform === 'win32' ? 'no FIFOs on Windows' : spawnSync('mkfifo', ['--version']).error ? 'mkfifo is not installed' : undefined;

/** Creates a FIFO (named pipe) at `file`; nobody ever writes to it, so a blocking open or read of it never returns. */
export function mkfifo(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
  return file;
}

/** A file of `size` zero bytes (NULs) made sparse: it takes no disk space and is written at once. */
export function sparseFile(file: string, size: number, prefix = ''): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, prefix);
  fs.truncateSync(file, size);
  return file;
}

export interface ChildResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** How long a child may take before it counts as hung. */
export const CHILD_TIMEOUT_MS = 60_000;

/** Runs a child with a timeout; a child that had to be killed fails the test with what it printed so far. */
export function runChild(args: string[], options: { cwd?: string; timeoutMs?: number } = {}): ChildResult {
  const result = spawnSync(process.execPath, args, {
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? CHILD_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.ok(
    result.error === undefined && result.signal === null,
    `node ${args.join(' ')} hung or died (${String(result.signal ?? result.error)}): ${result.stdout}${result.stderr}`,
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a TypeScript script (through tsx) in a child with a timeout; its last stdout line is parsed as JSON. */
export function runTypeScript<T>(dir: string, source: string): T {
  const script = path.join(dir, `child-${process.pid}-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(script, source);
  const result = runChild(['--import', 'tsx', script]);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? 'null') as T;
}
