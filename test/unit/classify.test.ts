// artifacts/classify.ts: which artifact a file is, by the configured globs (relative to the root, or the
// base name), then for `.json` by its `_type`, then for `.jsonl` by its first rows. The head is read
// only when the globs do not decide.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ArtifactSettings, classifyArtifact, DEFAULT_ARTIFACT_SETTINGS } from '../../server/src/artifacts/classify';

const ROOT = path.resolve('/work/repo');
const at = (relative: string): string => path.join(ROOT, ...relative.split('/'));

/** Classifies with `head` as the first lines; also says whether the head was read. */
function classify(
  file: string,
  head: string[] = [],
  settings: ArtifactSettings = DEFAULT_ARTIFACT_SETTINGS,
  root: string | undefined = ROOT,
): { kind: string | undefined; read: boolean } {
  let read = false;
  const kind = classifyArtifact(file, root, settings, () => {
    read = true;
    return head;
  });
  return { kind, read };
}

describe('classifyArtifact: the default globs', () => {
  test('the defaults', () => {
    assert.deepEqual(DEFAULT_ARTIFACT_SETTINGS, {
      transcriptGlobs: ['**/llm_transcript*.jsonl'],
      eventLogGlobs: ['**/event_log*.jsonl'],
      runRecordGlobs: ['**/run.json', '**/*.run.json'],
    });
  });

  test('by name, at any depth (dot folders too), without reading the head', () => {
    const cases: Array<[string, string]> = [
      ['llm_transcript.jsonl', 'transcript'],
      ['runs/r1/run-llm/llm_transcript-sub.jsonl', 'transcript'],
      ['.harn/runs/llm_transcript.jsonl', 'transcript'],
      ['event_log.jsonl', 'eventLog'],
      ['runs/r1/event_log-0002.jsonl', 'eventLog'],
      ['runs/r1/run.json', 'runRecord'],
      ['runs/nightly.run.json', 'runRecord'],
    ];
    for (const [file, kind] of cases) assert.deepEqual(classify(at(file), ['{"_type": "something_else"}']), { kind, read: false }, file);
  });

  test('outside the root, or with no root, the base name alone decides', () => {
    assert.deepEqual(classify(path.resolve('/elsewhere/llm_transcript.jsonl')), { kind: 'transcript', read: false });
    assert.deepEqual(classify(path.resolve('/elsewhere/run.json'), [], DEFAULT_ARTIFACT_SETTINGS, undefined), { kind: 'runRecord', read: false });
  });
});

describe('classifyArtifact: configured globs', () => {
  const settings: ArtifactSettings = { transcriptGlobs: ['logs/*.jsonl'], eventLogGlobs: ['*.events'], runRecordGlobs: ['records/**/*.json'] };

  test('a glob with a slash matches the root-relative path; one without matches the base name at any depth', () => {
    assert.deepEqual(classify(at('logs/a.jsonl'), [], settings), { kind: 'transcript', read: false });
    assert.deepEqual(classify(at('deep/down/x.events'), [], settings), { kind: 'eventLog', read: false });
    assert.deepEqual(classify(at('records/2026/r.json'), [], settings), { kind: 'runRecord', read: false });
  });

  test('the transcript globs win over the event-log globs, which win over the run-record ones', () => {
    const all: ArtifactSettings = { transcriptGlobs: ['**/*.jsonl'], eventLogGlobs: ['**/*.jsonl'], runRecordGlobs: ['**/*.jsonl'] };
    assert.deepEqual(classify(at('a.jsonl'), [], all), { kind: 'transcript', read: false });
    assert.deepEqual(classify(at('a.jsonl'), [], { ...all, transcriptGlobs: ['nothing'] }), { kind: 'eventLog', read: false });
  });

  test('a path-shaped glob does not match elsewhere: the first rows decide', () => {
    const transcriptRow = '{"type":"message","session_id":"s","message_index":0,"role":"user","content":"hi"}';
    assert.deepEqual(classify(at('other/logs/a.jsonl'), [transcriptRow], settings), { kind: 'transcript', read: true });
    // Files outside the root are matched by base name only: `logs/*.jsonl` cannot match `a.jsonl`.
    assert.deepEqual(classify(path.resolve('/elsewhere/logs/a.jsonl'), ['{}'], settings), { kind: 'jsonl', read: true });
  });
});

describe('classifyArtifact: .json files the globs do not name', () => {
  test('a run record by its top-level `_type`, case-insensitive extension; anything else is no artifact', () => {
    assert.deepEqual(classify(at('out/record.json'), ['{', '  "_type": "run_record",', '  "id": "r1"', '}']), { kind: 'runRecord', read: true });
    assert.deepEqual(classify(at('out/RECORD.JSON'), ['{"_type":"run_record"}']), { kind: 'runRecord', read: true });
    assert.deepEqual(classify(at('out/other.json'), ['{"_type": "training_example"}']), { kind: undefined, read: true });
    assert.deepEqual(classify(at('package.json'), ['{"name": "x"}']), { kind: undefined, read: true });
    // `"_type": "run_record"` nested deeper is not the record's own type.
    assert.deepEqual(classify(at('out/nested.json'), ['{"inner": {"_type": "run_record"}}']), { kind: undefined, read: true });
  });
});

describe('classifyArtifact: .jsonl files the globs do not name', () => {
  test('an event log by `index` and `emitted_at_ms`; a transcript by a known row type; else plain JSONL', () => {
    assert.deepEqual(classify(at('x/events.jsonl'), ['{"type":"tool_call","index":0,"emitted_at_ms":1}']), { kind: 'eventLog', read: true });
    assert.deepEqual(classify(at('x/t.jsonl'), ['{"type":"system_prompt","session_id":"s"}']), { kind: 'transcript', read: true });
    assert.deepEqual(classify(at('x/other.jsonl'), ['{"type":"my_own_row"}', '{"a": 1}']), { kind: 'jsonl', read: true });
    assert.deepEqual(classify(at('x/empty.jsonl'), []), { kind: 'jsonl', read: true });
  });

  test('blank, unparsable, non-object and untyped rows are passed over; a BOM is ignored', () => {
    const head = ['', '   ', 'not json', '[1, 2]', '{"no_type": true}', '\uFEFF{"type":"tool_result","session_id":"s"}'];
    assert.deepEqual(classify(at('x/late.jsonl'), head), { kind: 'transcript', read: true });
  });

  test('other extensions are no artifact', () => {
    for (const file of ['notes.txt', 'llm_transcript.jsonl.bak', 'run.json5', 'event_log']) {
      assert.deepEqual(classify(at(file), ['{"type":"message"}']), { kind: undefined, read: false }, file);
    }
  });
});
