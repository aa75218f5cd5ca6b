// `harn-workbench run` (dist/cli.js, as shipped) with a stand-in harn that records what it was started with: the
// dry run's plan, the real start (argv, directory, environment, HARN_TASK, the exit status), refusals (exit 1,
// nothing started) and usage errors (exit 2).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { StandInHarn, writeStandInHarn } from '../support/standInHarn';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-run-')));
const harns: StandInHarn[] = [];
after(() => {
  fs.rmSync(root, { recursive: true, force: true });
  for (const h of harns) h.remove();
});
const repo = path.join(root, 'repo');
const launchDir = path.join(root, 'launch');
fs.mkdirSync(repo);
fs.mkdirSync(launchDir);
const pipeline = path.join(root, 'triage.harn');
fs.writeFileSync(pipeline, 'pipeline default(task) {\n  println(env_or("HARN_TASK", "none"))\n}\n');
const inputFile = (name: string, content: unknown): string => {
  const file = path.join(root, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const goodInput = inputFile('input.json', { repo_dir: repo, task: 'Triage the failing build.', session_key: 'k-7' });

const standIn = (options?: Parameters<typeof writeStandInHarn>[0]): StandInHarn => {
  const h = writeStandInHarn(options);
  harns.push(h);
  return h;
};

/** The CLI, started from a folder that is not the run's, with a small known environment. */
function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: launchDir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin', HOME: '/home/tester', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('harn-workbench run --dry-run', () => {
  test('perRun: one JSON object with the binary, the args, the input’s directory, the names passed and the task; nothing started', () => {
    const h = standIn();
    const r = cli([
      'run',
      pipeline,
      '--input',
      goodInput,
      '--per-run',
      'repo_dir',
      '--reserved',
      'session_key',
      '--binary',
      h.path,
      '--arg',
      '--json',
      '--env-pass',
      'HOME',
      '--dry-run',
    ]);
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    assert.equal(
      r.stdout,
      JSON.stringify({ binary: h.path, args: ['run', '--json', pipeline], cwd: repo, env: ['HOME', 'HARN_TASK'], task: 'Triage the failing build.' }) + '\n',
    );
    assert.deepEqual(h.records(), []);
  });

  test('inherit: "env" lists every variable of the CLI’s own environment the child would get, sorted; no input: task null', () => {
    const r = cli(['run', pipeline, '--fixed', repo, '--dry-run'], { ZED: '1', ALPHA: '2' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { binary: 'harn', args: ['run', pipeline], cwd: repo, env: ['ALPHA', 'HOME', 'PATH', 'ZED'], task: null });
  });

  test('a relative PIPELINE is resolved from the current folder (the run’s directory is never)', () => {
    fs.copyFileSync(pipeline, path.join(launchDir, 'local.harn'));
    const r = cli(['run', 'local.harn', '--fixed', repo, '--dry-run', '--env-pass', 'PATH']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { binary: 'harn', args: ['run', path.join(launchDir, 'local.harn')], cwd: repo, env: ['PATH'], task: null });
  });
});

describe('harn-workbench run', () => {
  test('starts the binary in the input’s directory with exactly the passed environment and HARN_TASK; stdout is the child’s', () => {
    const h = standIn();
    const r = cli(['run', pipeline, '--input', goodInput, '--per-run', 'repo_dir', '--reserved', 'session_key', '--binary', h.path, '--env-pass', 'HOME'], {
      SECRET: 'not passed',
    });
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    assert.equal(r.stdout, `stand-in harn ran in ${repo} with HARN_TASK="Triage the failing build."\n`);
    const [seen, ...more] = h.records();
    assert.equal(more.length, 0);
    assert.deepEqual(seen?.argv, ['run', pipeline]);
    assert.equal(seen?.cwd, repo);
    assert.deepEqual(seen?.env, { HOME: '/home/tester', HARN_TASK: 'Triage the failing build.' });
  });

  test('inherit: the child gets the CLI’s environment; a fixed directory without input sets no task', () => {
    const h = standIn();
    const r = cli(['run', pipeline, '--fixed', repo, '--binary', h.path, '--arg', '--json'], { EXTRA: 'yes' });
    assert.equal(r.status, 0, r.stderr);
    const seen = h.last();
    assert.equal(seen?.cwd, repo);
    assert.deepEqual(seen?.argv, ['run', '--json', pipeline]);
    assert.equal(seen?.env.EXTRA, 'yes');
    assert.equal(seen?.env.HARN_TASK, undefined);
  });

  test('a task that is the input’s whole text when it is not JSON, shell characters and all, reaches the child intact', () => {
    const h = standIn();
    const text = 'Fix $HOME `rm -rf` "quotes" && ; | \'x\'\nline two\n';
    const r = cli(['run', pipeline, '--input', inputFile('task.txt', text), '--fixed', repo, '--binary', h.path]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(h.last()?.env.HARN_TASK, text);
  });

  test('exits with the pipeline’s status', () => {
    const h = standIn({ exitCode: 3 });
    assert.equal(cli(['run', pipeline, '--fixed', repo, '--binary', h.path]).status, 3);
    assert.equal(h.records().length, 1);
  });

  test('a child ended by a signal: 128 + its number', () => {
    const h = standIn({ signal: 'SIGTERM' });
    assert.equal(cli(['run', pipeline, '--fixed', repo, '--binary', h.path]).status, 128 + os.constants.signals.SIGTERM);
  });

  test('a bare binary name not on PATH: exit 1, saying it cannot be started', () => {
    const r = cli(['run', pipeline, '--fixed', repo, '--binary', 'harn-not-installed-here']);
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'harn-workbench: cannot start harn-not-installed-here: not found on the PATH it was given; the run is not started.\n');
  });

  test('--env-pass without PATH and a bare name: the message says to give an absolute binary', () => {
    const r = cli(['run', pipeline, '--fixed', repo, '--binary', 'harn-not-installed-here', '--env-pass', 'HOME']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /--env-pass without PATH: give --binary an absolute path/);
  });
});

describe('harn-workbench run: refusals (exit 1, the message on stderr, nothing started)', () => {
  const cases: [string, string[], RegExp][] = [
    ['perRun without --input', ['--per-run', 'repo_dir'], /^harn-workbench: input_required: .*"repo_dir".*--input FILE/],
    [
      'an input without the parameter',
      ['--per-run', 'repo', '--input', goodInput],
      /^harn-workbench: parameter_missing: The run's input ".*input\.json" has no "repo" parameter/,
    ],
    ['an input that is not a JSON object', ['--per-run', 'repo_dir', '--input', inputFile('list.json', ['/srv'])], /input_not_object: .* is a list/],
    [
      'the parameter not a string',
      ['--per-run', 'repo_dir', '--input', inputFile('num.json', { repo_dir: 7, task: 't' })],
      /parameter_not_string: .*"repo_dir" as a number \(7\)/,
    ],
    ['the parameter blank', ['--per-run', 'repo_dir', '--input', inputFile('blank.json', { repo_dir: ' ', task: 't' })], /parameter_blank: /],
    ['a relative --fixed', ['--fixed', 'repo'], /directory_not_absolute: The run's directory "repo" \(fixed\)/],
    ['a --fixed that does not exist', ['--fixed', path.join(root, 'gone')], /directory_missing: .*does not exist/],
    ['a --fixed that is a file', ['--fixed', pipeline], /directory_not_directory: /],
    ['two task fields', ['--per-run', 'repo_dir', '--input', goodInput], /prompt_several: .*"task", "session_key"/],
    [
      'env names missing here',
      ['--fixed', repo, '--env-pass', 'HOME', '--env-pass', 'NO_SUCH_VAR_1', '--env-pass', 'NO_SUCH_VAR_2'],
      /env_missing: .*NO_SUCH_VAR_1, NO_SUCH_VAR_2/,
    ],
  ];
  for (const [name, args, message] of cases) {
    test(name, () => {
      const h = standIn();
      const r = cli(['run', pipeline, '--binary', h.path, ...args]);
      assert.equal(r.status, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.ok(r.stderr.endsWith('the run is not started.\n') && r.stderr.split('\n').length === 2, r.stderr);
      assert.deepEqual(h.records(), [], 'nothing was started');
    });
  }

  test('a missing pipeline is refused too', () => {
    const r = cli(['run', path.join(root, 'gone.harn'), '--fixed', repo]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /pipeline_missing: The pipeline ".*gone\.harn" does not exist/);
  });
});

describe('harn-workbench run: usage and I/O errors (exit 2)', () => {
  const cases: [string, string[], RegExp][] = [
    ['no PIPELINE', ['run', '--fixed', repo], /run needs PIPELINE\.harn/],
    ['two PIPELINEs', ['run', pipeline, pipeline, '--fixed', repo], /takes one PIPELINE\.harn/],
    ['neither --fixed nor --per-run', ['run', pipeline], /never runs in the current folder by default/],
    ['both --fixed and --per-run', ['run', pipeline, '--fixed', repo, '--per-run', 'repo_dir'], /not both/],
    ['--fixed twice', ['run', pipeline, '--fixed', repo, '--fixed', root], /--fixed given twice/],
    ['an unknown option', ['run', pipeline, '--fixed', repo, '--cwd', '/'], /unknown option --cwd/],
    ['an option of another command', ['run', pipeline, '--fixed', repo, '--format', 'json'], /run does not take --format/],
    ['an input file that does not exist', ['run', pipeline, '--per-run', 'repo_dir', '--input', path.join(root, 'none.json')], /no such file: .*none\.json/],
    ['an input that is a folder', ['run', pipeline, '--per-run', 'repo_dir', '--input', repo], /not a regular file/],
  ];
  for (const [name, args, message] of cases) {
    test(name, () => {
      const r = cli(args);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    });
  }

  test('--help: the synopsis, every option and the exit codes (exit 0)', () => {
    const r = cli(['run', '--help']);
    assert.equal(r.status, 0);
    for (const s of ['harn-workbench run PIPELINE.harn', '--per-run PARAM', '--env-pass NAME', '--dry-run', '128 + N']) assert.ok(r.stdout.includes(s), s);
  });
});
