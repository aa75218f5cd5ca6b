// README.md's "Run workspaces: the rules": its table of refusals is what planRun says, word for word. Each row's
// message is produced here by a real planRun against files in a temporary folder (shown in the README as /srv), so a
// changed message, a refusal kind without a row or a row without its kind fails.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { planRun, RunRequest } from '../../server/src/runWorkspace/plan';
import { REFUSAL_KINDS } from '../../server/src/runWorkspace/rules';

const REPO = path.resolve(__dirname, '..', '..');
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-readme-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));
fs.mkdirSync(path.join(root, 'repo'));
fs.writeFileSync(path.join(root, 'triage.harn'), 'pipeline default(task) {}\n');
fs.symlinkSync('loop', path.join(root, 'loop'));

const at = (p: string): string => path.join(root, p);
const text = (t: string) => ({ path: 'input.json', bytes: new TextEncoder().encode(t) });
const input = (value: unknown) => text(JSON.stringify(value));
const base: RunRequest = {
  pipeline: at('triage.harn'),
  binary: 'harn',
  extraArgs: [],
  workspace: { perRun: 'repo_dir' },
  reserved: ['session_key'],
  input: input({ repo_dir: at('repo'), task: 'Fix it.' }),
  env: 'inherit',
};

/** One request per row of the README's table, in its order. */
const CASES: Partial<RunRequest>[] = [
  { input: undefined },
  { input: { path: 'input.json', bytes: Uint8Array.of(0xff, 0xfe, 0x7b, 0x7d) } },
  { input: text('repo_dir=/srv/repo\n') },
  { input: input(['/srv/repo']) },
  { input: input({ repo: '/srv/repo', task: 'Fix it.' }) },
  { input: input({ repo_dir: 7, task: 'Fix it.' }) },
  { input: input({ repo_dir: ' ', task: 'Fix it.' }) },
  { input: input({ repo_dir: at('repo'), session_key: 'k-1' }) },
  { input: input({ repo_dir: at('repo'), task: 'Fix it.', notes: 'Be quick.' }) },
  { input: input({ repo_dir: at('repo'), task: { text: 'Fix it.' } }) },
  { workspace: { fixed: at('repo') }, input: { path: 'input.json', bytes: Uint8Array.of(0x46, 0x69, 0x78, 0xe9) } },
  { workspace: { perRun: '' } },
  { pipeline: 'triage.harn' },
  { pipeline: at('gone.harn') },
  { pipeline: at('repo') },
  { binary: './bin/harn' },
  { input: input({ repo_dir: 'repo', task: 'Fix it.' }) },
  { workspace: { fixed: at('gone') }, input: undefined },
  { workspace: { fixed: at('triage.harn') }, input: undefined },
  { workspace: { fixed: at('loop') }, input: undefined },
  { env: ['PATH', 'A=B'] },
  { env: ['PATH', 'API_KEY', 'REGION'] },
];

/** `| \`kind\` | when | \`message\` |` rows of the section. */
function readmeRows(): { kind: string; message: string }[] {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('## Run workspaces: the rules');
  assert.ok(start >= 0, 'README.md has a "Run workspaces: the rules" section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const rows: { kind: string; message: string }[] = [];
  for (const line of section.split(/\r?\n/)) {
    const match = /^\| `([a-z0-9_]+)` \| [^|]+ \| `([^`]+)` \|$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) rows.push({ kind: match[1], message: match[2] });
  }
  return rows;
}

describe('README.md: Run workspaces: the rules', () => {
  test('the refusals table is what planRun says, row by row', () => {
    const said = CASES.map((over) => {
      const result = planRun({ ...base, ...over }, { env: { PATH: '/usr/bin' }, stat: (p) => fs.statSync(p) });
      assert.equal(result.ok, false, JSON.stringify(over));
      return result.ok ? { kind: '', message: '' } : { kind: result.kind, message: result.message.split(root).join('/srv') };
    });
    assert.deepEqual(readmeRows(), said);
  });

  test('every refusal kind has a row', () => {
    const kinds = new Set(readmeRows().map((r) => r.kind));
    assert.deepEqual(
      REFUSAL_KINDS.filter((k) => !kinds.has(k)),
      [],
    );
  });
});
