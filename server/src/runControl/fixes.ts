// The code actions' edits, as new text for one row (pure). The row is parsed, changed and written back compact
// with its keys in their order (hosts write compact serde JSON, so an untouched field keeps its bytes).

import { RUN_CONTROL_MAX_REASON_BYTES, RUN_CONTROL_RECEIPT_SCHEMA_V1, RUN_CONTROL_REQUEST_SCHEMA_V1 } from './schemas';

function editRow(text: string, change: (row: Record<string, unknown>) => boolean): string | undefined {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return undefined;
  const record = row as Record<string, unknown>;
  return change(record) ? JSON.stringify(record) : undefined;
}

/** The row without one top-level field. */
export function removeField(text: string, field: string): string | undefined {
  return editRow(text, (row) => Object.hasOwn(row, field) && delete row[field]);
}

/** The request with another request id (a fresh one for a DUPLICATE_REQUEST). */
export function withRequestId(text: string, requestId: string): string | undefined {
  return editRow(text, (row) => {
    if (typeof row.request_id !== 'string') return false;
    row.request_id = requestId;
    return true;
  });
}

/**
 * The request's expected turn and revision set from a snapshot (a null turn id removes the turn guard). Fields
 * present keep their place; missing ones go before `command`, where upstream writes them.
 */
export function withExpectedTurn(text: string, turnId: string | null, revision: number): string | undefined {
  return editRow(text, (row) => {
    if (!('command' in row)) return false;
    const wanted: Record<string, unknown> = { expected_turn_id: turnId ?? undefined, expected_turn_revision: revision };
    const entries: [string, unknown][] = [];
    for (const [key, value] of Object.entries(row)) {
      if (key === 'command') for (const [k, v] of Object.entries(wanted)) if (!(k in row)) entries.push([k, v]);
      entries.push([key, key in wanted ? wanted[key] : value]);
    }
    for (const key of Object.keys(row)) delete row[key];
    for (const [key, value] of entries) if (value !== undefined) row[key] = value;
    return true;
  });
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** The interrupt's reason trimmed to 4 KiB at a UTF-8 character boundary. */
export function withTrimmedReason(text: string): string | undefined {
  return editRow(text, (row) => {
    const command = row.command as Record<string, unknown> | undefined;
    if (typeof command !== 'object' || command === null || typeof command.reason !== 'string') return false;
    const trimmed = truncateUtf8(command.reason, RUN_CONTROL_MAX_REASON_BYTES);
    if (trimmed === command.reason) return false;
    command.reason = trimmed;
    return true;
  });
}

/** The row's schema string set to the v1 request or receipt schema. */
export function withSchema(text: string, which: 'request' | 'receipt'): string | undefined {
  const schema = which === 'request' ? RUN_CONTROL_REQUEST_SCHEMA_V1 : RUN_CONTROL_RECEIPT_SCHEMA_V1;
  return editRow(text, (row) => {
    if (row.schema === schema) return false;
    row.schema = schema;
    return true;
  });
}
