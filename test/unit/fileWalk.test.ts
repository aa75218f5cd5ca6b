// walkFiles must list exactly what git lists as tracked-or-untracked, non-ignored files. The oracle is
// git itself: `git ls-files --cached --others --exclude-standard` on the same tree.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { isPathIgnored, walkFiles } from '../../server/src/workspace/fileWalk';

const gitAvailable = spawnSync('git', ['--version']).status === 0;

function write(root: string, rel: string, text = 'x\n'): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

test('walkFiles agrees with git on nested .gitignore rules', { skip: gitAvailable ? undefined : 'git is not installed' }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-walk-'));
  try {
    spawnSync('git', ['init', '-q'], { cwd: root });
    write(
      root,
      '.gitignore',
      ['*.log', '!keep.log', 'build/', '/top-only.txt', 'docs/**/*.tmp', 'target', '# comment', '\\#hash.txt', 'spaced\\ name.txt', ''].join('\n'),
    );
    write(root, '.git/info/exclude', 'local-only.harn\n');
    for (const rel of [
      'a.harn',
      'debug.log',
      'keep.log',
      'build/out.harn',
      'src/build/nested.harn',
      'top-only.txt',
      'src/top-only.txt',
      'docs/a/b/c.tmp',
      'docs/a/b/c.harn',
      'target',
      'crates/x/target/y.rs',
      '#hash.txt',
      'spaced name.txt',
      'local-only.harn',
      'crates/harn-vm/src/boundary.rs',
      'crates/harn-vm/src/gen/skip.rs',
      'crates/harn-vm/src/gen/keep.rs',
    ]) {
      write(root, rel);
    }
    // A nested .gitignore: ignore a folder, then re-include a file inside it (git cannot: the folder is never entered).
    write(root, 'crates/harn-vm/src/.gitignore', 'gen/\n!gen/keep.rs\n*.bak\n');
    write(root, 'crates/harn-vm/src/old.bak');
    write(root, 'crates/harn-vm/.gitignore', '!*.log\n');
    write(root, 'crates/harn-vm/trace.log');

    const git = spawnSync('git', ['-c', 'core.excludesFile=/dev/null', 'ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(git.status, 0, git.stderr);
    const expected = git.stdout.split('\n').filter(Boolean).sort();
    assert.deepEqual(walkFiles(root), expected);
    assert.ok(expected.includes('crates/harn-vm/trace.log'), 'a deeper !pattern re-includes');
    assert.ok(!expected.includes('crates/harn-vm/src/gen/keep.rs'), 'nothing inside an ignored folder comes back');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('isPathIgnored judges one path as walkFiles lists the tree', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-walk-one-'));
  try {
    write(root, '.gitignore', 'build/\n*.tmp.harn\n');
    write(root, 'src/.gitignore', 'local.harn\n!keep.tmp.harn\n');
    write(root, '.git/info/exclude', 'private.harn\n');
    const files = ['a.harn', 'build/b.harn', 'x.tmp.harn', 'src/local.harn', 'src/keep.tmp.harn', 'src/c.harn', 'private.harn', 'deep/build/d.harn'];
    for (const rel of files) write(root, rel);
    const listed = new Set(walkFiles(root));
    for (const rel of files) assert.equal(isPathIgnored(root, rel), !listed.has(rel), rel);
    assert.equal(isPathIgnored(root, '.git/config'), true);
    assert.deepEqual(
      files.filter((rel) => !isPathIgnored(root, rel)),
      ['a.harn', 'src/keep.tmp.harn', 'src/c.harn'],
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
