// workspace/inboxAppend.ts: one line appended in one write, never a rewrite; symlinks, folders reached through a
// link, paths outside the workspace, non-regular files, half-written last lines and multi-line requests refused.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { appendInboxLine } from '../../server/src/workspace/inboxAppend';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-inbox-')));
const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-inbox-out-')));
after(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('appendInboxLine', () => {
  test('creates, then appends; what was there is kept byte for byte', () => {
    const inbox = path.join(root, 'run-control-inbox.jsonl');
    assert.deepEqual(appendInboxLine(inbox, '{"a":1}', [root]), { ok: true, bytes: 8 });
    assert.deepEqual(appendInboxLine(inbox, '{"b":"é"}', [root]), { ok: true, bytes: 11 });
    assert.equal(fs.readFileSync(inbox, 'utf8'), '{"a":1}\n{"b":"é"}\n');
  });

  test('refusals, each with its reason, and nothing written', () => {
    const half = path.join(root, 'half.jsonl');
    fs.writeFileSync(half, '{"partial":');
    assert.match(
      appendInboxLine(half, '{}', [root]).ok ? '' : (appendInboxLine(half, '{}', [root]) as { message: string }).message,
      /does not end with a line break/,
    );
    assert.equal(fs.readFileSync(half, 'utf8'), '{"partial":');
    const two = appendInboxLine(path.join(root, 'x.jsonl'), '{}\n{}', [root]);
    assert.equal(!two.ok && two.message, 'A request is one line: it must not contain a line break.');
    fs.mkdirSync(path.join(root, 'folder.jsonl'));
    const folder = appendInboxLine(path.join(root, 'folder.jsonl'), '{}', [root]);
    assert.match(!folder.ok ? folder.message : '', /is not a regular file/);
    const far = appendInboxLine(path.join(outside, 'inbox.jsonl'), '{}', [root]);
    assert.match(!far.ok ? far.message : '', /is outside the workspace folders/);
    fs.writeFileSync(path.join(outside, 'target.jsonl'), '');
    fs.symlinkSync(path.join(outside, 'target.jsonl'), path.join(root, 'link.jsonl'));
    const link = appendInboxLine(path.join(root, 'link.jsonl'), '{}', [root]);
    assert.match(!link.ok ? link.message : '', /is a symbolic link/);
    fs.symlinkSync(outside, path.join(root, 'linked'));
    const through = appendInboxLine(path.join(root, 'linked', 'inbox.jsonl'), '{}', [root]);
    assert.match(!through.ok ? through.message : '', /reached through a symbolic link/);
    const missing = appendInboxLine(path.join(root, 'nope', 'inbox.jsonl'), '{}', [root]);
    assert.match(!missing.ok ? missing.message : '', /does not exist/);
    assert.equal(fs.readFileSync(path.join(outside, 'target.jsonl'), 'utf8'), '');
    assert.equal(fs.existsSync(path.join(outside, 'inbox.jsonl')), false);
  });
});
