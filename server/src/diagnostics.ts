// The one diagnostic shape every domain produces, shared by the language server and the CLI
// (DESIGN.md "CLI contract"): UTF-16 LSP range, severity name, `harn.*` source, code, message, data.

import { Range } from './text/lineIndex';
import { ArtifactProblem } from './artifacts/types';
import { ARTIFACTS_SOURCE } from './artifacts/validate';
import { HarnAnalysis } from './harn/analysis';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface WorkbenchDiagnostic {
  range: Range;
  severity: Severity;
  source: string;
  code: string;
  message: string;
  data?: Record<string, unknown>;
}

export const SEVERITY_ORDER: Record<Severity, number> = { error: 1, warning: 2, information: 3, hint: 4 };

/** The source of diagnostics about Harn Workbench itself (a check that failed), not about the file's content. */
export const WORKBENCH_SOURCE = 'harn.workbench';

/**
 * A check that threw on one file, said on that file (error severity, code `internal_error`), so a failure is never
 * a silent "no problems"; the file's other checks and every other file are still checked. `what` names the check.
 */
export function internalErrorDiagnostic(what: string, error: unknown, where = 'the Harn Workbench log'): WorkbenchDiagnostic {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error',
    source: WORKBENCH_SOURCE,
    code: 'internal_error',
    message: `Harn Workbench could not finish the ${what} checks of this file (${reason}): a bug in Harn Workbench, not in the file. Its other checks and the other files were still checked; details are in ${where}.`,
  };
}

/** Lexer and parser errors of a `.harn` file, on the offending token. */
export function harnSyntaxDiagnostics(analysis: HarnAnalysis): WorkbenchDiagnostic[] {
  return analysis.parsed.diagnostics.map((d) => ({
    range: analysis.lineIndex.rangeOf(d.start, Math.max(d.start, d.end)),
    severity: 'error',
    source: 'harn.syntax',
    code: d.code,
    message: d.message,
  }));
}

/** A run-artifact problem (line + UTF-16 characters) as a workbench diagnostic. */
export function artifactProblemDiagnostic(p: ArtifactProblem): WorkbenchDiagnostic {
  const d: WorkbenchDiagnostic = {
    range: { start: { line: p.line, character: p.startCharacter }, end: { line: p.endLine, character: p.endCharacter } },
    severity: p.severity,
    source: ARTIFACTS_SOURCE,
    code: String(p.code),
    message: p.message,
  };
  if (p.data) d.data = p.data;
  return d;
}
