// The CLI's run-control parts: a log's findings for `check` (the replay streamed over the file's lines, so memory
// stays what the protocol itself remembers), and `run-control compose`, which prints the request bound to the
// log's latest snapshot or the refusal.

import { randomUUID } from 'node:crypto';
import { forEachLine } from '../artifacts/jsonl';
import { artifactProblemDiagnostic } from '../diagnostics';
import type { RunControlCommandInput, RunControlComposeResult } from '../protocol';
import { composeRequest } from '../runControl/compose';
import { readRunControlLog } from '../runControl/logView';
import { RunControlReplay } from '../runControl/replay';
import { FileDiagnostic } from '../report/format';

export const RUN_CONTROL_SOURCE = 'harn.runControl';

/** A run-control log's findings and reading problems (invalid UTF-8, unreadable, lines too long), streamed. */
export function runControlLogDiagnostics(file: string, rel: string, maxLineBytes?: number): FileDiagnostic[] {
  const out: FileDiagnostic[] = [];
  // Only the lengths of rows with findings are needed for their ranges; findings at the end name earlier rows.
  const replay = new RunControlReplay((f) =>
    out.push({
      path: rel,
      range: { start: { line: f.line, character: 0 }, end: { line: f.line, character: 0 } },
      severity: f.severity,
      source: RUN_CONTROL_SOURCE,
      code: f.code,
      message: f.message,
    }),
  );
  const scan = forEachLine(file, (text, line) => replay.row(text, line), { ...(maxLineBytes === undefined ? {} : { maxLineBytes }) });
  replay.finish();
  for (const p of scan.problems) {
    const d = artifactProblemDiagnostic(p);
    if (p.code === 'unreadable_file' && d.message.startsWith(file)) d.message = rel + d.message.slice(file.length);
    out.push({ ...d, path: rel });
  }
  return out.sort((a, b) => a.range.start.line - b.range.start.line);
}

/**
 * The request `run-control compose` prints: bound to the latest snapshot of the log (the last one written), or with
 * `runId` to that run's latest snapshot (a log holds several runs).
 */
export function composeFromLog(
  text: string,
  command: RunControlCommandInput,
  requestId: string = randomUUID(),
  nowMs: number = Date.now(),
  runId?: string,
): RunControlComposeResult {
  const view = readRunControlLog(text);
  let latest: { runId: string; line: number } | undefined;
  for (const [id, { line }] of view.snapshots) if ((runId === undefined || id === runId) && (!latest || line > latest.line)) latest = { runId: id, line };
  if (!latest)
    return {
      ok: false,
      code: 'NO_SNAPSHOT',
      message:
        runId === undefined
          ? 'The log has no run-control snapshot: a request is bound to the latest snapshot (its turn id and revision).'
          : `The log has no run-control snapshot of run \`${runId}\`: a request is bound to its run's latest snapshot (its turn id and revision).`,
    };
  return composeRequest(view, latest.runId, command, requestId, nowMs);
}
