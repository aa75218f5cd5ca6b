// `harn-workbench training-example` (dist/cli.js, as shipped): the example as JSON on stdout or in --out FILE
// (exit 0), the refusal as one JSON object on stderr and nothing on stdout (exit 1), usage errors (exit 2).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { projectTrainingExample } from '../../server/src/training/project';
import { trainingExampleJson } from '../../server/src/training/serialize';
import { REPO_ROOT } from '../support/lspClient';
import { simpleConversation, writeTrainingRun } from '../support/trainingRuns';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const run = (args: string[], cwd = REPO_ROOT): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('harn-workbench training-example', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const fixture = (rows = simpleConversation('text').rows) => {
    const r = writeTrainingRun({ rows });
    dirs.push(r.dir);
    return r;
  };

  test("the demo's healthy run: the example on stdout, exit 0, byte for byte trainingExampleJson", () => {
    const runPath = path.join('examples', 'demo', 'runs', 'healthy', 'run.json');
    const r = run(['training-example', runPath]);
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    const expected = projectTrainingExample({ runRecordPath: path.join(REPO_ROOT, runPath) });
    assert.ok(expected.ok);
    assert.equal(r.stdout, trainingExampleJson(expected.example));
  });

  test('--out FILE writes the example there and nothing on stdout; --run-id and --session-id that match', () => {
    const f = fixture();
    const out = path.join(f.dir, 'run.training.json');
    const r = run(['training-example', f.runPath, '--out', out, '--run-id', 'run-1', '--session-id=s-1']);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
    const written = JSON.parse(fs.readFileSync(out, 'utf8')) as { schema_version: string; provenance: { session_id: string } };
    assert.equal(written.schema_version, 'harn.agent_training_example.v1');
    assert.equal(written.provenance.session_id, 's-1');
  });

  test('a refusal: exit 1, one JSON object with its event_index on stderr, nothing on stdout', () => {
    const rows = simpleConversation('text').rows;
    rows[10] = { ...rows[10], model: 'm-large' };
    const f = fixture(rows);
    const r = run(['training-example', f.runPath]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.endsWith('}\n') && r.stderr.split('\n').length === 2, r.stderr);
    const refusal = JSON.parse(r.stderr) as Record<string, unknown>;
    assert.deepEqual(Object.keys(refusal), ['kind', 'message', 'event_index']);
    assert.equal(refusal.kind, 'route_changed');
    assert.equal(refusal.event_index, 11);
  });

  test('a refusal without a row has no event_index; a wrong --run-id; an unreadable run record', () => {
    const f = fixture();
    const r = run(['training-example', f.runPath, '--run-id', 'nope']);
    assert.equal(r.status, 1);
    assert.deepEqual(JSON.parse(r.stderr), { kind: 'run_id_mismatch', message: `${f.runPath} holds run run-1, not the requested nope` });
    const missing = run(['training-example', 'no/such/run.json']);
    assert.equal(missing.status, 1);
    assert.equal((JSON.parse(missing.stderr) as { kind: string }).kind, 'run_record_unreadable');
    assert.match((JSON.parse(missing.stderr) as { message: string }).message, /^failed to read no\/such\/run\.json: /);
  });

  test('usage errors exit 2 with a usage message: no RUN_RECORD, two, an unknown flag, a flag without its value', () => {
    const f = fixture();
    for (const args of [
      ['training-example'],
      ['training-example', f.runPath, f.runPath],
      ['training-example', f.runPath, '--lenient'],
      ['training-example', f.runPath, '--run-id'],
      ['training-example', f.runPath, '--log', 'x'],
    ]) {
      const r = run(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^harn-workbench: .*\n(Usage: harn-workbench training-example RUN_RECORD|Usage: )/, r.stderr);
    }
  });

  test('--help explains the command and its exit status', () => {
    const r = run(['training-example', '--help']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /Usage: harn-workbench training-example RUN_RECORD \[--run-id ID\] \[--session-id ID\] \[--out FILE\]/);
    assert.match(r.stdout, /Exit status: 0 projected, 1 refused, 2 usage or I\/O error\./);
    assert.match(run(['--help']).stdout, /harn-workbench training-example RUN_RECORD/);
  });

  test('an --out file that cannot be written is an I/O error (exit 2)', () => {
    const f = fixture();
    const r = run(['training-example', f.runPath, '--out', path.join(os.tmpdir(), 'no-such-dir-for-harn', 'x.json')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^harn-workbench: cannot write /);
  });
});
