// The projection of a run into `harn.agent_training_example.v1` (server/src/training/project.ts): every refusal
// kind of spec §5 from a fixture, asserted as the exact {kind, message, event_index}; upstream's order; the seed's
// contract points (tests.rs); the demo's healthy run, pinned.
//
// Kinds not reachable from a fixture, and why:
//   invalid_run_path   the run record path is made absolute before resolving and its folder holds the file just
//                      read, so the folder always resolves (upstream: only a path without a parent, which a file
//                      read a moment before cannot have).
//   missing_route      an assistant turn needs a provider_call_response, which always pins provider and model
//                      (as "" when absent); without one the run is refused earlier (assistant_message_without_response
//                      or empty_projection). Upstream's code has the same shape.
//   unbound_tool_result_receipt (the "more than one message claims" and the end-of-run variants) a receipt binds
//                      only when exactly one message has its key, and every message is walked, so a second claim or
//                      an unclaimed receipt cannot survive to those checks; the other variants are tested.
//   duplicate_tool_result, orphaned_tool_result, out_of_order_tool_result, unpaired_tool_call, malformed_tool_call
//                      from the pairing check of the output: the walk refuses each of these first (they are tested
//                      as the walk's). duplicate_tool_call_id (across turns) and missing_terminal_assistant do come
//                      from the pairing check and are tested.
//   empty_transcript from the strict load: the descriptor scan refuses an empty transcript first (tested there).
//   malformed_jsonl from the strict load for a row that is not JSON: the descriptor scan refuses it first (tested);
//                      the strict load's own "no `type`" variant is tested.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { nodeRunRecordFs } from '../../server/src/artifacts/runRecord';
import type { TrainingExampleRequest, TrainingRefusal } from '../../server/src/training/example';
import { validateTrainingExamplePairing } from '../../server/src/training/pairing';
import { projectTrainingExample, projectTrainingExampleAsync, type ProjectionOutcome } from '../../server/src/training/project';
import { lineOfEventIndex } from '../../server/src/training/rows';
import { trainingExampleJson } from '../../server/src/training/serialize';
import { validateTrainingFile } from '../../server/src/training/validate';
import { defined } from '../support/assertions';
import { REPO_ROOT } from '../support/lspClient';
import { conversation, simpleConversation, writeTrainingRun, type Row, type TrainingRunOptions } from '../support/trainingRuns';

type Rows = Record<string, unknown>[];

/** The 13 rows of a healthy text-channel run (1 system_prompt, 2 tool_schemas, 3 user, 4 request, 5 response,
 * 6 assistant, 7 tool_call, 8 user echo (the result), 9 tool_result, 10 request, 11 response, 12 assistant, 13 final). */
const base = (): Rows => structuredClone(simpleConversation('text').rows);

function refusalOf(outcome: ProjectionOutcome): TrainingRefusal & { transcriptPath?: string } {
  if (outcome.ok) assert.fail(`expected a refusal, got an example: ${trainingExampleJson(outcome.example)}`);
  return outcome.transcriptPath === undefined ? outcome.refusal : { ...outcome.refusal, transcriptPath: outcome.transcriptPath };
}

function project(options: TrainingRunOptions, request: Partial<TrainingExampleRequest> = {}) {
  const run = writeTrainingRun(options);
  const outcome = projectTrainingExample({ runRecordPath: run.runPath, ...request });
  return { run, outcome };
}

function refused(options: TrainingRunOptions, request: Partial<TrainingExampleRequest> = {}) {
  const { run, outcome } = project(options, request);
  const refusal = refusalOf(outcome);
  return { run, refusal: { kind: refusal.kind, message: refusal.message, ...(refusal.event_index !== undefined ? { event_index: refusal.event_index } : {}) } };
}

function edit(rows: Rows, at: number, change: Record<string, unknown>): Rows {
  const row = defined(rows[at - 1], `row ${at}`);
  rows[at - 1] = { ...row, ...change };
  return rows;
}

function without(rows: Rows, ...at: number[]): Rows {
  return rows.filter((_, i) => !at.includes(i + 1));
}

// Pinned as text (not *.training.json) so that workspace scans do not take it for an example of the demo.
const PINNED = path.join(REPO_ROOT, 'test', 'fixtures', 'training', 'healthy-example.json.txt');

const CHANGED = 'this artifact holds more than one training context, so name a single eligible run explicitly instead of projecting the whole artifact';

describe('training projector: a healthy run', () => {
  test('the text channel: the user echo becomes role "tool" with the call id, the assistant keeps its served text and gains typed calls', () => {
    const c = simpleConversation('text');
    const { run, outcome } = project({ rows: c.rows });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    const example = outcome.example;
    assert.deepEqual(example.messages, c.messages);
    assert.equal(example.messages[3]?.role, 'tool');
    assert.equal(example.messages[3]?.tool_call_id, 'call_0');
    assert.ok(example.messages[2]?.content.includes('<tool_call>'));
    assert.deepEqual(example.tools, c.tools);
    assert.equal(outcome.transcriptPath, fs.realpathSync(run.transcriptPath));
    assert.deepEqual(example.provenance, {
      run_id: 'run-1',
      session_id: 's-1',
      stage_id: 'st-1',
      provider: 'ollama',
      model: 'm-small',
      route_policy: 'cheapest',
      declared_tool_format: 'text',
      effective_tool_format: 'text',
      tool_catalog_hash: 'cat-1',
      tool_catalog_content_hash: 'blake3:cat1',
      terminal_status: 'done',
      usage: { provider_calls: 2, input_tokens: 201, output_tokens: 21 },
      source: {
        descriptor_schema_version: 'harn.llm_transcript_artifact.v1',
        transcript_path: run.transcriptPath,
        transcript_sha256: (run.record.observability as { transcript_pointers: { descriptor: { sha256: string } }[] }).transcript_pointers[0]?.descriptor
          .sha256,
        transcript_byte_len: Buffer.byteLength(run.transcript),
        event_count: 13,
        first_event_index: 1,
        last_event_index: 13,
        first_event_id: 'row:1',
        last_event_id: 'row:13',
      },
    });
    assert.equal(validateTrainingExamplePairing(example.messages), undefined);
  });

  test('the native channel: string arguments decoded once; the tool message keeps its id', () => {
    const c = simpleConversation('native');
    const { outcome } = project({ rows: c.rows });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.deepEqual(outcome.example.messages, c.messages);
    assert.deepEqual(outcome.example.messages[2]?.tool_calls?.[0]?.function.arguments, { id: 'INV-7' });
    assert.equal(outcome.example.provenance.effective_tool_format, 'native');
  });

  test('a multi-stage run names no stage (provenance fiction otherwise); blank lines and CRLF do not count as rows', () => {
    const c = simpleConversation('text');
    const rows: Row[] = [...c.rows.slice(0, 3), '', '   ', ...c.rows.slice(3)];
    const { outcome } = project({ rows, eol: '\r\n', stages: [{ id: 'a' }, { id: 'b' }] });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.example.provenance.stage_id, undefined);
    assert.equal(outcome.example.provenance.source.event_count, 13);
    assert.equal(outcome.example.provenance.source.last_event_index, 13);
  });

  test('the async variant gives the same example, and nothing once cancelled', async () => {
    const run = writeTrainingRun({ rows: base() });
    const sync = projectTrainingExample({ runRecordPath: run.runPath });
    const async = await projectTrainingExampleAsync({ runRecordPath: run.runPath });
    assert.deepEqual(async, sync);
    assert.equal(await projectTrainingExampleAsync({ runRecordPath: run.runPath }, { token: { isCancellationRequested: true } }), undefined);
    const refusedAsync = await projectTrainingExampleAsync({ runRecordPath: run.runPath, runId: 'other' });
    assert.deepEqual(refusedAsync, projectTrainingExample({ runRecordPath: run.runPath, runId: 'other' }));
  });
});

describe('training projector: the seed contract points', () => {
  test('the run record is read as written: a transcript edited after the run finalised fails on its digest', () => {
    const run = writeTrainingRun({ rows: base() });
    fs.appendFileSync(run.transcriptPath, JSON.stringify({ type: 'agent_session_finalized', terminal: true }) + '\n');
    const refusal = refusalOf(projectTrainingExample({ runRecordPath: run.runPath }));
    assert.deepEqual(
      { kind: refusal.kind, message: refusal.message },
      { kind: 'digest_mismatch', message: `${run.transcriptPath} changed since descriptor was written` },
    );
  });

  test('no selection by output length or a DONE substring: two sessions are refused, not picked from', () => {
    // A lenient picker would take the longer second session, or the one saying DONE.
    const first = simpleConversation('text').rows;
    const second = conversation({
      channel: 'text',
      session: 's-2',
      user: 'again',
      turns: [{ text: 'DONE — a much longer and more verbose answer', calls: [] }],
    }).rows;
    const rows = [...first.slice(0, -1), ...second.slice(2)];
    const { refusal } = refused({ rows });
    assert.deepEqual(refusal, {
      kind: 'ambiguous_authority',
      message: `the session id changed mid-run (s-1 -> s-2); ${CHANGED}`,
      event_index: 13,
    });
    // Naming the session does not select it either: the artifact still holds two contexts.
    assert.equal(refused({ rows }, { sessionId: 's-2' }).refusal.kind, 'ambiguous_authority');
  });

  test('tool results are always role "tool" with tool_call_id, content byte-exact (unicode, CRLF in strings, escapes)', () => {
    const tricky = 'line1\r\nline2\t"quoted" \\ back \u00e9\u{1F600}\u2028 <tool_call>not a call</tool_call>';
    const c = conversation({
      channel: 'text',
      user: 'ü\r\n',
      turns: [
        { text: 'a\u0000b', calls: [{ name: 'read', arguments: { path: 'ä.rs', n: [1, { x: null }] }, result: tricky }] },
        { text: '  done\n', calls: [] },
      ],
    });
    const { outcome } = project({ rows: c.rows });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.deepEqual(outcome.example.messages, c.messages);
    const result = defined(outcome.example.messages[3]);
    assert.deepEqual([result.role, result.tool_call_id, result.content], ['tool', 'call_0', tricky]);
    assert.equal((JSON.parse(trainingExampleJson(outcome.example)) as { messages: { content: string }[] }).messages[3]?.content, tricky);
  });

  test('the tools exactly as served: declared-but-unused parameters and additionalProperties: false kept', () => {
    const served = [
      {
        name: 'lookup',
        parameters: { type: 'object', properties: { id: { type: 'string' }, start: { type: 'integer' } }, required: ['id'], additionalProperties: false },
      },
    ];
    const rows = edit(base(), 2, { schemas: served });
    const { outcome } = project({ rows });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.deepEqual(outcome.example.tools, served);
  });

  test('a malformed sidecar that persistence could not describe never produces an example (missing_descriptor)', () => {
    const rows: Row[] = [...base(), '{not json}'];
    const { refusal } = refused({ rows, editPointer: (p) => (p.descriptor = null) });
    assert.deepEqual(refusal, { kind: 'missing_descriptor', message: 'llm_jsonl pointer has no descriptor' });
  });
});

describe('training projector: every refusal kind', () => {
  test('run_record_unreadable: missing, not JSON, a BOM, a field of the wrong type', () => {
    const missing = path.join(REPO_ROOT, 'no-such-dir', 'run.json');
    const r1 = refusalOf(projectTrainingExample({ runRecordPath: missing }));
    assert.equal(r1.kind, 'run_record_unreadable');
    assert.match(r1.message, new RegExp(`^failed to read ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));

    const run = writeTrainingRun({ rows: base() });
    fs.writeFileSync(run.runPath, '{"id": "run-1",');
    const r2 = refusalOf(projectTrainingExample({ runRecordPath: run.runPath }));
    assert.equal(r2.kind, 'run_record_unreadable');
    assert.match(r2.message, /^failed to parse .*run\.json: The run record is not JSON/);

    fs.writeFileSync(run.runPath, '\uFEFF' + JSON.stringify(run.record));
    assert.equal(refusalOf(projectTrainingExample({ runRecordPath: run.runPath })).kind, 'run_record_unreadable');

    // serde's #[serde(default)]: absent fields are fine, wrong types are not.
    fs.writeFileSync(run.runPath, JSON.stringify({ ...run.record, id: 7 }));
    const r3 = refusalOf(projectTrainingExample({ runRecordPath: run.runPath }));
    assert.equal(r3.kind, 'run_record_unreadable');
    assert.match(r3.message, /`id` should be a string/);
  });

  test('run_id_mismatch: the requested run id, then the descriptor run id', () => {
    const a = refused({ rows: base() }, { runId: 'run-other' });
    assert.deepEqual(a.refusal, { kind: 'run_id_mismatch', message: `${a.run.runPath} holds run run-1, not the requested run-other` });
    const b = refused({ rows: base(), editDescriptor: (d) => (d.run_id = 'run-9') });
    assert.deepEqual(b.refusal, { kind: 'run_id_mismatch', message: 'llm_jsonl descriptor is for run run-9, not run-1' });
  });

  test('missing_descriptor: no llm_jsonl pointer', () => {
    const { refusal } = refused({ rows: base(), editRecord: (r) => (r.observability = { transcript_pointers: [] }) });
    assert.deepEqual(refusal, { kind: 'missing_descriptor', message: 'no llm_jsonl transcript pointer' });
  });

  test('unverified_descriptor, schema_mismatch, artifact_kind_mismatch', () => {
    assert.deepEqual(refused({ rows: base(), editPointer: (p) => (p.verification_status = 'malformed_jsonl') }).refusal, {
      kind: 'unverified_descriptor',
      message: 'llm_jsonl transcript pointer status is malformed_jsonl',
    });
    assert.deepEqual(refused({ rows: base(), editDescriptor: (d) => (d.schema_version = 'harn.llm_transcript_artifact.v0') }).refusal, {
      kind: 'schema_mismatch',
      message: 'llm_jsonl descriptor schema is harn.llm_transcript_artifact.v0',
    });
    assert.deepEqual(refused({ rows: base(), editDescriptor: (d) => (d.artifact_kind = 'event_log') }).refusal, {
      kind: 'artifact_kind_mismatch',
      message: 'llm_jsonl descriptor artifact kind is event_log',
    });
  });

  test('path_traversal, missing_path, unavailable (relative_path preferred over path)', () => {
    assert.deepEqual(refused({ rows: base(), editDescriptor: (d) => (d.relative_path = '../elsewhere/llm_transcript.jsonl') }).refusal, {
      kind: 'path_traversal',
      message: 'descriptor relative_path must stay inside the run directory',
    });
    assert.deepEqual(refused({ rows: base(), editDescriptor: (d) => ((d.relative_path = null), (d.path = '/etc/passwd')) }).refusal, {
      kind: 'path_traversal',
      message: 'descriptor path must stay inside the run directory',
    });
    assert.deepEqual(refused({ rows: base(), editDescriptor: (d) => ((d.relative_path = null), (d.path = '')) }).refusal, {
      kind: 'missing_path',
      message: 'llm_jsonl descriptor has no path',
    });
    // relative_path wins over a correct path.
    const gone = refused({ rows: base(), editDescriptor: (d) => (d.relative_path = 'run-llm/gone.jsonl') });
    assert.deepEqual(gone.refusal, { kind: 'unavailable', message: `failed to read ${path.join(gone.run.dir, 'run-llm/gone.jsonl')}: ENOENT` });
  });

  test('path_traversal through a symbolic link leaving the run folder (stricter than upstream, which reads it)', () => {
    const outside = writeTrainingRun({ rows: base() });
    const run = writeTrainingRun({ rows: base() });
    fs.rmSync(run.transcriptPath);
    fs.symlinkSync(outside.transcriptPath, run.transcriptPath);
    const refusal = refusalOf(projectTrainingExample({ runRecordPath: run.runPath }));
    assert.equal(refusal.kind, 'path_traversal');
    assert.match(refusal.message, /^descriptor relative_path must stay inside the run directory \(it resolves through a symbolic link to /);
  });

  test('the rescan: invalid_utf8, malformed_jsonl, empty_transcript, each before digest_mismatch', () => {
    const run = writeTrainingRun({ rows: base() });
    const latin1 = Buffer.concat([Buffer.from(run.transcript.slice(0, 20)), Buffer.from([0xe9]), Buffer.from(run.transcript.slice(20))]);
    fs.writeFileSync(run.transcriptPath, latin1); // also changes the digest: the rescan's kind wins
    assert.deepEqual(refusalOf(projectTrainingExample({ runRecordPath: run.runPath })), {
      kind: 'invalid_utf8',
      message: `${run.transcriptPath} is not UTF-8 JSONL: invalid utf-8 sequence from index 20`,
      transcriptPath: fs.realpathSync(run.transcriptPath),
    });

    fs.writeFileSync(run.transcriptPath, run.transcript + '\n{not json}\n');
    const malformed = refusalOf(projectTrainingExample({ runRecordPath: run.runPath }));
    assert.equal(malformed.kind, 'malformed_jsonl');
    assert.equal(malformed.event_index, undefined); // upstream's descriptor error has no row; its message names the line
    assert.match(malformed.message, new RegExp(`^${run.transcriptPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:15 failed to parse JSONL row: `));

    const empty = refused({ rows: ['', '  '] });
    assert.deepEqual(empty.refusal, { kind: 'empty_transcript', message: `${empty.run.transcriptPath} contains no JSONL events` });
  });

  test('line_too_long (ours: the artifacts domain bound upstream does not have), in the rescan position', () => {
    const run = writeTrainingRun({ rows: base() });
    const refusal = refusalOf(projectTrainingExample({ runRecordPath: run.runPath }, nodeRunRecordFs, { maxLineBytes: 100 }));
    assert.equal(refusal.kind, 'line_too_long');
    assert.match(refusal.message, /line 1 is \d+ bytes long, over the limit of 100 bytes/);
  });

  test('incomplete_source: the terminal row dropped', () => {
    const { run, refusal } = refused({ rows: base().slice(0, -1) });
    assert.deepEqual(refusal, { kind: 'incomplete_source', message: `${run.transcriptPath} has no terminal record; the run did not finalize` });
  });

  test('the strict load: a row without `type` (malformed_jsonl at its row), an unknown declared version', () => {
    const a = refused({ rows: [...base().slice(0, 3), { content: 'x' }, ...base().slice(3)] });
    assert.deepEqual(a.refusal, { kind: 'malformed_jsonl', message: `${a.run.transcriptPath}: row has no \`type\` discriminator`, event_index: 4 });
    const b = refused({ rows: edit(base(), 9, { schema_version: 'harn.llm_tool_result_receipt.v99' }) });
    assert.deepEqual(b.refusal, {
      kind: 'unknown_event_version',
      message: `${b.run.transcriptPath}: \`tool_result\` declares unsupported schema harn.llm_tool_result_receipt.v99`,
      event_index: 9,
    });
  });

  test('receipts: no schema_version (unknown_event_version), no call_id / message_index, unbound, duplicate', () => {
    const noVersion = base();
    delete noVersion[8]?.schema_version;
    assert.deepEqual(refused({ rows: noVersion }).refusal, {
      kind: 'unknown_event_version',
      message: '`tool_result` receipt declares no schema_version',
      event_index: 9,
    });
    const noCallVersion = base();
    delete noCallVersion[6]?.schema_version;
    assert.deepEqual(refused({ rows: noCallVersion }).refusal, {
      kind: 'unknown_event_version',
      message: '`tool_call` receipt declares no schema_version',
      event_index: 7,
    });
    assert.deepEqual(refused({ rows: edit(base(), 9, { call_id: '' }) }).refusal, {
      kind: 'malformed_tool_result_receipt',
      message: '`tool_result` receipt carries no call_id',
      event_index: 9,
    });
    assert.deepEqual(refused({ rows: edit(base(), 9, { message_index: 'two' }) }).refusal, {
      kind: 'malformed_tool_result_receipt',
      message: '`tool_result` receipt carries no message_index',
      event_index: 9,
    });
    assert.deepEqual(refused({ rows: edit(base(), 9, { message_index: 99 }) }).refusal, {
      kind: 'unbound_tool_result_receipt',
      message: 'the receipt for call call_0 names message 99 of session `s-1`, which is not in this transcript',
      event_index: 9,
    });
    const twice = base();
    twice.splice(7, 0, { ...defined(twice[7]), content: 'echo again' });
    assert.deepEqual(refused({ rows: twice }).refusal, {
      kind: 'unbound_tool_result_receipt',
      message: 'the receipt for call call_0 names message 2 of session `s-1`, which 2 messages claim',
      event_index: 10,
    });
    const dup = base();
    dup.splice(9, 0, { ...defined(dup[8]) });
    assert.deepEqual(refused({ rows: dup }).refusal, {
      kind: 'duplicate_tool_result_receipt',
      message: 'two receipts (events 9 and 10) claim the same message',
      event_index: 10,
    });
  });

  test('malformed_tool_call: a dispatch receipt without its index or names, a call without name or id, bad arguments', () => {
    const cases: [Rows, string, number][] = [
      [edit(base(), 7, { assistant_message_index: null }), '`tool_call` receipt carries no assistant_message_index', 7],
      [edit(base(), 7, { tool_name: '' }), '`tool_call` receipt needs both call_id and tool_name', 7],
      [edit(base(), 7, { arguments: '{"id":' }), 'call to `lookup` has unparseable JSON arguments: ', 7],
      [edit(base(), 5, { parsed_tool_calls: [{ id: 'tc_0', arguments: {} }] }), 'recorded tool call has no name', 5],
      [edit(base(), 5, { parsed_tool_calls: [{ name: 'lookup', arguments: {} }] }), 'recorded call to `lookup` has no id, so no result can pair with it', 5],
    ];
    for (const [rows, message, index] of cases) {
      const { refusal } = refused({ rows });
      assert.equal(refusal.kind, 'malformed_tool_call', message);
      assert.equal(refusal.event_index, index);
      assert.ok(refusal.message.startsWith(message), `${refusal.message} starts with ${message}`);
    }
  });

  test('malformed_tool_call_projection: upstream resolve() fails closed', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ parsed_tool_calls: {} }, '`parsed_tool_calls` must be an array'],
      [{ parsed_tool_calls_ref: 'tool_calls' }, 'provider response carries both `parsed_tool_calls` and `parsed_tool_calls_ref`'],
      [{ parsed_tool_calls: undefined, parsed_tool_calls_ref: 'raw_tool_calls' }, 'unsupported `parsed_tool_calls_ref` value `raw_tool_calls`'],
      [{ parsed_tool_calls: undefined, parsed_tool_calls_ref: 3 }, '`parsed_tool_calls_ref` must be a string'],
      [
        { parsed_tool_calls: undefined, parsed_tool_calls_ref: 'tool_calls', tool_calls: null },
        '`parsed_tool_calls_ref: tool_calls` requires a `tool_calls` array',
      ],
    ];
    for (const [change, message] of cases) {
      assert.deepEqual(refused({ rows: edit(base(), 5, change) }).refusal, { kind: 'malformed_tool_call_projection', message, event_index: 5 });
    }
  });

  test('tool_result_identity_mismatch, tool_call_mismatch (receipt vs response, message vs response), tool_outside_catalog', () => {
    assert.deepEqual(refused({ rows: edit(base(), 8, { message: { role: 'user', content: '{"charges":2}', tool_call_id: 'tc_7' } }) }).refusal, {
      kind: 'tool_result_identity_mismatch',
      message: 'message names call tc_7 but its receipt names call_0',
      event_index: 8,
    });
    assert.deepEqual(refused({ rows: edit(base(), 7, { tool_name: 'refund' }) }).refusal, {
      kind: 'tool_call_mismatch',
      message: 'dispatch recorded calls to [refund] but provider response pc-0 recorded [lookup]',
      event_index: 6,
    });
    const native = structuredClone(simpleConversation('native').rows);
    const assistant = defined(native[5]);
    assistant.message = {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{"id":"INV-8"}' } }],
    };
    assert.deepEqual(refused({ rows: native }).refusal, {
      kind: 'tool_call_mismatch',
      message: 'assistant message tool calls disagree with provider response pc-0 (event 5)',
      event_index: 6,
    });
    const outside = edit(base(), 5, { parsed_tool_calls: [{ id: 'tc_0', name: 'delete_everything', arguments: {} }] });
    edit(outside, 7, { tool_name: 'delete_everything' });
    assert.deepEqual(refused({ rows: outside }).refusal, {
      kind: 'tool_outside_catalog',
      message: 'assistant called `delete_everything`, which the served tool catalog does not declare',
      event_index: 6,
    });
  });

  test('mid-run changes: system_prompt_changed, route_changed, tool_format_changed, ambiguous_authority, tool_catalog_changed', () => {
    const prompt = base();
    prompt.splice(9, 0, { type: 'system_prompt', content: 'You are a different agent.' });
    assert.deepEqual(refused({ rows: prompt }).refusal, {
      kind: 'system_prompt_changed',
      message: `the system prompt changed mid-run (You are a careful agent. -> You are a different agent.); ${CHANGED}`,
      event_index: 10,
    });
    assert.deepEqual(refused({ rows: edit(base(), 11, { model: 'm-large' }) }).refusal, {
      kind: 'route_changed',
      message: `the model changed mid-run (m-small -> m-large); ${CHANGED}`,
      event_index: 11,
    });
    assert.deepEqual(refused({ rows: edit(base(), 10, { tool_format: 'native' }) }).refusal, {
      kind: 'tool_format_changed',
      message: `the effective tool format changed mid-run (text -> native); ${CHANGED}`,
      event_index: 10,
    });
    assert.deepEqual(refused({ rows: edit(base(), 12, { session_id: 's-2' }) }).refusal, {
      kind: 'ambiguous_authority',
      message: `the session id changed mid-run (s-1 -> s-2); ${CHANGED}`,
      event_index: 12,
    });
    const catalog = base();
    catalog.splice(9, 0, { type: 'tool_schemas', schemas: [{ name: 'other' }], hash: 'cat-2' });
    assert.deepEqual(refused({ rows: catalog }).refusal, {
      kind: 'tool_catalog_changed',
      message: 'the served tool catalog changed after event 2; one training example cannot teach two catalogs',
      event_index: 10,
    });
    // The same catalog again (keys in another order) is not a change.
    const same = base();
    const schemas = (defined(same[1]).schemas as Record<string, unknown>[]).map((s) => Object.fromEntries(Object.entries(s).reverse()));
    same.splice(9, 0, { type: 'tool_schemas', schemas, hash: 'cat-1' });
    assert.ok(project({ rows: same }).outcome.ok);
  });

  test('malformed_tool_catalog, missing_tool_catalog', () => {
    assert.deepEqual(refused({ rows: edit(base(), 2, { schemas: { lookup: {} } }) }).refusal, {
      kind: 'malformed_tool_catalog',
      message: '`tool_schemas` has no `schemas` array',
      event_index: 2,
    });
    assert.deepEqual(refused({ rows: without(base(), 2) }).refusal, {
      kind: 'missing_tool_catalog',
      message:
        'run never recorded a tool_schemas event, so the served catalog is unknown; inferring one from prompt prose or observed arguments would teach a schema the model never saw',
    });
  });

  test('unbound_provider_response (before the next call, and at the end), assistant_message_without_response', () => {
    const twice = base();
    twice.splice(5, 0, { ...defined(twice[4]), call_id: 'pc-x' });
    assert.deepEqual(refused({ rows: twice }).refusal, {
      kind: 'unbound_provider_response',
      message: 'provider call pc-0 (event 5) produced no assistant message before the next call',
      event_index: 6,
    });
    assert.deepEqual(refused({ rows: without(base(), 12) }).refusal, {
      kind: 'unbound_provider_response',
      message: 'run ended with provider call pc-1 that produced no assistant message',
      event_index: 11,
    });
    assert.deepEqual(refused({ rows: without(base(), 11) }).refusal, {
      kind: 'assistant_message_without_response',
      message: 'assistant message has no preceding provider_call_response to source its typed tool calls from',
      event_index: 11,
    });
  });

  test('unsupported_message_role, orphaned_tool_result, out_of_order_tool_result, unpaired_tool_call (three ways)', () => {
    assert.deepEqual(refused({ rows: edit(base(), 3, { message: { role: 'critic', content: 'x' } }) }).refusal, {
      kind: 'unsupported_message_role',
      message: 'message role `critic` has no canonical training projection',
      event_index: 3,
    });
    // A tool message with no receipt.
    const noReceipt = without(base(), 9);
    edit(noReceipt, 8, { message: { role: 'tool', tool_call_id: 'call_0', content: 'r' } });
    assert.deepEqual(refused({ rows: noReceipt }).refusal, {
      kind: 'orphaned_tool_result',
      message: '`tool` message arrived with no tool_result receipt naming its call',
      event_index: 8,
    });
    // A receipt answering a call nobody made.
    const stranger = edit(base(), 9, { call_id: 'tc_9' });
    assert.deepEqual(refused({ rows: stranger }).refusal, {
      kind: 'orphaned_tool_result',
      message: '`user` message answers call tc_9, which no preceding assistant turn made (or which was already answered)',
      event_index: 8,
    });
    const two = conversation({
      channel: 'text',
      user: 'read both',
      turns: [
        {
          text: '',
          calls: [
            { name: 'read', arguments: { p: 'a' }, result: 'a' },
            { name: 'read', arguments: { p: 'b' }, result: 'b' },
          ],
        },
        { text: 'done', calls: [] },
      ],
    }).rows;
    // Rows 9..12: message a, receipt a, message b, receipt b. Swap the receipts' call ids.
    edit(two, 10, { call_id: 'call_1' });
    edit(two, 12, { call_id: 'call_0' });
    assert.deepEqual(refused({ rows: two }).refusal, {
      kind: 'out_of_order_tool_result',
      message: 'call call_1 was answered before call_0, which the assistant requested first',
      event_index: 9,
    });
    // The result and its receipt dropped: the next assistant turn comes with the call open.
    assert.deepEqual(refused({ rows: without(base(), 8, 9) }).refusal, {
      kind: 'unpaired_tool_call',
      message: 'call call_0 (lookup) from event 6 has no tool result before the next assistant turn',
      event_index: 10,
    });
    const userTurn = without(base(), 8, 9);
    userTurn.splice(7, 0, {
      type: 'message',
      session_id: 's-1',
      message_index: 2,
      role: 'user',
      content: 'go on',
      message: { role: 'user', content: 'go on' },
    });
    assert.equal(refused({ rows: userTurn }).refusal.message, 'call call_0 (lookup) from event 6 has no tool result before this `user` turn');
    assert.deepEqual(refused({ rows: without(base(), 8, 9, 10, 11, 12) }).refusal, {
      kind: 'unpaired_tool_call',
      message: 'run ended with call call_0 (lookup) unanswered',
      event_index: 6,
    });
    // The provider returned a call that was never dispatched.
    assert.deepEqual(refused({ rows: without(base(), 7, 8, 9) }).refusal, {
      kind: 'unpaired_tool_call',
      message: 'the provider returned 1 tool call(s) for response pc-0 but none were dispatched, so no result can pair with them',
      event_index: 6,
    });
  });

  test('duplicate_tool_call_id within a turn (the walk) and across turns (the pairing check)', () => {
    const c = conversation({
      channel: 'text',
      user: 'u',
      turns: [
        { text: '', calls: [{ name: 'read', arguments: {}, result: 'a' }] },
        { text: '', calls: [{ name: 'read', arguments: {}, result: 'b' }] },
        { text: 'done', calls: [] },
      ],
    }).rows;
    const ids = c.filter((r) => r.call_id === 'call_1');
    for (const r of ids) r.call_id = 'call_0';
    assert.deepEqual(refused({ rows: c }).refusal, {
      kind: 'duplicate_tool_call_id',
      message: validateTrainingExamplePairingMessage(),
    });
    const within = conversation({
      channel: 'text',
      user: 'u',
      turns: [
        {
          text: '',
          calls: [
            { name: 'read', arguments: {}, result: 'a' },
            { name: 'read', arguments: {}, result: 'b' },
          ],
        },
        { text: 'done', calls: [] },
      ],
    }).rows;
    for (const r of within) if (r.call_id === 'call_1') r.call_id = 'call_0';
    // The second receipt now binds the same call id as the first: the walk refuses the turn first.
    assert.deepEqual(refused({ rows: within }).refusal, {
      kind: 'duplicate_tool_call_id',
      message: 'assistant turn reuses tool call id call_0',
      event_index: 6,
    });
  });

  test('missing_session_id, session_id_mismatch (requested, descriptor), missing_system_prompt, missing_tool_format, empty_projection', () => {
    const noSession = base().map((r) => {
      const { session_id: _, ...rest } = r;
      return rest;
    });
    assert.deepEqual(refused({ rows: noSession }).refusal, { kind: 'missing_session_id', message: 'run never recorded the session id' });
    assert.deepEqual(refused({ rows: base() }, { sessionId: 's-other' }).refusal, {
      kind: 'session_id_mismatch',
      message: 'transcript belongs to session s-1, not s-other',
    });
    assert.deepEqual(refused({ rows: base(), editDescriptor: (d) => (d.session_id = 's-9') }).refusal, {
      kind: 'session_id_mismatch',
      message: 'descriptor names session s-9 but the events belong to s-1',
    });
    assert.deepEqual(refused({ rows: without(base(), 1) }).refusal, { kind: 'missing_system_prompt', message: 'run never recorded the system prompt' });
    const noFormat = base().map((r) => (r.type === 'provider_call_request' ? { ...r, tool_format: '' } : r));
    assert.deepEqual(refused({ rows: noFormat }).refusal, { kind: 'missing_tool_format', message: 'run never recorded the effective tool format' });
    assert.deepEqual(refused({ rows: [...base().slice(0, 3), ...base().slice(-1)] }).refusal, {
      kind: 'empty_projection',
      message: 'run recorded no assistant turn',
    });
  });

  test('missing_terminal_assistant: the pairing check of the output', () => {
    const rows = base();
    rows.splice(12, 0, { type: 'message', session_id: 's-1', message_index: 4, role: 'user', content: 'thanks', message: { role: 'user', content: 'thanks' } });
    const { refusal } = refused({ rows });
    assert.equal(refusal.kind, 'missing_terminal_assistant');
    assert.equal(refusal.event_index, undefined);
  });
});

/** The pairing check's message for the duplicate id across turns (upstream's words, from pairing.ts). */
function validateTrainingExamplePairingMessage(): string {
  const call = { id: 'call_0', type: 'function', function: { name: 'read', arguments: {} } };
  const error = validateTrainingExamplePairing([
    { role: 'assistant', content: '', tool_calls: [call] },
    { role: 'tool', content: 'a', tool_call_id: 'call_0' },
    { role: 'assistant', content: '', tool_calls: [call] },
  ]);
  return defined(error).message;
}

describe('training projector: upstream order', () => {
  test('two defects give the earlier kind', () => {
    // A wrong requested run id beats a broken transcript.
    const broken = { rows: base(), editDescriptor: (d: Record<string, unknown>) => (d.schema_version = 'x') };
    assert.equal(refused(broken, { runId: 'nope' }).refusal.kind, 'run_id_mismatch');
    // schema_mismatch before a path problem.
    assert.equal(refused({ rows: base(), editDescriptor: (d) => ((d.schema_version = 'x'), (d.relative_path = '../x')) }).refusal.kind, 'schema_mismatch');
    // digest_mismatch before incomplete_source (the terminal row dropped after the descriptor was written).
    const run = writeTrainingRun({ rows: base() });
    fs.writeFileSync(run.transcriptPath, run.transcript.split('\n').slice(0, -2).join('\n') + '\n');
    assert.equal(refusalOf(projectTrainingExample({ runRecordPath: run.runPath })).kind, 'digest_mismatch');
    // Receipts are indexed before dispatch receipts, both before the walk.
    const both = edit(edit(base(), 9, { call_id: '' }), 7, { tool_name: '' });
    edit(both, 3, { message: { role: 'critic', content: '' } });
    assert.equal(refused({ rows: both }).refusal.kind, 'malformed_tool_result_receipt');
    // The walk's first refusal wins over one at the end.
    assert.equal(refused({ rows: without(edit(base(), 11, { model: 'other' }), 1) }).refusal.kind, 'route_changed');
  });
});

describe('training projector: rows', () => {
  test('lineOfEventIndex: blank and whitespace-only lines are no rows; CRLF, a lone CR and a BOM', () => {
    const text = '\uFEFF{"a":1}\n\n  \t\n{"b":2}\r\n\u0085\n{"c":3}\rX\n{"d":4}';
    assert.equal(lineOfEventIndex(text, 1), 0);
    assert.equal(lineOfEventIndex(text, 2), 3);
    assert.equal(lineOfEventIndex(text, 3), 5); // U+0085 is whitespace to Rust
    assert.equal(lineOfEventIndex(text, 4), 7); // the lone \r of row 3 is an editor line break
    assert.equal(lineOfEventIndex(text, 5), undefined);
    assert.equal(lineOfEventIndex(text, 0), undefined);
    assert.equal(lineOfEventIndex('\uFEFF\n{}\n', 1), 0); // a lone BOM is not whitespace to Rust: a row
  });

  test('an event_index from a refusal opens the offending row', () => {
    const rows: Row[] = [...base().slice(0, 3), '', { content: 'x' }, ...base().slice(3)];
    const { run, outcome } = project({ rows, eol: '\r\n' });
    const refusal = refusalOf(outcome);
    const line = defined(lineOfEventIndex(fs.readFileSync(defined(refusal.transcriptPath), 'utf8'), defined(refusal.event_index)));
    assert.equal(run.transcript.split('\r\n')[line], '{"content":"x"}');
  });
});

describe('training projector: the demo', () => {
  test('examples/demo/runs/healthy projects, passes the pairing check, and its JSON is pinned', () => {
    const runPath = path.join(REPO_ROOT, 'examples', 'demo', 'runs', 'healthy', 'run.json');
    const outcome = projectTrainingExample({ runRecordPath: runPath });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(validateTrainingExamplePairing(outcome.example.messages), undefined);
    const json = trainingExampleJson(outcome.example).replace(path.dirname(runPath), '<healthy>');
    assert.equal(json, fs.readFileSync(PINNED, 'utf8'));
  });

  test('the file the export writes for the healthy run is one the training example validator accepts (schema, pairing)', () => {
    const runPath = path.join(REPO_ROOT, 'examples', 'demo', 'runs', 'healthy', 'run.json');
    const outcome = projectTrainingExample({ runRecordPath: runPath });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    const validation = validateTrainingFile(trainingExampleJson(outcome.example), 'json');
    assert.deepEqual(validation.problems, []);
    assert.equal(validation.examples.length, 1);
  });
});
