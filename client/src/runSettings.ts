// "Harn: Run Pipeline": the `harn.run.*` settings read and checked, and how a plan of the runWorkspace domain
// becomes a task's process execution. No `vscode` import: the command passes the facts in, the unit tests too.

import type { RunWorkspaceConfig } from '../../server/src/runWorkspace/rules';
import type { RunPlan } from '../../server/src/runWorkspace/plan';
import { type LaunchSpec, LAUNCH_SPEC_VERSION } from './runLaunch';

/** The settings, under `harn.run` (all resource-scoped: a folder's `.vscode/settings.json` can set them). */
export const RUN_SECTION = 'run';
export const RUN_SETTING_KEYS = ['binary', 'args', 'workspace', 'reservedParameters', 'env'] as const;
export type RunSettingKey = (typeof RUN_SETTING_KEYS)[number];

export interface RunSettings {
  binary: string;
  extraArgs: string[];
  /** Unset: the command asks where to run (never a default directory). */
  workspace: RunWorkspaceConfig | undefined;
  reserved: string[];
  env: 'inherit' | string[];
}

export type SettingsResult = { ok: true; settings: RunSettings } | { ok: false; message: string };

export const UNTRUSTED_RUN_MESSAGE =
  'Harn: Run Pipeline starts a process (harn.run.binary), and Harn Workbench starts none in Restricted Mode: the folder is not trusted. Trust the folder to run the pipeline.';

/** What arrived, short and on one line, for a message. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'number') return 'a number';
  return typeof value;
}

function stringList(key: RunSettingKey, value: unknown, what: string): { ok: true; list: string[] } | { ok: false; message: string } {
  if (!Array.isArray(value)) return { ok: false, message: `harn.run.${key} must be a list of ${what}, not ${kindOf(value)} (${shown(value)})` };
  const list: string[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') return { ok: false, message: `harn.run.${key}[${i}] must be a string, not ${kindOf(item)} (${shown(item)})` };
    list.push(item);
  }
  return { ok: true, list };
}

/** A name a process environment can hold: not empty, no `=`, no NUL. */
function badVariableName(name: string): string | undefined {
  if (name === '') return 'an empty name';
  if (name.includes('=')) return `${shown(name)} (a name cannot hold "=")`;
  if (name.includes('\0')) return `${shown(name)} (a name cannot hold NUL)`;
  return undefined;
}

function readWorkspace(value: unknown): { ok: true; workspace: RunWorkspaceConfig | undefined } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, workspace: undefined };
  const expected = 'must be {"fixed": "/absolute/dir"} or {"perRun": "parameter"}';
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: `harn.run.workspace ${expected}, not ${kindOf(value)} (${shown(value)})` };
  const keys = Object.keys(value);
  const [key] = keys;
  if (keys.length !== 1 || (key !== 'fixed' && key !== 'perRun')) {
    return {
      ok: false,
      message: `harn.run.workspace ${expected}: it has ${keys.length === 0 ? 'no key' : `the keys ${keys.map((k) => JSON.stringify(k)).join(', ')}`}`,
    };
  }
  const inner: unknown = (value as Record<string, unknown>)[key];
  if (typeof inner !== 'string' || inner.trim() === '') {
    return { ok: false, message: `harn.run.workspace.${key} must be a non-blank string, not ${kindOf(inner)} (${shown(inner)})` };
  }
  return { ok: true, workspace: key === 'fixed' ? { fixed: inner } : { perRun: inner } };
}

/**
 * The five settings, each checked. A bad value refuses the run with its name and what arrived: falling back to
 * a default would start a process the user did not configure (or in a directory nobody named).
 */
export function readRunSettings(get: (key: RunSettingKey) => unknown): SettingsResult {
  const binary = get('binary') ?? 'harn';
  if (typeof binary !== 'string' || binary.trim() === '') {
    return {
      ok: false,
      message: `harn.run.binary must be a non-blank string (a program on PATH or an absolute path), not ${kindOf(binary)} (${shown(binary)})`,
    };
  }
  const args = stringList('args', get('args') ?? [], 'strings (flags for harn run)');
  if (!args.ok) return args;
  const workspace = readWorkspace(get('workspace'));
  if (!workspace.ok) return workspace;
  const reserved = stringList('reservedParameters', get('reservedParameters') ?? [], 'parameter names');
  if (!reserved.ok) return reserved;
  const envValue = get('env') ?? 'inherit';
  let env: 'inherit' | string[];
  if (envValue === 'inherit') env = 'inherit';
  else if (Array.isArray(envValue)) {
    const names = stringList('env', envValue, 'variable names');
    if (!names.ok) return names;
    for (const name of names.list) {
      const bad = badVariableName(name);
      if (bad !== undefined) return { ok: false, message: `harn.run.env lists ${bad}` };
    }
    env = [...new Set(names.list)];
  } else {
    return { ok: false, message: `harn.run.env must be "inherit" or a list of variable names, not ${kindOf(envValue)} (${shown(envValue)})` };
  }
  return { ok: true, settings: { binary, extraArgs: args.list, workspace: workspace.workspace, reserved: reserved.list, env } };
}

/** Where the extension host runs, for the launcher. */
export interface LaunchHost {
  /** process.execPath: node, or Electron's binary in a desktop VS Code. */
  execPath: string;
  /** process.versions.electron is set: the launcher needs ELECTRON_RUN_AS_NODE=1 to run as node. */
  electron: boolean;
  /** dist/runLauncher.js of the installed extension. */
  launcher: string;
  /** The extension host's environment, where the plan found the passed variables. */
  env: Record<string, string | undefined>;
}

/** A task's ProcessExecution as data: a program, its argument array, the directory and the variables merged in. */
export interface ExecutionSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string> | undefined;
  /** Through dist/runLauncher.js (harn.run.env is a list): the environment is exactly the plan's. */
  viaLauncher: boolean;
}

/**
 * `inherit`: harn itself, with HARN_TASK merged into the editor's environment. A list of names: VS Code merges a
 * ProcessExecution's env into its own, so an environment of exactly those names needs a process of ours in
 * between: the launcher (node, no shell) gets the plan as one JSON argument and starts harn with only those.
 * The values travel in the task's env from the extension host, where the plan checked that they exist.
 */
export function executionFor(plan: RunPlan, host: LaunchHost): ExecutionSpec {
  if (plan.env === 'inherit') {
    return { command: plan.binary, args: [...plan.args], cwd: plan.cwd, env: plan.task === null ? undefined : { HARN_TASK: plan.task }, viaLauncher: false };
  }
  const names = [...new Set([...plan.env, ...(plan.task === null ? [] : ['HARN_TASK'])])];
  // No prototype: a variable may be called __proto__.
  const env = Object.create(null) as Record<string, string>;
  for (const name of names) {
    const value = name === 'HARN_TASK' && plan.task !== null ? plan.task : host.env[name];
    if (value !== undefined) env[name] = value;
  }
  if (host.electron) env['ELECTRON_RUN_AS_NODE'] = '1';
  const spec: LaunchSpec = { version: LAUNCH_SPEC_VERSION, binary: plan.binary, args: [...plan.args], cwd: plan.cwd, env: names };
  return { command: host.execPath, args: [host.launcher, JSON.stringify(spec)], cwd: plan.cwd, env, viaLauncher: true };
}

/** One line for the log: what is started, where, with which environment. */
export function describeRun(plan: RunPlan): string {
  const argv = [plan.binary, ...plan.args].map((a) => (/^[\w./:@=+-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
  const passed = plan.env === 'inherit' ? [] : plan.env.filter((name) => name !== 'HARN_TASK');
  const env = plan.env === 'inherit' ? "the editor's environment" : passed.length === 0 ? 'an empty environment' : `only ${passed.join(', ')} passed`;
  const task = plan.task === null ? 'no HARN_TASK' : `HARN_TASK (${plan.task.length} characters)`;
  return `${argv} in ${plan.cwd}, with ${env} and ${task}`;
}
