// examples/demo/runs/training/README.md against the CLI: every `$ node dist/cli.js training-example …` block's
// refusal is what the CLI prints on stderr (exit 1), each refused run folder has its block, and the healthy run's
// message count is the one the README says the editor reports.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const FOLDER = path.join(REPO, 'examples', 'demo', 'runs', 'training');
const README = path.join(FOLDER, 'README.md');

interface Example {
  args: string[];
  stderr: string;
}

/** `$ node dist/cli.js ARGS` followed by the line it prints, in a sh block. */
function readmeExamples(text: string): Example[] {
  const lines = text.split(/\r?\n/);
  const out: Example[] = [];
  lines.forEach((line, i) => {
    const command = /^\$ node dist\/cli\.js (.+)$/.exec(line)?.[1];
    if (command !== undefined) out.push({ args: command.split(' '), stderr: lines[i + 1] ?? '' });
  });
  return out;
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('examples/demo/runs/training/README.md', () => {
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

  test('each refusal shown is the one the CLI prints, for every refused run of the folder', () => {
    const examples = readmeExamples(fs.readFileSync(README, 'utf8'));
    const runs = fs
      .readdirSync(FOLDER, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    assert.deepEqual(runs, ['edited', 'outside-catalog', 'unfinished']);
    assert.deepEqual(
      examples.map((e) => e.args[1]).sort(),
      runs.map((r) => `examples/demo/runs/training/${r}/run.json`),
    );
    const kinds = new Set<string>();
    for (const example of examples) {
      const result = cli(example.args);
      assert.equal(result.status, 1, `${example.args.join(' ')}: ${result.stdout.slice(0, 200)}`);
      assert.equal(result.stdout, '');
      assert.equal(result.stderr, example.stderr.split('$PWD').join(REPO) + '\n', example.args.join(' '));
      kinds.add((JSON.parse(result.stderr) as { kind: string }).kind);
    }
    assert.equal(kinds.size, 3, 'three different reasons');
  });

  test('the healthy run exports, with the message count the README gives', () => {
    const result = cli(['training-example', 'examples/demo/runs/healthy/run.json']);
    assert.equal(result.status, 0, result.stderr);
    const messages = (JSON.parse(result.stdout) as { messages: unknown[] }).messages.length;
    assert.match(fs.readFileSync(README, 'utf8'), new RegExp(`Wrote run\\.training\\.json \\(${messages} messages\\)`));
  });

  test('the parser reads a command and the line after it', () => {
    assert.deepEqual(readmeExamples('```sh\n$ node dist/cli.js training-example a.json\n{"kind":"x"}\n```'), [
      { args: ['training-example', 'a.json'], stderr: '{"kind":"x"}' },
    ]);
  });
});
