// harn.toml's [fmt] options, found and read as upstream's harn-cli config.rs does (RULES.md §2), on real folders.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { findManifest, fmtOptionsOf, formatConfigFor, MAX_MANIFEST_BYTES, MAX_PARENT_DIRS } from '../../server/src/harn/format/config';
import { DEFAULT_FORMAT_OPTIONS } from '../../server/src/harn/format';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-fmt-config-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** Writes files (path → text; a path ending in / is a directory) under a new folder, returns the folder. */
function tree(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    if (rel.endsWith('/')) fs.mkdirSync(file, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
  }
  return dir;
}

describe('harn.toml lookup', () => {
  test('the nearest one above the file, two directories up', () => {
    const dir = tree('up', { 'harn.toml': '[fmt]\nseparator_width = 42\n', 'a/b/main.harn': '' });
    const config = formatConfigFor(path.join(dir, 'a', 'b', 'main.harn'));
    assert.deepEqual(config, { options: { lineWidth: 100, separatorWidth: 42 }, manifest: path.join(dir, 'harn.toml') });
  });

  test('a directory given is searched itself first', () => {
    const dir = tree('dir', { 'harn.toml': '[fmt]\nline_width = 90\n' });
    assert.equal(formatConfigFor(dir).options.lineWidth, 90);
  });

  test('the first found wins even without [fmt]: the defaults, not a further one', () => {
    const dir = tree('first', { 'harn.toml': '[fmt]\nline_width = 50\n', 'inner/harn.toml': '[package]\nname = "x"\n', 'inner/f.harn': '' });
    assert.deepEqual(formatConfigFor(path.join(dir, 'inner', 'f.harn')), { options: DEFAULT_FORMAT_OPTIONS, manifest: path.join(dir, 'inner', 'harn.toml') });
  });

  test('stops at a .git boundary (directory or worktree file), whose own harn.toml still counts', () => {
    const dir = tree('git', {
      'harn.toml': '[fmt]\nline_width = 999\n',
      'project/.git/': '',
      'project/src/main.harn': '',
      'wt/.git': 'gitdir: x\n',
      'wt/m.harn': '',
    });
    assert.equal(findManifest(path.join(dir, 'project', 'src', 'main.harn')), undefined);
    assert.equal(findManifest(path.join(dir, 'wt', 'm.harn')), undefined);
    fs.writeFileSync(path.join(dir, 'project', 'harn.toml'), '[fmt]\nline-width = 70\n');
    assert.equal(formatConfigFor(path.join(dir, 'project', 'src', 'main.harn')).options.lineWidth, 70);
  });

  test(`looks at most ${MAX_PARENT_DIRS} directories up`, () => {
    const levels = Array.from({ length: MAX_PARENT_DIRS }, (_, i) => `l${i}`);
    const dir = tree('deep', { 'harn.toml': '[fmt]\nline_width = 1\n', [`${levels.join('/')}/f.harn`]: '' });
    // The file's directory is the 1st looked at; its 16th ancestor-or-self is l0, so dir/harn.toml is past the cap.
    assert.equal(findManifest(path.join(dir, ...levels, 'f.harn')), undefined);
    assert.equal(findManifest(path.join(dir, ...levels.slice(1), 'f.harn')), path.join(dir, 'harn.toml'));
  });

  test('a harn.toml past MAX_MANIFEST_BYTES is not read: the defaults, as for one that cannot be read', () => {
    const dir = tree('huge', { 'harn.toml': '[fmt]\nline_width = 60\n' + '#'.repeat(MAX_MANIFEST_BYTES) + '\n', 'f.harn': '' });
    assert.deepEqual(formatConfigFor(path.join(dir, 'f.harn')), { options: DEFAULT_FORMAT_OPTIONS, manifest: path.join(dir, 'harn.toml') });
  });

  test('a harn.toml that is a directory is passed over', () => {
    const dir = tree('notfile', { 'harn.toml': '[fmt]\nline_width = 60\n', 'sub/harn.toml/': '', 'sub/f.harn': '' });
    assert.equal(formatConfigFor(path.join(dir, 'sub', 'f.harn')).options.lineWidth, 60);
  });
});

describe('[fmt] keys', () => {
  test('both spellings; other tables and keys ignored', () => {
    assert.deepEqual(fmtOptionsOf('[fmt]\nline-width = 110\nseparator-width = 72\n'), { options: { lineWidth: 110, separatorWidth: 72 } });
    assert.deepEqual(fmtOptionsOf('[package]\nname = "demo"\n[dependencies]\nfoo = { path = "../foo" }\n[fmt]\nline_width = 77\nindent = 4\n'), {
      options: { lineWidth: 77, separatorWidth: 80 },
    });
    assert.deepEqual(fmtOptionsOf(''), { options: DEFAULT_FORMAT_OPTIONS });
    assert.deepEqual(fmtOptionsOf('fmt.line_width = 88\n'), { options: { lineWidth: 88, separatorWidth: 80 } });
  });

  test('errors: bad TOML, wrong types (also in [lint]), both spellings at once', () => {
    const error = (text: string): string => {
      const r = fmtOptionsOf(text);
      assert.ok('error' in r, `expected an error for ${JSON.stringify(text)}`);
      return r.error;
    };
    assert.match(error('[fmt\nline_width = 1\n'), /./);
    assert.equal(error('[fmt]\nline_width = "not-a-number"\n'), '[fmt] line_width: expected a non-negative integer, found string "not-a-number"');
    assert.equal(error('[fmt]\nline_width = -1\n'), '[fmt] line_width: expected a non-negative integer, found integer `-1`');
    assert.equal(error('[fmt]\nseparator_width = 1.5\n'), '[fmt] separator_width: expected a non-negative integer, found float `1.5`');
    assert.equal(error('fmt = 3\n'), '`fmt` must be a table, found integer `3`');
    assert.equal(error('[fmt]\nline_width = 1\nline-width = 2\n'), '[fmt] duplicate field `line_width` (also given as `line-width`)');
    assert.equal(error('[lint]\ndisabled = "x"\n'), '[lint] disabled: expected an array of strings, found string "x"');
    assert.equal(error('[lint]\nrequire-file-header = 1\n'), '[lint] require_file_header: expected a boolean, found integer `1`');
  });

  test('a malformed manifest gives the defaults and says which file and why', () => {
    const dir = tree('bad', { 'harn.toml': '[fmt]\nline_width = "x"\n', 'f.harn': '' });
    const config = formatConfigFor(path.join(dir, 'f.harn'));
    assert.deepEqual(config.options, DEFAULT_FORMAT_OPTIONS);
    assert.equal(config.error, `failed to parse ${path.join(dir, 'harn.toml')}: [fmt] line_width: expected a non-negative integer, found string "x"`);
  });
});
