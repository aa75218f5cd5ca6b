// Replays a run-control log row by row and reports where it disagrees with what the protocol allows (the rules
// of upstream's inbox, see inbox.ts), each on its row with the rule in the message. Streaming: rows are fed one
// at a time, and per run only what the protocol itself remembers is kept (the last 256 request ids, plus the
// controls still accepted), so memory does not grow with the log.

import { RUN_CONTROL_MAX_SEEN_REQUESTS, RUN_ENDED, RunControlReceipt, RunControlRequest, RunControlSnapshot } from './schemas';
import { ParsedRow, parseRow, RowProblem } from './rows';
import { requestLine } from './wire';
import { forEachTextLine } from '../artifacts/jsonl';

export interface Finding extends RowProblem {
  /** 0-based line of the row. */
  line: number;
}

type ControlState = 'requested' | 'accepted' | 'applied' | 'settled';

interface ControlMemory {
  state: ControlState;
  request?: RunControlRequest;
  requestLine?: number;
  accepted?: { sequence: number; atMs: number; line: number };
  lastReceipt?: { state: string; sequence: number };
  /** The sequence of a conflicting request's wrong acceptance: its later receipts are that request's, not this control's. */
  ignoreSequence?: number;
  /** Applied with no accepted receipt before it (reported): the accepted one that comes late is not another transition. */
  appliedEarly?: boolean;
  /** A later request row reused this id for a different command; waiting for its DUPLICATE_REQUEST rejection. */
  conflict?: { line: number };
}

interface RunMemory {
  lastAdmission: number;
  lastAdmissionLine: number;
  snapshot?: { value: RunControlSnapshot; line: number };
  closedLine?: number;
  controls: Map<string, ControlMemory>;
}

/** A row as the replay saw it, for consumers that build more (the tree): the parsed row and its findings. */
export type RowObserver = (line: number, row: ParsedRow, findings: readonly Finding[]) => void;

const anA = (word: string): string => (/^[aeiou]/.test(word) ? 'An' : 'A');

const NO_FINDINGS: readonly Finding[] = [];

export class RunControlReplay {
  private readonly runs = new Map<string, RunMemory>();
  private readonly problems: RowProblem[] = [];
  private readonly add = (problem: RowProblem): void => void this.problems.push(problem);

  constructor(
    private readonly report: (finding: Finding) => void,
    private readonly observe?: RowObserver,
  ) {}

  /** Feeds one line (without its line break). */
  row(text: string, line: number): void {
    // The row's own problems, then the replay's, all on this line (one array, reused while rows are clean).
    const problems = this.problems;
    const row = parseRow(text, problems);
    switch (row.kind) {
      case 'request':
      case 'preHook':
        this.request(row.request, line);
        break;
      case 'receipt':
      case 'postHook':
        this.receipt(row.receipt, line, this.add);
        break;
      case 'snapshot':
        this.snapshot(row.snapshot, line);
        break;
      default:
        break;
    }
    if (problems.length === 0) {
      this.observe?.(line, row, NO_FINDINGS);
      return;
    }
    const findings: Finding[] = problems.map((p) => ({ ...p, line }));
    problems.length = 0;
    for (const finding of findings) this.report(finding);
    this.observe?.(line, row, findings);
  }

  /** The end of the log: what only the whole log shows (runs closed with controls still accepted, conflicts never rejected). */
  finish(): void {
    for (const [runId, run] of this.runs) {
      for (const [requestId, control] of run.controls) {
        if (control.conflict) this.report(unrejectedDuplicate(requestId, control.requestLine, control.conflict.line));
        if (run.closedLine !== undefined && control.state === 'accepted' && control.accepted)
          this.report({
            line: control.accepted.line,
            code: 'RUN_CLOSED_WITH_ACCEPTED',
            severity: 'error',
            message: `Run \`${runId}\` closed (line ${run.closedLine + 1}) with this control still accepted: closing a run settles every accepted control (state settled, error RUN_ENDED), and the log has no settled receipt for it.`,
          });
      }
    }
  }

  private run(runId: string): RunMemory {
    let run = this.runs.get(runId);
    if (!run) {
      run = { lastAdmission: 0, lastAdmissionLine: -1, controls: new Map() };
      this.runs.set(runId, run);
    }
    return run;
  }

  /** Remembers a control, forgetting the oldest finished ones beyond the protocol's window of 256 ids. */
  private control(run: RunMemory, requestId: string): ControlMemory {
    let control = run.controls.get(requestId);
    if (control) return control;
    control = { state: 'requested' };
    run.controls.set(requestId, control);
    if (run.controls.size > RUN_CONTROL_MAX_SEEN_REQUESTS) {
      for (const [id, old] of run.controls) {
        if (run.controls.size <= RUN_CONTROL_MAX_SEEN_REQUESTS) break;
        // Accepted controls stay: the run's close must settle them. Pending conflicts stay until resolved.
        if (old.state !== 'accepted' && !old.conflict && id !== requestId) run.controls.delete(id);
      }
    }
    return control;
  }

  private request(request: RunControlRequest, line: number): void {
    const run = this.run(request.run_id);
    const control = this.control(run, request.request_id);
    if (!control.request) {
      control.request = request;
      control.requestLine = line;
      return;
    }
    // The same id again: upstream compares the requests' fingerprints (sha256 of their wire form); comparing the
    // wire forms themselves decides the same, and only when an id comes back.
    if (requestLine(control.request) === requestLine(request)) return;
    if (control.conflict) this.report(unrejectedDuplicate(request.request_id, control.requestLine, control.conflict.line));
    control.conflict = { line };
  }

  private receipt(receipt: RunControlReceipt, line: number, add: (p: RowProblem) => void): void {
    const run = this.run(receipt.run_id);
    const control = this.control(run, receipt.request_id);
    const seq = receipt.sequence;
    if (receipt.state === 'rejected') {
      if (seq !== 0)
        add({
          code: 'REJECTED_SEQUENCE',
          severity: 'error',
          message: `A rejected receipt has sequence 0 (a refused request takes no sequence number), not ${seq}.`,
        });
      if (control.conflict && receipt.error?.code === 'DUPLICATE_REQUEST') control.conflict = undefined;
      return;
    }
    if (control.conflict) {
      add(unrejectedDuplicate(receipt.request_id, control.requestLine, control.conflict.line, line));
      control.conflict = undefined;
      // The conflicting request's own receipts do not move the original control; an admission still takes a sequence.
      if (receipt.state === 'accepted' && receipt.sequence > run.lastAdmission) {
        run.lastAdmission = receipt.sequence;
        run.lastAdmissionLine = line;
      }
      control.ignoreSequence = receipt.sequence;
      return;
    }
    if (control.ignoreSequence === seq && receipt.state !== 'accepted') return;
    if (control.request && control.request.command.kind !== receipt.operation)
      add({
        code: 'OPERATION_MISMATCH',
        severity: 'error',
        message: `The receipt's operation \`${receipt.operation}\` is not its request's command \`${control.request.command.kind}\` (line ${(control.requestLine ?? 0) + 1}).`,
      });
    const previous = control.lastReceipt;
    const echo = previous !== undefined && previous.state === receipt.state && previous.sequence === seq;
    if (echo) return; // An idempotent retry returns the stored receipt again; the host may store it twice.
    if (control.appliedEarly && receipt.state === 'accepted') {
      control.appliedEarly = false;
      return;
    }
    if (control.state === 'applied' || control.state === 'settled') {
      add({
        code: 'TRANSITION_AFTER_TERMINAL',
        severity: 'error',
        message: `${anA(receipt.state)} ${receipt.state} receipt after the control was ${control.state}: ${control.state} is final (accepted → applied | settled, nothing after).`,
      });
      return;
    }
    control.lastReceipt = { state: receipt.state, sequence: seq };
    if (receipt.state === 'accepted') {
      this.admission(run, control, receipt, line, add);
      return;
    }
    // applied or settled: the transition of an accepted control, keeping its sequence.
    const accepted = control.accepted;
    if (control.state !== 'accepted' || !accepted) {
      control.appliedEarly = true;
      add({
        code: receipt.state === 'applied' ? 'APPLIED_BEFORE_ACCEPTED' : 'SETTLED_BEFORE_ACCEPTED',
        severity: 'error',
        message: `${anA(receipt.state)} ${receipt.state} receipt with no accepted receipt before it: only an accepted control is ${receipt.state} (accepted → applied | settled).`,
      });
    } else {
      if (seq !== accepted.sequence)
        add({
          code: 'SEQUENCE_CHANGED',
          severity: 'error',
          message: `${anA(receipt.state)} ${receipt.state} receipt keeps its request's sequence: ${accepted.sequence} (accepted on line ${accepted.line + 1}), not ${seq}.`,
        });
      if (receipt.applied_at_ms === undefined)
        add({
          code: 'MISSING_APPLIED_AT',
          severity: 'error',
          message: `${anA(receipt.state)} ${receipt.state} receipt carries applied_at_ms (the time of its transition).`,
        });
      else if (receipt.applied_at_ms < receipt.accepted_at_ms || receipt.applied_at_ms < accepted.atMs)
        add({
          code: 'APPLIED_BEFORE_ACCEPTED',
          severity: 'error',
          message: `applied_at_ms ${receipt.applied_at_ms} is before accepted_at_ms ${Math.max(receipt.accepted_at_ms, accepted.atMs)}: a control is ${receipt.state} after it was accepted.`,
        });
    }
    if (receipt.state === 'settled' && receipt.error?.code !== RUN_ENDED)
      add({
        code: 'SETTLED_WITHOUT_RUN_ENDED',
        severity: 'error',
        message: `A settled receipt carries error.code RUN_ENDED (the run ended before the control reached a safe point), not ${receipt.error ? `\`${receipt.error.code}\`` : 'no error'}.`,
      });
    control.state = receipt.state;
  }

  private admission(run: RunMemory, control: ControlMemory, receipt: RunControlReceipt, line: number, add: (p: RowProblem) => void): void {
    if (receipt.sequence <= run.lastAdmission)
      add({
        code: 'SEQUENCE_NOT_INCREASING',
        severity: 'error',
        message: `Admission sequence ${receipt.sequence} is not greater than the run's previous one, ${run.lastAdmission}${run.lastAdmissionLine >= 0 ? ` (line ${run.lastAdmissionLine + 1})` : ''}: each accepted request takes the run's next sequence number.`,
      });
    if (receipt.sequence > run.lastAdmission) {
      run.lastAdmission = receipt.sequence;
      run.lastAdmissionLine = line;
    }
    const snapshot = run.snapshot?.value;
    const request = control.request;
    if (snapshot && request) {
      const turnStale = request.expected_turn_id !== undefined && request.expected_turn_id !== snapshot.turn_id;
      const revisionStale = request.expected_turn_revision !== undefined && request.expected_turn_revision !== snapshot.turn_revision;
      if (turnStale || revisionStale)
        add({
          code: 'STALE_TURN',
          severity: 'error',
          message: `Accepted, but its request (line ${(control.requestLine ?? 0) + 1}) expects turn ${request.expected_turn_id ?? '(any)'} revision ${request.expected_turn_revision ?? '(any)'} while the last snapshot (line ${(run.snapshot?.line ?? 0) + 1}) shows turn ${snapshot.turn_id ?? 'null'} revision ${snapshot.turn_revision}: a stale request is refused STALE_TURN, never accepted.`,
          data: { requestLine: control.requestLine ?? line, runId: receipt.run_id },
        });
    }
    control.state = 'accepted';
    control.accepted = { sequence: receipt.sequence, atMs: receipt.accepted_at_ms, line };
  }

  private snapshot(snapshot: RunControlSnapshot, line: number): void {
    const run = this.run(snapshot.run_id);
    run.snapshot = { value: snapshot, line };
    if (!snapshot.active) run.closedLine ??= line;
  }
}

/** On the receipt that accepted the reuse, else on the reusing request row; the fix renames the request row. */
function unrejectedDuplicate(requestId: string, firstLine: number | undefined, requestLine: number, receiptLine?: number): Finding {
  const first = firstLine === undefined ? '' : ` (first on line ${firstLine + 1})`;
  const reuse = receiptLine === undefined ? 'is reused here' : `is reused on line ${requestLine + 1}`;
  return {
    line: receiptLine ?? requestLine,
    code: 'DUPLICATE_REQUEST',
    severity: 'error',
    message: `Request id \`${requestId}\`${first} ${reuse} for a different command, and ${receiptLine === undefined ? 'the log shows no rejection of it' : 'this receipt is not its rejection'}: a reused id is refused DUPLICATE_REQUEST (a rejected receipt, sequence 0).`,
    data: { requestLine },
  };
}

/** Replays a whole text (\n, \r\n or \r line breaks; a BOM skipped). */
export function replayText(text: string, observe?: RowObserver): Finding[] {
  const findings: Finding[] = [];
  const replay = new RunControlReplay((f) => findings.push(f), observe);
  forEachTextLine(text, (row, line) => replay.row(row, line));
  replay.finish();
  return findings.sort((a, b) => a.line - b.line);
}
