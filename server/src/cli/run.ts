// `harn-workbench run PIPELINE.harn`: the run workspace's rules for scripts and CI (runWorkspace/plan.ts). The plan is
// printed (--dry-run) or started with an argument array, no shell, in the planned directory with the planned
// environment; a refusal starts nothing (exit 1, its message on stderr).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { childEnvironment, planRun, RunPlan, RunRequest } from '../runWorkspace/plan';
import { RunWorkspaceConfig } from '../runWorkspace/rules';
import { readFileBytesSync, refusalMessage } from '../workspace/files';
import { ParsedArgs, UsageError } from './args';

/** An I/O error of this command (exit 2): an input file that cannot be read. */
export class RunIoError extends Error {}

const SINGLE_OPTIONS = ['--input', '--fixed', '--per-run', '--binary'];

function workspaceOf(args: ParsedArgs): RunWorkspaceConfig {
  const fixed = args.options.get('--fixed');
  const perRun = args.options.get('--per-run');
  if (fixed !== undefined && perRun !== undefined) throw new UsageError('give one of --fixed DIR and --per-run PARAM, not both', 'run');
  if (fixed !== undefined) return { fixed };
  if (perRun !== undefined) return { perRun };
  throw new UsageError('run needs --fixed DIR or --per-run PARAM: it never runs in the current folder by default', 'run');
}

/** The request the arguments make; usage errors for what cannot be one. */
export function runRequestOf(args: ParsedArgs): RunRequest {
  const [pipeline, ...extra] = args.positional;
  if (pipeline === undefined) throw new UsageError('run needs PIPELINE.harn', 'run');
  if (extra.length > 0) throw new UsageError(`run takes one PIPELINE.harn, not also ${JSON.stringify(extra[0])}`, 'run');
  const twice = SINGLE_OPTIONS.find((name) => (args.lists.get(name)?.length ?? 0) > 1);
  if (twice !== undefined) throw new UsageError(`${twice} given twice`, 'run');
  const workspace = workspaceOf(args);
  const inputPath = args.options.get('--input');
  let input: RunRequest['input'];
  if (inputPath !== undefined) {
    const read = readFileBytesSync(path.resolve(inputPath));
    if (!read.ok) throw new RunIoError(read.code === 'missing' ? `no such file: ${inputPath}` : refusalMessage(read, inputPath));
    input = { path: inputPath, bytes: read.bytes };
  }
  const envPass = args.lists.get('--env-pass');
  return {
    pipeline: path.resolve(pipeline),
    binary: args.options.get('--binary') ?? 'harn',
    extraArgs: args.lists.get('--arg') ?? [],
    workspace,
    reserved: args.lists.get('--reserved') ?? [],
    ...(input === undefined ? {} : { input }),
    env: envPass ?? 'inherit',
  };
}

/** The dry run's JSON: `env` names the variables the child gets (inherit: every one of this process's, sorted). */
export function dryRunJson(plan: RunPlan, machineEnv: Record<string, string | undefined>): string {
  const env = plan.env === 'inherit' ? Object.keys(childEnvironment(plan, machineEnv)).sort() : plan.env;
  return JSON.stringify({ binary: plan.binary, args: plan.args, cwd: plan.cwd, env, task: plan.task });
}

/** 128 + the signal's number, as a shell reports a child a signal ended. */
function signalStatus(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

export function runPipeline(args: ParsedArgs): number {
  const request = runRequestOf(args);
  const planned = planRun(request, { env: process.env, stat: (file) => fs.statSync(file) });
  if (!planned.ok) {
    process.stderr.write(`harn-workbench: ${planned.kind}: ${planned.message}\n`);
    return 1;
  }
  const plan = planned.plan;
  if (args.options.has('--dry-run')) {
    process.stdout.write(dryRunJson(plan, process.env) + '\n');
    return 0;
  }
  const env = childEnvironment(plan, process.env);
  const child = spawnSync(plan.binary, plan.args, { cwd: plan.cwd, env, stdio: 'inherit', shell: false });
  if (child.error !== undefined) {
    const code = (child.error as NodeJS.ErrnoException).code;
    const where =
      code === 'ENOENT' && !path.isAbsolute(plan.binary)
        ? `not found on the PATH it was given${plan.env !== 'inherit' && !plan.env.includes('PATH') ? ' (--env-pass without PATH: give --binary an absolute path)' : ''}`
        : (code ?? child.error.message);
    process.stderr.write(`harn-workbench: cannot start ${plan.binary}: ${where}; the run is not started.\n`);
    return 1;
  }
  if (child.signal !== null) return signalStatus(child.signal);
  return child.status ?? 1;
}
