// A whole run-control log read once: the replay's findings with their rows' ranges, the tree of sessions → runs
// → controls → receipts, and what composing needs (each run's latest snapshot, each request's exact line). For an
// open document or a log on disk of editor size; the CLI and the benchmark use the streaming replay directly.

import { forEachTextLine } from '../artifacts/jsonl';
import type { RunControlNode, RunControlRange, RunControlReceiptNode, RunControlSessionNode, RunNode } from '../protocol';
import { Finding, RunControlReplay } from './replay';
import { parseRow } from './rows';
import { RunControlRequest, RunControlSnapshot } from './schemas';

export interface LocatedFinding extends Finding {
  range: RunControlRange;
}

export interface RequestRow {
  line: number;
  text: string;
  request: RunControlRequest;
}

export interface RunControlLogView {
  findings: LocatedFinding[];
  sessions: RunControlSessionNode[];
  /** Each run's latest snapshot, by run id. */
  snapshots: Map<string, { snapshot: RunControlSnapshot; line: number }>;
  /** The first request row of each request id (the bytes a retry re-sends). */
  requests: Map<string, RequestRow>;
  /** Row text by line (only the rows that are run-control rows or have findings). */
  rowText(line: number): string | undefined;
  rangeOf(line: number): RunControlRange;
}

/** Rows of a control besides its first request row and its receipts (a conflicting reuse of its id). */
const extraRows = new WeakMap<RunControlNode, number[]>();
/** Receipt nodes read from a PostRunControl hook event (a receipt row of the same transition takes their place). */
const fromHook = new WeakSet<RunControlReceiptNode>();

interface RunBuild {
  node: RunNode;
  sessionId: string;
  controls: Map<string, RunControlNode>;
}

function firstLine(text: string): string {
  const line = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * Reads a log; `inboxText` is its inbox file's text, whose requests the host has not answered yet show in the tree
 * as `requested` controls (at their run's row: the inbox is another file), checked by nobody else here.
 */
export function readRunControlLog(text: string, inboxText?: string): RunControlLogView {
  const located: LocatedFinding[] = [];
  const rows = new Map<number, { start: number; text: string }>();
  const runs = new Map<string, RunBuild>();
  const snapshots = new Map<string, { snapshot: RunControlSnapshot; line: number }>();
  const requests = new Map<string, RequestRow>();
  const rangeOf = (line: number): RunControlRange => {
    const row = rows.get(line);
    return { start: { line, character: row?.start ?? 0 }, end: { line, character: (row?.start ?? 0) + (row?.text.length ?? 0) } };
  };
  const run = (runId: string, sessionId: string | undefined, line: number): RunBuild => {
    let build = runs.get(runId);
    if (!build) {
      build = {
        sessionId: sessionId ?? '',
        controls: new Map(),
        node: {
          runId,
          active: false,
          turnId: null,
          turnRevision: 0,
          queuedControls: 0,
          interruptRequested: false,
          lastSequence: 0,
          range: rangeOf(line),
          controls: [],
        },
      };
      runs.set(runId, build);
    } else if (!build.sessionId && sessionId) build.sessionId = sessionId;
    return build;
  };
  const control = (build: RunBuild, requestId: string, operation: string, line: number): RunControlNode => {
    let node = build.controls.get(requestId);
    if (!node) {
      node = { requestId, operation, state: 'requested', summary: '', range: rangeOf(line), receipts: [], problems: [] };
      build.controls.set(requestId, node);
      build.node.controls.push(node);
    }
    return node;
  };

  const replay = new RunControlReplay(
    (finding) => located.push({ ...finding, range: rangeOf(finding.line) }),
    (line, row) => {
      switch (row.kind) {
        case 'request':
        case 'preHook': {
          const r = row.request;
          const build = run(r.run_id, r.session_id, line);
          const node = control(build, r.request_id, r.command.kind, line);
          if (node.summary === '' && node.receipts.length === 0) node.range = rangeOf(line);
          else if (node.range.start.line !== line) extraRows.set(node, [...(extraRows.get(node) ?? []), line]);
          if (node.summary === '') {
            node.summary = firstLine(r.command.kind === 'steer' ? r.command.input : (r.command.reason ?? ''));
            if (r.command.kind === 'interrupt') node.force = r.command.force;
          }
          const text = rows.get(line)?.text;
          if (row.kind === 'request' && text !== undefined && !requests.has(r.request_id)) requests.set(r.request_id, { line, text, request: r });
          break;
        }
        case 'receipt':
        case 'postHook': {
          const r = row.receipt;
          const build = run(r.run_id, r.session_id, line);
          const node = control(build, r.request_id, r.operation, line);
          const atMs = r.state === 'accepted' ? r.accepted_at_ms : (r.applied_at_ms ?? r.accepted_at_ms);
          const receipt = {
            state: r.state,
            sequence: r.sequence,
            atMs,
            ...(r.error ? { errorCode: r.error.code, errorMessage: r.error.message } : {}),
            range: rangeOf(line),
          };
          // A PostRunControl hook event repeats its transition's receipt: one node for both, on the receipt's row.
          const same = node.receipts.findIndex((x) => x.state === r.state && x.sequence === r.sequence && (row.kind === 'postHook' || fromHook.has(x)));
          const twin = same < 0 ? undefined : node.receipts[same];
          if (twin && row.kind === 'postHook') break;
          if (twin) node.receipts[same] = receipt;
          else node.receipts.push(receipt);
          if (row.kind === 'postHook') fromHook.add(receipt);
          // A rejection answers a conflicting reuse of the id, not the control's own progress.
          // A late `accepted` after a terminal receipt (the replay reports it) does not make the control pending again.
          const terminal = node.state === 'applied' || node.state === 'settled';
          if ((r.state !== 'rejected' || node.state === 'requested') && !(r.state === 'accepted' && terminal)) node.state = r.state;
          break;
        }
        case 'snapshot': {
          const s = row.snapshot;
          const build = run(s.run_id, s.session_id, line);
          Object.assign(build.node, {
            active: s.active,
            turnId: s.turn_id,
            turnRevision: s.turn_revision,
            queuedControls: s.queued_controls,
            interruptRequested: s.interrupt_requested,
            lastSequence: s.last_sequence,
            range: rangeOf(line),
          });
          snapshots.set(s.run_id, { snapshot: s, line });
          break;
        }
        default:
          break;
      }
    },
  );
  forEachTextLine(text, (rowText, line, offset) => {
    rows.set(line, { start: line === 0 ? offset : 0, text: rowText });
    replay.row(rowText, line);
  });
  replay.finish();
  located.sort((a, b) => a.line - b.line);
  if (inboxText !== undefined)
    forEachTextLine(inboxText, (rowText) => {
      const row = parseRow(rowText, []);
      if (row.kind !== 'request') return;
      const r = row.request;
      const build = runs.get(r.run_id);
      if (!build || build.controls.has(r.request_id)) return;
      const node = control(build, r.request_id, r.command.kind, build.node.range.start.line);
      node.range = build.node.range;
      node.summary = firstLine(r.command.kind === 'steer' ? r.command.input : (r.command.reason ?? ''));
      if (r.command.kind === 'interrupt') node.force = r.command.force;
    });

  // Problems on a control's rows, for its icon.
  const codesByLine = new Map<number, string[]>();
  for (const f of located) codesByLine.set(f.line, [...(codesByLine.get(f.line) ?? []), f.code]);
  const sessions = new Map<string, RunControlSessionNode>();
  for (const build of runs.values()) {
    for (const node of build.controls.values()) {
      const lines = new Set([node.range.start.line, ...(extraRows.get(node) ?? []), ...node.receipts.map((r) => r.range.start.line)]);
      node.problems = [...new Set([...lines].flatMap((l) => codesByLine.get(l) ?? []))];
    }
    let session = sessions.get(build.sessionId);
    if (!session) {
      session = { sessionId: build.sessionId, runs: [] };
      sessions.set(build.sessionId, session);
    }
    session.runs.push(build.node);
  }
  return {
    findings: located,
    sessions: [...sessions.values()],
    snapshots,
    requests,
    rowText: (line) => rows.get(line)?.text,
    rangeOf,
  };
}
