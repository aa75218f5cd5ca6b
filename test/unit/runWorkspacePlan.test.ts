// planRun (runWorkspace/plan.ts): the rules plus the launcher's checks, against real folders and files on disk
// (fs.statSync) and an environment given as data; childEnvironment: exactly what the child gets.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { childEnvironment, planRun, RunMachine, RunRequest } from '../../server/src/runWorkspace/plan';
import { RefusalKind } from '../../server/src/runWorkspace/rules';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'run-plan-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const repo = path.join(root, 'repo');
const pipeline = path.join(root, 'triage.harn');
fs.mkdirSync(repo);
fs.writeFileSync(pipeline, 'pipeline default(task) {\n  println(task)\n}\n');
const binary = path.join(root, 'bin', 'harn');
fs.mkdirSync(path.dirname(binary));
fs.writeFileSync(binary, '#!/bin/sh\n', { mode: 0o755 });

const machine = (env: Record<string, string | undefined> = { PATH: '/usr/bin', HOME: '/home/me' }): RunMachine => ({ env, stat: (p) => fs.statSync(p) });
const input = (value: unknown, file = path.join(root, 'input.json')) => ({
  path: file,
  bytes: new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)),
});
const request = (over: Partial<RunRequest> = {}): RunRequest => ({
  pipeline,
  binary: 'harn',
  extraArgs: [],
  workspace: { perRun: 'repo_dir' },
  reserved: [],
  input: input({ repo_dir: repo, task: 'Triage the failing build.' }),
  env: 'inherit',
  ...over,
});

function refused(result: ReturnType<typeof planRun>, kind: RefusalKind, ...says: string[]): void {
  assert.equal(result.ok, false, JSON.stringify(result));
  if (result.ok) return;
  assert.equal(result.kind, kind, result.message);
  assert.match(result.message, /the run is not started\.$/);
  for (const s of says) assert.ok(result.message.includes(s), `${JSON.stringify(result.message)} should say ${JSON.stringify(s)}`);
}

describe('planRun: accepted', () => {
  test('perRun with an input: harn run with the flags before the pipeline, in the input’s directory, the task from it', () => {
    const result = planRun(request({ extraArgs: ['--json', '--llm-mock', 'm.jsonl'] }), machine());
    assert.deepEqual(result, {
      ok: true,
      plan: { binary: 'harn', args: ['run', '--json', '--llm-mock', 'm.jsonl', pipeline], cwd: repo, env: 'inherit', task: 'Triage the failing build.' },
    });
  });

  test('fixed without an input: that directory, no task', () => {
    const result = planRun(request({ workspace: { fixed: repo }, input: undefined }), machine());
    assert.deepEqual(result, { ok: true, plan: { binary: 'harn', args: ['run', pipeline], cwd: repo, env: 'inherit', task: null } });
  });

  test('fixed with an input: the fixed directory, the task from the input (its directory field is then one more field: reserve it)', () => {
    const result = planRun(request({ workspace: { fixed: repo }, input: input({ repo_dir: '/elsewhere', task: 't' }), reserved: ['repo_dir'] }), machine());
    assert.ok(result.ok);
    assert.equal(result.plan.cwd, repo);
    assert.equal(result.plan.task, 't');
  });

  test('an absolute binary that exists is taken as given', () => {
    const result = planRun(request({ binary }), machine());
    assert.ok(result.ok);
    assert.equal(result.plan.binary, binary);
  });

  test('env as a list: exactly those names, plus HARN_TASK when there is a task', () => {
    const result = planRun(request({ env: ['PATH', 'HOME', 'PATH'] }), machine());
    assert.ok(result.ok);
    assert.deepEqual(result.plan.env, ['PATH', 'HOME', 'HARN_TASK']);
    const noTask = planRun(request({ workspace: { fixed: repo }, input: undefined, env: ['PATH'] }), machine());
    assert.ok(noTask.ok);
    assert.deepEqual(noTask.plan.env, ['PATH']);
  });

  test('HARN_TASK in the list is not "missing" when the run sets it', () => {
    const result = planRun(request({ env: ['HARN_TASK'] }), machine({}));
    assert.ok(result.ok);
    assert.deepEqual(result.plan.env, ['HARN_TASK']);
  });
});

describe('planRun: refused', () => {
  test('a pipeline path that is not absolute', () =>
    refused(planRun(request({ pipeline: 'triage.harn' }), machine()), 'pipeline_not_absolute', '"triage.harn"'));
  test('a pipeline that does not exist', () =>
    refused(planRun(request({ pipeline: path.join(root, 'gone.harn') }), machine()), 'pipeline_missing', 'gone.harn', 'does not exist'));
  test('a pipeline that is a directory', () => refused(planRun(request({ pipeline: repo }), machine()), 'pipeline_not_file', 'is a directory'));
  test('a blank binary', () => refused(planRun(request({ binary: ' ' }), machine()), 'binary_invalid', 'blank'));
  test('a relative binary path (it would be read from the run’s directory)', () =>
    refused(planRun(request({ binary: './bin/harn' }), machine()), 'binary_invalid', '"./bin/harn"', 'relative path'));
  test('an absolute binary that does not exist', () =>
    refused(planRun(request({ binary: path.join(root, 'bin', 'nope') }), machine()), 'binary_invalid', 'does not exist'));
  test('an absolute binary that is a directory', () => refused(planRun(request({ binary: repo }), machine()), 'binary_invalid', 'is a directory'));

  test('perRun without an input ("Run Pipeline" rather than "With Input…")', () =>
    refused(planRun(request({ input: undefined }), machine()), 'input_required', '"repo_dir"', 'Run Pipeline With Input'));

  test('a rule’s refusal names the input file', () =>
    refused(
      planRun(request({ input: input({ task: 't' }) }), machine()),
      'parameter_missing',
      `The run's input "${path.join(root, 'input.json')}" has no "repo_dir"`,
    ));

  test('a directory that is not absolute, from the input', () =>
    refused(
      planRun(request({ input: input({ repo_dir: 'repo', task: 't' }) }), machine()),
      'directory_not_absolute',
      '"repo"',
      'from "repo_dir" of',
      'not an absolute path',
    ));
  test('a fixed directory that is not absolute', () =>
    refused(planRun(request({ workspace: { fixed: '.' }, input: undefined }), machine()), 'directory_not_absolute', '"." (fixed)'));
  test('a directory that does not exist', () =>
    refused(planRun(request({ input: input({ repo_dir: path.join(root, 'gone'), task: 't' }) }), machine()), 'directory_missing', 'does not exist'));
  test('a directory under a file (ENOTDIR) does not exist either', () =>
    refused(planRun(request({ workspace: { fixed: path.join(pipeline, 'sub') }, input: undefined }), machine()), 'directory_missing', 'does not exist'));
  test('a directory that is a file', () =>
    refused(planRun(request({ input: input({ repo_dir: pipeline, task: 't' }) }), machine()), 'directory_not_directory', 'is a file, not a directory'));
  test('a directory the machine cannot stat for another reason', () => {
    const denied: RunMachine = {
      env: {},
      stat: (p) => {
        if (p === repo) throw Object.assign(new Error('denied'), { code: 'EACCES' });
        return fs.statSync(p);
      },
    };
    refused(planRun(request(), denied), 'directory_unreadable', 'EACCES');
  });

  test('the task refused (several fields left) after the directory was found', () =>
    refused(planRun(request({ input: input({ repo_dir: repo, task: 'a', notes: 'b' }) }), machine()), 'prompt_several', '"task", "notes"'));
  test('the task refused (not UTF-8) is a protocol error naming the input file', () => {
    const result = planRun(request({ workspace: { fixed: repo }, input: { path: 'in.txt', bytes: Uint8Array.of(0xff) } }), machine());
    refused(result, 'input_not_utf8', 'Protocol error: The run\'s input "in.txt"');
  });

  test('env names missing on this machine: every one listed, before anything starts', () =>
    refused(
      planRun(request({ env: ['PATH', 'API_KEY', 'HOME', 'REGION'] }), machine()),
      'env_missing',
      '2 variables missing on this machine: API_KEY, REGION',
    ));
  test('an env entry that is not a variable name', () => refused(planRun(request({ env: ['PATH', 'A=B', ''] }), machine()), 'env_name_invalid', '"A=B", ""'));
});

describe('childEnvironment', () => {
  const env = { PATH: '/usr/bin', HOME: '/home/me', SECRET: 's', HARN_TASK: 'stale task' };
  test('a list: exactly those variables, plus the task', () => {
    const result = planRun(request({ env: ['PATH'] }), machine(env));
    assert.ok(result.ok);
    assert.deepEqual({ ...childEnvironment(result.plan, env) }, { PATH: '/usr/bin', HARN_TASK: 'Triage the failing build.' });
  });
  test('inherit: every variable, the run’s task replacing one inherited', () => {
    const result = planRun(request(), machine(env));
    assert.ok(result.ok);
    assert.deepEqual({ ...childEnvironment(result.plan, env) }, { ...env, HARN_TASK: 'Triage the failing build.' });
  });
  test('a variable named __proto__ is passed as a variable', () => {
    const result = planRun(request({ env: ['__proto__'] }), machine({ ['__proto__']: 'x' }));
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(Object.getOwnPropertyDescriptor(childEnvironment(result.plan, { ['__proto__']: 'x' }), '__proto__')?.value, 'x');
  });
});
