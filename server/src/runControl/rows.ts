// One row of a run-control log: what it is (by its shape, then checked against its schema) and the problems of
// the row on its own. A log is JSONL as a host persists it: requests, receipts, snapshots, `run_control_applied`
// events and the Pre/PostRunControl hook events (README "Run controls" lists exactly what is accepted).

import { z } from 'zod';
import {
  PostRunControlEventSchema,
  PreRunControlEventSchema,
  RECEIPT_FIELDS,
  receiptFromParsed,
  REQUEST_FIELDS,
  requestFromParsed,
  RUN_CONTROL_RECEIPT_SCHEMA_V1,
  RunControlAppliedEventSchema,
  RunControlReceipt,
  RunControlReceiptSchema,
  RunControlRequest,
  RunControlRequestSchema,
  RunControlSnapshot,
  RunControlSnapshotSchema,
} from './schemas';
import { errorMessage, validateRequest } from './validate';
import { fastReceipt, fastRequest, fastSnapshot } from './fastRows';

export type RowKind = 'request' | 'receipt' | 'snapshot' | 'applied' | 'preHook' | 'postHook';

export type ParsedRow =
  | { kind: 'request'; request: RunControlRequest }
  | { kind: 'preHook'; request: RunControlRequest }
  | { kind: 'receipt' | 'postHook'; receipt: RunControlReceipt }
  | { kind: 'snapshot'; snapshot: RunControlSnapshot }
  | { kind: 'applied'; requestId: string; runId?: string; operation: 'steer' | 'interrupt' }
  | { kind: 'blank' }
  | { kind: 'invalid'; shape?: RowKind };

export type Severity = 'error' | 'warning' | 'information';

/** A problem on one row: `code` is upstream's (INVALID_REQUEST, STALE_TURN, …) or the replay's own. */
export interface RowProblem {
  code: string;
  message: string;
  severity: Severity;
  /** For the code actions: the unknown field, the request line it concerns, the expected schema. */
  data?: { field?: string; schema?: 'request' | 'receipt'; trimReason?: boolean; requestLine?: number; runId?: string };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the row is meant to be, from its distinguishing fields (before any schema check). */
export function shapeOf(value: Record<string, unknown>): RowKind | undefined {
  if (value.event_type === 'pre_run_control') return 'preHook';
  if (value.event_type === 'post_run_control') return 'postHook';
  if (value.type === 'run_control_applied') return 'applied';
  if ('command' in value && 'request_id' in value) return 'request';
  if ('state' in value && 'operation' in value && 'request_id' in value) return 'receipt';
  if ('last_sequence' in value && 'active' in value && 'run_id' in value) return 'snapshot';
  return undefined;
}

function issueText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

const LABEL: Record<RowKind, string> = {
  request: 'run-control request',
  receipt: 'run-control receipt',
  snapshot: 'run-control snapshot',
  applied: 'run_control_applied event',
  preHook: 'pre_run_control hook event',
  postHook: 'post_run_control hook event',
};

/** Unknown top-level fields of a request or receipt, one problem each; the row is then read without them. */
function withoutUnknown(value: Record<string, unknown>, known: ReadonlySet<string>, label: string, problems: RowProblem[]): Record<string, unknown> {
  let clean = true;
  for (const key in value) if (!known.has(key)) clean = false;
  // The common case (a well-formed row) allocates nothing.
  if (clean) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (known.has(key)) kept[key] = field;
    else
      problems.push({
        code: 'UNKNOWN_FIELD',
        severity: 'error',
        message: `Unknown field \`${key}\` in a ${label}: upstream rejects it (deny_unknown_fields), so the whole row would not parse.`,
        data: { field: key },
      });
  }
  return kept;
}

/** Parses one line of a log; `problems` gets the row's own problems. */
export function parseRow(text: string, problems: RowProblem[]): ParsedRow {
  if (/^\s*$/.test(text)) return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push({ code: 'INVALID_JSON', severity: 'error', message: `Not JSON: ${error instanceof Error ? error.message : String(error)}.` });
    return { kind: 'invalid' };
  }
  if (!isObject(value)) {
    problems.push({ code: 'UNKNOWN_ROW', severity: 'error', message: 'A run-control log row is a JSON object.' });
    return { kind: 'invalid' };
  }
  const shape = shapeOf(value);
  const bad = (error: z.ZodError): ParsedRow => {
    problems.push({ code: 'SCHEMA', severity: 'error', message: `Not a valid ${LABEL[shape ?? 'request']}: ${issueText(error)}.` });
    return { kind: 'invalid', ...(shape ? { shape } : {}) };
  };
  switch (shape) {
    case undefined:
      problems.push({
        code: 'UNKNOWN_ROW',
        severity: 'error',
        message:
          'Not a run-control row: expected a request (request_id, command), a receipt (request_id, operation, state), a snapshot (run_id, active, last_sequence), a run_control_applied event or a pre/post_run_control hook event.',
      });
      return { kind: 'invalid' };
    case 'request': {
      const known = withoutUnknown(value, REQUEST_FIELDS, LABEL.request, problems);
      let request = fastRequest(known);
      if (!request) {
        const parsed = RunControlRequestSchema.safeParse(known);
        if (!parsed.success) return bad(parsed.error);
        request = requestFromParsed(parsed.data);
      }
      const invalid = validateRequest(request);
      if (invalid) {
        const detail = invalid.code === 'INVALID_REQUEST' ? invalid.detail : '';
        const data: RowProblem['data'] = detail.startsWith('unsupported schema')
          ? { schema: 'request' }
          : detail.startsWith('interrupt reason exceeds')
            ? { trimReason: true }
            : undefined;
        problems.push({ code: 'INVALID_REQUEST', severity: 'error', message: `${errorMessage(invalid)}.`, ...(data ? { data } : {}) });
      }
      return { kind: 'request', request };
    }
    case 'receipt': {
      const known = withoutUnknown(value, RECEIPT_FIELDS, LABEL.receipt, problems);
      let receipt = fastReceipt(known);
      if (!receipt) {
        const parsed = RunControlReceiptSchema.safeParse(known);
        if (!parsed.success) return bad(parsed.error);
        receipt = receiptFromParsed(parsed.data);
      }
      if (receipt.schema !== RUN_CONTROL_RECEIPT_SCHEMA_V1)
        problems.push({
          code: 'RECEIPT_SCHEMA',
          severity: 'error',
          message: `Unsupported receipt schema \`${receipt.schema}\`: a receipt carries \`${RUN_CONTROL_RECEIPT_SCHEMA_V1}\`.`,
          data: { schema: 'receipt' },
        });
      return { kind: 'receipt', receipt };
    }
    case 'snapshot': {
      const fast = fastSnapshot(value);
      if (fast) return { kind: 'snapshot', snapshot: fast };
      const parsed = RunControlSnapshotSchema.safeParse(value);
      if (!parsed.success) return bad(parsed.error);
      const s = parsed.data;
      return {
        kind: 'snapshot',
        snapshot: {
          session_id: s.session_id,
          run_id: s.run_id,
          active: s.active,
          turn_id: s.turn_id,
          turn_revision: s.turn_revision,
          queued_controls: s.queued_controls,
          interrupt_requested: s.interrupt_requested,
          last_sequence: s.last_sequence,
        },
      };
    }
    case 'applied': {
      const parsed = RunControlAppliedEventSchema.safeParse(value);
      if (!parsed.success) return bad(parsed.error);
      const runId = parsed.data.metadata?.run_id;
      return {
        kind: 'applied',
        requestId: parsed.data.payload.request_id,
        operation: parsed.data.payload.operation,
        ...(runId === undefined ? {} : { runId }),
      };
    }
    case 'preHook': {
      const parsed = PreRunControlEventSchema.safeParse(value);
      if (!parsed.success) return bad(parsed.error);
      const p = parsed.data.payload;
      const request = requestFromParsed({
        schema: 'a3s.code.run-control-request.v1',
        request_id: p.request_id,
        session_id: p.session_id === '' ? undefined : p.session_id,
        run_id: p.run_id,
        expected_turn_id: p.expected_turn_id,
        expected_turn_revision: p.expected_turn_revision,
        command: p.command,
        deadline_ms: p.deadline_ms,
      });
      return { kind: 'preHook', request };
    }
    case 'postHook': {
      const parsed = PostRunControlEventSchema.safeParse(value);
      if (!parsed.success) return bad(parsed.error);
      const p = parsed.data.payload;
      return { kind: 'postHook', receipt: receiptFromParsed({ ...p, schema: RUN_CONTROL_RECEIPT_SCHEMA_V1 }) };
    }
  }
}

/** Whether some of these first lines are run-control rows (content recognition, when no glob matched). */
export function looksLikeRunControlLog(firstLines: readonly string[]): boolean {
  for (const raw of firstLines) {
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (/^\s*$/.test(text)) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(value)) continue;
    const shape = shapeOf(value);
    if (shape === 'request' || shape === 'receipt') {
      const schema = value.schema;
      if (typeof schema === 'string' && schema.startsWith('a3s.code.run-control-')) return true;
      continue;
    }
    if (shape === 'applied' || shape === 'preHook' || shape === 'postHook') return true;
  }
  return false;
}
