// `transcript FILE` and `check` report the directive checks (source harn.directives) in every --format, with the
// exit code of their worst severity (withdrawn_turn_not_restated is an error). Runs dist/cli.js (npm run build).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FileDiagnostic } from '../../server/src/report/format';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const env = (body: string, authority = 'contract'): string =>
  `<context-directives speaker="harness">\nFollow these.\n<directive authority="${authority}">\n${body}\n</directive>\n</context-directives>`;
const msg = (index: number, role: string, content: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ type: 'message', session_id: 's', message_index: index, role, content, message: { role, content, ...extra } });
const req = (callId: string): string => JSON.stringify({ type: 'provider_call_request', call_id: callId, iteration: 0 });
const ROWS = [
  msg(0, 'user', 'task'),
  msg(1, 'user', env('keep it short')),
  req('c1'),
  msg(2, 'user', env('keep it short')), // directive_reissued
  msg(3, 'assistant', '[withdrawn]', { harn_bookkeeping_turn: true }),
  req('c2'), // withdrawn_turn_not_restated (on row 4)
  msg(0, 'user', 'task, reworded'),
  req('c3'), // prefix_break at message 0
  msg(1, 'assistant', 'ok'),
  JSON.stringify({ type: 'agent_session_finalized', session_id: 's', final_status: 'done', terminal: true }),
];
const EXPECTED = [
  ['directive_reissued', 'warning', 3],
  ['withdrawn_turn_not_restated', 'error', 4],
  ['prefix_break', 'warning', 7],
];

describe('harn-workbench reports the directive checks', () => {
  let root: string;
  let file: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cli-directives-'));
    file = path.join(root, 'run-llm', 'llm_transcript.jsonl');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, ROWS.join('\n') + '\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const run = (args: string[]): { status: number | null; stdout: string } => spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: 'utf8' });

  for (const command of [
    ['transcript', 'run-llm/llm_transcript.jsonl'],
    ['check', '.'],
  ]) {
    test(`${command[0]} --format json: each code at its row, source harn.directives, exit 1 (an error)`, () => {
      const result = run([...command, '--root', '.', '--format', 'json']);
      assert.equal(result.status, 1, result.stdout);
      const diagnostics = (JSON.parse(result.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics.filter((d) => d.source === 'harn.directives');
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.range.start.line]).sort((a, b) => Number(a[2]) - Number(b[2])),
        EXPECTED,
      );
      assert.ok(diagnostics.every((d) => d.path === 'run-llm/llm_transcript.jsonl'));
    });
  }

  test('text, github and sarif carry the same findings', () => {
    const text = run(['transcript', 'run-llm/llm_transcript.jsonl', '--root', '.', '--format', 'text']).stdout;
    for (const [code, , line] of EXPECTED) assert.match(text, new RegExp(`llm_transcript\\.jsonl:${Number(line) + 1}:\\d+.*${String(code)}`));
    const github = run(['transcript', 'run-llm/llm_transcript.jsonl', '--root', '.', '--format', 'github']).stdout;
    assert.match(github, /::error file=run-llm\/llm_transcript\.jsonl,line=5,.*withdrawn_turn_not_restated/);
    assert.match(github, /::warning file=run-llm\/llm_transcript\.jsonl,line=8,.*prefix_break/);
    const sarif = JSON.parse(run(['transcript', 'run-llm/llm_transcript.jsonl', '--root', '.', '--format', 'sarif']).stdout) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[];
    };
    const results = sarif.runs.flatMap((r) => r.results).filter((r) => EXPECTED.some(([code]) => r.ruleId.endsWith(String(code))));
    assert.deepEqual(results.map((r) => r.locations[0]?.physicalLocation.region.startLine).sort(), [4, 5, 8]);
  });
});
