// Composing a steer or interrupt for a run of a log (pure): the request is bound to the run's latest snapshot
// (its turn id and revision), carries the id it is given, and is pre-checked through the inbox model restored
// to that snapshot, so a request the protocol would refuse is not built (the refusal is upstream's error).
// A retry re-sends the exact bytes of an earlier request (same id: idempotent).

import type { RunControlCommandInput, RunControlComposeResult } from '../protocol';
import { RunControlInbox } from './inbox';
import { RunControlLogView } from './logView';
import { parseRow, RowProblem } from './rows';
import { RUN_CONTROL_REQUEST_SCHEMA_V1, RunControlRequest } from './schemas';
import { errorMessage } from './validate';
import { requestLine, requestWire } from './wire';

export function composeRequest(
  view: RunControlLogView,
  runId: string,
  command: RunControlCommandInput,
  requestId: string,
  nowMs: number,
): RunControlComposeResult {
  const latest = view.snapshots.get(runId);
  if (!latest)
    return {
      ok: false,
      code: 'NO_SNAPSHOT',
      message: `The log shows no snapshot of run \`${runId}\`: a request is bound to the run's latest snapshot (its turn id and revision).`,
    };
  const snapshot = latest.snapshot;
  const request: RunControlRequest = {
    schema: RUN_CONTROL_REQUEST_SCHEMA_V1,
    request_id: requestId,
    run_id: runId,
    command: command.kind === 'steer' ? { kind: 'steer', input: command.input } : { kind: 'interrupt', reason: command.reason ?? null, force: command.force },
    expected_turn_revision: snapshot.turn_revision,
  };
  if (snapshot.session_id !== '') request.session_id = snapshot.session_id;
  if (snapshot.turn_id !== null) request.expected_turn_id = snapshot.turn_id;
  const admission = RunControlInbox.restore(snapshot).submit(request, nowMs);
  if (!admission.ok) return { ok: false, code: admission.error.code, message: errorMessage(admission.error) };
  return { ok: true, request: requestWire(request), line: requestLine(request) };
}

/** The exact line of an earlier request with this id: from the log, else from the inbox's lines. */
export function retryRequest(view: RunControlLogView, requestId: string, inboxLines: readonly string[]): RunControlComposeResult {
  const fromLog = view.requests.get(requestId);
  if (fromLog) return { ok: true, request: requestWire(fromLog.request), line: fromLog.text };
  for (const text of inboxLines) {
    const problems: RowProblem[] = [];
    const row = parseRow(text, problems);
    if (row.kind === 'request' && row.request.request_id === requestId) return { ok: true, request: requestWire(row.request), line: text };
  }
  return { ok: false, code: 'UNKNOWN_REQUEST', message: `No request with id \`${requestId}\` in the log or its inbox: there is nothing to re-send.` };
}
