// harn/exportTrainingExample and the projection diagnostic over LSP (the real server over stdio), on a copy of
// examples/demo/runs: the healthy run's text is byte for byte the CLI's stdout, each refused demo run answers the
// CLI's refusal with where to look, a file that is not a run record and a run record with unsaved changes are
// refused; the diagnostic sits on the descriptor key, follows the transcript on disk and goes with its setting.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource, Diagnostic, DidChangeConfigurationNotification, FileChangeType } from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { ExportTrainingExampleRequest, ExportTrainingExampleResult } from '../../server/src/protocol';
import { defined } from '../support/assertions';
import { REPO_ROOT, TestClient } from '../support/lspClient';
import { conversation, writeTrainingRun } from '../support/trainingRuns';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const REFUSED = ['edited', 'unfinished', 'outside-catalog'] as const;

function cli(runRecord: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'training-example', runRecord], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The 0-based line of `"descriptor"` in a run record's text (where the diagnostic and Open Run Record point). */
function descriptorLine(text: string): number {
  return text.split(/\r?\n/).findIndex((l) => l.includes('"descriptor"'));
}

/** The 0-based line of the 1-based non-blank row `row`. */
function lineOfRow(text: string, row: number): number {
  let seen = 0;
  return text.split(/\r?\n/).findIndex((l) => l.trim() !== '' && ++seen === row);
}

describe('training examples over LSP: export and the projection diagnostic', () => {
  let client: TestClient;
  let root: string;
  let harn: Record<string, unknown> = {};
  const uriOf = (...parts: string[]): string => URI.file(path.join(root, ...parts)).toString();
  const exportOf = (uri: string): Promise<ExportTrainingExampleResult> => client.connection.sendRequest(ExportTrainingExampleRequest, { uri });
  const training = (diagnostics: readonly Diagnostic[]): Diagnostic[] => diagnostics.filter((d) => d.source === 'harn.training');

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-training-lsp-'));
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'demo', 'runs', 'healthy'), path.join(root, 'runs', 'healthy'), { recursive: true });
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'demo', 'runs', 'healthy'), path.join(root, 'runs', 'mutable'), { recursive: true });
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'demo', 'runs', 'training'), path.join(root, 'runs', 'training'), { recursive: true });
    fs.writeFileSync(path.join(root, 'settings.json'), '{ "editor.tabSize": 2 }\n');
    client = new TestClient();
    await client.initialize(root, { configuration: (section) => (section === 'harn' ? harn : undefined) });
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('the healthy run: the CLI’s bytes, the target beside it, whether it exists, the message count', async () => {
    const file = path.join(root, 'runs', 'healthy', 'run.json');
    const expected = cli(file);
    assert.equal(expected.status, 0, expected.stderr);
    const answer = await exportOf(uriOf('runs', 'healthy', 'run.json'));
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.equal(answer.text, expected.stdout);
    assert.equal(answer.target, uriOf('runs', 'healthy', 'run.training.json'));
    assert.equal(answer.exists, false);
    assert.equal(answer.messages, (JSON.parse(expected.stdout) as { messages: unknown[] }).messages.length);
    fs.writeFileSync(path.join(root, 'runs', 'healthy', 'run.training.json'), answer.text);
    const again = await exportOf(uriOf('runs', 'healthy', 'run.json'));
    assert.ok(again.ok && again.exists, 'a second export says the file exists (the client asks before overwriting)');
  });

  for (const run of REFUSED) {
    test(`the refused demo run ${run}: the CLI's refusal, and where to look`, async () => {
      const file = path.join(root, 'runs', 'training', run, 'run.json');
      const expected = cli(file);
      assert.equal(expected.status, 1, expected.stdout);
      const refusal = JSON.parse(expected.stderr) as { kind: string; message: string; event_index?: number };
      const answer = await exportOf(uriOf('runs', 'training', run, 'run.json'));
      assert.ok(!answer.ok, JSON.stringify(answer));
      assert.deepEqual([answer.kind, answer.message, answer.eventIndex], [refusal.kind, refusal.message, refusal.event_index]);
      if (refusal.event_index !== undefined) {
        const transcript = path.join(root, 'runs', 'training', run, 'run-llm', 'llm_transcript.jsonl');
        assert.deepEqual(answer.open, { uri: URI.file(transcript).toString(), line: lineOfRow(fs.readFileSync(transcript, 'utf8'), refusal.event_index) });
      } else {
        assert.deepEqual(answer.open, { uri: uriOf('runs', 'training', run, 'run.json'), line: descriptorLine(fs.readFileSync(file, 'utf8')) });
      }
    });
  }

  test('a JSON file that is not a run record is refused with a clear message; so is a path outside the workspace', async () => {
    const answer = await exportOf(uriOf('settings.json'));
    assert.deepEqual(answer.ok ? undefined : [answer.kind, answer.message], [
      'not_a_run_record',
      'settings.json is not a run record (a run.json, *.run.json, or JSON whose _type is "run_record"): only a run record can be exported as a training example.',
    ]);
    const outside = await exportOf(URI.file(path.join(os.tmpdir(), 'elsewhere', 'run.json')).toString());
    assert.equal(outside.ok ? undefined : outside.kind, 'outside_workspace');
    const bad = await client.connection.sendRequest(ExportTrainingExampleRequest.method, { path: 'run.json' });
    assert.equal((bad as ExportTrainingExampleResult).ok ? undefined : (bad as { kind: string }).kind, 'invalid_params');
  });

  test('an open run record with unsaved changes is refused: the projector reads the disk', async () => {
    const file = path.join(root, 'runs', 'healthy', 'run.json');
    const text = fs.readFileSync(file, 'utf8');
    const uri = await client.open(file, text.replace('"Label ticket T-1"', '"Label ticket T-2"'), 'json');
    const answer = await exportOf(uri);
    assert.deepEqual(answer.ok ? undefined : [answer.kind, answer.message], [
      'unsaved_run_record',
      'run.json has unsaved changes; a training example is projected from the run record as written on disk. Save it first, then export again.',
    ]);
    await client.close(uri);
    // Saved (the same text as on disk): exported again.
    const reopened = await client.open(file, text, 'json');
    assert.ok((await exportOf(reopened)).ok);
    await client.close(reopened);
    // A BOM on disk, which the editor does not show, is no unsaved change: the projector's own refusal comes back.
    const bom = path.join(root, 'runs', 'bom', 'run.json');
    fs.cpSync(path.dirname(file), path.dirname(bom), { recursive: true });
    fs.writeFileSync(bom, '\uFEFF' + text);
    const withBom = await client.open(bom, text, 'json');
    const answer2 = await exportOf(withBom);
    assert.equal(answer2.ok ? undefined : answer2.kind, 'run_record_unreadable', JSON.stringify(answer2));
    await client.close(withBom);
    fs.rmSync(path.dirname(bom), { recursive: true, force: true });
  });

  test('the diagnostic: one, information, on the descriptor key, code the refusal kind, the row in the message', async () => {
    const file = path.join(root, 'runs', 'training', 'outside-catalog', 'run.json');
    const text = fs.readFileSync(file, 'utf8');
    const refusal = JSON.parse(cli(file).stderr) as { kind: string; message: string; event_index?: number };
    const uri = await client.open(file, text, 'json');
    const published = await client.waitForDiagnostics(uri, (p) => training(p.diagnostics).length > 0, 15_000);
    const [d, ...more] = training(published.diagnostics);
    assert.equal(more.length, 0);
    const line = descriptorLine(text);
    const character = defined(text.split('\n')[line]).indexOf('"descriptor"');
    assert.deepEqual(d, {
      range: { start: { line, character }, end: { line, character: character + '"descriptor"'.length } },
      severity: 3,
      source: 'harn.training',
      code: refusal.kind,
      message: `This run cannot be exported as a training example: ${refusal.message} (transcript row ${defined(refusal.event_index)})`,
      data: { event_index: refusal.event_index },
    });
    await client.close(uri);
  });

  test('closed run records get it from the workspace check; the healthy one has none', async () => {
    for (const run of ['edited', 'unfinished']) {
      const refusal = JSON.parse(cli(path.join(root, 'runs', 'training', run, 'run.json')).stderr) as { kind: string };
      const published = await client.waitForDiagnostics(uriOf('runs', 'training', run, 'run.json'), (p) => training(p.diagnostics).length > 0, 20_000);
      assert.deepEqual(
        training(published.diagnostics).map((d) => d.code),
        [refusal.kind],
      );
    }
    const healthy = client.latestDiagnostics(uriOf('runs', 'healthy', 'run.json'));
    assert.deepEqual(training(healthy?.diagnostics ?? []), []);
  });

  test('it follows the transcript on disk: edited after the run, digest_mismatch; restored, gone', async () => {
    const file = path.join(root, 'runs', 'mutable', 'run.json');
    const transcript = path.join(root, 'runs', 'mutable', 'run-llm', 'llm_transcript.jsonl');
    const original = fs.readFileSync(transcript, 'utf8');
    const uri = await client.open(file, fs.readFileSync(file, 'utf8'), 'json');
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.source === 'harn.artifacts') || p.diagnostics.length === 0, 15_000);
    assert.deepEqual(training(client.latestDiagnostics(uri)?.diagnostics ?? []), []);
    let since = client.mark();
    // Replaced in one rename, as an editor saves: a read between a truncation and a write would see an empty file.
    const replace = (text: string): void => {
      fs.writeFileSync(`${transcript}.tmp`, text);
      fs.renameSync(`${transcript}.tmp`, transcript);
    };
    replace(original.replace('"billing"', '"bug!!!!"'));
    await client.filesChanged([{ uri: URI.file(transcript).toString(), type: FileChangeType.Changed }]);
    const edited = await client.waitForDiagnostics(uri, (p) => training(p.diagnostics).length > 0, 15_000, since);
    assert.deepEqual(
      training(edited.diagnostics).map((d) => d.code),
      ['digest_mismatch'],
    );
    since = client.mark();
    replace(original);
    await client.filesChanged([{ uri: URI.file(transcript).toString(), type: FileChangeType.Changed }]);
    await client.waitForDiagnostics(uri, (p) => training(p.diagnostics).length === 0, 15_000, since);
    await client.close(uri);
  });

  test('harn.training.projectionDiagnostics false: gone from open and closed run records; true again: back', async () => {
    const file = path.join(root, 'runs', 'training', 'outside-catalog', 'run.json');
    const uri = await client.open(file, fs.readFileSync(file, 'utf8'), 'json');
    await client.waitForDiagnostics(uri, (p) => training(p.diagnostics).length > 0, 15_000);
    const closed = uriOf('runs', 'training', 'edited', 'run.json');
    let since = client.mark();
    harn = { training: { projectionDiagnostics: false } };
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await client.waitForDiagnostics(uri, (p) => training(p.diagnostics).length === 0, 15_000, since);
    await client.waitForDiagnostics(closed, (p) => training(p.diagnostics).length === 0 && p.diagnostics.length > 0, 20_000, since);
    since = client.mark();
    harn = {};
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await client.waitForDiagnostics(uri, (p) => training(p.diagnostics).length === 1, 15_000, since);
    await client.waitForDiagnostics(closed, (p) => training(p.diagnostics).length === 1, 20_000, since);
    await client.close(uri);
  });
});

describe('training examples over LSP: a cancelled export of a big run', () => {
  let client: TestClient;
  let root: string;
  let uri: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-training-cancel-'));
    // About 24 MB: 1,200 tool turns whose results are 20 KB each.
    const result = 'x'.repeat(20_000);
    const turns = Array.from({ length: 1_200 }, (_, i) => ({ text: '', calls: [{ name: 'lookup', arguments: { i }, result: `${i}:${result}` }] }));
    const big = conversation({ channel: 'text', user: 'Go.', turns: [...turns, { text: 'done', calls: [] }] });
    const run = writeTrainingRun({ rows: big.rows, dir: path.join(root, 'big') });
    uri = URI.file(run.runPath).toString();
    client = new TestClient();
    // Only open files are checked: the workspace check would project the same run meanwhile.
    await client.initialize(root, { configuration: { harn: { diagnostics: { scope: 'openFiles' } } } });
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('the answer comes well before a whole projection would end, carries no example, and the server goes on', async (t) => {
    const started = performance.now();
    const whole = await client.connection.sendRequest(ExportTrainingExampleRequest, { uri });
    const wholeMs = performance.now() - started;
    assert.ok(whole.ok, JSON.stringify(whole).slice(0, 300));
    const source = new CancellationTokenSource();
    const cancelledAt = performance.now();
    const pending = client.connection.sendRequest(ExportTrainingExampleRequest, { uri }, source.token);
    setTimeout(() => source.cancel(), 20);
    const answer = await pending.catch((error: unknown) => ({ ok: false as const, kind: 'rejected', message: String(error) }));
    const cancelledMs = performance.now() - cancelledAt;
    t.diagnostic(`whole export ${Math.round(wholeMs)} ms, cancelled after 20 ms: answered in ${Math.round(cancelledMs)} ms`);
    assert.equal(answer.ok, false);
    assert.ok(cancelledMs < wholeMs / 2, `cancelled: ${Math.round(cancelledMs)} ms, whole: ${Math.round(wholeMs)} ms`);
    assert.ok((await client.connection.sendRequest(ExportTrainingExampleRequest, { uri })).ok);
  });
});
