// What identifies a row and what pairs rows (spec/harn-artifacts.md §1 Identity, Terminal, Tools), in one place
// for validation, hovers and the editor: the row identity (`id`/`event_id`/`call_id`, else `row:N`), terminal
// rows, the call id a tool_call/tool_result row pairs on (scoped by session), and row numbers.
//
// run.json's transcript descriptor is the one exception: runRecord.ts computes `first/last_event_id` exactly as
// upstream's rescan does (the first of the keys that is present, then only if it is a string), so that a digest
// check agrees with the writer byte for byte.

import { asString, type JsonObject } from './json';
import { TERMINAL_ROW_TYPES } from './schemas';
import type { RowSummary } from './validate';

/** §1 row identity of a row object: the first string among `id`, `event_id`, `call_id`; undefined means `row:N`. */
export function rowIdOf(row: JsonObject): string | undefined {
  return asString(row.id) ?? asString(row.event_id) ?? asString(row.call_id);
}

/** The identity shown for a row: its id, else `row:N` (N = 1-based count of non-blank lines, see rowNumberAt). */
export function identityOf(id: string | undefined, rowNumber: number): string {
  return id ?? `row:${rowNumber}`;
}

/** §1 Terminal: `type` is a terminal type, or the row says `terminal: true`. */
export function isTerminalRowObject(row: JsonObject): boolean {
  const type = row.type;
  return (typeof type === 'string' && TERMINAL_ROW_TYPES.has(type)) || row.terminal === true;
}

/** §1 terminal status: the first string among `final_status`, `status`, `stop_reason`, else the row type. */
export function terminalStatusOf(row: JsonObject): string | undefined {
  return asString(row.final_status) ?? asString(row.status) ?? asString(row.stop_reason) ?? asString(row.type);
}

export type ToolRowKind = 'tool_call' | 'tool_result';

/**
 * The id a tool_call / tool_result row pairs on: a transcript receipt's `call_id` (a tool-call id, not a provider
 * call id), else an event's `tool_call_id`.
 */
export function toolCallIdOf(summary: Pick<RowSummary, 'callId' | 'toolCallId'>): string | undefined {
  return summary.callId ?? summary.toolCallId;
}

/** Pairs never cross sessions; rows without a session id pair among themselves (session `''`). */
function pairKey(kind: ToolRowKind, sessionId: string, callId: string): string {
  return `${kind}\u0000${sessionId}\u0000${callId}`;
}

/**
 * A look-up of the first tool_call / tool_result row (0-based line) with a session and call id, for partner
 * links. `summaries[i]` is line i. The index is built on the first call and kept by the returned function.
 */
export function toolPartners(summaries: readonly RowSummary[]): (kind: ToolRowKind, sessionId: string, callId: string) => number | undefined {
  let index: Map<string, number> | undefined;
  return (kind, sessionId, callId) => {
    if (index === undefined) {
      index = new Map();
      for (let line = 0; line < summaries.length; line++) {
        const s = summaries[line];
        if (s === undefined || (s.type !== 'tool_call' && s.type !== 'tool_result')) continue;
        const id = toolCallIdOf(s);
        if (id === undefined) continue;
        const key = pairKey(s.type, s.sessionId ?? '', id);
        if (!index.has(key)) index.set(key, line);
      }
    }
    return index.get(pairKey(kind, sessionId, callId));
  };
}

/**
 * The 1-based row number of `line`: the non-blank lines up to and including it (blank lines are not rows, and a
 * blank line gets the number of the row before it). Lines past the summaries count as blank.
 */
export function rowNumberAt(summaries: readonly RowSummary[], line: number): number {
  let rows = 0;
  const last = Math.min(line, summaries.length - 1);
  for (let i = 0; i <= last; i++) if (summaries[i]?.shape !== 'blank') rows++;
  return rows;
}
