// examples/drift/README.md's table against what the CLI reports: every row (finding, id, file:line) is one
// finding of `check examples/drift --format json`, and every finding has its row, so the README cannot drift.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import type { FileDiagnostic } from '../../server/src/report/format';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const README = path.join(REPO, 'examples', 'drift', 'README.md');

interface Row {
  kind: string;
  id: string;
  place: string;
}

/** The table's rows: `| \`kind\` | \`id\` (or empty) | \`path:line\`, why |`. */
function readmeRows(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split(/\r?\n/)) {
    const cells = line.split('|').map((c) => c.trim());
    // '', kind, id, caused by, '' for a table row; the header and the separator have no backticked kind.
    const [, kind, id, cause] = cells;
    const kindName = /^`([a-z_]+)`$/.exec(kind ?? '')?.[1];
    if (kindName === undefined || id === undefined || cause === undefined) continue;
    const place = /^`([^`]+:\d+)`/.exec(cause)?.[1];
    assert.ok(place !== undefined, `the row of ${kindName} starts its "Caused by" with \`path:line\`: ${line}`);
    rows.push({ kind: kindName, id: /^`([^`]*)`$/.exec(id)?.[1] ?? id, place });
  }
  return rows;
}

describe('examples/drift/README.md', () => {
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

  test('every row of the table is a finding the CLI reports at that file:line, and every finding has a row', () => {
    // Without --root, from the repository's top: the root is found (examples/drift has the registry).
    const result = spawnSync(process.execPath, [CLI, 'check', 'examples/drift', '--format', 'json'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(result.status, 1, result.stderr);
    const reported = (JSON.parse(result.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics
      .filter((d) => d.source === 'harn.boundaries')
      .map((d) => {
        const id = d.data?.id;
        return `${d.code} ${typeof id === 'string' ? id : ''} ${d.path}:${d.range.start.line + 1}`;
      });
    const rows = readmeRows(fs.readFileSync(README, 'utf8'));
    assert.equal(rows.length, 15, 'the table lists each of the 15 finding kinds the drift shows');
    assert.deepEqual(rows.map((r) => `${r.kind} ${r.id} ${r.place}`).sort(), [...reported].sort());
  });

  test('the row parser reads a row and refuses one without a place', () => {
    assert.deepEqual(readmeRows('| `no_test` | `x` | `a/b.toml:3`, why |\n| Finding | Id | Caused by |\n|---|---|---|'), [
      { kind: 'no_test', id: 'x', place: 'a/b.toml:3' },
    ]);
    assert.deepEqual(readmeRows('| `invalid_entry` | | `a.toml:7`, no id |'), [{ kind: 'invalid_entry', id: '', place: 'a.toml:7' }]);
    assert.throws(() => readmeRows('| `no_test` | `x` | somewhere |'), /starts its "Caused by" with `path:line`/);
  });
});
