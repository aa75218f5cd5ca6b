// Imports never lead out of the workspace, by path or through a symbolic link: the target's real path must lie in
// a root's real path. A refused import gives no definition, no link and no completions, and its hover says why.
// The same real-path rule refuses files outside the workspace folders that a client asks the server to read.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { completionsAt } from '../../server/src/harn/completion';
import { definitionAt } from '../../server/src/harn/definition';
import { hoverAt } from '../../server/src/harn/hover';
import { resolveImportPath } from '../../server/src/harn/modules';
import { HarnWorkspace } from '../../server/src/workspace/harnWorkspace';
import { workspaceRefusal } from '../../server/src/workspace/roots';

describe('resolveImportPath (pure)', () => {
  const files = new Set(['/ws/lib.harn', '/ws/linked.harn', '/ws/inner.harn', '/out/secret.harn']);
  // /ws/linked.harn is a link to /out/secret.harn; /ws/inner.harn one to /ws/lib.harn.
  const real = new Map([
    ['/ws/linked.harn', '/out/secret.harn'],
    ['/ws/inner.harn', '/ws/lib.harn'],
  ]);
  const probe = { isFile: (p: string): boolean => files.has(p), realpath: (p: string): string => real.get(p) ?? p };

  test('a file inside, a link inside to inside, a link out, a path out, nothing', () => {
    assert.deepEqual(resolveImportPath('/ws/main.harn', './lib', ['/ws'], probe), { kind: 'found', file: '/ws/lib.harn' });
    assert.deepEqual(resolveImportPath('/ws/main.harn', './inner', ['/ws'], probe), { kind: 'found', file: '/ws/inner.harn' });
    assert.deepEqual(resolveImportPath('/ws/main.harn', './linked', ['/ws'], probe), {
      kind: 'refused',
      file: '/ws/linked.harn',
      reason: 'is a symbolic link that leads out of the workspace',
    });
    assert.deepEqual(resolveImportPath('/ws/main.harn', '../out/secret', ['/ws'], probe), { kind: 'missing' });
    assert.deepEqual(resolveImportPath('/ws/main.harn', './none', ['/ws'], probe), { kind: 'missing' });
  });

  test('a root that is itself a link is compared by its real path', () => {
    const linkedRoot = { isFile: (p: string): boolean => p === '/link/lib.harn', realpath: (p: string): string => p.replace(/^\/link/, '/real') };
    assert.deepEqual(resolveImportPath('/link/main.harn', './lib', ['/link'], linkedRoot), { kind: 'found', file: '/link/lib.harn' });
  });

  test('a sibling folder whose name starts with two dots is inside', () => {
    const dots = { isFile: (p: string): boolean => p === '/ws/..notes/lib.harn', realpath: (p: string): string => p };
    assert.deepEqual(resolveImportPath('/ws/main.harn', './..notes/lib', ['/ws'], dots), { kind: 'found', file: '/ws/..notes/lib.harn' });
  });
});

describe('imports through real symbolic links', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-links-')));
  after(() => fs.rmSync(base, { recursive: true, force: true }));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.harn'), '/** Leaked doc. */\npub fn leaked() { return 1 }\n');
  fs.writeFileSync(path.join(root, 'lib.harn'), '/** Kept. */\npub fn kept() { return 2 }\n');
  fs.symlinkSync(path.join(outside, 'secret.harn'), path.join(root, 'secret.harn'));
  fs.symlinkSync(outside, path.join(root, 'vendor'));
  fs.symlinkSync(path.join(root, 'lib.harn'), path.join(root, 'alias.harn'));
  const text = 'import "./secret"\nimport { leaked } from "./vendor/secret"\nimport "./alias"\nlet a = leaked()\nlet b = kept()\nlet c = ';
  const main = path.join(root, 'main.harn');
  const workspace = new HarnWorkspace({ get: () => undefined }, () => [root]);
  const analysis = new HarnAnalysis(text);

  test('a file link and a folder link out are refused; a link inside is followed', () => {
    assert.equal(workspace.resolveImport(main, './secret'), undefined);
    assert.equal(workspace.resolveImport(main, './vendor/secret'), undefined);
    assert.deepEqual(workspace.refusedImport(main, './secret'), {
      file: path.join(root, 'secret.harn'),
      reason: 'is a symbolic link that leads out of the workspace',
    });
    assert.deepEqual(workspace.refusedImport(main, './vendor/secret'), {
      file: path.join(root, 'vendor', 'secret.harn'),
      reason: 'is a symbolic link that leads out of the workspace',
    });
    assert.equal(workspace.resolveImport(main, './alias'), path.join(root, 'alias.harn'));
  });

  test('hover says the import is refused; names from it have no hover, definition or completion', () => {
    const importHover = hoverAt(analysis, main, text.indexOf('"./secret"') + 2, workspace, root);
    assert.deepEqual(importHover, {
      markdown: 'module `./secret` → refused: `secret.harn` is a symbolic link that leads out of the workspace',
      start: text.indexOf('"./secret"'),
      end: text.indexOf('"./secret"') + '"./secret"'.length,
    });
    assert.equal(
      hoverAt(analysis, main, text.indexOf('"./vendor/secret"') + 2, workspace, root)?.markdown,
      `module \`./vendor/secret\` → refused: \`${path.join('vendor', 'secret.harn')}\` is a symbolic link that leads out of the workspace`,
    );
    assert.equal(definitionAt(analysis, main, text.indexOf('"./secret"') + 2, workspace), undefined);
    // `leaked` is only the import binding: its hover and definition are the import, never the outside file.
    const use = text.indexOf('leaked()');
    assert.deepEqual(hoverAt(analysis, main, use, workspace, root), {
      markdown: '```harn\nimport { leaked } from "./vendor/secret"\n```',
      start: use,
      end: use + 6,
    });
    const definition = definitionAt(analysis, main, use, workspace);
    assert.deepEqual(definition && [definition.file, definition.start, definition.end], [main, text.indexOf('leaked'), text.indexOf('leaked') + 6]);
    assert.deepEqual(
      completionsAt(analysis, main, text.length, workspace, root)
        .filter((c) => c.label === 'leaked' || c.label === 'kept')
        .map((c) => [c.label, c.detail]),
      [['kept', 'pub fn kept()']],
    );
    assert.equal(hoverAt(analysis, main, text.indexOf('kept()'), workspace, root)?.markdown, '```harn\npub fn kept()\n```\n\nKept.\n\n*from `alias.harn`*');
  });
});

describe('workspaceRefusal (files a client asks the server to read)', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-refusal-')));
  after(() => fs.rmSync(base, { recursive: true, force: true }));
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(base, 'outside.jsonl'), '{}\n');
  fs.writeFileSync(path.join(root, 'inside.jsonl'), '{}\n');
  fs.symlinkSync(path.join(base, 'outside.jsonl'), path.join(root, 'link.jsonl'));

  test('inside, missing inside, outside, a link out, no folder', () => {
    assert.equal(workspaceRefusal(path.join(root, 'inside.jsonl'), [root]), undefined);
    assert.equal(workspaceRefusal(path.join(root, 'missing.jsonl'), [root]), undefined);
    assert.equal(
      workspaceRefusal(path.join(base, 'outside.jsonl'), [root]),
      'outside.jsonl is not read: it is outside the workspace folders, and only files inside them are read from disk.',
    );
    assert.equal(
      workspaceRefusal(path.join(root, 'link.jsonl'), [root]),
      'link.jsonl is not read: it is a symbolic link that leads out of the workspace folders.',
    );
    assert.equal(workspaceRefusal(path.join(base, 'outside.jsonl'), [root, base]), undefined, 'inside the second folder');
    assert.equal(
      workspaceRefusal(path.join(root, 'inside.jsonl'), []),
      'inside.jsonl is not read: no workspace folder is open, and only files inside one are read from disk.',
    );
  });
});
