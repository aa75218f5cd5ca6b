// "Harn: Run Pipeline" on the client side: the harn.run.* settings as declared and as read (every bad value refused
// with its name), a plan turned into a task's process execution (harn itself, or the launcher for env_pass), the
// launcher's contract, and the launcher run for real with the stand-in harn.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { constants as osConstants } from 'node:os';
import type { RunPlan } from '../../server/src/runWorkspace/plan';
import { exitStatus, LAUNCH_SPEC_VERSION, type LaunchSpec, parseLaunchSpec, resolveProgram } from '../../client/src/runLaunch';
import {
  describeRun,
  executionFor,
  type LaunchHost,
  readRunSettings,
  RUN_SETTING_KEYS,
  type RunSettingKey,
  UNTRUSTED_RUN_MESSAGE,
} from '../../client/src/runSettings';
import { REPO_ROOT } from '../support/lspClient';
import { writeStandInHarn } from '../support/standInHarn';

interface DeclaredSetting {
  scope?: string;
  type?: string;
  default?: unknown;
}
const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    configuration: { properties: Record<string, DeclaredSetting> };
    commands: { command: string; title: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    taskDefinitions: { type: string; required?: string[] }[];
  };
};

const settingsOf = (values: Partial<Record<RunSettingKey, unknown>>) => readRunSettings((key) => values[key]);
function refusalOf(values: Partial<Record<RunSettingKey, unknown>>): string {
  const read = settingsOf(values);
  assert.equal(read.ok, false, `refused: ${JSON.stringify(values)}`);
  return read.ok ? '' : read.message;
}

describe('harn.run.* in package.json', () => {
  test('the five settings are declared, resource-scoped, with the defaults the client reads', () => {
    const declared = manifest.contributes.configuration.properties;
    const ours = Object.keys(declared).filter((k) => k.startsWith('harn.run.'));
    assert.deepEqual(ours.sort(), RUN_SETTING_KEYS.map((k) => `harn.run.${k}`).sort());
    for (const key of ours) assert.equal(declared[key]?.scope, 'resource', key);
    assert.equal(declared['harn.run.binary']?.default, 'harn');
    assert.deepEqual(declared['harn.run.args']?.default, []);
    assert.equal(declared['harn.run.workspace']?.default, undefined, 'unset by default: the command asks');
    assert.equal(declared['harn.run.env']?.default, 'inherit');
    const defaults = settingsOf({});
    assert.ok(defaults.ok);
    assert.deepEqual(defaults.settings, { binary: 'harn', extraArgs: [], workspace: undefined, reserved: [], env: 'inherit' });
  });

  test('both commands are declared, in the palette, explorer, editor context and title run menus for .harn files only', () => {
    const { commands, menus } = manifest.contributes;
    for (const [command, title] of [
      ['harn.runPipeline', 'Run Pipeline'],
      ['harn.runPipelineWithInput', 'Run Pipeline With Input…'],
    ] as const) {
      assert.equal(commands.find((c) => c.command === command)?.title, title);
      for (const menu of ['commandPalette', 'explorer/context', 'editor/context', 'editor/title/run']) {
        const entry = menus[menu]?.find((m) => m.command === command);
        assert.equal(entry?.when, 'resourceExtname == .harn', `${command} in ${menu}`);
      }
    }
    assert.deepEqual(manifest.contributes.taskDefinitions.find((d) => d.type === 'harn')?.required, ['pipeline'], 'the task type is declared');
  });

  test('the launcher is built and packaged', () => {
    assert.match(fs.readFileSync(path.join(REPO_ROOT, 'esbuild.mjs'), 'utf8'), /client\/src\/runLauncher\.ts'\], outfile: 'dist\/runLauncher\.js'/);
    assert.match(fs.readFileSync(path.join(REPO_ROOT, '.vscodeignore'), 'utf8'), /^!dist\/runLauncher\.js$/m);
  });
});

describe('readRunSettings', () => {
  test('the two workspace forms, reserved names, flags and an env list (duplicates once)', () => {
    const fixed = settingsOf({ workspace: { fixed: '/srv/repo' }, args: ['--quiet'], reservedParameters: ['session'], env: ['PATH', 'HOME', 'PATH'] });
    assert.ok(fixed.ok);
    assert.deepEqual(fixed.settings, {
      binary: 'harn',
      extraArgs: ['--quiet'],
      workspace: { fixed: '/srv/repo' },
      reserved: ['session'],
      env: ['PATH', 'HOME'],
    });
    const perRun = settingsOf({ workspace: { perRun: 'repo_dir' }, binary: '/opt/harn/bin/harn' });
    assert.ok(perRun.ok);
    assert.deepEqual([perRun.settings.workspace, perRun.settings.binary], [{ perRun: 'repo_dir' }, '/opt/harn/bin/harn']);
    const unset = settingsOf({ workspace: null });
    assert.ok(unset.ok);
    assert.equal(unset.settings.workspace, undefined, 'null is unset (the command asks)');
  });

  test('harn.run.workspace: each bad shape refused, saying what arrived', () => {
    assert.match(
      refusalOf({ workspace: '/srv/repo' }),
      /^harn\.run\.workspace must be \{"fixed": "\/absolute\/dir"\} or \{"perRun": "parameter"\}, not a string \("\/srv\/repo"\)$/,
    );
    assert.match(refusalOf({ workspace: ['/srv'] }), /not a list/);
    assert.match(refusalOf({ workspace: {} }), /it has no key$/);
    assert.match(refusalOf({ workspace: { fixed: '/a', perRun: 'b' } }), /it has the keys "fixed", "perRun"$/);
    assert.match(refusalOf({ workspace: { cwd: '/a' } }), /it has the keys "cwd"$/);
    assert.equal(refusalOf({ workspace: { fixed: '  ' } }), 'harn.run.workspace.fixed must be a non-blank string, not a string ("  ")');
    assert.equal(refusalOf({ workspace: { perRun: 7 } }), 'harn.run.workspace.perRun must be a non-blank string, not a number (7)');
  });

  test('binary, args, reserved parameters and env: each bad value refused with its name', () => {
    assert.match(refusalOf({ binary: '' }), /^harn\.run\.binary must be a non-blank string .*, not a string \(""\)$/);
    assert.match(refusalOf({ binary: 3 }), /^harn\.run\.binary .* not a number \(3\)$/);
    assert.equal(refusalOf({ args: '--quiet' }), 'harn.run.args must be a list of strings (flags for harn run), not a string ("--quiet")');
    assert.equal(refusalOf({ args: ['--a', true] }), 'harn.run.args[1] must be a string, not a boolean (true)');
    assert.equal(refusalOf({ reservedParameters: { a: 1 } }), 'harn.run.reservedParameters must be a list of parameter names, not an object ({"a":1})');
    assert.equal(refusalOf({ env: 'PATH' }), 'harn.run.env must be "inherit" or a list of variable names, not a string ("PATH")');
    assert.equal(refusalOf({ env: ['PATH', null] }), 'harn.run.env[1] must be a string, not null (null)');
    assert.equal(refusalOf({ env: ['A=B'] }), 'harn.run.env lists "A=B" (a name cannot hold "=")');
    assert.equal(refusalOf({ env: [''] }), 'harn.run.env lists an empty name');
  });

  test('the untrusted refusal says why and what to do', () => {
    assert.match(UNTRUSTED_RUN_MESSAGE, /starts a process .* none in Restricted Mode: the folder is not trusted\. Trust the folder/);
  });
});

const plan = (over: Partial<RunPlan> = {}): RunPlan => ({ binary: 'harn', args: ['run', '/w/p.harn'], cwd: '/srv/repo', env: 'inherit', task: null, ...over });
const host = (over: Partial<LaunchHost> = {}): LaunchHost => ({
  execPath: '/usr/bin/node',
  electron: false,
  launcher: '/ext/dist/runLauncher.js',
  env: { PATH: '/usr/bin', HOME: '/home/u', SECRET: 's' },
  ...over,
});

describe('executionFor', () => {
  test('inherit: harn itself, its argv as planned, in the planned directory; HARN_TASK only with a task', () => {
    assert.deepEqual(executionFor(plan(), host()), { command: 'harn', args: ['run', '/w/p.harn'], cwd: '/srv/repo', env: undefined, viaLauncher: false });
    assert.deepEqual(executionFor(plan({ task: 'Fix it' }), host()).env, { HARN_TASK: 'Fix it' });
  });

  test('a list of names: the launcher under the host binary, the plan as one JSON argument, the values from the host', () => {
    const execution = executionFor(plan({ env: ['PATH', 'HARN_TASK'], task: 'Fix it' }), host());
    assert.equal(execution.command, '/usr/bin/node');
    assert.equal(execution.viaLauncher, true);
    assert.equal(execution.cwd, '/srv/repo');
    assert.equal(execution.args.length, 2);
    assert.equal(execution.args[0], '/ext/dist/runLauncher.js');
    const spec = parseLaunchSpec(execution.args.slice(1));
    assert.ok(spec.ok);
    assert.deepEqual(spec.spec, { version: LAUNCH_SPEC_VERSION, binary: 'harn', args: ['run', '/w/p.harn'], cwd: '/srv/repo', env: ['PATH', 'HARN_TASK'] });
    assert.deepEqual({ ...execution.env }, { PATH: '/usr/bin', HARN_TASK: 'Fix it' }, 'SECRET and HOME are not passed');
  });

  test('in a desktop VS Code (Electron) the launcher runs as node; the child never sees ELECTRON_RUN_AS_NODE', () => {
    const execution = executionFor(plan({ env: [] }), host({ electron: true, execPath: '/usr/share/code/code' }));
    assert.deepEqual({ ...execution.env }, { ELECTRON_RUN_AS_NODE: '1' });
    const spec = parseLaunchSpec(execution.args.slice(1));
    assert.ok(spec.ok);
    assert.deepEqual(spec.spec.env, [], 'not among the names the child gets');
  });

  test('describeRun names the argv, the directory, the environment and the task', () => {
    assert.equal(describeRun(plan()), "harn run /w/p.harn in /srv/repo, with the editor's environment and no HARN_TASK");
    assert.equal(
      describeRun(plan({ args: ['run', '/w/my p.harn'], env: ['PATH', 'HARN_TASK'], task: 'abc' })),
      'harn run "/w/my p.harn" in /srv/repo, with only PATH passed and HARN_TASK (3 characters)',
    );
    assert.equal(describeRun(plan({ env: [] })), 'harn run /w/p.harn in /srv/repo, with an empty environment and no HARN_TASK');
  });
});

describe('the launcher contract', () => {
  const good: LaunchSpec = { version: LAUNCH_SPEC_VERSION, binary: 'harn', args: ['run', '/p.harn'], cwd: '/srv', env: ['PATH'] };
  test('parseLaunchSpec refuses every malformed plan with its reason', () => {
    assert.deepEqual(parseLaunchSpec([JSON.stringify(good)]), { ok: true, spec: good });
    const reason = (argv: string[]): string => {
      const parsed = parseLaunchSpec(argv);
      return parsed.ok ? 'accepted' : parsed.message;
    };
    assert.equal(reason([]), "expected one argument (the run's plan as JSON), got 0");
    assert.equal(reason(['{}', '{}']), "expected one argument (the run's plan as JSON), got 2");
    assert.match(reason(['{']), /^the plan is not JSON: /);
    assert.equal(reason(['[]']), 'the plan is not a JSON object');
    assert.equal(reason([JSON.stringify({ ...good, version: 2 })]), "the plan's version is 2, not 1");
    assert.equal(reason([JSON.stringify({ ...good, binary: '' })]), 'the plan has no binary');
    assert.equal(reason([JSON.stringify({ ...good, args: ['run', 1] })]), "the plan's args are not a list of strings");
    assert.equal(reason([JSON.stringify({ ...good, cwd: 'srv' })]), "the plan's cwd is not an absolute path");
    assert.equal(reason([JSON.stringify({ ...good, env: 'inherit' })]), "the plan's env is not a list of names");
  });

  test("a bare name is found on the launcher's PATH (absolute entries only); a path is used as written", () => {
    const exists = new Set(['/opt/b/harn', '/rel/harn']);
    assert.equal(
      resolveProgram('harn', ['/opt/a', '/opt/b'].join(path.delimiter), (f) => exists.has(f)),
      '/opt/b/harn',
    );
    assert.equal(
      resolveProgram('harn', ['rel', '/opt/a'].join(path.delimiter), (f) => exists.has(f)),
      undefined,
    );
    assert.equal(
      resolveProgram('harn', undefined, () => true),
      undefined,
    );
    assert.equal(
      resolveProgram('/x/harn', '', () => false),
      '/x/harn',
    );
  });

  test("the exit status: the child's code, or 128 + the signal's number", () => {
    assert.equal(exitStatus(3, null, osConstants.signals), 3);
    assert.equal(exitStatus(null, 'SIGTERM', osConstants.signals), 128 + 15);
    assert.equal(exitStatus(null, 'SIGKILL', osConstants.signals), 128 + 9);
  });
});

describe('the launcher, run for real with the stand-in harn', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-launcher-'));
  after(() => fs.rmSync(work, { recursive: true, force: true }));
  const launcher = path.join(REPO_ROOT, 'client', 'src', 'runLauncher.ts');
  const launch = (spec: LaunchSpec | string, env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', launcher, typeof spec === 'string' ? spec : JSON.stringify(spec)], {
      cwd: REPO_ROOT,
      env: { ...env, PATH: env['PATH'] ?? '' },
      encoding: 'utf8',
    });

  test('harn gets exactly the named variables, in the planned directory, with its argv; the launcher exits with its status', () => {
    const harn = writeStandInHarn({ exitCode: 3 });
    const repo = fs.mkdtempSync(path.join(work, 'repo-'));
    const spec: LaunchSpec = { version: LAUNCH_SPEC_VERSION, binary: harn.path, args: ['run', '/w/p.harn'], cwd: repo, env: ['HOME', 'HARN_TASK', 'ABSENT'] };
    const result = launch(spec, { PATH: process.env['PATH'] ?? '', HOME: '/home/u', HARN_TASK: 'Fix the parser', SECRET: 'no', ELECTRON_RUN_AS_NODE: '1' });
    assert.equal(result.status, 3, result.stderr);
    const seen = harn.last();
    assert.ok(seen, 'the stand-in ran');
    assert.deepEqual(seen.argv, ['run', '/w/p.harn']);
    assert.equal(seen.cwd, fs.realpathSync(repo));
    assert.deepEqual(seen.env, { HOME: '/home/u', HARN_TASK: 'Fix the parser' }, 'no PATH, SECRET or ELECTRON_RUN_AS_NODE');
    assert.match(result.stdout, /stand-in harn ran in .* with HARN_TASK="Fix the parser"/, 'stdout is forwarded');
    harn.remove();
  });

  test("a bare name found on the launcher's PATH; a signal exits 128 + n; a missing program 127; a bad plan 2, nothing started", () => {
    const harn = writeStandInHarn({ signal: 'SIGTERM' });
    const spec: LaunchSpec = { version: LAUNCH_SPEC_VERSION, binary: 'harn', args: ['run', '/w/p.harn'], cwd: work, env: [] };
    const killed = launch(spec, { PATH: `${harn.dir}${path.delimiter}/usr/bin` });
    assert.equal(killed.status, 128 + 15, killed.stderr);
    assert.deepEqual(harn.last()?.env, {}, 'an empty environment: no PATH either');
    const missing = launch({ ...spec, binary: 'harn-not-here' }, { PATH: harn.dir });
    assert.equal(missing.status, 127);
    assert.match(missing.stderr, /harn-workbench run launcher: harn-not-here was not found on PATH \(.*\); nothing was started/);
    harn.clear();
    const bad = launch('{"version":1}', { PATH: harn.dir });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /the plan has no binary; nothing was started/);
    assert.equal(harn.records().length, 0);
    harn.remove();
  });
});
