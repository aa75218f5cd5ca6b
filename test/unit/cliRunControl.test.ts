// The CLI over run-control logs (dist/cli.js, as shipped): `check` reports a log's findings (found by its name or
// its rows), `run-control compose` prints the request bound to the latest snapshot or the refusal (exit 1), and
// its usage errors (exit 2) and help.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FileDiagnostic } from '../../server/src/report/format';
import { healthyLog, LogWriter } from '../support/runControlLog';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const run = (args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('harn-workbench and run-control logs', () => {
  let dir: string;
  let active: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-rc-cli-'));
    const log = new LogWriter();
    log.turn(1);
    log.submit(log.request({ kind: 'steer', input: 'first' }), 1);
    log.applyAll(2);
    log.turn(2);
    active = path.join(dir, 'active_run_control.jsonl');
    fs.writeFileSync(active, log.text());
    const broken = [...healthyLog().lines];
    broken[1] = broken[1]?.replace('"command"', '"priority":1,"command"') ?? '';
    // Named by no glob: recognised by its rows.
    fs.writeFileSync(path.join(dir, 'host-log.jsonl'), broken.join('\n') + '\n');
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('check reports a run-control log found by its rows, with source harn.runControl', () => {
    const r = run(['check', '.', '--format', 'json'], dir);
    assert.equal(r.status, 1, r.stderr);
    const found = (JSON.parse(r.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics;
    assert.deepEqual(
      found.map((d) => [d.path, d.source, d.code, d.range.start.line]),
      [['host-log.jsonl', 'harn.runControl', 'UNKNOWN_FIELD', 1]],
    );
  });

  test('compose --steer prints the request bound to the latest snapshot', () => {
    const r = run(['run-control', 'compose', '--steer', 'Only the parser.', '--log', active], dir);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines.length, 2);
    const request = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    assert.match(String(request.request_id), /^[0-9a-f-]{36}$/);
    assert.equal(
      lines[0],
      `{"schema":"a3s.code.run-control-request.v1","request_id":"${String(request.request_id)}","session_id":"sess-alpha","run_id":"run-42","expected_turn_id":"turn-2","expected_turn_revision":2,"command":{"kind":"steer","input":"Only the parser."}}`,
    );
  });

  test('compose --interrupt with a reason and --force', () => {
    const r = run(['run-control', 'compose', '--interrupt', '--reason', 'stop now', '--force', '--log', active], dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /"command":\{"kind":"interrupt","reason":"stop now","force":true\}\}\n$/);
  });

  test('a refusal: upstream code and message on stderr, exit 1, nothing on stdout', () => {
    const closed = path.join(dir, 'closed_run_control.jsonl');
    fs.writeFileSync(closed, healthyLog().text());
    const r = run(['run-control', 'compose', '--steer', 'late', '--log', closed], dir);
    assert.deepEqual(r, { status: 1, stdout: '', stderr: 'harn-workbench: CLOSED: run-control inbox is closed\n' });
    const blank = run(['run-control', 'compose', '--steer', '  ', '--log', active], dir);
    assert.deepEqual(blank, { status: 1, stdout: '', stderr: 'harn-workbench: INVALID_REQUEST: invalid run-control request: steer input must not be empty\n' });
  });

  test('compose --run binds to that run of a log of several (the demo log ends on a closed run)', () => {
    const demo = path.resolve(__dirname, '..', '..', 'examples', 'demo', 'runs', 'controls', 'run_control.jsonl');
    assert.equal(run(['run-control', 'compose', '--steer', 'x', '--log', demo], dir).stderr, 'harn-workbench: CLOSED: run-control inbox is closed\n');
    const r = run(['run-control', 'compose', '--steer', 'Only fix the failing parser test.', '--log', demo, '--run', 'run-42'], dir);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      (({ run_id, expected_turn_id, expected_turn_revision }) => ({ run_id, expected_turn_id, expected_turn_revision }))(
        JSON.parse(r.stdout) as Record<string, unknown>,
      ),
      { run_id: 'run-42', expected_turn_id: 'turn-3', expected_turn_revision: 3 },
    );
    const unknown = run(['run-control', 'compose', '--steer', 'x', '--log', demo, '--run', 'run-99'], dir);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /^harn-workbench: NO_SNAPSHOT: The log has no run-control snapshot of run `run-99`/);
  });

  test('usage errors exit 2; -h explains the command', () => {
    const cases: [string[], RegExp][] = [
      [['run-control', 'compose', '--steer', 'x'], /needs --log LOG/],
      [['run-control', 'compose', '--log', active], /exactly one of --steer TEXT and --interrupt/],
      [['run-control', 'compose', '--steer', 'x', '--interrupt', '--log', active], /exactly one of/],
      [['run-control', 'compose', '--steer', 'x', '--force', '--log', active], /--reason and --force go with --interrupt/],
      [['run-control', 'send', '--steer', 'x', '--log', active], /one subcommand: compose/],
      [['run-control', 'compose', '--force=yes', '--log', active], /--force takes no value/],
    ];
    for (const [args, message] of cases) {
      const r = run(args, dir);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, message);
    }
    const missing = run(['run-control', 'compose', '--steer', 'x', '--log', 'nope.jsonl'], dir);
    assert.deepEqual([missing.status, missing.stderr], [2, 'harn-workbench: no such file: nope.jsonl\n']);
    const help = run(['run-control', '-h'], dir);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: harn-workbench run-control compose \(--steer TEXT \| --interrupt \[--reason R\] \[--force\]\) --log LOG/);
    assert.match(help.stdout, /--force +mark the interrupt forced/);
  });
});
