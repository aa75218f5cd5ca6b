// Property tests of the training projector: generated well-formed transcripts (native and text channel, 0..3 tool
// calls per turn, text with unicode, CRLF, `DONE` and `<tool_call>` look-alikes) project to examples that pair and
// whose messages and tools equal the generated conversation; one mutation of a required fact gives its refusal kind.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { validateTrainingExamplePairing } from '../../server/src/training/pairing';
import { projectTrainingExample } from '../../server/src/training/project';
import { conversation, writeTrainingRun, type ConversationSpec } from '../support/trainingRuns';

const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.constantFrom('\r\n', '\n', 'DONE', '<tool_call>{"name":"x"}</tool_call>', '  ', '\u2028', '"\\'),
    ),
    {
      maxLength: 4,
    },
  )
  .map((parts) => parts.join(''));
const argValue = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null));
const call = fc.record({
  name: fc.constantFrom('read', 'grep', 'edit'),
  arguments: fc.dictionary(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 }), argValue, { maxKeys: 3 }),
  result: text,
});
const spec: fc.Arbitrary<ConversationSpec> = fc
  .record({
    channel: fc.constantFrom<'native' | 'text'>('native', 'text'),
    user: text,
    calling: fc.array(fc.record({ text, calls: fc.array(call, { minLength: 1, maxLength: 3 }) }), { maxLength: 3 }),
    last: text,
  })
  .map(({ channel, user, calling, last }) => ({ channel, user, turns: [...calling, { text: last, calls: [] }] }));

const MUTATIONS = [
  'drop the terminal row',
  'edit a byte after the descriptor was written',
  'change the system prompt mid-run',
  'drop the tool catalog',
  'drop the system prompt',
  'drop a provider response',
  'drop a tool_result receipt',
  'drop the dispatch receipts of a turn',
  'change a tool name in a dispatch receipt',
  'change the model mid-run',
  'change the tool format mid-run',
  'a second session',
] as const;
type Mutation = (typeof MUTATIONS)[number];

type Rows = Record<string, unknown>[];
const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const indexOf = (rows: Rows, type: string, nth = 0): number => {
  let seen = 0;
  for (let i = 0; i < rows.length; i++) if (rows[i]?.type === type && seen++ === nth) return i;
  return -1;
};
const count = (rows: Rows, type: string): number => rows.filter((r) => r.type === type).length;

/** Applies the mutation and says which kind the projector must refuse with; undefined when it does not apply. */
function mutate(rows: Rows, m: Mutation, channel: 'native' | 'text'): string | undefined {
  const requests = count(rows, 'provider_call_request');
  switch (m) {
    case 'drop the terminal row':
      rows.pop();
      return 'incomplete_source';
    case 'edit a byte after the descriptor was written':
      return 'digest_mismatch'; // applied to the file after it was written
    case 'change the system prompt mid-run':
      rows.splice(indexOf(rows, 'provider_call_request'), 0, { type: 'system_prompt', content: 'another prompt' });
      return 'system_prompt_changed';
    case 'drop the tool catalog':
      rows.splice(indexOf(rows, 'tool_schemas'), 1);
      return 'missing_tool_catalog';
    case 'drop the system prompt':
      rows.splice(indexOf(rows, 'system_prompt'), 1);
      return 'missing_system_prompt';
    case 'drop a provider response':
      rows.splice(indexOf(rows, 'provider_call_response', requests - 1), 1);
      return 'assistant_message_without_response';
    case 'drop a tool_result receipt': {
      const at = indexOf(rows, 'tool_result');
      if (at < 0) return undefined;
      rows.splice(at, 1);
      // A text-channel echo without its receipt is a plain user turn while the call is open; a native tool message is an orphan.
      return channel === 'text' ? 'unpaired_tool_call' : 'orphaned_tool_result';
    }
    case 'drop the dispatch receipts of a turn': {
      const first = rows.find((r) => r.type === 'tool_call');
      if (!first) return undefined;
      const turn = first.assistant_message_index;
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i]?.type === 'tool_call' && rows[i]?.assistant_message_index === turn) rows.splice(i, 1);
      return 'unpaired_tool_call';
    }
    case 'change a tool name in a dispatch receipt': {
      const at = indexOf(rows, 'tool_call');
      if (at < 0) return undefined;
      rows[at] = { ...rows[at], tool_name: 'noop' };
      return 'tool_call_mismatch';
    }
    case 'change the model mid-run': {
      if (requests < 2) return undefined;
      const at = indexOf(rows, 'provider_call_response', requests - 1);
      rows[at] = { ...rows[at], model: 'another-model' };
      return 'route_changed';
    }
    case 'change the tool format mid-run': {
      if (requests < 2) return undefined;
      const at = indexOf(rows, 'provider_call_request', requests - 1);
      rows[at] = { ...rows[at], tool_format: channel === 'text' ? 'native' : 'text' };
      return 'tool_format_changed';
    }
    case 'a second session': {
      const at = indexOf(rows, 'message', count(rows, 'message') - 1);
      rows[at] = { ...rows[at], session_id: 's-other' };
      return 'ambiguous_authority';
    }
  }
}

describe('training projector properties', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  test('a generated well-formed transcript projects to a valid example equal to the conversation', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const c = conversation(s);
        const run = writeTrainingRun({ rows: c.rows });
        dirs.push(run.dir);
        const outcome = projectTrainingExample({ runRecordPath: run.runPath });
        assert.ok(outcome.ok, JSON.stringify(outcome));
        // As JSON values: a generated `__proto__` key is an own property of a null-prototype object here.
        assert.deepEqual(outcome.example.messages, asJson(c.messages));
        assert.deepEqual(outcome.example.tools, asJson(c.tools));
        assert.equal(validateTrainingExamplePairing(outcome.example.messages), undefined);
        assert.equal(outcome.example.provenance.usage.provider_calls, s.turns.length);
        assert.equal(outcome.example.provenance.effective_tool_format, s.channel);
        for (const m of outcome.example.messages) if (m.tool_call_id !== undefined) assert.equal(m.role, 'tool');
      }),
      { numRuns: 60 },
    );
  });

  test('one mutation of a required fact yields the matching refusal kind', () => {
    fc.assert(
      fc.property(spec, fc.constantFrom(...MUTATIONS), (s, m) => {
        const rows = conversation(s).rows;
        const expected = mutate(rows, m, s.channel);
        fc.pre(expected !== undefined);
        const run = writeTrainingRun({ rows });
        dirs.push(run.dir);
        if (m === 'edit a byte after the descriptor was written') {
          const bytes = fs.readFileSync(run.transcriptPath);
          const at = bytes.indexOf('system_prompt');
          bytes[at] = 'S'.charCodeAt(0);
          fs.writeFileSync(run.transcriptPath, bytes);
        }
        const outcome = projectTrainingExample({ runRecordPath: run.runPath });
        assert.equal(outcome.ok ? 'projected' : outcome.refusal.kind, expected, `${m}: ${JSON.stringify(outcome)}`);
      }),
      { numRuns: 150 },
    );
  });

  test('hostile rows (any JSON under the types the projector reads) never throw: an example or a refusal with a kind and message', () => {
    const type = fc.constantFrom(
      'system_prompt',
      'tool_schemas',
      'provider_call_request',
      'provider_call_response',
      'message',
      'tool_call',
      'tool_result',
      'other',
    );
    const field = fc.constantFrom(
      'content',
      'schemas',
      'hash',
      'tool_format',
      'provider',
      'model',
      'tool_calls',
      'parsed_tool_calls',
      'parsed_tool_calls_ref',
      'message',
      'role',
      'session_id',
      'message_index',
      'assistant_message_index',
      'call_id',
      'tool_name',
      'arguments',
      'schema_version',
      '__proto__',
    );
    const row = fc.tuple(type, fc.dictionary(field, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 })).map(([t, rest]) => ({ ...asJson(rest), type: t }));
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.boolean(), (rows, terminal) => {
        const run = writeTrainingRun({ rows: terminal ? [...rows, { type: 'agent_session_finalized', terminal: true }] : rows });
        dirs.push(run.dir);
        const outcome = projectTrainingExample({ runRecordPath: run.runPath });
        if (outcome.ok) assert.equal(validateTrainingExamplePairing(outcome.example.messages), undefined);
        else {
          assert.match(outcome.refusal.kind, /^[a-z_]+$/);
          assert.ok(outcome.refusal.message.length > 0);
        }
      }),
      { numRuns: 150 },
    );
  });
});
