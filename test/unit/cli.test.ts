// The CLI contract of DESIGN.md: formats, paths relative to --root, UTF-16 positions, exit codes.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defined } from '../support/assertions';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

function run(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('harn-workbench check', () => {
  let root: string;
  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cli-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.mkdirSync(path.join(root, 'build'));
    fs.writeFileSync(path.join(root, 'src', 'ok.harn'), 'fn ok() {\n  return 1\n}\n');
    // Emoji before the error: the column counts UTF-16 code units.
    fs.writeFileSync(path.join(root, 'src', 'bad.harn'), 'let s = "🙂" let t = `\n');
    fs.writeFileSync(path.join(root, 'build', 'ignored.harn'), 'let = \n');
    fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('json: the contract shape, relative paths, 0-based UTF-16 positions, exit 1 on errors', () => {
    const { status, stdout } = run(['check', '--root', root, '--format', 'json'], os.tmpdir());
    assert.equal(status, 1);
    const parsed = JSON.parse(stdout) as { version: number; diagnostics: Array<Record<string, unknown>> };
    assert.equal(parsed.version, 1);
    const paths = new Set(parsed.diagnostics.map((d) => d.path));
    assert.deepEqual([...paths], ['src/bad.harn'], 'build/ is ignored through .gitignore');
    const separator = defined(parsed.diagnostics[0], 'the first diagnostic');
    const character = defined(parsed.diagnostics[1], 'the second diagnostic');
    assert.deepEqual(Object.keys(separator).sort(), ['code', 'message', 'path', 'range', 'severity', 'source']);
    assert.equal(separator.source, 'harn.syntax');
    assert.equal(separator.severity, 'error');
    // `let t` starts at UTF-16 column 13 ("let s = " is 8, the emoji 2, the quotes 2, a space 1).
    assert.deepEqual(separator.range, { start: { line: 0, character: 13 }, end: { line: 0, character: 16 } });
    assert.equal(character.code, 'unexpected_character');
    assert.deepEqual((character.range as { start: unknown }).start, { line: 0, character: 21 });
  });

  test('text and github formats', () => {
    const text = run(['check', 'src', '--root', '.'], root);
    assert.equal(text.status, 1);
    assert.match(text.stdout, /^src\/bad\.harn:1:14: error \[harn\.syntax\/syntax_error\] Expected statement separator/m);
    assert.match(
      text.stdout,
      /^2 errors, 0 warnings in 2 files \(2 \.harn, 0 run artifacts\); gate not run on \.: no scripts\/loud_boundaries\.toml in it \(--root\); other: 2 errors \(1 syntax_error, 1 unexpected_character\)$/m,
    );
    const github = run(['check', '--root', root, '--format', 'github'], root);
    assert.match(github.stdout, /^::error file=src\/bad\.harn,line=1,col=14,endLine=1,endColumn=17,title=harn\.syntax\/syntax_error::Expected/m);
  });

  test('sarif 2.1.0', () => {
    const { stdout } = run(['check', '--root', root, '--format', 'sarif'], root);
    const sarif = JSON.parse(stdout) as { version: string; runs: Array<{ results: Array<{ ruleId: string; locations: unknown[] }> }> };
    assert.equal(sarif.version, '2.1.0');
    const { results } = defined(sarif.runs[0], 'the run');
    assert.equal(results.length, 2);
    assert.equal(defined(results[0], 'the first result').ruleId, 'harn.syntax/syntax_error');
  });

  test('exit 0 on a clean tree, 2 on usage and I/O errors', () => {
    assert.equal(run(['check', 'src/ok.harn'], root).status, 0);
    const missing = run(['check', 'nope.harn'], root);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file or folder: nope\.harn/);
    assert.equal(run(['check', '--format', 'xml'], root).status, 2);
    assert.equal(run(['frobnicate'], root).status, 2);
    assert.equal(run([], root).status, 2);
    assert.equal(run(['--help'], root).status, 0);
  });
});
