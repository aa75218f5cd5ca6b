// workspace/folders.ts: which workspace folder a file belongs to (the innermost one containing it), the settings a
// provider looks up under the folders it was configured with, and the roots after folders are added and removed.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { changedRoots, folderOf, FolderSettings, isWithin, rootOf, settingsOf } from '../../server/src/workspace/folders';
import { readSettings } from '../../server/src/workspace/settings';

const folders = (...roots: string[]) => roots.map((root) => ({ root }));

describe('folderOf', () => {
  test('the innermost folder wins, whatever the order of the folders', () => {
    for (const list of [folders('/a', '/a/b', '/c'), folders('/c', '/a/b', '/a')]) {
      assert.equal(folderOf('/a/b/x.harn', list)?.root, '/a/b');
      assert.equal(folderOf('/a/x.harn', list)?.root, '/a');
      assert.equal(folderOf('/a/bc/x.harn', list)?.root, '/a');
      assert.equal(folderOf('/c/d/e/f.rs', list)?.root, '/c');
    }
  });

  test('a sibling whose name starts with the folder name is outside it', () => {
    const list = folders('/a/foo');
    assert.equal(folderOf('/a/foobar/x.harn', list), undefined);
    assert.equal(folderOf('/a/foo.harn', list), undefined);
    assert.equal(folderOf('/a/foo/x.harn', list)?.root, '/a/foo');
    assert.equal(folderOf('/a/foo', list)?.root, '/a/foo');
  });

  test('outside every folder, or no folder at all: undefined', () => {
    assert.equal(folderOf('/elsewhere/x.harn', folders('/a', '/b')), undefined);
    assert.equal(folderOf('/a/x.harn', []), undefined);
    assert.equal(folderOf('/', folders('/a')), undefined);
  });

  test('trailing separators on either side do not matter', () => {
    assert.equal(folderOf('/a/foo/x', folders('/a/foo/'))?.root, '/a/foo/');
    assert.equal(folderOf('/a/foo/', folders('/a/foo'))?.root, '/a/foo');
    assert.equal(folderOf('/a/foobar', folders('/a/foo//')), undefined);
    assert.equal(folderOf('/x/y', folders('/'))?.root, '/');
  });

  test('POSIX paths are case-sensitive', () => {
    assert.equal(folderOf('/A/foo/x', folders('/a/foo')), undefined);
    assert.equal(folderOf('/a/Foo/x', folders('/a/foo', '/a/Foo'))?.root, '/a/Foo');
  });

  test('Windows-style paths: case folded, either separator, drive roots, UNC shares', () => {
    assert.equal(folderOf('c:\\Work\\Repo\\x.harn', folders('C:\\work\\repo'))?.root, 'C:\\work\\repo');
    assert.equal(folderOf('c:/work/repo/src/x.harn', folders('C:\\work\\repo\\'))?.root, 'C:\\work\\repo\\');
    assert.equal(folderOf('c:\\work\\repository\\x', folders('c:\\work\\repo')), undefined);
    assert.equal(folderOf('d:\\work\\repo\\x', folders('c:\\work\\repo')), undefined);
    assert.equal(folderOf('C:\\x', folders('c:\\'))?.root, 'c:\\');
    assert.equal(folderOf('\\\\server\\share\\x', folders('\\\\Server\\Share'))?.root, '\\\\Server\\Share');
    // A POSIX path never lies inside a Windows one, nor the reverse.
    assert.equal(isWithin('/c/work', 'c:\\'), false);
    assert.equal(isWithin('c:\\work', '/'), false);
  });

  test('rootOf and settingsOf follow folderOf', () => {
    assert.equal(rootOf('/a/b/x', ['/a', '/a/b']), '/a/b');
    assert.equal(rootOf('/z', ['/a']), undefined);
    const outside = readSettings(undefined).settings;
    const inner = readSettings({ boundaries: { registryPath: 'inner.toml' } }).settings;
    const list = [
      { root: '/a', settings: outside },
      { root: '/a/b', settings: inner },
    ];
    assert.equal(settingsOf('/a/b/c.toml', list, outside), inner);
    assert.equal(settingsOf('/a/c.toml', list, inner), outside);
    assert.equal(settingsOf('/q/c.toml', list, inner), inner);
  });

  test('FolderSettings: the defaults before configure(), then the folders and the window settings it was given', () => {
    const settings = new FolderSettings();
    assert.deepEqual(settings.of('/a/b/c.toml'), readSettings(undefined).settings);
    const outside = readSettings({ artifacts: { maxLineBytes: 1234 } }).settings;
    const inner = readSettings({ boundaries: { registryPath: 'inner.toml' } }).settings;
    settings.configure([{ root: '/a/b', settings: inner }], outside);
    assert.equal(settings.of('/a/b/c.toml'), inner);
    assert.equal(settings.of('/a/c.toml'), outside);
    assert.equal(settings.of('/a/c.toml').artifacts.maxLineBytes, 1234);
    settings.configure([], inner);
    assert.equal(settings.of('/a/b/c.toml'), inner);
    assert.deepEqual(settings.folders, []);
  });
});

describe('changedRoots', () => {
  test('removed roots go, added ones come last, none twice', () => {
    assert.deepEqual(changedRoots(['/a', '/b', '/c'], ['/b'], ['/d']), ['/a', '/c', '/d']);
    assert.deepEqual(changedRoots(['/a'], [], ['/a/', '/b', '/b']), ['/a', '/b']);
    assert.deepEqual(changedRoots(['/a', '/b'], ['/a/', '/nowhere'], []), ['/b']);
    assert.deepEqual(changedRoots([], [], []), []);
  });
});
