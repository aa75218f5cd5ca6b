// The call/result pairing invariant of a training example (upstream's validate_training_example_pairing,
// training_example/validate.rs): every tool call of an assistant turn is answered by exactly one `tool` message
// carrying its id, in request order, before the next non-tool turn; call ids are unique across the example; the
// example ends on an assistant turn without tool calls. Like upstream, the first violation is the answer: the
// pairing state after it is undefined. Kinds, their order of checking and the messages are upstream's.

import type { PairingErrorKind, TrainingMessage, TrainingPairingError } from './example';

function fail(kind: PairingErrorKind, messageIndex: number, message: string): TrainingPairingError {
  return { kind, message, message_index: messageIndex };
}

/** The first pairing violation of `messages`, or undefined when they pair. */
export function validateTrainingExamplePairing(messages: readonly TrainingMessage[]): TrainingPairingError | undefined {
  // The calls still owed a result, in request order: a queue read from `head`.
  const expected: { id: string; name: string }[] = [];
  let head = 0;
  const answered = new Set<string>();
  let openedBy = 0;

  for (const [index, message] of messages.entries()) {
    const owed = expected[head];
    if (message.role === 'tool') {
      const callId = message.tool_call_id;
      if (callId === undefined || callId === '') {
        return fail('orphaned_tool_result', index, 'tool message carries no tool_call_id, so it names no call');
      }
      if (owed === undefined) return fail('orphaned_tool_result', index, `tool message answers ${callId} with no call outstanding`);
      if (owed.id !== callId) {
        let kind: PairingErrorKind = 'orphaned_tool_result';
        if (expected.slice(head).some((call) => call.id === callId)) kind = 'out_of_order_tool_result';
        else if (answered.has(callId)) kind = 'duplicate_tool_result';
        return fail(kind, index, `expected the result for ${owed.id} (${owed.name}), got ${callId}`);
      }
      answered.add(callId);
      head++;
    } else if (message.role === 'assistant') {
      if (owed !== undefined) {
        return fail('unpaired_tool_call', index, `call ${owed.id} (${owed.name}) from message ${openedBy} is unanswered at the next assistant turn`);
      }
      const seen = new Set<string>();
      for (const call of message.tool_calls ?? []) {
        if (call.id === '') return fail('malformed_tool_call', index, `call to \`${call.function.name}\` has no id`);
        if (seen.has(call.id)) return fail('duplicate_tool_call_id', index, `assistant turn reuses call id ${call.id}`);
        seen.add(call.id);
        if (answered.has(call.id)) return fail('duplicate_tool_call_id', index, `call id ${call.id} was already used earlier in this example`);
        expected.push({ id: call.id, name: call.function.name });
      }
      openedBy = index;
    } else {
      if (owed !== undefined) {
        return fail(
          'unpaired_tool_call',
          index,
          `call ${owed.id} (${owed.name}) from message ${openedBy} is unanswered at the next \`${message.role}\` turn; a generic placeholder turn is not a tool result`,
        );
      }
      if (message.tool_call_id !== undefined) {
        return fail('orphaned_tool_result', index, `\`${message.role}\` message carries a tool_call_id but is not a tool result`);
      }
    }
  }
  const owed = expected[head];
  if (owed !== undefined) return fail('unpaired_tool_call', messages.length, `example ends with call ${owed.id} (${owed.name}) unanswered`);
  const last = messages[messages.length - 1];
  if (last === undefined) return fail('missing_terminal_assistant', 0, 'example must end with a no-tool assistant completion turn');
  if (last.role === 'assistant' && (last.tool_calls ?? []).length === 0) return undefined;
  return fail('missing_terminal_assistant', messages.length - 1, `example must end with a no-tool assistant completion turn, not \`${last.role}\``);
}
