// Run records (server/src/artifacts/runRecord.ts): recognition, parsing with positions and schema problems, the
// transcript facts a descriptor states (upstream's scan, streamed by lines), and verification of every llm_jsonl
// descriptor against the transcript on disk: one test per diagnostic code with its exact range and both values in
// its message, paths that leave the run's folder refused and never read (proved with a spy file system), CRLF and
// BOM run records, and a 20 MB transcript streamed in bounded memory. Every run record and transcript is synthetic.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  isRunRecord,
  nodeRunRecordFs,
  parseRunRecord,
  serdeNumberText,
  TranscriptScanner,
  transcriptFacts,
  transcriptFactsFromFile,
  verifyRunRecord,
  type DescriptorField,
  type Located,
  type RunRecordFs,
  type TranscriptFacts,
  type TranscriptFactsCache,
} from '../../server/src/artifacts/runRecord';
import type { ArtifactProblem, LineSpan } from '../../server/src/artifacts/types';
import { defined } from '../support/assertions';

// ---------------------------------------------------------------------------------------------------------------
// Fixtures.

const TRANSCRIPT_ROWS = [
  '{"type":"system_prompt","timestamp":"1767225600.000","span_id":null,"content":"You fix files.","hash":77,"content_hash":"blake3:aa"}',
  '{"type":"tool_schemas","timestamp":"1767225600.001","span_id":null,"schemas":[{"name":"open_doc"}],"hash":18446744073709551557,"content_hash":"blake3:bb"}',
  '{"type":"message","timestamp":"1767225600.002","span_id":null,"session_id":"s-7","message_index":0,"role":"user","content":"fix b.ts","message":{"role":"user","content":"fix b.ts"}}',
  '',
  '{"type":"provider_call_request","timestamp":"1767225600.010","span_id":3,"call_id":"c-1","iteration":0,"model":"m","provider":"p","tool_format":"text"}',
  '{"type":"provider_call_response","timestamp":"1767225600.500","span_id":3,"call_id":"c-1","iteration":0,"text":"done","tool_calls":[],"stop_reason":"natural"}',
  '{"type":"agent_session_finalized","timestamp":"1767225601.000","span_id":null,"session_id":"s-7","final_status":"done","stop_reason":"natural","iterations":1,"terminal":true}',
] as const;
const TRANSCRIPT = TRANSCRIPT_ROWS.join('\n') + '\n';
const sha = (data: string | Buffer): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** What the descriptor of TRANSCRIPT states, worked out by hand. */
const TRANSCRIPT_FACTS = {
  sha256: sha(TRANSCRIPT),
  byte_len: Buffer.byteLength(TRANSCRIPT),
  event_count: 6,
  first_event_type: 'system_prompt',
  first_event_id: 'row:1',
  last_event_type: 'agent_session_finalized',
  last_event_id: 'row:6',
  complete: true,
  terminal_status: 'done',
  session_id: 's-7',
  effective_tool_format: 'text',
  tool_schema_hash: '18446744073709551557',
};

const REL = 'r9-llm/llm_transcript.jsonl';
const MODULE = path.resolve(__dirname, '..', '..', 'server', 'src', 'artifacts', 'runRecord.ts');
const FILES_MODULE = path.resolve(__dirname, '..', '..', 'server', 'src', 'workspace', 'files.ts');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-runrecord-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));
let folders = 0;

/** A fresh folder `<scratch>/<n>/run` (so `../x` lands in this test's own space), its real path. */
function freshRunFolder(): string {
  const dir = path.join(scratch, String(++folders), 'run');
  fs.mkdirSync(dir, { recursive: true });
  return fs.realpathSync(dir);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

interface RunSetup {
  /** Descriptor fields to set (a function receives the run folder). */
  descriptor?: Obj | ((dir: string) => Obj);
  /** Keys to delete from the descriptor. */
  dropDescriptor?: string[];
  pointer?: Obj;
  record?: Obj;
  transcript?: string | Buffer | null;
}

interface Run {
  dir: string;
  runPath: string;
  transcriptPath: string;
  text: string;
  descriptor: Obj;
}

function descriptorFor(dir: string): Obj {
  return {
    schema_version: 'harn.llm_transcript_artifact.v1',
    artifact_kind: 'llm_jsonl',
    run_id: 'r9',
    session_id: TRANSCRIPT_FACTS.session_id,
    path: path.join(dir, REL),
    relative_path: REL,
    sha256: TRANSCRIPT_FACTS.sha256,
    byte_len: TRANSCRIPT_FACTS.byte_len,
    event_count: TRANSCRIPT_FACTS.event_count,
    first_event_type: TRANSCRIPT_FACTS.first_event_type,
    first_event_id: TRANSCRIPT_FACTS.first_event_id,
    last_event_type: TRANSCRIPT_FACTS.last_event_type,
    last_event_id: TRANSCRIPT_FACTS.last_event_id,
    complete: TRANSCRIPT_FACTS.complete,
    terminal_status: TRANSCRIPT_FACTS.terminal_status,
    effective_tool_format: TRANSCRIPT_FACTS.effective_tool_format,
    tool_schema_hash: TRANSCRIPT_FACTS.tool_schema_hash,
  };
}

function recordText(dir: string, setup: RunSetup): { text: string; descriptor: Obj } {
  const overrides = typeof setup.descriptor === 'function' ? setup.descriptor(dir) : setup.descriptor;
  const descriptor: Obj = { ...descriptorFor(dir), ...overrides };
  for (const k of setup.dropDescriptor ?? []) delete descriptor[k];
  const record: Obj = {
    _type: 'run_record',
    id: 'r9',
    workflow_id: 'wf-fix',
    workflow_name: null,
    task: 'fix b.ts',
    status: 'completed',
    started_at: '2026-01-01T00:00:00Z',
    finished_at: '2026-01-01T00:00:02Z',
    stages: [{ id: 'st-1', node_id: 'fix', kind: 'stage', status: 'completed', outcome: 'success', attempts: [], metadata: {} }],
    observability: {
      schema_version: 1,
      planner_rounds: [],
      research_fact_count: 0,
      transcript_pointers: [
        {
          id: 'run:llm_transcript',
          label: 'LLM transcript sidecar',
          kind: 'llm_jsonl',
          location: 'run sidecar',
          path: path.join(dir, REL),
          available: true,
          verification_status: 'verified',
          verification_error: null,
          descriptor,
          ...setup.pointer,
        },
      ],
      compaction_events: [],
    },
    metadata: {},
    ...setup.record,
  };
  return { text: JSON.stringify(record, null, 2) + '\n', descriptor };
}

/** A run folder with run.json and (unless `transcript: null`) r9-llm/llm_transcript.jsonl. */
function makeRun(setup: RunSetup = {}): Run {
  const dir = freshRunFolder();
  const transcriptPath = path.join(dir, REL);
  if (setup.transcript !== null) {
    fs.mkdirSync(path.dirname(transcriptPath), { recursive: true });
    fs.writeFileSync(transcriptPath, setup.transcript ?? TRANSCRIPT);
  }
  const { text, descriptor } = recordText(dir, setup);
  const runPath = path.join(dir, 'run.json');
  fs.writeFileSync(runPath, text);
  return { dir, runPath, transcriptPath, text, descriptor };
}

// ---------------------------------------------------------------------------------------------------------------
// Positions, computed independently of the module (CRLF and LF breaks; UTF-16 characters).

function spanOfOffsets(text: string, start: number, end: number): LineSpan {
  const at = (offset: number): { line: number; character: number } => {
    const lines = text.slice(0, offset).split(/\r\n|\n/);
    return { line: lines.length - 1, character: defined(lines[lines.length - 1], 'the last line').length };
  };
  const s = at(start);
  const e = at(end);
  return { line: s.line, startCharacter: s.character, endLine: e.line, endCharacter: e.character };
}

/** The span of `key`'s value inside the descriptor (searching after `"descriptor": {`). */
function descriptorValueSpan(text: string, key: string, value: Json): LineSpan {
  const from = text.indexOf('"descriptor": {');
  assert.ok(from >= 0, 'no descriptor in the text');
  return valueSpanAfter(text, key, value, from);
}

function valueSpanAfter(text: string, key: string, value: Json, from: number): LineSpan {
  const needle = `"${key}": ${JSON.stringify(value)}`;
  const at = text.indexOf(needle, from);
  assert.ok(at >= 0, `${needle} not in the text`);
  const start = at + key.length + 4;
  return spanOfOffsets(text, start, start + JSON.stringify(value).length);
}

function keySpan(text: string, key: string, from = 0): LineSpan {
  const at = text.indexOf(`"${key}"`, from);
  assert.ok(at >= 0);
  return spanOfOffsets(text, at, at + key.length + 2);
}

const spanOf = (p: ArtifactProblem): LineSpan => ({ line: p.line, startCharacter: p.startCharacter, endLine: p.endLine, endCharacter: p.endCharacter });

/** Exactly one problem, with this code, severity and range; returns it. */
function single(problems: ArtifactProblem[], code: string, span: LineSpan, severity = 'error'): ArtifactProblem {
  assert.equal(problems.length, 1, `expected only ${code}, got ${JSON.stringify(problems, null, 2)}`);
  const p = defined(problems[0], 'the problem');
  assert.equal(p.code, code);
  assert.equal(p.severity, severity);
  assert.deepEqual(spanOf(p), span);
  return p;
}

function includesAll(message: string, ...parts: string[]): void {
  for (const part of parts) assert.ok(message.includes(part), `${JSON.stringify(message)} should mention ${part}`);
}

// ---------------------------------------------------------------------------------------------------------------
// A spy file system: every call and its path.

interface Spy {
  fs: RunRecordFs;
  calls: Array<[string, string]>;
  /** Paths whose content was read. */
  read: () => string[];
  touched: (p: string) => boolean;
}

function spyFs(base: RunRecordFs = nodeRunRecordFs, overrides: Partial<RunRecordFs> = {}): Spy {
  const calls: Array<[string, string]> = [];
  const impl = { ...base, ...overrides };
  return {
    calls,
    read: () => calls.filter(([m]) => m === 'consume').map(([, p]) => p),
    touched: (p) => calls.some(([, q]) => q === p || q.startsWith(p + path.sep)),
    fs: {
      realpath: (p) => {
        calls.push(['realpath', p]);
        return impl.realpath(p);
      },
      stat: (p) => {
        calls.push(['stat', p]);
        return impl.stat(p);
      },
      consume: (p, consumer) => {
        calls.push(['consume', p]);
        return impl.consume(p, consumer);
      },
    },
  };
}

const verify = (run: Run, fsImpl: RunRecordFs = nodeRunRecordFs): ArtifactProblem[] => verifyRunRecord(run.runPath, run.text, fsImpl);

// ---------------------------------------------------------------------------------------------------------------

describe('isRunRecord', () => {
  test('run.json and *.run.json by name, unless their _type names another artifact', () => {
    assert.equal(isRunRecord('/w/run.json', '{}'), true);
    assert.equal(isRunRecord('/w/RUN.JSON', '{}'), true);
    assert.equal(isRunRecord('C:\\w\\r9.run.json', '{"_type":"run_record"}'), true);
    assert.equal(isRunRecord('file:///w/nightly.run.json', 'not json at all'), true);
    assert.equal(isRunRecord('/w/run.json', '{"_type":"replay_fixture","id":"x"}'), false);
    assert.equal(isRunRecord('/w/run.json', '{"_type":null}'), true);
  });

  test('any .json whose top-level _type is "run_record" (BOM tolerated)', () => {
    assert.equal(isRunRecord('/w/r9.json', '{"id":"r9", "_type" : "run_record"}'), true);
    assert.equal(isRunRecord('/w/r9.json', '\uFEFF{"_type":"run_record"}'), true);
    assert.equal(isRunRecord('/w/r9.json', '{"child":{"_type":"run_record"}}'), false);
    assert.equal(isRunRecord('/w/r9.json', '{"_type":"eval_suite_manifest"}'), false);
    assert.equal(isRunRecord('/w/r9.jsonl', '{"_type":"run_record"}'), false);
    assert.equal(isRunRecord('/w/notes.harn', '{"_type":"run_record"}'), false);
  });
});

describe('parseRunRecord', () => {
  test('locates the id, each llm_jsonl pointer and every descriptor field; a valid record has no problems', () => {
    const dir = '/w/run';
    const { text, descriptor } = recordText(dir, {});
    const parsed = parseRunRecord(text);
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.record);
    assert.equal(parsed.record.id, 'r9');
    assert.equal(parsed.id?.value, 'r9');
    assert.equal(parsed.pointers.length, 1);
    const d = defined(parsed.pointers[0], 'the pointer').descriptor;
    assert.ok(d);
    for (const [key, value] of Object.entries(descriptor)) {
      const located: Located | undefined = d.fields[key as DescriptorField];
      assert.ok(located, key);
      assert.deepEqual(located.value, value);
      assert.deepEqual(located.span, descriptorValueSpan(text, key, value), key);
      assert.equal(text.slice(located.offset, located.offset + located.length), JSON.stringify(value));
    }
    assert.deepEqual(d.keySpan, keySpan(text, 'descriptor'));
  });

  test('only llm_jsonl pointers are listed, with their index', () => {
    const { text } = recordText('/w/run', {});
    const obj = JSON.parse(text) as { observability: { transcript_pointers: Obj[] } };
    obj.observability.transcript_pointers.unshift({ id: 'x', kind: 'event_log', descriptor: null });
    const parsed = parseRunRecord(JSON.stringify(obj));
    assert.deepEqual(
      parsed.pointers.map((p) => p.index),
      [1],
    );
  });

  test('schema problems sit on the value, and extra fields are accepted', () => {
    const { text } = recordText('/w/run', {
      record: { extra_field: { anything: [1, 2] }, usage: { input_tokens: 'many' } },
      descriptor: { byte_len: '302', future_field: true },
    });
    const broken = text.replace('"schema_version": 1,', '"schema_version": "1",');
    const { problems } = parseRunRecord(broken);
    assert.deepEqual(
      problems.map((p) => [p.code, p.message]),
      [
        ['invalid_run_record', '`observability.schema_version` should be a non-negative integer, not "1".'],
        ['invalid_run_record', '`observability.transcript_pointers[0].descriptor.byte_len` should be a non-negative integer, not "302".'],
        ['invalid_run_record', '`usage.input_tokens` should be an integer, not "many".'],
      ],
    );
    assert.deepEqual(problems.map(spanOf), [
      valueSpanAfter(broken, 'schema_version', '1', broken.indexOf('"observability"')),
      descriptorValueSpan(broken, 'byte_len', '302'),
      valueSpanAfter(broken, 'input_tokens', 'many', 0),
    ]);
  });

  test('null where upstream has a plain String, and a non-object document', () => {
    const { text } = recordText('/w/run', { record: { task: null, _type: 'run_record' } });
    const { problems } = parseRunRecord(text);
    assert.deepEqual(
      problems.map((p) => p.message),
      ['`task` should be a string, not null.'],
    );
    assert.deepEqual(
      parseRunRecord('[1]').problems.map((p) => [p.message, spanOf(p)]),
      [['The run record should be an object, not an array.', { line: 0, startCharacter: 0, endLine: 0, endCharacter: 3 }]],
    );
  });

  test('a JSON syntax error is reported once, where it is, and nothing else is checked', () => {
    const { problems, pointers, value } = parseRunRecord('{\n  "id": "r9",\n}\n');
    assert.equal(value, undefined);
    assert.deepEqual(pointers, []);
    assert.deepEqual(
      problems.map((p) => [p.code, spanOf(p)]),
      [['malformed_json', { line: 2, startCharacter: 0, endLine: 2, endCharacter: 1 }]],
    );
    assert.equal(parseRunRecord('').problems[0]?.code, 'malformed_json');
    assert.equal(parseRunRecord('{"a": 1 // c\n}').problems[0]?.code, 'malformed_json');
  });
});

describe('transcriptFacts', () => {
  test('states what upstream describes: hash, length, counts, first/last, terminal, session, tool format, schema hash', () => {
    assert.deepEqual(transcriptFacts(Buffer.from(TRANSCRIPT)), { ...TRANSCRIPT_FACTS, error: null });
  });

  test('row identity: the first of id, event_id, call_id that is present, if a string; else row:N over non-blank rows', () => {
    const rows = [
      '{"type":"a","id":"i-1","event_id":"e-1","call_id":"c-1"}',
      '',
      '   ',
      '{"type":"b","event_id":"e-2","call_id":"c-2"}',
      '{"type":"c","call_id":"c-3"}',
      '{"type":"d","id":null,"call_id":"c-4"}', // upstream: get("id") is Some(null), as_str fails → row:N
      '{"type":"e","id":7}',
    ];
    const ids: string[] = [];
    for (let i = 1; i <= rows.length; i++) {
      const facts = transcriptFacts(Buffer.from(rows.slice(0, i).join('\n')));
      if (facts.last_event_id !== null && ids[ids.length - 1] !== facts.last_event_id) ids.push(facts.last_event_id);
    }
    assert.deepEqual(ids, ['i-1', 'e-2', 'c-3', 'row:4', 'row:5']);
  });

  test('terminal rows: the listed types or terminal:true; the status is the first present of final_status, status, stop_reason, else the type', () => {
    const status = (row: string): [boolean, string | null] => {
      const f = transcriptFacts(Buffer.from(`{"type":"message"}\n${row}\n`));
      return [f.complete, f.terminal_status];
    };
    assert.deepEqual(status('{"type":"agent_session_finalized","final_status":"done","status":"x"}'), [true, 'done']);
    assert.deepEqual(status('{"type":"agent_session_terminal","status":"failed","stop_reason":"y"}'), [true, 'failed']);
    assert.deepEqual(status('{"type":"run_terminal","stop_reason":"budget"}'), [true, 'budget']);
    assert.deepEqual(status('{"type":"terminal"}'), [true, 'terminal']);
    assert.deepEqual(status('{"type":"custom_end","terminal":true}'), [true, 'custom_end']);
    assert.deepEqual(status('{"type":"agent_session_finalized","final_status":null,"stop_reason":"natural"}'), [true, 'agent_session_finalized']);
    assert.deepEqual(status('{"type":"message","terminal":"true"}'), [false, null]);
    assert.deepEqual(status('{"type":"message","terminal":false}'), [false, null]);
  });

  test('session_id first seen, tool_format first non-empty, tool_schemas.hash the last one as serde_json prints it', () => {
    const f = transcriptFacts(
      Buffer.from(
        [
          '{"type":"tool_schemas","hash":"cat-1"}',
          '{"type":"message","session_id":5}',
          '{"type":"message","session_id":"s-1"}',
          '{"type":"message","session_id":"s-2"}',
          '{"type":"interpreted_response","tool_format":""}',
          '{"type":"interpreted_response","tool_format":"native"}',
          '{"type":"interpreted_response","tool_format":"text"}',
          '{"type":"tool_schemas","hash":12345678901234567890,"schemas":[{"hash":1}]}',
        ].join('\n'),
      ),
    );
    assert.equal(f.session_id, 's-1');
    assert.equal(f.effective_tool_format, 'native');
    assert.equal(f.tool_schema_hash, '12345678901234567890');
    const hashOf = (hash: string): string | null => transcriptFacts(Buffer.from(`{"type":"tool_schemas","hash":${hash}}`)).tool_schema_hash;
    assert.equal(hashOf('"cat-7"'), 'cat-7');
    assert.equal(hashOf('""'), null);
    assert.equal(hashOf('null'), 'null');
    assert.equal(hashOf('true'), 'true');
    assert.equal(hashOf('1.0'), '1.0');
    assert.equal(hashOf('-9223372036854775808'), '-9223372036854775808');
    assert.equal(transcriptFacts(Buffer.from('{"type":"tool_schemas","hash":"a"}\n{"type":"tool_schemas"}')).tool_schema_hash, null);
  });

  test('serde_json number text: integers in u64/i64 range verbatim, others as ryu prints an f64', () => {
    assert.deepEqual(
      ['0', '77', '18446744073709551615', '18446744073709551616', '-0', '-5', '1.5', '1e20', '1E2', '0.001', '1.5e-7', '12.5e30', '100.0'].map(serdeNumberText),
      ['0', '77', '18446744073709551615', '1.8446744073709552e19', '-0.0', '-5', '1.5', '1e20', '100.0', '0.001', '1.5e-7', '1.25e31', '100.0'],
    );
  });

  test('non-object rows count as events with type ""', () => {
    const f = transcriptFacts(Buffer.from('42\n[1]\n"x"\n'));
    assert.equal(f.event_count, 3);
    assert.equal(f.first_event_type, '');
    assert.equal(f.last_event_id, 'row:3');
    assert.equal(f.error, null);
  });

  test('CRLF rows, Rust whitespace (U+0085 is blank, a BOM is not)', () => {
    const crlf = transcriptFacts(Buffer.from('{"type":"a"}\r\n\r\n \t\r\n{"type":"b"}\r\n'));
    assert.equal(crlf.event_count, 2);
    assert.equal(crlf.error, null);
    assert.equal(transcriptFacts(Buffer.from('{"type":"a"}\n\u0085\n')).error, null);
    const bom = transcriptFacts(Buffer.from('\uFEFF{"type":"a"}\n'));
    assert.equal(bom.error?.kind, 'malformed_jsonl');
    assert.equal(bom.error?.line, 1);
  });

  test('malformed_jsonl names the physical line; facts stop there', () => {
    const f = transcriptFacts(Buffer.from('{"type":"a"}\n\n{"type":\n{"type":"b"}\n'));
    assert.deepEqual(f.error && [f.error.kind, f.error.line], ['malformed_jsonl', 3]);
    assert.equal(f.event_count, 1);
  });

  test('invalid UTF-8 anywhere wins over an earlier malformed row (upstream decodes the whole file first)', () => {
    const bytes = Buffer.concat([Buffer.from('{"type":"a"}\nnot json\n{"type":"'), Buffer.from([0xc0, 0x80]), Buffer.from('"}\n')]);
    const f = transcriptFacts(bytes);
    assert.deepEqual(f.error && [f.error.kind, f.error.line, f.error.byteOffset], ['invalid_utf8', 3, 31]);
    for (const bad of [[0xed, 0xa0, 0x80], [0xff], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]]) {
      assert.equal(transcriptFacts(Buffer.from([0x22, ...bad, 0x22])).error?.kind, 'invalid_utf8', JSON.stringify(bad));
    }
    assert.equal(transcriptFacts(Buffer.from('"\u00e9\u20ac\u{1F600}"')).error, null);
  });

  test('empty_transcript: no bytes, or only blank lines', () => {
    assert.equal(transcriptFacts(Buffer.alloc(0)).error?.kind, 'empty_transcript');
    assert.equal(transcriptFacts(Buffer.from('\n \r\n\t\n')).error?.kind, 'empty_transcript');
    assert.equal(transcriptFacts(Buffer.alloc(0)).sha256, sha(''));
  });

  test('the same facts whatever the chunk boundaries (property)', () => {
    const pieces = [
      '{"type":"message","session_id":"s-\u00e9"}',
      '{"type":"tool_schemas","hash":18446744073709551557}',
      '{"type":"provider_call_request","call_id":"c-\u{1F600}","tool_format":"text"}',
      '{"type":"agent_session_finalized","final_status":"done"}',
      '',
      '  ',
      'oops',
      '\u20ac',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.integer({ min: 1, max: 17 }),
        fc.option(fc.nat(400)),
        (rows, eol, trailing, chunkSize, badAt) => {
          let bytes = Buffer.from(rows.join(eol) + (trailing ? eol : ''));
          if (badAt !== null && bytes.length) {
            bytes = Buffer.concat([bytes.subarray(0, badAt % bytes.length), Buffer.from([0xfe]), bytes.subarray(badAt % bytes.length)]);
          }
          const whole = transcriptFacts(bytes, bytes.length + 1);
          const scanner = new TranscriptScanner();
          const reused = Buffer.alloc(chunkSize);
          for (let i = 0; i < bytes.length; i += chunkSize) {
            // The scanner must not keep a reference to a chunk the caller overwrites.
            const n = bytes.copy(reused, 0, i, i + chunkSize);
            scanner.update(reused.subarray(0, n));
            reused.fill(0x41);
          }
          assert.deepEqual(scanner.finish(), whole);
        },
      ),
      { numRuns: 300, seed: 20260101 },
    );
  });

  test('a file is streamed in chunks and gives the same facts as its bytes', () => {
    const dir = freshRunFolder();
    const file = path.join(dir, 't.jsonl');
    fs.writeFileSync(file, TRANSCRIPT);
    assert.deepEqual(transcriptFactsFromFile(file, 7), { ...TRANSCRIPT_FACTS, error: null });
  });
});

describe('verifyRunRecord', () => {
  test('a healthy record verifies with no problems (verified, and incomplete without a terminal row)', () => {
    assert.deepEqual(verify(makeRun()), []);
    const open = TRANSCRIPT_ROWS.slice(0, -1).join('\n') + '\n';
    const run = makeRun({
      transcript: open,
      pointer: { verification_status: 'incomplete' },
      descriptor: {
        sha256: sha(open),
        byte_len: Buffer.byteLength(open),
        event_count: 5,
        last_event_type: 'provider_call_response',
        last_event_id: 'c-1',
        complete: false,
        terminal_status: null,
      },
    });
    assert.deepEqual(verify(run), []);
  });

  test('the real file system is used by default', () => {
    const run = makeRun();
    assert.deepEqual(verifyRunRecord(run.runPath, run.text), []);
  });

  test('digest_mismatch: on sha256, with both digests', () => {
    const changed = TRANSCRIPT.replace('fix b.ts', 'fix c.ts');
    const run = makeRun({ transcript: changed });
    const p = single(verify(run), 'digest_mismatch', descriptorValueSpan(run.text, 'sha256', TRANSCRIPT_FACTS.sha256));
    assert.equal(p.message, `sha256 in the descriptor is ${TRANSCRIPT_FACTS.sha256}, the transcript on disk hashes to ${sha(changed)}.`);
    assert.deepEqual(p.data, { field: 'sha256', descriptor: TRANSCRIPT_FACTS.sha256, actual: sha(changed), transcript: run.transcriptPath });
  });

  test('digest_mismatch: the exact range, as line and UTF-16 characters', () => {
    const run = makeRun({ descriptor: { sha256: 'sha256:0f0e' } });
    const problems = verify(run);
    // The descriptor sits at depth 5 (10 spaces); "sha256": is 10 characters.
    const line = run.text.split('\n').findIndex((l) => l.includes('"sha256": "sha256:0f0e"'));
    const p = single(problems, 'digest_mismatch', { line, startCharacter: 20, endLine: line, endCharacter: 33 });
    includesAll(p.message, 'sha256:0f0e', TRANSCRIPT_FACTS.sha256);
  });

  test('byte_len_mismatch: on byte_len, with both lengths', () => {
    const run = makeRun({ descriptor: { byte_len: 2048 } });
    const p = single(verify(run), 'byte_len_mismatch', descriptorValueSpan(run.text, 'byte_len', 2048));
    assert.equal(p.message, `byte_len in the descriptor is 2048, the transcript on disk is ${TRANSCRIPT_FACTS.byte_len} bytes long.`);
  });

  test('a grown transcript: digest, length, count, last row and completeness all disagree, each on its field', () => {
    const grown = TRANSCRIPT + '{"type":"message","session_id":"s-7","id":"m-9"}\n';
    const run = makeRun({ transcript: grown });
    assert.deepEqual(
      verify(run).map((p) => [p.code, p.data?.field]),
      [
        ['digest_mismatch', 'sha256'],
        ['byte_len_mismatch', 'byte_len'],
        ['event_count_mismatch', 'event_count'],
        ['descriptor_field_mismatch', 'last_event_type'],
        ['descriptor_field_mismatch', 'last_event_id'],
      ],
    );
  });

  test('event_count_mismatch: on event_count, with both counts', () => {
    const run = makeRun({ descriptor: { event_count: 8 } });
    const p = single(verify(run), 'event_count_mismatch', descriptorValueSpan(run.text, 'event_count', 8));
    assert.equal(p.message, 'event_count in the descriptor is 8, the transcript on disk has 6 events (non-blank rows).');
  });

  test('completeness_mismatch: on complete, both ways', () => {
    const run = makeRun({ descriptor: { complete: false } });
    const p = single(verify(run), 'completeness_mismatch', descriptorValueSpan(run.text, 'complete', false));
    assert.equal(p.message, 'complete in the descriptor is false, the transcript on disk has a terminal row (status "done").');

    const open = TRANSCRIPT_ROWS.slice(0, -1).join('\n') + '\n';
    const run2 = makeRun({
      transcript: open,
      descriptor: {
        sha256: sha(open),
        byte_len: Buffer.byteLength(open),
        event_count: 5,
        last_event_type: 'provider_call_response',
        last_event_id: 'c-1',
        terminal_status: null,
      },
    });
    const p2 = single(verify(run2), 'completeness_mismatch', descriptorValueSpan(run2.text, 'complete', true));
    assert.equal(p2.message, 'complete in the descriptor is true, the transcript on disk has no terminal row.');
  });

  const otherFields: Array<[string, Json, string]> = [
    ['session_id', 's-8', '"s-7"'],
    ['first_event_type', 'message', '"system_prompt"'],
    ['first_event_id', 'row:0', '"row:1"'],
    ['last_event_type', 'tool_result', '"agent_session_finalized"'],
    ['last_event_id', 'row:8', '"row:6"'],
    ['terminal_status', 'failed', '"done"'],
    ['effective_tool_format', 'native', '"text"'],
    ['tool_schema_hash', 'cat-7', '"18446744073709551557"'],
    ['tool_schema_hash', null, '"18446744073709551557"'],
  ];
  for (const [field, stated, actual] of otherFields) {
    test(`descriptor_field_mismatch: ${field} ${JSON.stringify(stated)}`, () => {
      const run = makeRun({ descriptor: { [field]: stated } });
      const p = single(verify(run), 'descriptor_field_mismatch', descriptorValueSpan(run.text, field, stated));
      assert.equal(p.message, `${field} in the descriptor is ${JSON.stringify(stated)}, the transcript on disk gives ${actual}.`);
      assert.equal(p.data?.field, field);
    });
  }

  test('an absent field reads as its serde default and is reported on the "descriptor" key', () => {
    const run = makeRun({ dropDescriptor: ['session_id', 'event_count'] });
    const problems = verify(run);
    const at = keySpan(run.text, 'descriptor');
    assert.deepEqual(
      problems.map((p) => [p.code, spanOf(p), p.message]),
      [
        ['event_count_mismatch', at, 'The descriptor has no event_count, the transcript on disk has 6 events (non-blank rows).'],
        ['descriptor_field_mismatch', at, 'The descriptor has no session_id, the transcript on disk gives "s-7".'],
      ],
    );
  });

  test('missing_descriptor: a verified pointer whose descriptor is null', () => {
    const run = makeRun({ pointer: { descriptor: null } });
    const p = single(verify(run), 'missing_descriptor', valueSpanAfter(run.text, 'descriptor', null, 0));
    includesAll(p.message, 'no descriptor', '"verified"');
  });

  test("unverified_descriptor: a warning on verification_status, with the writer's error; the descriptor is not checked", () => {
    const run = makeRun({ pointer: { verification_status: 'missing_path', verification_error: 'llm_jsonl descriptor has no path', descriptor: null } });
    const p = single(verify(run), 'unverified_descriptor', valueSpanAfter(run.text, 'verification_status', 'missing_path', 0), 'warning');
    includesAll(p.message, '"missing_path"', '"verified"', 'llm_jsonl descriptor has no path');
    const spy = spyFs();
    verify(makeRun({ pointer: { verification_status: 'digest_mismatch' }, descriptor: { sha256: 'sha256:00' } }), spy.fs);
    assert.deepEqual(spy.calls, []);
  });

  test('schema_mismatch: on schema_version, with both versions', () => {
    const run = makeRun({ descriptor: { schema_version: 'harn.llm_transcript_artifact.v0' } });
    const p = single(verify(run), 'schema_mismatch', descriptorValueSpan(run.text, 'schema_version', 'harn.llm_transcript_artifact.v0'));
    includesAll(p.message, '"harn.llm_transcript_artifact.v0"', '"harn.llm_transcript_artifact.v1"');
  });

  test('artifact_kind_mismatch: on artifact_kind, with both kinds', () => {
    const run = makeRun({ descriptor: { artifact_kind: 'event_log' } });
    const p = single(verify(run), 'artifact_kind_mismatch', descriptorValueSpan(run.text, 'artifact_kind', 'event_log'));
    includesAll(p.message, '"event_log"', '"llm_jsonl"');
  });

  test('run_id_mismatch: on run_id, with both ids', () => {
    const run = makeRun({ descriptor: { run_id: 'r8' } });
    const p = single(verify(run), 'run_id_mismatch', descriptorValueSpan(run.text, 'run_id', 'r8'));
    assert.equal(p.message, 'run_id in the descriptor is "r8", the run record\'s id is "r9".');
  });

  test('missing_path: no relative_path and an empty or absent path', () => {
    const run = makeRun({ descriptor: { relative_path: null, path: '' } });
    const p = single(verify(run), 'missing_path', descriptorValueSpan(run.text, 'path', ''));
    includesAll(p.message, 'relative_path', '""');
    const run2 = makeRun({ descriptor: { relative_path: '' }, dropDescriptor: ['path'] });
    single(verify(run2), 'missing_path', keySpan(run2.text, 'descriptor'));
  });

  test('invalid_run_path: a relative run record path, or a run folder that does not exist', () => {
    const run = makeRun();
    const span = descriptorValueSpan(run.text, 'relative_path', REL);
    const p = single(verifyRunRecord('run.json', run.text), 'invalid_run_path', span);
    includesAll(p.message, '"run.json"', 'not absolute');
    const gone = path.join(scratch, 'no-such-folder', 'run.json');
    const p2 = single(verifyRunRecord(gone, run.text), 'invalid_run_path', span);
    includesAll(p2.message, path.dirname(gone), 'ENOENT');
  });

  test('unavailable: no such file, a directory, a read error', () => {
    const run = makeRun({ transcript: null });
    const span = descriptorValueSpan(run.text, 'relative_path', REL);
    includesAll(single(verify(run), 'unavailable', span).message, run.transcriptPath, 'ENOENT');

    fs.mkdirSync(run.transcriptPath, { recursive: true });
    includesAll(single(verify(run), 'unavailable', span).message, 'not a regular file');

    const healthy = makeRun();
    const failing = spyFs(nodeRunRecordFs, {
      consume: () => {
        throw Object.assign(new Error('permission denied'), { code: 'EACCES' });
      },
    });
    includesAll(single(verify(healthy, failing.fs), 'unavailable', span).message, 'EACCES');
  });

  test('invalid_utf8: on the path field used, with the byte and line', () => {
    const bad = Buffer.concat([Buffer.from(TRANSCRIPT_ROWS[0] + '\n'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]);
    const run = makeRun({ transcript: bad, descriptor: { sha256: sha(bad), byte_len: bad.length } });
    const p = single(verify(run), 'invalid_utf8', descriptorValueSpan(run.text, 'relative_path', REL));
    includesAll(p.message, run.transcriptPath, 'not UTF-8', `byte ${TRANSCRIPT_ROWS[0].length + 2}`, 'line 2');
  });

  test('malformed_jsonl: on the path field used, with the line', () => {
    const bad = TRANSCRIPT.replace(TRANSCRIPT_ROWS[4], '{"type":"provider_call_request",');
    const run = makeRun({ transcript: bad, descriptor: { sha256: sha(bad), byte_len: Buffer.byteLength(bad) } });
    const p = single(verify(run), 'malformed_jsonl', descriptorValueSpan(run.text, 'relative_path', REL));
    includesAll(p.message, run.transcriptPath, 'line 5');
    assert.equal(p.data?.line, 5);
  });

  test('empty_transcript: on the path field used', () => {
    const blank = '\n\n';
    const run = makeRun({ transcript: blank, descriptor: { sha256: sha(blank), byte_len: 2 } });
    const p = single(verify(run), 'empty_transcript', descriptorValueSpan(run.text, 'relative_path', REL));
    includesAll(p.message, 'no JSONL events');
  });

  test('relative_path is preferred over path (path is never touched)', () => {
    const elsewhere = path.join(scratch, 'elsewhere', 'llm_transcript.jsonl');
    const run = makeRun({ descriptor: { path: elsewhere } });
    const spy = spyFs();
    assert.deepEqual(verify(run, spy.fs), []);
    assert.ok(!spy.touched(elsewhere));
    assert.deepEqual(spy.read(), [run.transcriptPath]);
  });

  test('without relative_path, an absolute path inside the run folder is used, and a relative one is joined', () => {
    assert.deepEqual(verify(makeRun({ descriptor: { relative_path: null } })), []);
    assert.deepEqual(verify(makeRun({ descriptor: { relative_path: null, path: REL } })), []);
    assert.deepEqual(verify(makeRun({ descriptor: { relative_path: './r9-llm//llm_transcript.jsonl' } })), []);
  });

  describe('paths that leave the run folder are refused (path_traversal) and never read', () => {
    /** A secret transcript outside the run folder (a sibling of it). */
    function secret(run: Run): string {
      const file = path.join(path.dirname(run.dir), 'outside', 'secret.jsonl');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, TRANSCRIPT);
      return file;
    }

    test('relative_path with ../ (no file system call on it at all)', () => {
      const rel = '../outside/secret.jsonl';
      const run = makeRun({ descriptor: { relative_path: rel } });
      assert.equal(secret(run), path.resolve(run.dir, rel)); // the target exists, and is still not read
      const spy = spyFs();
      const p = single(verify(run, spy.fs), 'path_traversal', descriptorValueSpan(run.text, 'relative_path', rel));
      includesAll(p.message, '"../outside/secret.jsonl"', '`..`', run.dir);
      assert.deepEqual(spy.calls, []);
    });

    test('relative_path with a ..\\ component, and r9-llm/../../x', () => {
      for (const rel of ['..\\outside\\secret.jsonl', 'r9-llm/../../outside/secret.jsonl']) {
        const run = makeRun({ descriptor: { relative_path: rel } });
        secret(run);
        const spy = spyFs();
        single(verify(run, spy.fs), 'path_traversal', descriptorValueSpan(run.text, 'relative_path', rel));
        assert.deepEqual(spy.calls, []);
      }
    });

    test('an absolute relative_path, outside the folder or even inside it', () => {
      const outside = makeRun({ descriptor: (dir) => ({ relative_path: path.join(path.dirname(dir), 'outside', 'secret.jsonl') }) });
      const inside = makeRun({ descriptor: (dir) => ({ relative_path: path.join(dir, REL) }) });
      secret(outside);
      for (const run of [outside, inside]) {
        const rel = run.descriptor.relative_path as string;
        const spy = spyFs();
        const p = single(verify(run, spy.fs), 'path_traversal', descriptorValueSpan(run.text, 'relative_path', rel));
        includesAll(p.message, JSON.stringify(rel), 'absolute');
        assert.deepEqual(spy.calls, []);
      }
    });

    test('an absolute path (no relative_path) outside the folder', () => {
      const run = makeRun({ descriptor: (dir) => ({ relative_path: null, path: path.join(path.dirname(dir), 'outside', 'secret.jsonl') }) });
      const target = secret(run);
      assert.equal(run.descriptor.path, target);
      const spy = spyFs();
      const p = single(verify(run, spy.fs), 'path_traversal', descriptorValueSpan(run.text, 'path', target));
      includesAll(p.message, JSON.stringify(target), run.dir);
      assert.ok(!spy.touched(target));
      assert.deepEqual(spy.read(), []);
    });

    test('a symbolic link leading out: the file, or a folder on the way', () => {
      const run = makeRun({ transcript: null });
      const target = secret(run);
      fs.mkdirSync(path.dirname(run.transcriptPath), { recursive: true });
      fs.symlinkSync(target, run.transcriptPath);
      const spy = spyFs();
      const p = single(verify(run, spy.fs), 'path_traversal', descriptorValueSpan(run.text, 'relative_path', REL));
      includesAll(p.message, JSON.stringify(REL), 'symbolic link', target, run.dir);
      assert.deepEqual(spy.read(), []);
      assert.ok(!spy.calls.some(([m]) => m === 'stat'));

      const run2 = makeRun({ transcript: null });
      const outsideFolder = path.dirname(secret(run2));
      fs.copyFileSync(target, path.join(outsideFolder, 'llm_transcript.jsonl'));
      fs.symlinkSync(outsideFolder, path.join(run2.dir, 'r9-llm'));
      const spy2 = spyFs();
      single(verify(run2, spy2.fs), 'path_traversal', descriptorValueSpan(run2.text, 'relative_path', REL));
      assert.deepEqual(spy2.read(), []);
    });

    test('a symbolic link that stays inside the folder is followed', () => {
      const run = makeRun();
      fs.renameSync(run.transcriptPath, path.join(run.dir, 'actual.jsonl'));
      fs.symlinkSync(path.join(run.dir, 'actual.jsonl'), run.transcriptPath);
      const spy = spyFs();
      assert.deepEqual(verify(run, spy.fs), []);
      assert.deepEqual(spy.read(), [path.join(run.dir, 'actual.jsonl')]);
    });
  });

  test('every llm_jsonl pointer is verified; other kinds are ignored', () => {
    const run = makeRun();
    const obj = JSON.parse(run.text) as { observability: { transcript_pointers: Obj[] } };
    const first = defined(obj.observability.transcript_pointers[0], 'the first pointer');
    obj.observability.transcript_pointers.push({ id: 'other', kind: 'event_log', verification_status: 'bogus' });
    obj.observability.transcript_pointers.push({ ...first, descriptor: { ...(first.descriptor as Obj), run_id: 'r1' } });
    const text = JSON.stringify(obj, null, 2);
    const problems = verifyRunRecord(run.runPath, text);
    assert.deepEqual(
      problems.map((p) => p.code),
      ['run_id_mismatch'],
    );
    assert.ok(defined(problems[0], 'the problem').line > text.slice(0, text.indexOf('"other"')).split('\n').length);
  });

  test('a run record with no pointers, or no observability, has nothing to verify', () => {
    const run = makeRun({ record: { observability: null } });
    assert.deepEqual(verify(run), []);
  });

  test('schema problems come with verification, and an ill-typed field is not compared again', () => {
    const run = makeRun({ descriptor: { byte_len: '302' } });
    const problems = verify(run);
    assert.deepEqual(
      problems.map((p) => p.code),
      ['invalid_run_record'],
    );
    assert.deepEqual(problems.map(spanOf), [descriptorValueSpan(run.text, 'byte_len', '302')]);
  });

  test('CRLF line breaks and a BOM in run.json: ranges are still exact', () => {
    const run = makeRun({ descriptor: { sha256: 'sha256:0f0e', event_count: 9 } });
    const crlf = '\uFEFF' + run.text.replace(/\n/g, '\r\n');
    const problems = verifyRunRecord(run.runPath, crlf);
    assert.deepEqual(
      problems.map((p) => [p.code, spanOf(p)]),
      [
        ['digest_mismatch', descriptorValueSpan(crlf, 'sha256', 'sha256:0f0e')],
        ['event_count_mismatch', descriptorValueSpan(crlf, 'event_count', 9)],
      ],
    );
    // Same lines and characters as with LF (the BOM is on line 0 only).
    assert.deepEqual(problems.map(spanOf), verify(run).map(spanOf));

    // On one line the BOM counts as a character.
    const oneLine = '\uFEFF' + JSON.stringify(JSON.parse(run.text));
    const p = defined(verifyRunRecord(run.runPath, oneLine)[0], 'a problem');
    const start = oneLine.indexOf('"sha256:0f0e"');
    assert.deepEqual(spanOf(p), { line: 0, startCharacter: start, endLine: 0, endCharacter: start + 13 });
  });

  test('non-ASCII before a value: characters are UTF-16 code units', () => {
    const run = makeRun({ record: { task: 'r\u00e9parer \u{1F600}' }, descriptor: { run_id: 'r\u{1F600}' } });
    const oneLine = JSON.stringify(JSON.parse(run.text));
    const p = defined(verifyRunRecord(run.runPath, oneLine)[0], 'a problem');
    const start = oneLine.indexOf('"r\u{1F600}"');
    assert.deepEqual(spanOf(p), { line: 0, startCharacter: start, endLine: 0, endCharacter: start + 5 });
  });

  test("a cache keeps facts while the transcript's size and mtime stay the same", () => {
    const run = makeRun();
    const cache: TranscriptFactsCache = new Map();
    const spy = spyFs();
    assert.deepEqual(verifyRunRecord(run.runPath, run.text, spy.fs, { cache }), []);
    assert.deepEqual(verifyRunRecord(run.runPath, run.text, spy.fs, { cache }), []);
    assert.equal(spy.read().length, 1);
    fs.appendFileSync(run.transcriptPath, '{"type":"message"}\n');
    // The appended row changes the digest, the length, the count and the last event.
    assert.deepEqual(
      verifyRunRecord(run.runPath, run.text, spy.fs, { cache }).map((p) => [p.code, p.line, p.startCharacter, p.endCharacter, p.data?.field]),
      [
        ['digest_mismatch', 41, 20, 93, 'sha256'],
        ['byte_len_mismatch', 42, 22, 25, 'byte_len'],
        ['event_count_mismatch', 43, 25, 26, 'event_count'],
        ['descriptor_field_mismatch', 46, 29, 54, 'last_event_type'],
        ['descriptor_field_mismatch', 47, 27, 34, 'last_event_id'],
      ],
    );
    assert.equal(spy.read().length, 2);
  });
});

describe('streaming a 20 MB transcript', () => {
  /**
   * Measures peak RSS growth while scanning `file` in a child process whose young generation is capped at 1 MB, so
   * that garbage awaiting collection does not blur the figure (V8 grows it to tens of MB otherwise). `whole` reads
   * the file at once instead: the control proving the measure sees a full copy.
   */
  function peakRssGrowth(file: string, mode: 'stream' | 'whole'): { rss: number; facts: TranscriptFacts | null; chunks: number; maxChunk: number } {
    const script = path.join(path.dirname(file), 'measure.ts');
    fs.writeFileSync(
      script,
      `import * as fs from 'node:fs';
import { TranscriptScanner, transcriptFactsFromFile } from ${JSON.stringify(MODULE)};
import { consumeFileSync } from ${JSON.stringify(FILES_MODULE)};
const [file, mode] = process.argv.slice(2);
transcriptFactsFromFile(file); // warm-up
const before = process.memoryUsage().rss;
let peak = before;
let facts = null;
let chunks = 0;
let maxChunk = 0;
let kept;
if (mode === 'stream') {
  const scanner = new TranscriptScanner();
  function* feed() {
    for (let chunk = yield { read: 'next' }; chunk !== undefined; chunk = yield { read: 'next' }) {
      scanner.update(chunk);
      maxChunk = Math.max(maxChunk, chunk.length);
      if (++chunks % 2 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    return scanner.finish();
  }
  const read = consumeFileSync(file, feed());
  facts = read.ok ? read.value : null;
} else {
  kept = fs.readFileSync(file);
}
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ rss: peak - before, facts, chunks, maxChunk, kept: kept ? kept.length : 0 }));
`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--max-semi-space-size=1', script, file, mode], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as { rss: number; facts: TranscriptFacts | null; chunks: number; maxChunk: number };
  }

  test('memory stays well below the file size, and the facts match the whole-buffer scan', () => {
    const dir = freshRunFolder();
    const file = path.join(dir, 'big.jsonl');
    const fd = fs.openSync(file, 'w');
    const hash = createHash('sha256');
    let size = 0;
    let rows = 0;
    const target = 20 * 1024 * 1024;
    while (size < target) {
      let block = '';
      for (let i = 0; i < 500; i++) {
        rows++;
        block += `{"type":"message","timestamp":"1767225600.${String(rows % 1000).padStart(3, '0')}","session_id":"s-big","message_index":${rows},"role":"assistant","content":"${'lorem ipsum '.repeat(8)}"}\n`;
      }
      block += '{"type":"tool_schemas","hash":18446744073709551557,"schemas":[]}\n';
      rows++;
      const bytes = Buffer.from(block);
      fs.writeSync(fd, bytes);
      hash.update(bytes);
      size += bytes.length;
    }
    const end = Buffer.from('{"type":"agent_session_finalized","session_id":"s-big","final_status":"done","terminal":true}\n');
    fs.writeSync(fd, end);
    hash.update(end);
    size += end.length;
    rows++;
    fs.closeSync(fd);

    // The smallest growth of three streaming runs: a machine busy with other tests delays the collector's threads
    // (one run read 6.8 MB under the whole suite's load), while reading the file whole grows by its size every time.
    const streamed = [0, 1, 2].map(() => peakRssGrowth(file, 'stream')).reduce((a, b) => (b.rss < a.rss ? b : a));
    const whole = peakRssGrowth(file, 'whole');
    assert.ok(streamed.chunks >= 20 && streamed.maxChunk <= 1 << 20, `${streamed.chunks} chunks of at most ${streamed.maxChunk} bytes`);
    assert.ok(whole.rss >= size * 0.9, `control: reading the whole file grew rss by ${whole.rss} bytes for ${size}`);
    assert.ok(streamed.rss < size / 4, `streaming grew rss by ${streamed.rss} bytes for a ${size}-byte file`);

    const facts = streamed.facts;
    assert.ok(facts);
    assert.equal(facts.byte_len, size);
    assert.equal(facts.sha256, `sha256:${hash.digest('hex')}`);
    assert.equal(facts.event_count, rows);
    assert.equal(facts.complete, true);
    assert.equal(facts.terminal_status, 'done');
    assert.equal(facts.tool_schema_hash, '18446744073709551557');
    assert.equal(facts.error, null);
    assert.deepEqual(facts, transcriptFacts(fs.readFileSync(file)));
  });
});
