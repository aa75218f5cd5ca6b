// `harn-workbench fmt` (dist/cli.js, as shipped) on real folders: the three modes and their messages (upstream's
// `harn fmt` ones), exit codes (DESIGN.md: 0 done, 1 would change / not formatted, 2 usage or I/O), harn.toml
// honoured per file and overridden by the flags, a malformed one warned about, folders walked as `check` walks,
// broken files formatted around their errors, unreadable paths, atomic writes keeping the mode. And `check`
// never formats.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-fmt-')));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The command prefix that drops root's privileges (root writes anywhere), or [] when not root; undefined: cannot. */
const asUnprivileged: string[] | undefined =
  process.getuid?.() !== 0
    ? []
    : spawnSync('setpriv', ['--version']).status === 0
      ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
      : undefined;

function cli(args: string[], cwd: string, prefix: string[] = []) {
  const [command, ...rest] = [...prefix, process.execPath, CLI, ...args];
  const r = spawnSync(command ?? process.execPath, rest, { cwd, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh folder with these files (relative path → content). */
function tree(name: string, files: Record<string, string | Buffer>): string {
  const dir = path.join(scratch, name);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const read = (dir: string, rel: string): string => fs.readFileSync(path.join(dir, rel), 'utf8');

const MESSY = 'fn  f( a ){\nreturn a\n}\n';
const MESSY_FORMATTED = 'fn f(a) {\n  return a\n}\n';
const CLEAN = 'fn g() {\n  return 1\n}\n';
/** A call that fits in 100 columns but not in 40. */
const LONG = 'fn a() {\n  let x = some_function(first_argument, second_argument, third_argument)\n}\n';
const LONG_AT_40 = 'fn a() {\n  let x = some_function(\n    first_argument,\n    second_argument,\n    third_argument,\n  )\n}\n';
/** Formatted around its error: the broken declaration is kept as it is, the other one formatted. */
const BROKEN = 'fn broken( {\n\nfn ok(  ) {\nreturn 2\n}\n';
const BROKEN_FORMATTED = 'fn broken( {\n\nfn ok() {\n  return 2\n}\n';
/** Refused: the error is inside a comment. */
const UNFORMATTABLE = 'fn a() {\n  log(1)\n}\n/* never closed\n';

before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

describe('harn-workbench fmt: modes', () => {
  test('--help: the modes, the default, the exit codes', () => {
    const r = cli(['fmt', '--help'], scratch);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^Usage: harn-workbench fmt \[--check \| --write \| --stdout\] \[--line-width N\] \[--separator-width N\] PATH\.\.\.$/m);
    assert.match(r.stdout, /Default mode:\n--write/);
    assert.match(r.stdout, /^Exit status: 0 .*, 1 --check found a file to reformat/m);
  });

  test('--check: each file that would change on stderr, in order, nothing written, exit 1; a formatted tree exits 0 silently', () => {
    const dir = tree('check', { 'b.harn': MESSY, 'a.harn': CLEAN, 'sub/c.harn': MESSY, 'notes.txt': MESSY });
    const r = cli(['fmt', '--check', '.'], dir);
    assert.deepEqual(r, { status: 1, stdout: '', stderr: './b.harn: would be reformatted\n./sub/c.harn: would be reformatted\n' });
    assert.equal(read(dir, 'b.harn'), MESSY);
    assert.equal(read(dir, 'sub/c.harn'), MESSY);
    assert.deepEqual(cli(['fmt', '--check', 'a.harn'], dir), { status: 0, stdout: '', stderr: '' });
  });

  test('write (the default, and --write): rewrites what changes, `formatted PATH` on stdout, exit 0; again: nothing', () => {
    const dir = tree('write', { 'a.harn': CLEAN, 'b.harn': MESSY, 'sub/c.harn': MESSY });
    assert.deepEqual(cli(['fmt', 'b.harn', 'a.harn'], dir), { status: 0, stdout: 'formatted b.harn\n', stderr: '' });
    assert.equal(read(dir, 'b.harn'), MESSY_FORMATTED);
    assert.equal(read(dir, 'a.harn'), CLEAN);
    assert.deepEqual(cli(['fmt', '--write', 'sub/'], dir), { status: 0, stdout: 'formatted sub/c.harn\n', stderr: '' });
    assert.equal(read(dir, 'sub/c.harn'), MESSY_FORMATTED);
    assert.deepEqual(cli(['fmt', '.'], dir), { status: 0, stdout: '', stderr: '' });
  });

  test('--stdout: the formatted text and nothing else, the file untouched; exit 0 whether or not it changes', () => {
    const dir = tree('stdout', { 'b.harn': MESSY, 'a.harn': CLEAN });
    assert.deepEqual(cli(['fmt', '--stdout', 'b.harn'], dir), { status: 0, stdout: MESSY_FORMATTED, stderr: '' });
    assert.equal(read(dir, 'b.harn'), MESSY);
    assert.deepEqual(cli(['fmt', '--stdout', 'a.harn'], dir), { status: 0, stdout: CLEAN, stderr: '' });
  });

  test('usage errors exit 2 with the usage: two modes, no PATH, --stdout with two files or a folder, a bad width', () => {
    const dir = tree('usage', { 'a.harn': MESSY, 'b.harn': MESSY });
    const cases: [string[], RegExp][] = [
      [['fmt', '--check', '--write', 'a.harn'], /give at most one of --check, --write and --stdout \(got --check and --write\)/],
      [['fmt'], /fmt needs at least one PATH/],
      [['fmt', '--stdout', 'a.harn', 'b.harn'], /--stdout takes exactly one file \(got 2 paths\)/],
      [['fmt', '--stdout', '.'], /--stdout takes one file, not a folder: \./],
      [['fmt', '--line-width', 'wide', 'a.harn'], /--line-width must be a whole number of columns, not "wide"/],
      [['fmt', '--separator-width=-3', 'a.harn'], /--separator-width must be a whole number of columns, not "-3"/],
      [['fmt', '--root', '.', 'a.harn'], /fmt does not take --root/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args, dir);
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
      assert.match(r.stderr, /See 'harn-workbench fmt --help'\.\n$/, args.join(' '));
    }
    assert.equal(read(dir, 'a.harn'), MESSY, 'nothing written on a usage error');
    assert.equal(read(dir, 'b.harn'), MESSY);
  });
});

describe('harn-workbench fmt: options', () => {
  test('the nearest harn.toml [fmt] is honoured, per file; --line-width overrides it', () => {
    const dir = tree('config', {
      'narrow/harn.toml': '[fmt]\nline_width = 40\n',
      'narrow/a.harn': LONG,
      'wide/a.harn': LONG,
      '.git/HEAD': 'ref: refs/heads/main\n',
    });
    assert.deepEqual(cli(['fmt', '--stdout', 'narrow/a.harn'], dir), { status: 0, stdout: LONG_AT_40, stderr: '' });
    assert.deepEqual(cli(['fmt', '--stdout', '--line-width', '100', 'narrow/a.harn'], dir), { status: 0, stdout: LONG, stderr: '' });
    assert.deepEqual(cli(['fmt', '--stdout', '--line-width=40', 'wide/a.harn'], dir), { status: 0, stdout: LONG_AT_40, stderr: '' });
    // One run, each file under its own manifest (upstream would apply the first target's to both).
    assert.deepEqual(cli(['fmt', '--check', 'wide', 'narrow'], dir), { status: 1, stdout: '', stderr: 'narrow/a.harn: would be reformatted\n' });
    assert.deepEqual(cli(['fmt', '.'], dir), { status: 0, stdout: 'formatted ./narrow/a.harn\n', stderr: '' });
    assert.equal(read(dir, 'narrow/a.harn'), LONG_AT_40);
    assert.equal(read(dir, 'wide/a.harn'), LONG);
  });

  test('a malformed harn.toml: one warning on stderr (upstream’s text), the defaults, the flags still apply', () => {
    const dir = tree('badconfig', { 'harn.toml': '[fmt]\nline_width = "forty"\n', 'a.harn': LONG, 'b.harn': LONG, '.git/HEAD': '' });
    const warning = 'warning: failed to parse harn.toml: [fmt] line_width: expected a non-negative integer, found string "forty"\n';
    assert.deepEqual(cli(['fmt', '--check', 'a.harn', 'b.harn'], dir), { status: 0, stdout: '', stderr: warning });
    assert.deepEqual(cli(['fmt', '--stdout', '--line-width', '40', 'a.harn'], dir), { status: 0, stdout: LONG_AT_40, stderr: warning });
  });
});

describe('harn-workbench fmt: what it walks and reads', () => {
  test('a folder: its .harn files as git sees them, in upstream’s order, named from the folder as given', () => {
    const dir = tree('walk', {
      'proj/a-b/x.harn': MESSY,
      'proj/a/x.harn': MESSY,
      'proj/.hidden/h.harn': MESSY,
      'proj/build/out.harn': MESSY,
      'proj/.gitignore': 'build/\n',
      'proj/upper.HARN': MESSY,
      'proj/readme.md': MESSY,
    });
    fs.symlinkSync(path.join(dir, 'proj', 'a'), path.join(dir, 'proj', 'linked'));
    fs.symlinkSync(path.join(dir, 'proj', 'a', 'x.harn'), path.join(dir, 'proj', 'link.harn'));
    const r = cli(['fmt', '--check', 'proj'], dir);
    // `a` before `a-b` (component order, as upstream's sorted walk); build/ ignored; links and other names skipped.
    assert.deepEqual(r, {
      status: 1,
      stdout: '',
      stderr: 'proj/.hidden/h.harn: would be reformatted\nproj/a/x.harn: would be reformatted\nproj/a-b/x.harn: would be reformatted\n',
    });
  });

  test('"No .harn files found": exit 1', () => {
    const dir = tree('empty', { 'notes.txt': 'x', 'sub/readme.md': 'y' });
    assert.deepEqual(cli(['fmt', '--check', '.', 'sub'], dir), { status: 1, stdout: '', stderr: 'No .harn files found\n' });
    assert.deepEqual(cli(['fmt', '.'], dir), { status: 1, stdout: '', stderr: 'No .harn files found\n' });
  });

  test('a file named on the command line is formatted whatever its name; a file named twice is done once', () => {
    const dir = tree('named', { 'script.txt': MESSY });
    assert.deepEqual(cli(['fmt', 'script.txt', './script.txt'], dir), { status: 0, stdout: 'formatted script.txt\n', stderr: '' });
    assert.equal(read(dir, 'script.txt'), MESSY_FORMATTED);
  });

  test('unreadable paths: `Error reading PATH: …`, the other files still done, exit 2', () => {
    const dir = tree('unreadable', { 'b.harn': MESSY });
    spawnSync('mkfifo', [path.join(dir, 'pipe.harn')]);
    const r = cli(['fmt', 'missing.harn', 'pipe.harn', 'b.harn'], dir);
    assert.deepEqual(r, {
      status: 2,
      stdout: 'formatted b.harn\n',
      stderr: 'Error reading missing.harn: does not exist\nError reading pipe.harn: is a FIFO, not a regular file\n',
    });
    assert.equal(read(dir, 'b.harn'), MESSY_FORMATTED);
    // An I/O error outranks a file that would be reformatted.
    fs.writeFileSync(path.join(dir, 'b.harn'), MESSY);
    assert.equal(cli(['fmt', '--check', 'b.harn', 'missing.harn'], dir).status, 2);
  });

  test(
    'a file that cannot be written: `Error writing PATH: …`, exit 2, the file as it was, the others still done',
    { skip: asUnprivileged === undefined && 'root writes anywhere, and setpriv is missing' },
    () => {
      const dir = tree('readonly', { 'locked/b.harn': MESSY, 'open/b.harn': MESSY });
      fs.chmodSync(scratch, 0o755);
      fs.chmodSync(dir, 0o755);
      // The file itself is writable: a folder that is not refuses the rename (an atomic write needs it).
      fs.chmodSync(path.join(dir, 'locked', 'b.harn'), 0o666);
      fs.chmodSync(path.join(dir, 'locked'), 0o555);
      fs.chmodSync(path.join(dir, 'open'), 0o777);
      try {
        const r = cli(['fmt', 'locked/b.harn', 'open/b.harn'], dir, asUnprivileged);
        assert.deepEqual(r, {
          status: 2,
          stdout: 'formatted open/b.harn\n',
          stderr: 'Error writing locked/b.harn: cannot create its temporary file (EACCES)\n',
        });
        assert.equal(read(dir, 'locked/b.harn'), MESSY);
        assert.equal(read(dir, 'open/b.harn'), MESSY_FORMATTED);
        assert.deepEqual(fs.readdirSync(path.join(dir, 'locked')), ['b.harn']);
      } finally {
        fs.chmodSync(path.join(dir, 'locked'), 0o755);
        fs.chmodSync(scratch, 0o700);
      }
    },
  );

  test('bytes that are not UTF-8: not formatted (U+FFFD would replace them), exit 1, the file untouched', () => {
    const bytes = Buffer.concat([Buffer.from('fn  f() {\nlet s = "'), Buffer.from([0xe9]), Buffer.from('"\n}\n')]);
    const dir = tree('latin1', { 'a.harn': bytes });
    const r = cli(['fmt', 'a.harn'], dir);
    assert.deepEqual(r, { status: 1, stdout: '', stderr: 'a.harn: not UTF-8 (an ill-formed byte sequence at byte 19); not formatted\n' });
    assert.deepEqual(fs.readFileSync(path.join(dir, 'a.harn')), bytes);
  });
});

describe('harn-workbench fmt: broken files, line ends, writes', () => {
  test('a file with syntax errors is formatted around them; --check counts it only when that changes it', () => {
    const dir = tree('broken', { 'messy.harn': BROKEN, 'tidy.harn': BROKEN_FORMATTED });
    assert.deepEqual(cli(['fmt', '--check', '.'], dir), { status: 1, stdout: '', stderr: './messy.harn: would be reformatted\n' });
    assert.deepEqual(cli(['fmt', '.'], dir), { status: 0, stdout: 'formatted ./messy.harn\n', stderr: '' });
    assert.equal(read(dir, 'messy.harn'), BROKEN_FORMATTED);
    assert.equal(read(dir, 'tidy.harn'), BROKEN_FORMATTED);
  });

  test('a file the formatter cannot format around: `PATH: <why>`, exit 1, untouched; the others still done', () => {
    const dir = tree('refused', { 'a.harn': UNFORMATTABLE, 'b.harn': MESSY });
    const expected = 'a.harn: cannot format around the syntax error: Unterminated block comment at 4:1\n';
    assert.deepEqual(cli(['fmt', 'a.harn', 'b.harn'], dir), { status: 1, stdout: 'formatted b.harn\n', stderr: expected });
    assert.equal(read(dir, 'a.harn'), UNFORMATTABLE);
    assert.deepEqual(cli(['fmt', '--check', 'a.harn'], dir), { status: 1, stdout: '', stderr: expected });
    assert.deepEqual(cli(['fmt', '--stdout', 'a.harn'], dir), { status: 1, stdout: '', stderr: expected });
  });

  test('CRLF and a BOM: reported by --check even when otherwise formatted (the bytes differ), written as LF without BOM', () => {
    const dir = tree('lineends', { 'crlf.harn': CLEAN.replace(/\n/g, '\r\n'), 'bom.harn': `\ufeff${CLEAN}` });
    assert.deepEqual(cli(['fmt', '--check', 'crlf.harn', 'bom.harn'], dir), {
      status: 1,
      stdout: '',
      stderr: 'crlf.harn: would be reformatted\nbom.harn: would be reformatted\n',
    });
    assert.deepEqual(cli(['fmt', '--stdout', 'bom.harn'], dir), { status: 0, stdout: CLEAN, stderr: '' });
    assert.deepEqual(cli(['fmt', 'crlf.harn', 'bom.harn'], dir), { status: 0, stdout: 'formatted crlf.harn\nformatted bom.harn\n', stderr: '' });
    assert.deepEqual(fs.readFileSync(path.join(dir, 'crlf.harn')), Buffer.from(CLEAN));
    assert.deepEqual(fs.readFileSync(path.join(dir, 'bom.harn')), Buffer.from(CLEAN));
  });

  test('writes are atomic renames: the mode kept, no temporary file left, a symbolic link kept and its target rewritten', () => {
    const dir = tree('atomic', { 'real/a.harn': MESSY });
    const file = path.join(dir, 'real', 'a.harn');
    fs.chmodSync(file, 0o751);
    const inodeBefore = fs.statSync(file).ino;
    fs.symlinkSync(file, path.join(dir, 'link.harn'));
    assert.deepEqual(cli(['fmt', 'link.harn'], dir), { status: 0, stdout: 'formatted link.harn\n', stderr: '' });
    assert.ok(fs.lstatSync(path.join(dir, 'link.harn')).isSymbolicLink(), 'the link is still a link');
    assert.equal(read(dir, 'real/a.harn'), MESSY_FORMATTED);
    assert.equal(fs.statSync(file).mode & 0o7777, 0o751);
    assert.notEqual(fs.statSync(file).ino, inodeBefore, 'replaced by a rename, not rewritten in place');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'real')), ['a.harn']);
  });
});

describe('harn-workbench check does not format', () => {
  test('check on a badly formatted file: the file unchanged, nothing said about formatting, exit 0', () => {
    const dir = tree('checknoformat', { 'messy.harn': MESSY, '.git/HEAD': '' });
    const before = fs.statSync(path.join(dir, 'messy.harn'));
    const r = cli(['check', 'messy.harn'], dir);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /format/i);
    assert.match(r.stdout, /^0 errors, 0 warnings in 1 file \(1 \.harn, 0 run artifacts\)/);
    assert.equal(read(dir, 'messy.harn'), MESSY);
    assert.equal(fs.statSync(path.join(dir, 'messy.harn')).mtimeMs, before.mtimeMs);
    const json = cli(['check', 'messy.harn', '--format', 'json'], dir);
    assert.deepEqual(JSON.parse(json.stdout), { version: 1, diagnostics: [] });
  });
});
