// Gate findings as workbench diagnostics (one per range where the finding is shown), shared by the
// language server and the CLI.

import { InvalidUtf8Context, WorkbenchDiagnostic } from '../diagnostics';
import { LineIndex } from '../text/lineIndex';
import { Finding } from './gate';
import { runSteps, StepCounter, Steps } from './steps';
import { GateRun } from './workspaceGate';

export const BOUNDARY_SOURCE = 'harn.boundaries';

/** `invalid_utf8` in a file the gate read from disk: a warning, since the gate goes on with U+FFFD there. */
export const GATE_UTF8: InvalidUtf8Context = {
  source: BOUNDARY_SOURCE,
  severity: 'warning',
  consequence: 'the loud-boundary gate reads the file with U+FFFD there, so a boundary id written with these bytes is not found',
};

export function findingDiagnostics(finding: Finding, lineIndex: LineIndex | undefined): WorkbenchDiagnostic[] {
  const ranges = finding.location.ranges.length ? finding.location.ranges : [{ start: 0, end: 0 }];
  // The path upstream names, when it is not the file the finding is shown in (an anchor or test path).
  const where = finding.path !== finding.location.path ? ` (${finding.path})` : '';
  return ranges.map((r) => ({
    range: lineIndex ? lineIndex.rangeOf(r.start, r.end) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error',
    source: BOUNDARY_SOURCE,
    code: finding.kind,
    message: `${finding.id ? `${finding.id}: ` : ''}${finding.message}${where}`,
    data: { id: finding.id, kind: finding.kind, path: finding.path },
  }));
}

/**
 * A gate run's findings as diagnostics in the gate's finding order (upstream's), each with the root-relative
 * file where it is shown (the line index of each file built once from `readFile`). `skip` leaves out findings
 * another check owns.
 */
export function gateRunDiagnosticList(
  run: GateRun,
  readFile: (relative: string) => string | undefined,
  skip: (finding: Finding) => boolean = () => false,
): Array<{ path: string; diagnostic: WorkbenchDiagnostic }> {
  const out: Array<{ path: string; diagnostic: WorkbenchDiagnostic }> = [];
  runSteps(gateRunDiagnosticSteps(run, readFile, skip, (path, diagnostic) => out.push({ path, diagnostic })));
  return out;
}

/** gateRunDiagnosticList in steps (steps.ts), each diagnostic handed to `visit` as it is made. */
export function* gateRunDiagnosticSteps(
  run: GateRun,
  readFile: (relative: string) => string | undefined,
  skip: (finding: Finding) => boolean,
  visit: (path: string, diagnostic: WorkbenchDiagnostic) => void,
): Steps<void> {
  const indexes = new Map<string, LineIndex | undefined>();
  const step = new StepCounter();
  for (const finding of run.result.findings) {
    if (step.tick()) yield;
    if (skip(finding)) continue;
    const where = finding.location.path;
    if (!indexes.has(where)) {
      const text = readFile(where);
      indexes.set(where, text === undefined ? undefined : new LineIndex(text));
    }
    for (const diagnostic of findingDiagnostics(finding, indexes.get(where))) visit(where, diagnostic);
  }
}

/** gateRunDiagnosticList grouped per file (files in the order of their first finding). */
export function gateRunDiagnostics(
  run: GateRun,
  readFile: (relative: string) => string | undefined,
  skip: (finding: Finding) => boolean = () => false,
): Map<string, WorkbenchDiagnostic[]> {
  const byPath = new Map<string, WorkbenchDiagnostic[]>();
  for (const { path, diagnostic } of gateRunDiagnosticList(run, readFile, skip)) {
    const list = byPath.get(path) ?? [];
    byPath.set(path, list);
    list.push(diagnostic);
  }
  return byPath;
}

/** Without a registry the workspace does not use the gate: its one finding says so, and the editor stays quiet. */
export function gateIsInactive(run: GateRun): boolean {
  return run.result.findings.length === 1 && run.result.findings[0]?.kind === 'missing_registry';
}
