// examples/demo/runs/directives/README.md's "Code → place → why" table against the CLI: every row (code, severity,
// file:line:column) is one diagnostic of `transcript … --format json`, and every diagnostic has its row.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import type { FileDiagnostic } from '../../server/src/report/format';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const RUN = path.join('examples', 'demo', 'runs', 'directives');
const TRANSCRIPT = path.join(RUN, 'run-llm', 'llm_transcript.jsonl');

/** `| \`code\` (severity) | \`path:line:column\` (…) | why |` → "code severity path:line:column". */
function readmeRows(text: string): string[] {
  const rows: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const [, code, where] = line.split('|').map((c) => c.trim());
    const head = /^`([a-z_]+)` \((error|warning|information)\)$/.exec(code ?? '');
    if (!head) continue;
    const place = /^`([^`]+:\d+:\d+)`/.exec(where ?? '')?.[1];
    assert.ok(place !== undefined, `the row of ${head[1]} starts its "Where" with \`path:line:column\`: ${line}`);
    rows.push(`${head[1]} ${head[2]} ${place}`);
  }
  return rows;
}

describe('examples/demo/runs/directives/README.md', () => {
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

  test('every row of the table is a diagnostic the CLI reports at that place, and every diagnostic has a row', () => {
    const result = spawnSync(process.execPath, [CLI, 'transcript', TRANSCRIPT, '--root', RUN, '--format', 'json'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(result.status, 1, result.stderr);
    const reported = (JSON.parse(result.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics.map(
      (d) => `${d.code} ${d.severity} ${d.path}:${d.range.start.line + 1}:${d.range.start.character + 1}`,
    );
    const rows = readmeRows(fs.readFileSync(path.join(REPO, RUN, 'README.md'), 'utf8'));
    assert.deepEqual(rows.sort(), [...reported].sort());
    for (const code of ['prefix_break', 'directive_reissued', 'nonce_mismatch', 'withdrawn_turn_not_restated']) {
      assert.ok(
        rows.some((r) => r.startsWith(`${code} `)),
        `the demo shows ${code}`,
      );
    }
  });

  test('the row parser reads a row and refuses one without a place', () => {
    assert.deepEqual(readmeRows('| `prefix_break` (warning) | `a.jsonl:17:1` (row) | why |\n| Code | Where | Why |'), ['prefix_break warning a.jsonl:17:1']);
    assert.throws(() => readmeRows('| `prefix_break` (warning) | row 17 | why |'), /starts its "Where" with `path:line:column`/);
  });
});
