// examples/demo/runs/controls/README.md's "Row → code → rule" table against the CLI: every row (line, code) is one
// error of `check … --format json` on the demo log, and every diagnostic has its row.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import type { FileDiagnostic } from '../../server/src/report/format';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const RUN = path.join('examples', 'demo', 'runs', 'controls');
const LOG = path.join(RUN, 'run_control.jsonl');

/** `| 25 | \`CODE\` | rule |` → "25 CODE". */
function readmeRows(text: string): string[] {
  const rows: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\| (\d+) \| `([A-Z_]+)` \| \S/.exec(line);
    if (match) rows.push(`${match[1]} ${match[2]}`);
  }
  return rows;
}

describe('examples/demo/runs/controls/README.md', () => {
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

  test('every row of the table is an error the CLI reports on that line, and every diagnostic has a row', () => {
    const result = spawnSync(process.execPath, [CLI, 'check', LOG, '--format', 'json'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(result.status, 1, result.stderr);
    const diagnostics = (JSON.parse(result.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics;
    assert.ok(
      diagnostics.every((d) => d.severity === 'error' && d.source === 'harn.runControl'),
      JSON.stringify(diagnostics.map((d) => [d.source, d.severity])),
    );
    const reported = diagnostics.map((d) => `${d.range.start.line + 1} ${String(d.code)}`);
    const rows = readmeRows(fs.readFileSync(path.join(REPO, RUN, 'README.md'), 'utf8'));
    assert.deepEqual([...rows].sort(), [...reported].sort());
  });

  test('the row parser reads a row and skips the header', () => {
    assert.deepEqual(readmeRows('| Row | Code (error) | Rule |\n| 25 | `STALE_TURN` | why |'), ['25 STALE_TURN']);
  });
});
