// examples/demo/README.md's "run the pipeline where it belongs" against the CLI: the refusal of the demo's input as
// it is (its repo_dir a placeholder), and the dry run with repo_dir a real directory, the README's placeholders
// (/path/to/your/checkout, /path/to/harn-workbench) standing for that directory and the repository.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const README = path.join(REPO, 'examples', 'demo', 'README.md');
const INPUT = 'examples/demo/pipelines/triage.input.json';
const CHECKOUT = '/path/to/your/checkout';
const REPO_SHOWN = '/path/to/harn-workbench';

/** `$ node dist/cli.js ARGS` and the line after it, in the README's order. */
function examples(): { args: string[]; output: string }[] {
  const lines = fs.readFileSync(README, 'utf8').split(/\r?\n/);
  return lines.flatMap((line, i) => {
    const command = /^\$ node dist\/cli\.js (run .+)$/.exec(line)?.[1];
    return command === undefined ? [] : [{ args: command.split(' '), output: lines[i + 1] ?? '' }];
  });
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('examples/demo/README.md: run the pipeline where it belongs', () => {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-demo-')));
  after(() => fs.rmSync(work, { recursive: true, force: true }));
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

  test("the demo's input as it is: refused, as the README shows", () => {
    const [refused] = examples();
    assert.ok(refused, 'the README shows the refusal');
    assert.ok(refused.args.includes(INPUT));
    const result = cli(refused.args);
    assert.equal(result.status, 1, result.stdout);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trimEnd(), refused.output);
    assert.ok(refused.output.includes(CHECKOUT), 'the placeholder is what is refused');
  });

  test('with repo_dir a real directory: the dry run the README shows, placeholders for the two paths', () => {
    const [, dry] = examples();
    assert.ok(dry, 'the README shows the dry run');
    const checkout = path.join(work, 'checkout');
    fs.mkdirSync(checkout);
    const input = path.join(work, 'triage.input.json');
    fs.writeFileSync(input, fs.readFileSync(path.join(REPO, INPUT), 'utf8').replace(CHECKOUT, checkout));
    const result = cli(dry.args.map((a) => (a === INPUT ? input : a)));
    assert.equal(result.status, 0, result.stderr);
    const shown = result.stdout.trimEnd().split(checkout).join(CHECKOUT).split(REPO).join(REPO_SHOWN);
    assert.equal(shown, dry.output);
    const plan = JSON.parse(result.stdout) as { cwd: string; task: string };
    assert.equal(plan.cwd, checkout);
    assert.equal(plan.task, (JSON.parse(fs.readFileSync(path.join(REPO, INPUT), 'utf8')) as { task: string }).task);
  });
});
