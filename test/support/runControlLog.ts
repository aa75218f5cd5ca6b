// Run-control logs written the way a host persists them, produced by driving the real inbox model (so a healthy
// log is what the protocol does, not what a test believes it does): snapshots, requests and every receipt.

import { RunControlInbox } from '../../server/src/runControl/inbox';
import { RUN_CONTROL_REQUEST_SCHEMA_V1, RunControlReceipt, RunControlRequest } from '../../server/src/runControl/schemas';
import { receiptWire, requestLine } from '../../server/src/runControl/wire';

export const receiptLine = (receipt: RunControlReceipt): string => JSON.stringify(receiptWire(receipt));

export class LogWriter {
  readonly lines: string[] = [];
  readonly inbox: RunControlInbox;
  private next = 0;

  constructor(
    readonly sessionId = 'sess-alpha',
    readonly runId = 'run-42',
    private readonly idPrefix = 'rc',
  ) {
    this.inbox = new RunControlInbox(sessionId, runId);
  }

  snapshot(): this {
    this.lines.push(JSON.stringify(this.inbox.snapshot()));
    return this;
  }

  turn(n: number): this {
    this.inbox.updateTurn(n);
    return this.snapshot();
  }

  request(command: RunControlRequest['command'], extra: Partial<RunControlRequest> = {}): RunControlRequest {
    const s = this.inbox.snapshot();
    return {
      schema: RUN_CONTROL_REQUEST_SCHEMA_V1,
      request_id: `${this.idPrefix}-${++this.next}`,
      session_id: this.sessionId,
      run_id: this.runId,
      ...(s.turn_id === null ? {} : { expected_turn_id: s.turn_id }),
      expected_turn_revision: s.turn_revision,
      command,
      ...extra,
    };
  }

  /** Writes the request and, when admitted, its accepted receipt. */
  submit(request: RunControlRequest, nowMs: number): RunControlReceipt | undefined {
    this.lines.push(requestLine(request));
    const admission = this.inbox.submit(request, nowMs);
    if (!admission.ok) return undefined;
    this.lines.push(receiptLine(admission.receipt));
    return admission.receipt;
  }

  /** The loop's safe point: every queued control applied at the current turn. */
  applyAll(nowMs: number): this {
    const s = this.inbox.snapshot();
    for (const pending of this.inbox.drain()) this.lines.push(receiptLine(this.inbox.markApplied(pending, s.turn_id, s.turn_revision, nowMs)));
    return this;
  }

  close(nowMs: number): this {
    for (const receipt of this.inbox.close(nowMs)) this.lines.push(receiptLine(receipt));
    return this.snapshot();
  }

  text(eol = '\n'): string {
    return this.lines.map((l) => l + eol).join('');
  }
}

/** A healthy run: a steer applied, a steer settled by the close, an interrupt applied. */
export function healthyLog(): LogWriter {
  const log = new LogWriter();
  log.turn(1);
  log.submit(log.request({ kind: 'steer', input: 'Only fix the failing parser test.' }), 1_767_000_000_100);
  log.applyAll(1_767_000_000_200);
  log.turn(2);
  log.submit(log.request({ kind: 'steer', input: 'Also run the lexer tests.' }), 1_767_000_000_300);
  log.applyAll(1_767_000_000_400);
  log.submit(log.request({ kind: 'interrupt', reason: 'operator stop', force: false }), 1_767_000_000_500);
  log.close(1_767_000_000_600);
  return log;
}
