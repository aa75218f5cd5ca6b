// dist/runLauncher.js: started by "Harn: Run Pipeline" as a task's process execution (node, an argument array,
// no shell) when harn.run.env lists variables. It starts harn with exactly those variables (VS Code would merge
// the editor's environment in; the values, HARN_TASK too, come in its own environment), in the planned directory, forwards stdio and signals, and exits with harn's status.

import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { childEnvironment } from '../../server/src/runWorkspace/plan';
import { exitStatus, parseLaunchSpec, resolveProgram } from './runLaunch';

function fail(message: string, status: number): never {
  process.stderr.write(`harn-workbench run launcher: ${message}; nothing was started\n`);
  process.exit(status);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

const parsed = parseLaunchSpec(process.argv.slice(2));
if (!parsed.ok) fail(parsed.message, 2);
const { spec } = parsed;
const program = resolveProgram(spec.binary, process.env['PATH'], isExecutable);
if (program === undefined) fail(`${spec.binary} was not found on PATH (${process.env['PATH'] ?? 'unset'})`, 127);

const child = spawn(program, spec.args, { cwd: spec.cwd, env: childEnvironment({ ...spec, task: null }, process.env), stdio: 'inherit', shell: false });
child.on('error', (error: NodeJS.ErrnoException) => fail(`${program} could not be started: ${error.message}`, error.code === 'ENOENT' ? 127 : 126));
// Stopping the task signals the launcher: the child gets the same signal, and the launcher exits with its status.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(exitStatus(code, signal, osConstants.signals)));
