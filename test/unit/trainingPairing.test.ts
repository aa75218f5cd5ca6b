// The pairing invariant of a training example (server/src/training/pairing.ts), one case per upstream kind and
// branch of validate_training_example_pairing, with upstream's messages.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TrainingMessage } from '../../server/src/training/example';
import { validateTrainingExamplePairing } from '../../server/src/training/pairing';

const user = (content = 'fix a.ts'): TrainingMessage => ({ role: 'user', content });
const call = (id: string, name = 'open_doc') => ({ id, type: 'function', function: { name, arguments: {} } });
const assistant = (...ids: string[]): TrainingMessage =>
  ids.length === 0 ? { role: 'assistant', content: 'done' } : { role: 'assistant', content: '', tool_calls: ids.map((id) => call(id)) };
const tool = (id?: string): TrainingMessage => (id === undefined ? { role: 'tool', content: 'r' } : { role: 'tool', content: 'r', tool_call_id: id });

describe('training example pairing', () => {
  test('a paired example ending on a no-tool assistant turn is valid', () => {
    assert.equal(validateTrainingExamplePairing([user(), assistant('a', 'b'), tool('a'), tool('b'), assistant()]), undefined);
  });

  const cases: [string, TrainingMessage[], { kind: string; message_index: number; message: string }][] = [
    [
      'tool result without an id',
      [user(), assistant('a'), tool()],
      { kind: 'orphaned_tool_result', message_index: 2, message: 'tool message carries no tool_call_id, so it names no call' },
    ],
    [
      'tool result with an empty id',
      [user(), assistant('a'), tool('')],
      { kind: 'orphaned_tool_result', message_index: 2, message: 'tool message carries no tool_call_id, so it names no call' },
    ],
    [
      'tool result with no call outstanding',
      [user(), tool('a')],
      { kind: 'orphaned_tool_result', message_index: 1, message: 'tool message answers a with no call outstanding' },
    ],
    [
      'tool result for an unknown call',
      [user(), assistant('a'), tool('z')],
      { kind: 'orphaned_tool_result', message_index: 2, message: 'expected the result for a (open_doc), got z' },
    ],
    [
      'results out of request order',
      [user(), assistant('a', 'b'), tool('b')],
      { kind: 'out_of_order_tool_result', message_index: 2, message: 'expected the result for a (open_doc), got b' },
    ],
    [
      'a second result for an answered call',
      [user(), assistant('a', 'b'), tool('a'), tool('a')],
      { kind: 'duplicate_tool_result', message_index: 3, message: 'expected the result for b (open_doc), got a' },
    ],
    [
      'an assistant turn while a call is owed',
      [user(), assistant('a'), assistant()],
      { kind: 'unpaired_tool_call', message_index: 2, message: 'call a (open_doc) from message 1 is unanswered at the next assistant turn' },
    ],
    [
      'a user turn while a call is owed',
      [user(), assistant('a'), user('ok')],
      {
        kind: 'unpaired_tool_call',
        message_index: 2,
        message: 'call a (open_doc) from message 1 is unanswered at the next `user` turn; a generic placeholder turn is not a tool result',
      },
    ],
    [
      'the example ends owing a call',
      [user(), assistant('a')],
      { kind: 'unpaired_tool_call', message_index: 2, message: 'example ends with call a (open_doc) unanswered' },
    ],
    ['a call without an id', [user(), assistant('')], { kind: 'malformed_tool_call', message_index: 1, message: 'call to `open_doc` has no id' }],
    [
      'one turn reusing a call id',
      [user(), assistant('a', 'a')],
      { kind: 'duplicate_tool_call_id', message_index: 1, message: 'assistant turn reuses call id a' },
    ],
    [
      'a later turn reusing an answered call id',
      [user(), assistant('a'), tool('a'), assistant('a')],
      { kind: 'duplicate_tool_call_id', message_index: 3, message: 'call id a was already used earlier in this example' },
    ],
    [
      'a user message carrying a tool_call_id',
      [user(), { role: 'user', content: 'x', tool_call_id: 'a' }],
      { kind: 'orphaned_tool_result', message_index: 1, message: '`user` message carries a tool_call_id but is not a tool result' },
    ],
    [
      'ending on a tool turn',
      [user(), assistant('a'), tool('a')],
      { kind: 'missing_terminal_assistant', message_index: 2, message: 'example must end with a no-tool assistant completion turn, not `tool`' },
    ],
    [
      'ending on a user turn',
      [user()],
      { kind: 'missing_terminal_assistant', message_index: 0, message: 'example must end with a no-tool assistant completion turn, not `user`' },
    ],
    ['no messages', [], { kind: 'missing_terminal_assistant', message_index: 0, message: 'example must end with a no-tool assistant completion turn' }],
  ];
  for (const [name, messages, expected] of cases) {
    test(name, () => assert.deepEqual(validateTrainingExamplePairing(messages), expected));
  }
});
