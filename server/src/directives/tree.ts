// The checker's records as the tree view's data (protocol.ts DirectiveTree*), the text of one message of a
// request's array (the prefix-break diff), and the hover on a directive tag. Pure: rows are asked for by line
// (the caller reads them from the document, or from disk through the line index), never held here.

import { isObject } from '../artifacts/json';
import { code, codeBlock, escapeText } from '../text/markdown';
import type { DirectiveNode, DirectiveTreeRange, EnvelopeNode, RequestNode, SessionNode } from '../protocol';
import { directiveKey, type DirectiveCheckResult, type EnvelopeRef, type RequestRecord } from './check';
import { overrides, parseEnvelopes } from './envelope';
import { messageText } from './messageText';
import { messageFacts, nameDirectives, type DirectiveFacts } from './facts';
import { rowRange, stringAtCharacter } from './locate';

export type LineReader = (line: number) => string | undefined;

function wholeRow(line: number, text: string | undefined): DirectiveTreeRange {
  return { start: { line, character: 0 }, end: { line, character: text?.length ?? 0 } };
}

/** The tree of one transcript's directive checks. */
export function directiveTree(result: DirectiveCheckResult, read: LineReader): SessionNode[] {
  const rows = new Map<number, string | undefined>();
  const row = (line: number): string | undefined => {
    if (!rows.has(line)) rows.set(line, read(line));
    return rows.get(line);
  };
  return result.sessions
    .filter((s) => s.requests.length > 0)
    .map((s) => ({ sessionId: s.sessionId, range: wholeRow(s.firstLine, row(s.firstLine)), requests: s.requests.map((r) => requestNode(r, row)) }));
}

function requestNode(r: RequestRecord, row: LineReader): RequestNode {
  const node: RequestNode = {
    key: r.label,
    messageCount: r.messageCount,
    prefix: r.prefix,
    source: r.source,
    range: wholeRow(r.line, row(r.line)),
    envelopes: r.envelopes.map((e) => envelopeNode(e, row)),
  };
  if (r.callId !== undefined) node.callId = r.callId;
  if (r.iteration !== undefined) node.iteration = r.iteration;
  if (r.divergentIndex !== undefined) node.divergentIndex = r.divergentIndex;
  if (r.excusedBy !== undefined) node.excusedBy = r.excusedBy;
  return node;
}

function envelopeNode(ref: EnvelopeRef, row: LineReader): EnvelopeNode {
  const text = row(ref.line);
  const e = ref.envelope;
  const range = (start: number, end: number): DirectiveTreeRange => {
    const raw = text === undefined ? undefined : rowRange(text, e.path, start, end);
    return raw ? { start: { line: ref.line, character: raw.start }, end: { line: ref.line, character: raw.end } } : wholeRow(ref.line, text);
  };
  const node: EnvelopeNode = {
    form: e.form,
    range: range(e.start, e.tagEnd),
    directives: e.directives.map((d) => directiveNode(d, range(d.start, d.tagEnd))),
  };
  if (e.speaker !== undefined) node.speaker = e.speaker;
  if (e.nonce !== undefined) node.nonce = e.nonce;
  return node;
}

function directiveNode(d: DirectiveFacts, range: DirectiveTreeRange): DirectiveNode {
  const node: DirectiveNode = { authority: d.authority, firstLine: d.firstLine, body: d.body, range };
  if (d.ttlTurns !== undefined) node.ttlTurns = d.ttlTurns;
  if (d.id !== undefined) node.id = d.id;
  return node;
}

/** The request named `label` (a call id, or `row:N`). */
export function findRequest(result: DirectiveCheckResult, label: string): RequestRecord | undefined {
  for (const s of result.sessions) for (const r of s.requests) if (r.label === label) return r;
  return undefined;
}

/**
 * Message `index` of the array sent with a request, as readable text (messageText.ts): from the snapshot, or (replay) the row
 * that held the slot then, known for the divergent index of a broken request and of the request before it.
 */
export function prefixMessage(result: DirectiveCheckResult, label: string, index: number, read: LineReader): string | undefined {
  const request = findRequest(result, label);
  if (!request) return undefined;
  if (request.source === 'snapshot') {
    const row = parseJson(read(request.line));
    const messages = isObject(row) && isObject(row.request_snapshot) ? row.request_snapshot.messages : undefined;
    return Array.isArray(messages) && index >= 0 && index < messages.length ? messageText(messages[index]) : undefined;
  }
  // Replay: the rows the check compared.
  const line = replayLine(result, request, index);
  if (line === undefined) return undefined;
  if (line < 0) return '(no message at this index: the array ended before it)';
  const row = parseJson(read(line));
  if (!isObject(row)) return undefined;
  return messageText(isObject(row.message) ? row.message : { role: row.role, content: row.content });
}

function replayLine(result: DirectiveCheckResult, request: RequestRecord, index: number): number | undefined {
  if (request.divergentIndex === index && request.divergentRows) return request.divergentRows.current ?? -1;
  // The previous request of a broken one: the row it sent at the divergent index.
  for (const s of result.sessions)
    for (const r of s.requests) if (r.previous === request && r.divergentIndex === index && r.divergentRows) return r.divergentRows.previous;
  return undefined;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
}

/** The session a row belongs to: its own `session_id`, else the session whose request it is. */
function sessionOfRow(result: DirectiveCheckResult, line: number, row: unknown): string | undefined {
  if (isObject(row) && typeof row.session_id === 'string') return row.session_id;
  for (const s of result.sessions) if (s.requests.some((r) => r.line === line)) return s.sessionId;
  return result.sessions[0]?.sessionId;
}

/** The hover on a `<directive` or `<context-directives` tag inside a row (Markdown; every file text escaped). */
export function directiveHover(result: DirectiveCheckResult, line: number, character: number, text: string): string | undefined {
  const at = stringAtCharacter(text, character);
  if (!at || !at.value.includes('<')) return undefined;
  const envelopes = parseEnvelopes(at.value);
  for (const e of envelopes) {
    const d = e.directives.find((x) => at.decoded >= x.start && at.decoded < x.tagEnd);
    if (d) return hoverOfDirective(result, line, text, at.path, d.start);
    if (at.decoded >= e.start && at.decoded < e.tagEnd) {
      const parts = [`**Context-directive envelope** (${escapeText(e.form)} form)`];
      if (e.speaker !== undefined) parts.push(`Speaker: ${code(e.speaker)}`);
      if (e.nonce !== undefined) parts.push(`Nonce: ${code(e.nonce)}`);
      parts.push(
        `${e.directives.length} directive${e.directives.length === 1 ? '' : 's'}: ${e.directives.map((x) => code(x.authority || 'legacy')).join(', ')}`,
      );
      return parts.join('\n\n');
    }
  }
  return undefined;
}

function hoverOfDirective(result: DirectiveCheckResult, line: number, text: string, path: readonly (string | number)[], start: number): string | undefined {
  const row = parseJson(text);
  if (!isObject(row)) return undefined;
  // The message object holding the string: the row's `message`, a snapshot message, or the row itself.
  // The top-level `content` of a message row is its message's: the full object carries the ids.
  const holder = path[0] === 'request_snapshot' ? path.slice(0, 3) : path[0] === 'message' || isObject(row.message) ? ['message'] : [];
  let m: unknown = row;
  for (const key of holder) m = isObject(m) ? m[key] : Array.isArray(m) && typeof key === 'number' ? (m as unknown[])[key] : undefined;
  if (!isObject(m)) return undefined;
  const facts = messageFacts(m, holder);
  // A snapshot message has no ids (stripped before dispatch): those of its committed row, when the check found it.
  const snapshotIndex = holder[0] === 'request_snapshot' ? holder[2] : undefined;
  if (typeof snapshotIndex === 'number') {
    const ids = result.sessions
      .flatMap((s) => s.requests)
      .find((r) => r.line === line)
      ?.snapshotIds?.get(snapshotIndex);
    if (ids) nameDirectives(facts.envelopes, ids);
  }
  const d = facts.envelopes.flatMap((e) => e.directives).find((x) => x.start === start);
  if (!d) return undefined;
  const session = sessionOfRow(result, line, row) ?? '';
  const record = result.directives.get(directiveKey(session, d)) ?? result.directives.get(directiveKey(session, { rendered: d.rendered }));
  const parts = [`**Directive** ${code(d.authority || 'legacy reminder')}${d.id !== undefined ? ` · id ${code(d.id)}` : ''}`];
  parts.push(d.authority ? `Authority ${code(d.authority)}: ${escapeText(overrides(d.authority))}.` : 'A legacy reminder: no authority.');
  parts.push(d.ttlTurns !== undefined ? `Lifetime: ${code(d.ttlTurns)} turn(s) (\`ttl_turns\`).` : 'Lifetime: until it is withdrawn (no `ttl_turns`).');
  if (record) {
    const sent = record.request
      ? `, first sent with request ${code(record.request.label)} (line ${record.request.line + 1})`
      : ', not sent with any request yet';
    parts.push(`First committed at line ${record.line + 1}${sent}.`);
    parts.push(inForce(result, record, line));
  }
  parts.push(codeBlock(d.body.length > 2000 ? `${d.body.slice(0, 2000)}…` : d.body));
  return parts.join('\n\n');
}

function inForce(result: DirectiveCheckResult, record: { sessionId: string; ttlTurns?: string; request?: RequestRecord }, line: number): string {
  const first = record.request;
  if (!first || first.line > line) return 'Not yet in force at this row (no request has carried it yet).';
  const session = result.sessions.find((s) => s.sessionId === record.sessionId);
  const sent = session ? session.requests.filter((r) => r.line >= first.line && r.line <= line).length : 1;
  const ttl = record.ttlTurns !== undefined && /^[1-9]\d*$/.test(record.ttlTurns) ? Number(record.ttlTurns) : undefined;
  if (ttl === undefined) return `In force at this row (carried by ${sent} request(s) so far, no lifetime limit).`;
  return sent <= ttl
    ? `In force at this row: turn ${sent} of ${ttl}.`
    : `No longer in force at this row: its ${ttl} turn(s) ended (${sent} requests since it was first sent).`;
}

/** The hover section of a request row whose prefix broke (or was excused): both versions of the divergent message. */
export function prefixHover(result: DirectiveCheckResult, line: number, read: LineReader): string | undefined {
  let request: RequestRecord | undefined;
  for (const s of result.sessions) for (const r of s.requests) if (r.line === line) request = r;
  if (!request) return undefined;
  const how = request.source === 'snapshot' ? 'rebuilt exactly from `request_snapshot.messages`' : 'rebuilt by replaying the message rows before it (§1)';
  const head = `**Prefix cache** · ${code(request.prefix)} · ${request.messageCount} messages, ${how}.`;
  if (request.prefix === 'unknown' || request.divergentIndex === undefined) return head;
  const index = request.divergentIndex;
  const previous = request.previous;
  const parts = [head];
  parts.push(
    request.prefix === 'excused'
      ? `Message ${index} differs from request ${code(previous?.label ?? '?')}'s, excused by ${escapeText(request.excusedBy ?? 'a compaction')}.`
      : `Message ${index} differs from request ${code(previous?.label ?? '?')}'s: everything from it on is prefilled again.`,
  );
  const clip = (s: string | undefined): string => (s === undefined ? '(not available)' : s.length > 1500 ? `${s.slice(0, 1500)}…` : s);
  if (previous) parts.push(`Request ${code(previous.label)}:`, codeBlock(clip(prefixMessage(result, previous.label, index, read))));
  parts.push(`Request ${code(request.label)}:`, codeBlock(clip(prefixMessage(result, request.label, index, read))));
  return parts.join('\n\n');
}
