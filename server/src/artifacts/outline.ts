// The document outline of a run artifact (spec/harn-artifacts.md §1, §3). Pure: parsed rows in, plain nodes out.
// One pass over the rows plus a sort of each children list (already in order in practice), so O(rows).
//
// Transcript (`llm_transcript.jsonl`): sessions → iterations → provider calls → receipts.
// - Sessions are keyed by `session_id`. Only message, receipt and terminal rows carry one; a row without it
//   belongs to the current session (the last one named, until that session's terminal row). Rows before any
//   session is named wait for the next session that is; rows left over at the end go to the only session when
//   there is exactly one, else to a "(no session)" group.
// - Iterations are keyed by `iteration` on routing/request/response/interpreted (and raw capture) rows.
// - Messages have no iteration. A message belongs to the iteration whose provider rows it FOLLOWS (the assistant
//   reply, tool results and injected directives after response N are iteration N's outcome). Messages before the
//   session's first provider row (the opening user turn) go to the first iteration, the one they precede.
// - A provider call is every routing/request/response/interpreted row sharing a `call_id`, one node named
//   model · call_id, detail tokens in/out (cost, latency). Its rows are its children ("request", "response"…).
// - `tool_call` receipts go under the provider call they follow (else the iteration), `tool_result` receipts
//   under their `tool_call`'s parent (same session and call id), else the current call.
// - `system_prompt`/`context_manifest`/`tool_schemas` before the first iteration sit under the session; later ones
//   follow the same rule as messages. Terminal rows are session children ('terminal'); boundary failures and other
//   rows are 'event' nodes under the current iteration (or the session).
//
// Event log (`event_log.jsonl`): sessions → iterations (`iteration_start` … `iteration_end`) → events. Events
// outside an iteration are session children; terminal rows are 'terminal' nodes.

import { contentText, formatInt, formatMs, formatUsd, isTerminalRow, isTranscriptRowType, terminalStatus, topicRecordRow, type RowArtifactKind } from './hover';
import { isObject, numberAt, stringAt, type JsonObject } from './json';
import { MAX_OUTLINE_SYMBOLS, SymbolBudget } from '../outlineCap';

export type OutlineNodeKind = 'session' | 'iteration' | 'call' | 'message' | 'tool' | 'event' | 'terminal';

export interface OutlineNode {
  /** Plain text, one line, never empty. */
  name: string;
  /** Plain text, one line. */
  detail: string;
  kind: OutlineNodeKind;
  /** First row (0-based line) of the node, its selection. */
  line: number;
  /** Last row (0-based line) of the node or any descendant. */
  endLine: number;
  children: OutlineNode[];
}

export interface OutlineRow {
  line: number;
  row: unknown;
}

/** One line of plain text, at most `max` characters. */
function oneLine(text: string, max = 60): string {
  // eslint-disable-next-line no-control-regex -- C0 controls (and DEL, U+2028/9) are what a one-line label must not hold
  const s = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/** A scalar as short plain text (for names and details). */
function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return oneLine(v, 80);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

function node(kind: OutlineNodeKind, name: string, detail: string, line: number): OutlineNode {
  return { name: oneLine(name, 120) || '(unnamed)', detail: oneLine(detail, 120), kind, line, endLine: line, children: [] };
}

/** Looked up by row type: a Map, so that a row typed `constructor` or `__proto__` is no call row. */
const CALL_ROW_LABEL: ReadonlyMap<string, string> = new Map([
  ['routing_decision', 'routing'],
  ['provider_call_request', 'request'],
  ['provider_call_response', 'response'],
  ['interpreted_response', 'interpreted'],
  ['provider_raw_capture', 'raw capture'],
]);

const SETUP_TYPES: ReadonlySet<string> = new Set(['system_prompt', 'context_manifest', 'tool_schemas']);

interface Entry {
  line: number;
  row: JsonObject;
}

interface SessionGroup {
  id: string | undefined;
  entries: Entry[];
}

/**
 * Splits rows into sessions by `session_id`; rows without one go to the current session, or wait for the next
 * named one; leftovers go to the only session, or a "(no session)" group. File order is kept within a session.
 */
function groupSessions(rows: OutlineRow[]): SessionGroup[] {
  const byId = new Map<string, SessionGroup>();
  const order: SessionGroup[] = [];
  let current: SessionGroup | undefined;
  let pending: Entry[] = [];
  for (const { line, row: raw } of rows) {
    if (!isObject(raw)) continue;
    // A file-backend topic record stands for the row it carries (§7).
    const row = topicRecordRow(raw) ?? raw;
    const entry = { line, row };
    const sid = stringAt(row, 'session_id');
    let target: SessionGroup | undefined;
    if (sid !== undefined && sid !== '') {
      target = byId.get(sid);
      if (!target) {
        target = { id: sid, entries: [] };
        byId.set(sid, target);
        order.push(target);
      }
      if (pending.length) {
        for (const p of pending) target.entries.push(p);
        pending = [];
      }
      current = target;
    } else target = current;
    if (target) target.entries.push(entry);
    else pending.push(entry);
    if (target && isTerminalRow(row)) current = undefined;
  }
  if (pending.length) {
    const only = order.length === 1 ? order[0] : undefined;
    if (only) for (const p of pending) only.entries.push(p);
    else order.push({ id: undefined, entries: pending });
  }
  return order;
}

/** Sorts every children list by line and widens each node to its descendants. */
function finish(n: OutlineNode): void {
  const c = n.children;
  let sorted = true;
  let previous: OutlineNode | undefined;
  for (const child of c) {
    if (previous && child.line < previous.line) sorted = false;
    previous = child;
  }
  if (!sorted) c.sort((a, b) => a.line - b.line);
  for (const child of c) {
    finish(child);
    if (child.line < n.line) n.line = child.line;
    if (child.endLine > n.endLine) n.endLine = child.endLine;
  }
}

function plural(n: number, word: string): string {
  return `${formatInt(n)} ${word}${n === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Transcript

interface CallAcc {
  node: OutlineNode;
  callId: string | undefined;
  model?: string;
  modelRank: number;
  inTokens?: number;
  outTokens?: number;
  cost?: number;
  latency?: number;
  responded: boolean;
}

interface IterAcc {
  node: OutlineNode;
  calls: number;
  inTokens: number;
  outTokens: number;
}

function callDetail(c: CallAcc): string {
  const parts: string[] = [];
  if (c.inTokens !== undefined || c.outTokens !== undefined) {
    parts.push(`${c.inTokens !== undefined ? formatInt(c.inTokens) : '?'} in / ${c.outTokens !== undefined ? formatInt(c.outTokens) : '?'} out`);
  } else if (!c.responded) parts.push('no response');
  if (c.cost !== undefined) parts.push(formatUsd(c.cost));
  if (c.latency !== undefined) parts.push(formatMs(c.latency));
  return parts.join(' · ');
}

function callRowDetail(type: string, row: JsonObject): string {
  switch (type) {
    case 'routing_decision':
      return [scalar(row.selected_provider), scalar(row.selected_model)].filter(Boolean).join(' / ');
    case 'provider_call_request': {
      const parts: string[] = [];
      const n = numberAt(row, 'message_count');
      if (n !== undefined) parts.push(plural(n, 'message'));
      const tf = scalar(row.tool_format);
      if (tf) parts.push(tf);
      return parts.join(' · ');
    }
    case 'provider_call_response': {
      const parts: string[] = [];
      const i = numberAt(row, 'input_tokens');
      const o = numberAt(row, 'output_tokens');
      if (i !== undefined || o !== undefined) parts.push(`${i !== undefined ? formatInt(i) : '?'} in / ${o !== undefined ? formatInt(o) : '?'} out`);
      const stop = scalar(row.stop_reason);
      if (stop) parts.push(stop);
      const calls =
        Array.isArray(row.parsed_tool_calls) && row.parsed_tool_calls.length ? row.parsed_tool_calls : Array.isArray(row.tool_calls) ? row.tool_calls : [];
      if (calls.length) parts.push(plural(calls.length, 'tool call'));
      return parts.join(' · ');
    }
    case 'interpreted_response': {
      const calls = Array.isArray(row.tool_calls) ? row.tool_calls.length : 0;
      const errors = Array.isArray(row.tool_parse_errors) ? row.tool_parse_errors.length : 0;
      return [scalar(row.tool_format), calls ? plural(calls, 'tool call') : '', errors ? plural(errors, 'parse error') : ''].filter(Boolean).join(' · ');
    }
    default:
      return '';
  }
}

function messageNode(line: number, row: JsonObject): OutlineNode {
  const msg = isObject(row.message) ? row.message : undefined;
  const role = stringAt(row, 'role') ?? (msg ? stringAt(msg, 'role') : undefined) ?? 'message';
  const index = scalar(row.message_index);
  const content = row.content !== undefined ? row.content : msg?.content;
  const text = contentText(content, 200).text;
  const toolCallId = stringAt(row, 'tool_call_id') ?? (msg ? stringAt(msg, 'tool_call_id') : undefined);
  const calls = msg && Array.isArray(msg.tool_calls) ? msg.tool_calls.length : 0;
  const detail = [toolCallId ? `→ ${toolCallId}` : '', calls ? plural(calls, 'tool call') : '', oneLine(text)].filter(Boolean).join(' · ');
  return node('message', index !== undefined ? `${role} #${index}` : role, detail, line);
}

function eventNode(line: number, row: JsonObject, type: string): OutlineNode {
  if (isTerminalRow(row)) {
    const iterations = numberAt(row, 'iterations');
    return node('terminal', type, [terminalStatus(row), iterations !== undefined ? plural(iterations, 'iteration') : ''].filter(Boolean).join(' · '), line);
  }
  switch (type) {
    case 'boundary_failure': {
      const count = numberAt(row, 'dropped_count');
      const detail = [
        scalar(row.kind),
        scalar(row.owner),
        count !== undefined ? `${formatInt(count)} dropped` : '',
        row.unreported === true ? 'unreported' : '',
      ];
      return node('event', `boundary_failure ${scalar(row.boundary) ?? '?'}`, detail.filter(Boolean).join(' · '), line);
    }
    case 'tool_call':
      return node('tool', `tool_call ${scalar(row.tool_name) ?? '?'}`, [scalar(row.tool_call_id), scalar(row.status)].filter(Boolean).join(' · '), line);
    case 'tool_call_update':
      return node(
        'tool',
        `tool_call_update ${scalar(row.tool_name) ?? '?'}`,
        [scalar(row.tool_call_id), scalar(row.status), scalar(row.error_category)].filter(Boolean).join(' · '),
        line,
      );
    case 'budget_exhausted': {
      const max = numberAt(row, 'max_iterations');
      return node(
        'event',
        'budget_exhausted',
        [scalar(row.kind), max !== undefined ? `max ${plural(max, 'iteration')}` : ''].filter(Boolean).join(' · '),
        line,
      );
    }
    case 'agent_loop_stall_warning': {
      const w = isObject(row.warning) ? row.warning : {};
      const repeat = numberAt(w, 'repeat_count');
      return node(
        'event',
        'agent_loop_stall_warning',
        [scalar(w.tool_name), repeat !== undefined ? `×${repeat}` : '', w.hard_stop === true ? 'hard stop' : ''].filter(Boolean).join(' · '),
        line,
      );
    }
    case 'system_prompt':
    case 'context_manifest':
      return node('event', type, scalar(row.content_hash) ?? scalar(row.hash) ?? '', line);
    case 'tool_schemas':
      return node('event', type, Array.isArray(row.schemas) ? plural(row.schemas.length, 'tool') : '', line);
    default: {
      const idx = numberAt(row, 'index');
      return node('event', type, [idx !== undefined ? `#${idx}` : '', scalar(row.tool_name) ?? '', scalar(row.status) ?? ''].filter(Boolean).join(' · '), line);
    }
  }
}

function transcriptSession(group: SessionGroup): OutlineNode {
  const first = group.entries[0]?.line ?? 0;
  const session = node('session', group.id !== undefined ? `session ${group.id}` : '(no session)', '', first);
  const iterations = new Map<string, IterAcc>();
  const calls = new Map<string, CallAcc>();
  const toolParents = new Map<string, OutlineNode>();
  let curIter: IterAcc | undefined;
  let curCall: CallAcc | undefined;
  let opening: OutlineNode[] = [];
  let status: string | undefined;
  let callCount = 0;
  let inTotal = 0;
  let outTotal = 0;
  const allCalls: CallAcc[] = [];

  const iterationFor = (key: string, line: number): IterAcc => {
    let it = iterations.get(key);
    if (!it) {
      it = { node: node('iteration', `iteration ${key}`, '', line), calls: 0, inTokens: 0, outTokens: 0 };
      session.children.push(it.node);
      iterations.set(key, it);
      if (opening.length) {
        for (const m of opening) it.node.children.push(m);
        opening = [];
      }
    }
    return it;
  };
  /** Where a message-like row goes: the current iteration, else it waits for the first one. */
  const placeFollowing = (n: OutlineNode): void => {
    if (curIter) curIter.node.children.push(n);
    else opening.push(n);
  };
  const here = (): OutlineNode => curIter?.node ?? session;

  for (const { line, row } of group.entries) {
    const type = stringAt(row, 'type') ?? '(no type)';
    const callLabel = CALL_ROW_LABEL.get(type);
    if (callLabel !== undefined) {
      const iterKey = scalar(row.iteration);
      const it = iterKey !== undefined ? iterationFor(iterKey, line) : curIter;
      const callId = stringAt(row, 'call_id');
      let acc = callId !== undefined ? calls.get(callId) : undefined;
      if (!acc && callId === undefined && curCall && curCall.callId === undefined && type !== 'routing_decision' && type !== 'provider_call_request')
        acc = curCall;
      if (!acc) {
        acc = { node: node('call', callId !== undefined ? `call ${callId}` : 'call', '', line), callId, modelRank: 0, responded: false };
        (it?.node ?? session).children.push(acc.node);
        if (callId !== undefined) calls.set(callId, acc);
        allCalls.push(acc);
        callCount++;
        if (it) it.calls++;
      }
      const model = type === 'routing_decision' ? stringAt(row, 'selected_model') : stringAt(row, 'model');
      const rank = type === 'provider_call_response' ? 3 : type === 'provider_call_request' ? 2 : 1;
      if (model !== undefined && rank >= acc.modelRank) {
        acc.model = model;
        acc.modelRank = rank;
      }
      if (type === 'provider_call_response') {
        acc.responded = true;
        const i = numberAt(row, 'input_tokens');
        const o = numberAt(row, 'output_tokens');
        if (i !== undefined) {
          acc.inTokens = (acc.inTokens ?? 0) + i;
          inTotal += i;
          if (it) it.inTokens += i;
        }
        if (o !== undefined) {
          acc.outTokens = (acc.outTokens ?? 0) + o;
          outTotal += o;
          if (it) it.outTokens += o;
        }
        const cost = numberAt(row, 'cost_usd');
        if (cost !== undefined) acc.cost = (acc.cost ?? 0) + cost;
        const latency = numberAt(row, 'response_ms');
        if (latency !== undefined) acc.latency = latency;
      }
      acc.node.children.push(node('event', callLabel, callRowDetail(type, row), line));
      curCall = acc;
      if (it) curIter = it;
      continue;
    }
    if (type === 'message') {
      placeFollowing(messageNode(line, row));
      continue;
    }
    if ((type === 'tool_call' || type === 'tool_result') && row.tool_call_id === undefined) {
      const callId = stringAt(row, 'call_id');
      const tool = scalar(row.tool_name) ?? '?';
      if (type === 'tool_call') {
        const parent = curCall?.node ?? here();
        parent.children.push(node('tool', `tool_call ${tool}`, callId ?? '', line));
        if (callId !== undefined && !toolParents.has(callId)) toolParents.set(callId, parent);
      } else {
        const parent = (callId !== undefined ? toolParents.get(callId) : undefined) ?? curCall?.node ?? here();
        const ok = row.ok === true ? 'ok' : row.ok === false ? 'failed' : '';
        parent.children.push(node('tool', `tool_result ${tool}`, [callId ?? '', ok].filter(Boolean).join(' · '), line));
      }
      continue;
    }
    if (isTerminalRow(row)) {
      status = terminalStatus(row);
      session.children.push(eventNode(line, row, type));
      continue;
    }
    if (SETUP_TYPES.has(type)) {
      here().children.push(eventNode(line, row, type));
      continue;
    }
    const callId = stringAt(row, 'call_id');
    const owner = callId !== undefined ? calls.get(callId) : undefined;
    (owner?.node ?? here()).children.push(eventNode(line, row, type));
  }
  for (const m of opening) session.children.push(m);

  for (const c of allCalls) {
    if (c.model !== undefined) c.node.name = oneLine(`${c.model} · ${c.callId ?? 'call'}`, 120);
    c.node.detail = callDetail(c);
  }
  for (const it of iterations.values()) {
    it.node.detail = [plural(it.calls, 'call'), it.inTokens || it.outTokens ? `${formatInt(it.inTokens)} in / ${formatInt(it.outTokens)} out` : '']
      .filter(Boolean)
      .join(' · ');
  }
  session.detail = oneLine(
    [
      status ?? '',
      plural(iterations.size, 'iteration'),
      plural(callCount, 'call'),
      inTotal || outTotal ? `${formatInt(inTotal)} in / ${formatInt(outTotal)} out` : '',
    ]
      .filter(Boolean)
      .join(' · '),
    120,
  );
  return session;
}

// ---------------------------------------------------------------------------------------------------------------
// Event log

function eventLogSession(group: SessionGroup): OutlineNode {
  const first = group.entries[0]?.line ?? 0;
  const session = node('session', group.id !== undefined ? `session ${group.id}` : '(no session)', '', first);
  let cur: { node: OutlineNode; events: number } | undefined;
  let iterations = 0;
  let events = 0;
  let status: string | undefined;
  const close = (): void => {
    if (cur) cur.node.detail = plural(cur.events, 'event');
    cur = undefined;
  };
  for (const { line, row } of group.entries) {
    const type = stringAt(row, 'type') ?? '(no type)';
    events++;
    if (type === 'iteration_start') {
      close();
      const key = scalar(row.iteration) ?? String(iterations);
      cur = { node: node('iteration', `iteration ${key}`, '', line), events: 0 };
      session.children.push(cur.node);
      iterations++;
      continue;
    }
    if (type === 'iteration_end' && cur) {
      if (line > cur.node.endLine) cur.node.endLine = line;
      close();
      continue;
    }
    const n = eventNode(line, row, type);
    if (n.kind === 'terminal') {
      status = terminalStatus(row);
      close();
      session.children.push(n);
      continue;
    }
    if (cur) {
      cur.node.children.push(n);
      cur.events++;
    } else session.children.push(n);
  }
  close();
  session.detail = [status ?? '', plural(iterations, 'iteration'), plural(events, 'event')].filter(Boolean).join(' · ');
  return session;
}

// ---------------------------------------------------------------------------------------------------------------
// Entry point

/** Whether rows of an unknown JSONL look like an event log: any of the first object rows has `emitted_at_ms`. */
function looksLikeEventLog(rows: OutlineRow[]): boolean {
  let seen = 0;
  for (const { row } of rows) {
    if (!isObject(row)) continue;
    if (typeof row.emitted_at_ms === 'number') return true;
    const inner = topicRecordRow(row);
    if (inner && typeof inner.session_id === 'string' && !isTranscriptRowType(inner.type as string)) return true;
    if (++seen >= 20) break;
  }
  return false;
}

/** The outline of an artifact's rows (in file order; non-object rows are skipped). */
export function artifactOutline(rows: OutlineRow[], kind: RowArtifactKind): OutlineNode[] {
  const eventLog = kind === 'eventLog' || (kind === 'jsonl' && looksLikeEventLog(rows));
  const groups = groupSessions(rows);
  const out = groups.map((g) => (eventLog ? eventLogSession(g) : transcriptSession(g)));
  for (const n of out) finish(n);
  return out;
}

/**
 * The outline's first `max` nodes (outlineCap.ts) in document order, a parent before its children, and how many
 * more there were (the first of them on line `firstOmitted`).
 */
export function capOutline(
  nodes: readonly OutlineNode[],
  max = MAX_OUTLINE_SYMBOLS,
): { nodes: OutlineNode[]; omitted: number; firstOmitted: number | undefined } {
  const budget = new SymbolBudget(max);
  // Depth is at most four (session, iteration, call, row).
  const keep = (list: readonly OutlineNode[]): OutlineNode[] => {
    const kept: OutlineNode[] = [];
    for (const n of list) {
      if (budget.take(n.line)) kept.push({ ...n, children: keep(n.children) });
      else keep(n.children); // counted only: the budget is spent
    }
    return kept;
  };
  const kept = keep(nodes);
  return { nodes: kept, omitted: budget.omitted, firstOmitted: budget.firstOmitted };
}
