// Hovers on a training example file (validate.ts's facts): on a message, its index, role and pairing (which call a
// tool result answers, or why none; which message answers each call of an assistant turn, or "unanswered"); on the
// provenance block, the run, session, model and source transcript with its digest; elsewhere in an example, a
// summary. Every text taken from the file goes through the Markdown builder. Pure.

import type { LineSpan } from '../artifacts/types';
import { code, plain } from '../text/markdown';
import type { ExampleFacts, MessageFacts, TrainingValidation } from './validate';

export interface TrainingHover {
  markdown: string;
  span: LineSpan;
}

interface At {
  line: number;
  character: number;
}

function contains(span: LineSpan, at: At): boolean {
  const afterStart = at.line > span.line || (at.line === span.line && at.character >= span.startCharacter);
  const beforeEnd = at.line < span.endLine || (at.line === span.endLine && at.character <= span.endCharacter);
  return afterStart && beforeEnd;
}

/** The last item whose span starts at or before `at` (items in document order), if it contains `at`. */
function find<T extends { span: LineSpan }>(items: readonly T[], at: At): T | undefined {
  let low = 0;
  let high = items.length - 1;
  let found: T | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const item = items[mid];
    if (item === undefined) break;
    const s = item.span;
    if (s.line < at.line || (s.line === at.line && s.startCharacter <= at.character)) {
      found = item;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found && contains(found.span, at) ? found : undefined;
}

/** The hover at `at`, or undefined outside every example. */
export function trainingHover(validation: TrainingValidation, at: At): TrainingHover | undefined {
  const example = find(validation.examples, at);
  if (!example) return undefined;
  const message = find(example.messages, at);
  if (message) return { markdown: messageHover(example, message), span: message.span };
  if (example.provenance && contains(example.provenance.span, at)) return { markdown: provenanceHover(example), span: example.provenance.span };
  return { markdown: exampleHover(example), span: example.span };
}

function messageHover(example: ExampleFacts, m: MessageFacts): string {
  const lines = [`**Training message ${m.index}** of ${example.messages.length}, role ${m.role === undefined ? '*(none)*' : code(m.role)}.`];
  const answer = m.answer;
  if (answer) {
    if (answer.assistantIndex !== undefined && answer.callId !== undefined) {
      const call = `call ${code(answer.callId)} (${code(answer.toolName ?? '')}) of assistant message ${answer.assistantIndex}`;
      lines.push(answer.duplicateOf === undefined ? `Answers ${call}.` : `Answers ${call} again: message ${answer.duplicateOf} already answered it.`);
    } else {
      lines.push(`Answers no call: ${plain(answer.reason ?? 'it names none')}.`);
    }
  }
  if (m.calls.length > 0) {
    const calls = m.calls.map(
      (c) =>
        `- ${c.id === '' ? '*(no id)*' : code(c.id)} (${code(c.name)}) → ${c.answeredBy === undefined ? '**unanswered**' : `answered by message ${c.answeredBy}`}`,
    );
    lines.push(`Tool calls:\n\n${calls.join('\n')}`);
  } else if (m.role === 'assistant') {
    lines.push('No tool calls.');
  }
  if (m.toolCallId !== undefined) lines.push(`Carries tool_call_id ${code(m.toolCallId)} but is not a \`tool\` message, so it answers no call.`);
  lines.push(pairingLine(example, m));
  return lines.join('\n\n');
}

function pairingLine(example: ExampleFacts, m?: MessageFacts): string {
  if (!example.schemaValid) return 'Pairing not checked: the example does not match the schema (see its problems).';
  const error = example.pairingError;
  if (!error) return 'Pairing: every call is answered in order before the next turn, and the example ends on a no-tool assistant turn.';
  const where = Math.min(error.message_index, example.messages.length - 1);
  const here = m !== undefined && m.index === where;
  return `${here ? '**The pairing breaks here**' : `The pairing breaks at message ${error.message_index}`}: ${code(error.kind)}: ${plain(error.message)}.`;
}

function provenanceHover(example: ExampleFacts): string {
  const p = example.provenance;
  const shown = (v: string | undefined): string => (v === undefined ? '*(missing)*' : code(v));
  return [
    '**Provenance** of this training example:',
    `- run ${shown(p?.runId)}, session ${shown(p?.sessionId)}`,
    `- model ${shown(p?.model)} (provider ${shown(p?.provider)})`,
    `- source transcript ${shown(p?.transcriptPath)}`,
    `- its digest ${shown(p?.transcriptSha256)}`,
  ].join('\n');
}

function exampleHover(example: ExampleFacts): string {
  const tools = example.toolCount === undefined ? '' : `, ${example.toolCount} tool${example.toolCount === 1 ? '' : 's'}`;
  return [`**Training example** (${code('harn.agent_training_example.v1')}): ${example.messages.length} messages${tools}.`, pairingLine(example)].join('\n\n');
}
