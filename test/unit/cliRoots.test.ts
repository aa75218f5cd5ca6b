// The CLI without --root: each file's root found (the nearest registry up to the git top, else that top, else the
// current folder), the gate once per root, the summary naming each root and why a gate did not run; -h/--help on
// every command; messages naming paths relative to the root, never the checking machine's absolute paths.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RootFinder } from '../../server/src/cli/roots';
import type { FileDiagnostic } from '../../server/src/report/format';
import { defined } from '../support/assertions';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const DEMO = path.join(REPO, 'examples', 'demo');
const DRIFT = path.join(REPO, 'examples', 'drift');
const REGISTRY = 'scripts/loud_boundaries.toml';

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd = REPO): Result {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function diagnostics(result: Result): FileDiagnostic[] {
  return (JSON.parse(result.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics;
}

const summaryOf = (result: Result): string => defined(result.stdout.trimEnd().split('\n').at(-1), 'the summary line');

/** A temporary tree of files (folders made as needed). */
function tree(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cli-roots-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function madeTree(files: Record<string, string>): string {
  const root = tree(files);
  made.push(root);
  return root;
}

before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

describe('RootFinder', () => {
  test('the nearest folder with the registry; a .git stops the search; else the current folder', () => {
    const root = madeTree({
      [`outer/${REGISTRY}`]: '',
      'outer/repo/.git/HEAD': '',
      'outer/repo/a/b/x.harn': '',
      [`outer/repo/tool/${REGISTRY}`]: '',
      'outer/repo/tool/src/y.harn': '',
      'outer/plain/z.harn': '',
      'lone/w.harn': '',
    });
    const cwd = path.join(root, 'somewhere');
    const finder = new RootFinder(cwd, REGISTRY);
    const at = (rel: string): string => path.join(root, rel);
    // Inside the repository: the registry of outer/ lies above its top, so the top is the root.
    assert.deepEqual(finder.rootOf(at('outer/repo/a/b')), { root: at('outer/repo'), reason: 'git' });
    assert.deepEqual(finder.rootOf(at('outer/repo/tool/src')), { root: at('outer/repo/tool'), reason: 'registry' });
    assert.deepEqual(finder.rootOf(at('outer/repo/tool')), { root: at('outer/repo/tool'), reason: 'registry' });
    assert.deepEqual(finder.rootOf(at('outer/plain')), { root: at('outer'), reason: 'registry' });
    // Answers are remembered per folder passed through: asking again gives the same.
    assert.deepEqual(finder.rootOf(at('outer/repo/a')), { root: at('outer/repo'), reason: 'git' });
    // /tmp has no .git above it on these machines; when it has, the answer is that top, never `lone` itself.
    const lone = finder.rootOf(at('lone'));
    assert.ok(lone.reason === 'cwd' ? lone.root === cwd : lone.reason === 'git' && !lone.root.startsWith(root), JSON.stringify(lone));
  });
});

describe('check without --root', () => {
  test('check examples/demo runs the gate as --root examples/demo does: the same report in every format', () => {
    for (const format of ['json', 'text', 'github', 'sarif']) {
      const found = run(['check', 'examples/demo', '--format', format]);
      const given = run(['check', 'examples/demo', '--root', 'examples/demo', '--format', format]);
      assert.equal(found.status, 1, found.stderr);
      assert.equal(found.stdout, given.stdout, format);
    }
    const json = diagnostics(run(['check', 'examples/demo', '--format', 'json']));
    assert.ok(
      json.some((d) => d.path === 'runs/broken/run.json'),
      'paths relative to the root found',
    );
    assert.match(summaryOf(run(['check', 'examples/demo'])), /; gate on examples\/demo: 0 findings; /);
  });

  test('the gate of examples/drift runs from a file deep inside it, its findings relative to its root', () => {
    const result = run(['check', 'examples/drift/conformance/tests/chat_events.harn', '--format', 'json']);
    assert.equal(result.status, 1);
    const gate = diagnostics(result).filter((d) => d.source === 'harn.boundaries');
    assert.equal(gate.length, 15);
    assert.ok(gate.some((d) => d.path === REGISTRY && d.code === 'duplicate_entry'));
    assert.equal(
      summaryOf(run(['check', 'examples/drift/conformance/tests/chat_events.harn'])),
      '15 errors, 0 warnings in 1 file (1 .harn, 0 run artifacts); gate on examples/drift: 15 findings; other: none',
    );
  });

  test('paths with different roots: each gate runs once, findings under their root, the summary names each', () => {
    const result = run(['check', 'examples/demo', 'examples/drift', 'examples/drift/scripts', '--format', 'json']);
    assert.equal(result.status, 1);
    const all = diagnostics(result);
    const gate = all.filter((d) => d.source === 'harn.boundaries');
    // Once, not twice for the two paths inside examples/drift; paths relative to the current folder (two roots).
    assert.equal(gate.length, 15);
    assert.ok(gate.every((d) => d.path.startsWith('examples/drift/')));
    assert.ok(all.some((d) => d.path === 'examples/demo/runs/broken/run.json'));
    const text = run(['check', 'examples/demo', 'examples/drift']);
    assert.match(
      summaryOf(text),
      /^45 errors, 12 warnings, 6 infos in 30 files \(11 \.harn, 18 run artifacts, 1 training example file\); gate on examples\/demo: 0 findings; gate on examples\/drift: 15 findings; other: /,
    );
    assert.match(text.stdout, /^examples\/drift\/crates\/harn-vm\/src\/boundary\.rs:20:5: error \[harn\.boundaries\/unregistered_boundary\] /m);
    // A folder above both (the repository's top has no registry) is not named: every file it holds has its own root.
    assert.doesNotMatch(summaryOf(run(['check', 'examples'])), /gate not run/);
  });

  test('no registry: the summary says where none was found and that the gate did not run', () => {
    const root = madeTree({ '.git/HEAD': '', 'sub/deep/a.harn': 'let a = 1\n' });
    assert.equal(
      summaryOf(run(['check', 'sub'], root)),
      `0 errors, 0 warnings in 1 file (1 .harn, 0 run artifacts); gate not run on .: no ${REGISTRY} in sub or above it, up to its git repository's top; other: none`,
    );
    assert.match(summaryOf(run(['check'], root)), new RegExp(`; gate not run on \\.: no ${REGISTRY} in it \\(the top of its git repository\\); `));
    assert.match(summaryOf(run(['check', '--root', 'sub'], root)), new RegExp(`; gate not run on sub: no ${REGISTRY} in it \\(--root\\); `));
    // From another folder: the root is named relative to the current folder; paths relative to the root.
    const elsewhere = run(['check', path.join(root, 'sub', 'deep', 'a.harn'), '--format', 'json'], os.tmpdir());
    assert.equal(elsewhere.status, 0, elsewhere.stderr);
    assert.match(summaryOf(run(['check', path.join(root, 'sub')], os.tmpdir())), new RegExp(`gate not run on ${path.basename(root)}: `));
  });

  test('the summary separates the gate from the other diagnostics and says what those are, by severity and code', () => {
    const root = madeTree({ '.git/HEAD': '', 'a.harn': 'let = 1\n', 'b.harn': 'let x = 1 let y = 2\n' });
    assert.equal(
      summaryOf(run(['check'], root)),
      `2 errors, 0 warnings in 2 files (2 .harn, 0 run artifacts); gate not run on .: no ${REGISTRY} in it (the top of its git repository); other: 2 errors (2 syntax_error)`,
    );
    assert.match(
      summaryOf(run(['check', 'examples/demo'])),
      /; other: 30 errors \(2 APPLIED_BEFORE_ACCEPTED, 2 digest_mismatch, 2 invalid_utf8, 2 malformed_jsonl, 22 more kinds\), 12 warnings \(.*\), 6 infos \(1 digest_mismatch, 1 incomplete_source, 1 tool_outside_catalog, 1 unknown_field, 2 more kinds\)$/,
    );
  });
});

describe('transcript and check-loud-boundaries without --root', () => {
  test('transcript FILE: paths relative to the root found for FILE, its run record too', () => {
    const result = run([
      'transcript',
      'examples/demo/runs/broken/run-llm/llm_transcript.jsonl',
      '--run-record',
      'examples/demo/runs/broken/run.json',
      '--format',
      'json',
    ]);
    assert.equal(result.status, 1);
    const paths = new Set(diagnostics(result).map((d) => d.path));
    assert.deepEqual([...paths].sort(), ['runs/broken/run-llm/llm_transcript.jsonl', 'runs/broken/run.json']);
    // The boundary_failure title comes from the registry of the root found.
    const log = run(['transcript', 'examples/demo/runs/broken/event_log.jsonl', '--format', 'json']);
    assert.ok(diagnostics(log).some((d) => d.code === 'boundary_failure' && d.message.includes('(Provider response ingestion)')));
  });

  test('check-loud-boundaries from inside a tree: its root found, the output byte-identical to --root', () => {
    const found = run(['check-loud-boundaries'], path.join(DRIFT, 'crates', 'harn-vm'));
    const given = run(['check-loud-boundaries', '--root', 'examples/drift']);
    assert.equal(found.status, 1);
    assert.equal(found.stderr, given.stderr);
    assert.equal(found.stdout, given.stdout);
    const ok = run(['check-loud-boundaries'], path.join(DEMO, 'pipelines'));
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^loud-boundary registry OK \(/);
  });

  test('check-loud-boundaries with no registry above: exit 2, saying where it looked', () => {
    const root = madeTree({ '.git/HEAD': '', 'sub/a.rs': '' });
    const result = run(['check-loud-boundaries'], path.join(root, 'sub'));
    assert.equal(result.status, 2);
    assert.equal(
      result.stderr,
      `harn-workbench: no ${REGISTRY} in the current folder or above it, up to its git repository's top (..): run it inside a Harn checkout, or give --root DIR\n`,
    );
  });
});

describe('-h and --help', () => {
  const commands = ['check', 'check-loud-boundaries', 'transcript'];

  test("every command's own usage, options, defaults and exit codes, on stdout with exit 0", () => {
    for (const command of commands) {
      for (const args of [
        [command, '-h'],
        [command, '--help'],
        ['-h', command],
        [command, 'some/path', '--format', 'json', '--help'],
      ]) {
        const result = run(args);
        assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
        assert.equal(result.stderr, '');
        assert.match(result.stdout, new RegExp(`^Usage: harn-workbench ${command} `, 'm'), args.join(' '));
        assert.match(result.stdout, /^Options:$/m);
        assert.match(result.stdout, /^ {2}--format FORMAT +text, json, github, sarif \(default text\)$/m);
        assert.match(result.stdout, /^ {2}-h, --help /m);
        assert.match(result.stdout, /^Exit status: 0 no error-severity diagnostic, 1 at least one, 2 usage or I\/O error\.$/m);
      }
    }
    assert.match(
      run(['check', '-h']).stdout,
      /--max-line-bytes N +artifact lines longer than N bytes are not read, one line_too_long each \(default 268435456/,
    );
    assert.match(run(['check-loud-boundaries', '-h']).stdout, /--registry PATH +the registry, relative to the root \(default scripts\/loud_boundaries\.toml\)/);
    assert.match(run(['transcript', '-h']).stdout, /--run-record PATH /);
    for (const args of [['-h'], ['--help']]) {
      const general = run(args);
      assert.equal(general.status, 0);
      for (const command of commands) assert.match(general.stdout, new RegExp(`^ {2}harn-workbench ${command} `, 'm'));
    }
  });

  test('an unknown option, or one the command does not take, is a usage error naming it and pointing to --help', () => {
    for (const [args, message, command] of [
      [['check', '--bogus'], 'unknown option --bogus', 'check'],
      [['check', '-x', '.'], 'unknown option -x', 'check'],
      [['transcript', 'f.jsonl', '--frob=1'], 'unknown option --frob', 'transcript'],
      [['check', '--registry', 'x.toml'], 'check does not take --registry', 'check'],
      [['check-loud-boundaries', '--max-line-bytes', '5'], 'check-loud-boundaries does not take --max-line-bytes', 'check-loud-boundaries'],
    ] as const) {
      const result = run([...args]);
      assert.equal(result.status, 2, args.join(' '));
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.startsWith(`harn-workbench: ${message}\nUsage: harn-workbench ${command} `), result.stderr);
      assert.ok(result.stderr.endsWith(`See 'harn-workbench ${command} --help'.\n`), result.stderr);
    }
    const unknown = run(['frobnicate']);
    assert.equal(unknown.status, 2);
    assert.match(
      unknown.stderr,
      /^harn-workbench: unknown command "frobnicate" \(commands: check, check-loud-boundaries, transcript, run-control, training-example, run, fmt\)\n/,
    );
    assert.match(unknown.stderr, /See 'harn-workbench --help'\.\n$/);
  });

  test('`--` ends the options: a path that starts with a dash is a path', () => {
    const root = madeTree({ '-odd.harn': 'let = 1\n' });
    const result = run(['check', '--root', '.', '--format', 'json', '--', '-odd.harn'], root);
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual([...new Set(diagnostics(result).map((d) => d.path))], ['-odd.harn']);
  });
});

describe('messages name paths relative to the root', () => {
  test("no message in any format carries the checking machine's absolute path; JSON data keeps it", () => {
    for (const [args, cwd] of [
      [['check', 'examples/demo'], REPO],
      [['check', DEMO, '--root', DEMO], os.tmpdir()],
    ] as const) {
      for (const format of ['text', 'github']) {
        const lines = run([...args, '--format', format], cwd)
          .stdout.trimEnd()
          .split('\n');
        // The text summary names the root relative to the current folder (from os.tmpdir(): ../…/examples/demo).
        if (format === 'text') assert.match(defined(lines.pop(), 'the summary'), /^30 errors, 12 warnings, 6 infos in 23 files /);
        assert.deepEqual(
          lines.filter((l) => l.includes(REPO)),
          [],
          format,
        );
      }
      const json = diagnostics(run([...args, '--format', 'json'], cwd));
      assert.deepEqual(
        json.filter((d) => d.message.includes(REPO)).map((d) => d.message),
        [],
      );
      const sarif = JSON.parse(run([...args, '--format', 'sarif'], cwd).stdout) as { runs: Array<{ results: Array<{ message: { text: string } }> }> };
      assert.deepEqual(
        defined(sarif.runs[0], 'the run')
          .results.map((r) => r.message.text)
          .filter((m) => m.includes(REPO)),
        [],
      );
      // The run record's messages name the transcripts as the root sees them; data keeps the absolute path.
      const lost = defined(
        json.find((d) => d.code === 'unavailable'),
        'the lost transcript',
      );
      assert.equal(lost.message, 'The transcript relative_path points to, runs/broken/run-llm/llm_transcript-lost.jsonl, cannot be read (ENOENT).');
      assert.equal(lost.data?.path, path.join(DEMO, 'runs', 'broken', 'run-llm', 'llm_transcript-lost.jsonl'));
      const traversal = defined(
        json.find((d) => d.code === 'path_traversal'),
        'the traversal',
      );
      assert.match(traversal.message, /it must stay inside the run's folder runs\/broken, and it is not read\.$/);
    }
  });

  test('with several roots, message paths are relative to the current folder, as the diagnostics are', () => {
    const json = diagnostics(run(['check', 'examples/demo', 'examples/drift', '--format', 'json']));
    const lost = defined(
      json.find((d) => d.code === 'unavailable'),
      'the lost transcript',
    );
    assert.equal(lost.path, 'examples/demo/runs/broken/run.json');
    assert.match(lost.message, /points to, examples\/demo\/runs\/broken\/run-llm\/llm_transcript-lost\.jsonl, /);
  });
});
