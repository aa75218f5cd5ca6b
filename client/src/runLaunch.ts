// The launcher's contract (dist/runLauncher.js): the one JSON argument it reads, the environment it gives the
// child, where it finds the program, and the status it exits with. Pure, so the unit tests check each rule.

import * as path from 'node:path';

export const LAUNCH_SPEC_VERSION = 1;

/** What the launcher starts: `binary args…` in `cwd`, with exactly the variables named in `env`. */
export interface LaunchSpec {
  version: typeof LAUNCH_SPEC_VERSION;
  binary: string;
  args: string[];
  cwd: string;
  env: string[];
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The spec from the launcher's argv, or why it cannot be read (the launcher then starts nothing). */
export function parseLaunchSpec(argv: readonly string[]): { ok: true; spec: LaunchSpec } | { ok: false; message: string } {
  if (argv.length !== 1 || argv[0] === undefined) return { ok: false, message: `expected one argument (the run's plan as JSON), got ${argv.length}` };
  let value: unknown;
  try {
    value = JSON.parse(argv[0]);
  } catch (error) {
    return { ok: false, message: `the plan is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'the plan is not a JSON object' };
  const v = value as Record<string, unknown>;
  if (v['version'] !== LAUNCH_SPEC_VERSION) return { ok: false, message: `the plan's version is ${JSON.stringify(v['version'])}, not ${LAUNCH_SPEC_VERSION}` };
  const { binary, args, cwd, env } = v;
  if (typeof binary !== 'string' || binary === '') return { ok: false, message: 'the plan has no binary' };
  if (!isStringList(args)) return { ok: false, message: "the plan's args are not a list of strings" };
  if (typeof cwd !== 'string' || !path.isAbsolute(cwd)) return { ok: false, message: "the plan's cwd is not an absolute path" };
  if (!isStringList(env)) return { ok: false, message: "the plan's env is not a list of names" };
  return { ok: true, spec: { version: LAUNCH_SPEC_VERSION, binary, args, cwd, env } };
}

/**
 * A bare program name is looked up on the launcher's PATH (the editor's), not the child's: with env_pass the child
 * may have no PATH at all. A name with a slash is used as written. Undefined: not found, or not executable.
 */
export function resolveProgram(binary: string, ownPath: string | undefined, isExecutable: (file: string) => boolean): string | undefined {
  if (binary.includes('/') || binary.includes(path.sep)) return binary;
  for (const dir of (ownPath ?? '').split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue; // a relative PATH entry would depend on the cwd
    const candidate = path.join(dir, binary);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The launcher's exit status: the child's, or 128 + the signal's number as a shell reports it. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | null, signals: Record<string, number>): number {
  if (code !== null) return code;
  if (signal !== null) return 128 + (signals[signal] ?? 0);
  return 1;
}
