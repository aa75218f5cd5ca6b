// Compactions recorded outside the transcript excuse a prefix break (server/src/directives/compactions.ts): the run
// record's observability.compaction_events[] and the event log's transcript_compacted events, placed between two
// requests by time (else by iteration). Each form holding, and not applying when it lies outside the window; read
// from the files beside a transcript (the editor's and the CLI's path), and through the CLI (dist/cli.js).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateArtifactFile } from '../../server/src/artifacts/validate';
import {
  CompactionFiles,
  compactionBetween,
  compactionFilesOf,
  eventLogCompactions,
  runRecordCompactions,
  timeMs,
  type ExternalCompaction,
} from '../../server/src/directives/compactions';
import type { FileDiagnostic } from '../../server/src/report/format';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

describe('placing a compaction', () => {
  test('times as the artifacts write them', () => {
    assert.equal(timeMs('1767312012.789'), 1767312012789);
    assert.equal(timeMs(1767312012), 1767312012000);
    assert.equal(timeMs(1767312012789), 1767312012789);
    assert.equal(timeMs('2026-01-02T00:00:12.789Z'), Date.parse('2026-01-02T00:00:12.789Z'));
    assert.equal(timeMs('soon'), undefined);
    assert.equal(timeMs(null), undefined);
  });

  const c = (extra: Partial<ExternalCompaction>): ExternalCompaction => ({ source: 'x', ...extra });
  test('by time: after the previous request, no later than the current one', () => {
    const prev = { atMs: 1000, iteration: 1 };
    const cur = { atMs: 2000, iteration: 2 };
    assert.ok(compactionBetween([c({ atMs: 1500 })], 's', prev, cur));
    assert.ok(compactionBetween([c({ atMs: 2000 })], 's', prev, cur));
    assert.equal(compactionBetween([c({ atMs: 1000 })], 's', prev, cur), undefined);
    assert.equal(compactionBetween([c({ atMs: 2500 })], 's', prev, cur), undefined);
    // A time decides when both requests have one, even against the iteration.
    assert.equal(compactionBetween([c({ atMs: 500, iteration: 2 })], 's', prev, cur), undefined);
  });

  test('by iteration when the requests have no time; another session never', () => {
    const prev = { iteration: 3 };
    const cur = { iteration: 4 };
    assert.ok(compactionBetween([c({ iteration: 4 })], 's', prev, cur));
    assert.equal(compactionBetween([c({ iteration: 3 })], 's', prev, cur), undefined);
    assert.equal(compactionBetween([c({ iteration: 5 })], 's', prev, cur), undefined);
    assert.equal(compactionBetween([c({})], 's', prev, cur), undefined, 'unplaced: excuses nothing');
    assert.equal(compactionBetween([c({ iteration: 4, sessionId: 'other' })], 's', prev, cur), undefined);
    assert.ok(compactionBetween([c({ iteration: 4, sessionId: 's' })], 's', prev, cur));
  });
});

describe('reading the records', () => {
  test("a run record's compaction_events, named by index", () => {
    const text = JSON.stringify({
      _type: 'run_record',
      observability: { compaction_events: [{ stage_id: 'a', iteration: 2 }, 'junk', { timestamp: '1767312012.789', session_id: 's' }] },
    });
    assert.deepEqual(runRecordCompactions(`\uFEFF${text}`, 'run.json'), [
      { source: 'run record run.json compaction_events[0]', iteration: 2 },
      { source: 'run record run.json compaction_events[2]', atMs: 1767312012789, sessionId: 's' },
    ]);
    assert.deepEqual(runRecordCompactions('{not json', 'run.json'), []);
    assert.deepEqual(runRecordCompactions('{"observability":{}}', 'run.json'), []);
  });

  test('transcript_compacted events of an event log, by 1-based line (CRLF, blank lines, other events that mention it)', () => {
    const lines = [
      JSON.stringify({ index: 0, emitted_at_ms: 10, type: 'iteration_start', session_id: 's' }),
      '',
      JSON.stringify({ index: 1, emitted_at_ms: 20, type: 'transcript_compacted', session_id: 's', note: '"transcript_compacted"' }),
      JSON.stringify({ index: 2, emitted_at_ms: 30, type: 'feedback_injected', session_id: 's', text: 'said "transcript_compacted"' }),
      '{"type":"transcript_compacted", broken',
      JSON.stringify({ index: 3, emitted_at_ms: 40, type: 'transcript_compacted', session_id: 's', iteration: 4 }),
    ];
    assert.deepEqual(eventLogCompactions(Buffer.from(lines.join('\r\n')), 'event_log.jsonl'), [
      { source: 'event_log.jsonl line 3', atMs: 20, sessionId: 's' },
      { source: 'event_log.jsonl line 6', atMs: 40, iteration: 4, sessionId: 's' },
    ]);
  });

  test('where they lie: <stem>.json and event_log*.jsonl beside <stem>-llm/', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compaction-files-'));
    try {
      fs.mkdirSync(path.join(dir, 'r9-llm'));
      for (const name of ['event_log.jsonl', 'event_log-000001.jsonl', 'event_log_old.txt', 'other.jsonl']) fs.writeFileSync(path.join(dir, name), '');
      const files = compactionFilesOf(path.join(dir, 'r9-llm', 'llm_transcript.jsonl'));
      assert.equal(files.runRecord, path.join(dir, 'r9.json'));
      assert.deepEqual(files.eventLogs, [path.join(dir, 'event_log-000001.jsonl'), path.join(dir, 'event_log.jsonl')]);
      // A transcript outside a -llm folder: no run record, the event logs of its own folder.
      assert.equal(compactionFilesOf(path.join(dir, 'llm_transcript.jsonl')).runRecord, undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A session whose request c2 rewrites message 0 of c1's snapshot (a break unless a compaction lies between).
const A = { role: 'user', content: 'task' };
const request = (callId: string, timestamp: string, iteration: number, messages: unknown[]): string =>
  JSON.stringify({ type: 'provider_call_request', timestamp, call_id: callId, iteration, request_snapshot: { messages } });
const message = (index: number, timestamp: string, content: string): string =>
  JSON.stringify({ type: 'message', timestamp, session_id: 's-1', message_index: index, role: 'assistant', content, message: { role: 'assistant', content } });
const TRANSCRIPT = [
  request('c1', '1767312000.000', 1, [A, A]),
  message(2, '1767312001.000', 'ok'),
  request('c2', '1767312010.000', 2, [{ role: 'user', content: 'summary' }]),
  message(1, '1767312011.000', 'done'),
].join('\n');

describe('a compaction beside the transcript excuses its break', () => {
  let dir: string;
  let transcript: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compaction-run-'));
    transcript = path.join(dir, 'run-llm', 'llm_transcript.jsonl');
    fs.mkdirSync(path.dirname(transcript));
    fs.writeFileSync(transcript, TRANSCRIPT + '\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const reset = (): void => {
    for (const name of ['run.json', 'event_log.jsonl']) fs.rmSync(path.join(dir, name), { force: true });
  };
  const writeRunRecord = (events: unknown[]): void =>
    fs.writeFileSync(
      path.join(dir, 'run.json'),
      JSON.stringify({ _type: 'run_record', id: 'r', observability: { schema_version: 4, compaction_events: events } }),
    );
  const writeEventLog = (rows: unknown[]): void => fs.writeFileSync(path.join(dir, 'event_log.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const c2 = (files: CompactionFiles): { prefix?: string; excusedBy?: string; codes: string[] } => {
    const result = validateArtifactFile('transcript', transcript, { directiveRecords: true, compactions: files.of(transcript) });
    const r = result.directives?.sessions[0]?.requests[1];
    return { prefix: r?.prefix, excusedBy: r?.excusedBy, codes: result.problems.filter((p) => p.source === 'harn.directives').map((p) => p.code) };
  };

  test('nothing beside it: the break is reported', () => {
    reset();
    assert.deepEqual(c2(new CompactionFiles()), { prefix: 'broken', excusedBy: undefined, codes: ['prefix_break'] });
  });

  test('a run record compaction entry between the requests (by time), and one outside the window', () => {
    reset();
    const files = new CompactionFiles();
    writeRunRecord([
      { strategy: 'truncate', timestamp: '1767312000.000' },
      { strategy: 'llm', timestamp: '1767312005.500' },
    ]);
    assert.deepEqual(c2(files), { prefix: 'excused', excusedBy: 'run record run.json compaction_events[1]', codes: [] });
    // The file changed (another size): read again, and an entry after c2 excuses nothing.
    writeRunRecord([
      { strategy: 'llm', timestamp: '1767312010.001' },
      { strategy: 'truncate', created_at: '2026-01-02T00:00:00Z' },
    ]);
    assert.deepEqual(c2(files), { prefix: 'broken', excusedBy: undefined, codes: ['prefix_break'] });
  });

  test('a run record compaction entry placed by iteration', () => {
    reset();
    writeRunRecord([{ stage_id: 'st', iteration: 2 }]);
    assert.equal(c2(new CompactionFiles()).excusedBy, 'run record run.json compaction_events[0]');
    writeRunRecord([{ stage_id: 'st', iteration: 1 }]);
    assert.deepEqual(c2(new CompactionFiles()).codes, ['prefix_break']);
  });

  test('an event log transcript_compacted event between the requests, and one of another session or too early', () => {
    reset();
    const row = (index: number, at: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      index,
      emitted_at_ms: at,
      frame_depth: null,
      execution_id: 'x',
      type: 'transcript_compacted',
      session_id: 's-1',
      ...extra,
    });
    writeEventLog([{ index: 0, emitted_at_ms: 1767311999000, type: 'iteration_start', session_id: 's-1' }, row(1, 1767311999500), row(2, 1767312009000)]);
    assert.deepEqual(c2(new CompactionFiles()), { prefix: 'excused', excusedBy: 'event_log.jsonl line 3', codes: [] });
    writeEventLog([row(0, 1767311999500), row(1, 1767312009000, { session_id: 's-2' })]);
    assert.deepEqual(c2(new CompactionFiles()).codes, ['prefix_break']);
  });

  test('the CLI reads them too (transcript and check)', () => {
    reset();
    const run = (args: string[]): FileDiagnostic[] => {
      const out = spawnSync(process.execPath, [CLI, ...args, '--root', '.', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
      return (JSON.parse(out.stdout) as { diagnostics: FileDiagnostic[] }).diagnostics.filter((d) => d.code === 'prefix_break');
    };
    assert.equal(run(['transcript', 'run-llm/llm_transcript.jsonl']).length, 1);
    writeEventLog([{ index: 0, emitted_at_ms: 1767312009000, type: 'transcript_compacted', session_id: 's-1' }]);
    assert.equal(run(['transcript', 'run-llm/llm_transcript.jsonl']).length, 0);
    assert.equal(run(['check', '.']).length, 0);
  });
});
