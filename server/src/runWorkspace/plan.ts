// What "Harn: Run Pipeline" and `harn-workbench run` start, and where: the rules (rules.ts) plus the launcher's
// checks, decided before anything starts. Pure: the machine (environment, stat) is handed in, nothing is spawned.

import * as path from 'node:path';
import { directoryForRun, excerpt, promptForRun, Refusal, refusal, RunWorkspaceConfig } from './rules';

export interface RunRequest {
  /** The absolute path of the .harn pipeline. */
  pipeline: string;
  /** `harn` (a bare name, looked up on PATH) or an absolute path. */
  binary: string;
  /** Flags for `harn run`, placed before the pipeline. */
  extraArgs: readonly string[];
  workspace: RunWorkspaceConfig;
  /** Input fields that are neither the directory nor the task (removed before the task is picked). */
  reserved: readonly string[];
  /** The run's input (a JSON file, usually): where a perRun directory and the task come from. */
  input?: { path: string; bytes: Uint8Array };
  /** `inherit`: the child gets this process's environment; a list: it gets exactly these variables (aion's env_pass). */
  env: 'inherit' | readonly string[];
}

export interface RunPlan {
  binary: string;
  /**
   * `['run', ...extraArgs, pipeline]`: harn's flags go before the file, as `harn run [OPTIONS] <FILE>` takes them, so
   * that none of them can be read as an argument after the pipeline.
   */
  args: string[];
  /** Absolute, an existing directory. */
  cwd: string;
  /** `inherit`, or the names of the variables the child gets (HARN_TASK included when there is a task). */
  env: 'inherit' | string[];
  /** The run's task, given to the pipeline as HARN_TASK; null without an input. */
  task: string | null;
}

/** The variable upstream's CLI documents for a run's task. */
export const TASK_VARIABLE = 'HARN_TASK';

/** What planRun asks of the machine. `stat` throws (code ENOENT) for a path that does not exist. */
export interface RunMachine {
  env: Record<string, string | undefined>;
  stat(path: string): { isDirectory(): boolean };
}

const NOT_STARTED = 'the run is not started';

function errorCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

/** ENOTDIR: a path through a file (`/a/file/dir`), which does not exist either. */
function gone(code: string): boolean {
  return code === 'ENOENT' || code === 'ENOTDIR';
}

type Stat = { ok: true; isDirectory: boolean } | { ok: false; code: string };

function statOf(machine: RunMachine, file: string): Stat {
  try {
    return { ok: true, isDirectory: machine.stat(file).isDirectory() };
  } catch (error) {
    return { ok: false, code: errorCode(error) };
  }
}

function pipelineProblem(pipeline: string, machine: RunMachine): Refusal | undefined {
  const shown = excerpt(pipeline);
  if (!path.isAbsolute(pipeline)) return refusal('pipeline_not_absolute', `The pipeline ${shown} is not an absolute path; ${NOT_STARTED}.`);
  const stat = statOf(machine, pipeline);
  if (!stat.ok) {
    return gone(stat.code)
      ? refusal('pipeline_missing', `The pipeline ${shown} does not exist; ${NOT_STARTED}.`)
      : refusal('pipeline_missing', `The pipeline ${shown} cannot be read (${stat.code}); ${NOT_STARTED}.`);
  }
  return stat.isDirectory ? refusal('pipeline_not_file', `The pipeline ${shown} is a directory, not a .harn file; ${NOT_STARTED}.`) : undefined;
}

function binaryProblem(binary: string, machine: RunMachine): Refusal | undefined {
  const shown = excerpt(binary);
  if (binary.trim() === '') return refusal('binary_invalid', `The harn binary is blank: give "harn" (found on PATH) or an absolute path; ${NOT_STARTED}.`);
  if (!path.isAbsolute(binary)) {
    // A relative path would be resolved from the run's directory, which is not where the user wrote it.
    return /[\\/]/.test(binary)
      ? refusal('binary_invalid', `The harn binary ${shown} is a relative path: give an absolute path, or a bare name found on PATH; ${NOT_STARTED}.`)
      : undefined;
  }
  const stat = statOf(machine, binary);
  if (!stat.ok)
    return refusal('binary_invalid', `The harn binary ${shown} ${gone(stat.code) ? 'does not exist' : `cannot be read (${stat.code})`}; ${NOT_STARTED}.`);
  return stat.isDirectory ? refusal('binary_invalid', `The harn binary ${shown} is a directory; ${NOT_STARTED}.`) : undefined;
}

/** The launcher's checks on a directory the rules returned as written. */
function directoryProblem(directory: string, source: string, machine: RunMachine): Refusal | undefined {
  const shown = excerpt(directory);
  if (!path.isAbsolute(directory)) {
    return refusal(
      'directory_not_absolute',
      `The run's directory ${shown} (${source}) is not an absolute path, and a relative one would be read from wherever the launcher happens to stand; ${NOT_STARTED}.`,
    );
  }
  const stat = statOf(machine, directory);
  if (!stat.ok) {
    return gone(stat.code)
      ? refusal('directory_missing', `The run's directory ${shown} (${source}) does not exist; ${NOT_STARTED}.`)
      : refusal('directory_unreadable', `The run's directory ${shown} (${source}) cannot be read (${stat.code}); ${NOT_STARTED}.`);
  }
  return stat.isDirectory
    ? undefined
    : refusal('directory_not_directory', `The run's directory ${shown} (${source}) is a file, not a directory; ${NOT_STARTED}.`);
}

/** A variable name as written when it is an ordinary one, else quoted and escaped. */
function shownName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : excerpt(name);
}

function envNames(env: readonly string[], task: string | null, machine: RunMachine): { ok: true; names: string[] } | Refusal {
  const invalid = env.filter((name) => name === '' || name.includes('=') || name.includes('\0'));
  if (invalid.length > 0) {
    return refusal('env_name_invalid', `The environment to pass names ${invalid.map(excerpt).join(', ')}, not a variable name; ${NOT_STARTED}.`);
  }
  const names = [...new Set(env)];
  // The task is set by the run itself, whatever this machine has.
  const missing = names.filter((name) => machine.env[name] === undefined && !(name === TASK_VARIABLE && task !== null));
  if (missing.length > 0) {
    return refusal(
      'env_missing',
      `The environment to pass names ${missing.length === 1 ? 'a variable' : `${missing.length} variables`} missing on this machine: ${missing.map(shownName).join(', ')}; ${NOT_STARTED}.`,
    );
  }
  if (task !== null && !names.includes(TASK_VARIABLE)) names.push(TASK_VARIABLE);
  return { ok: true, names };
}

/** Everything decided before a run starts, or the first reason it must not. */
export function planRun(request: RunRequest, machine: RunMachine): { ok: true; plan: RunPlan } | Refusal {
  const pipeline = pipelineProblem(request.pipeline, machine);
  if (pipeline) return pipeline;
  const binary = binaryProblem(request.binary, machine);
  if (binary) return binary;
  const directory = directoryForRun(request.workspace, request.input?.bytes);
  if (!directory.ok) return withInputPath(directory, request.input?.path);
  const source =
    'fixed' in request.workspace
      ? 'fixed'
      : `from ${JSON.stringify(request.workspace.perRun)} of ${request.input === undefined ? 'the input' : excerpt(request.input.path)}`;
  const launch = directoryProblem(directory.directory, source, machine);
  if (launch) return launch;
  let task: string | null = null;
  if (request.input !== undefined) {
    const prompt = promptForRun(request.workspace, request.input.bytes, request.reserved);
    if (!prompt.ok) return withInputPath(prompt, request.input.path);
    task = prompt.prompt;
  }
  let env: RunPlan['env'] = 'inherit';
  if (request.env !== 'inherit') {
    const names = envNames(request.env, task, machine);
    if (!names.ok) return names;
    env = names.names;
  }
  return { ok: true, plan: { binary: request.binary, args: ['run', ...request.extraArgs, request.pipeline], cwd: directory.directory, env, task } };
}

/** A rule's refusal about "the run's input", naming the input file. */
function withInputPath(refused: Refusal, inputPath: string | undefined): Refusal {
  return inputPath === undefined ? refused : { ...refused, message: refused.message.replace("The run's input", `The run's input ${excerpt(inputPath)}`) };
}

/**
 * The child's environment for a plan: this machine's (inherit) or exactly the names passed, plus HARN_TASK when the
 * run has a task. Values come from `machine`; the task from the plan.
 */
export function childEnvironment(plan: RunPlan, machineEnv: Record<string, string | undefined>): Record<string, string> {
  // No prototype: a variable may be called __proto__.
  const out = Object.create(null) as Record<string, string>;
  const names = plan.env === 'inherit' ? Object.keys(machineEnv) : plan.env;
  for (const name of names) {
    const value = machineEnv[name];
    if (value !== undefined) out[name] = value;
  }
  if (plan.task !== null) out[TASK_VARIABLE] = plan.task;
  return out;
}
