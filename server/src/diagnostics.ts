// The one diagnostic shape every domain produces, shared by the language server and the CLI
// (DESIGN.md "CLI contract"): UTF-16 LSP range, severity name, `harn.*` source, code, message, data.

import { Range } from './text/lineIndex';
import { ArtifactProblem } from './artifacts/types';
import { ARTIFACTS_SOURCE } from './artifacts/validate';
import { HarnAnalysis } from './harn/analysis';
import { LineIndex } from './text/lineIndex';
import { hexBytes, InvalidUtf8, replacementRuns } from './text/utf8';

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
    source: p.source ?? ARTIFACTS_SOURCE,
    code: String(p.code),
    message: p.message,
  };
  if (p.data) d.data = p.data;
  return d;
}

/** Encoding diagnostics kept per file; one more says how many places were left out. */
export const MAX_ENCODING_DIAGNOSTICS = 100;

/** What `invalid_utf8` means where it is reported: its source, severity and consequence. */
export interface InvalidUtf8Context {
  source: string;
  severity: Severity;
  /** Ends the message: what follows from the bad bytes for this reader. */
  consequence: string;
}

export const HARN_SOURCE_UTF8: InvalidUtf8Context = { source: 'harn.syntax', severity: 'error', consequence: 'Harn source files must be UTF-8' };

/** `invalid_utf8` on each run of bytes that are not UTF-8 (a file read from disk), at the U+FFFD they were read as. */
export function invalidUtf8Diagnostics(
  invalid: readonly InvalidUtf8[],
  lineIndex: LineIndex,
  context: InvalidUtf8Context = HARN_SOURCE_UTF8,
): WorkbenchDiagnostic[] {
  const shown = invalid.slice(0, MAX_ENCODING_DIAGNOSTICS);
  const out = shown.map((run): WorkbenchDiagnostic => {
    const one = run.bytes.length === 1;
    return {
      range: lineIndex.rangeOf(run.start, run.end),
      severity: context.severity,
      source: context.source,
      code: 'invalid_utf8',
      message: `Not UTF-8: the ${one ? 'byte' : 'bytes'} ${hexBytes(run.bytes)} at byte offset ${run.byteOffset} ${one ? 'is' : 'are'} not UTF-8 (read as U+FFFD); ${context.consequence}.`,
      data: { byteOffset: run.byteOffset },
    };
  });
  const next = invalid[MAX_ENCODING_DIAGNOSTICS];
  if (next !== undefined) {
    out.push({
      range: lineIndex.rangeOf(next.start, next.end),
      severity: context.severity,
      source: context.source,
      code: 'invalid_utf8',
      message: `${invalid.length - MAX_ENCODING_DIAGNOSTICS} more places from here on are not UTF-8; only the first ${MAX_ENCODING_DIAGNOSTICS} are shown.`,
    });
  }
  return out;
}

/**
 * `replacement_character` (warning) on each run of U+FFFD in a `.harn` document an editor sent: that is how an
 * editor shows bytes that are not UTF-8, whose real values only a reader of the bytes (the CLI) can tell apart from
 * a U+FFFD written on purpose.
 */
export function replacementCharacterDiagnostics(analysis: HarnAnalysis): WorkbenchDiagnostic[] {
  const runs = replacementRuns(analysis.text);
  const out = runs.slice(0, MAX_ENCODING_DIAGNOSTICS).map((run): WorkbenchDiagnostic => ({
    range: analysis.lineIndex.rangeOf(run.start, run.end),
    severity: 'warning',
    source: 'harn.syntax',
    code: 'replacement_character',
    message:
      'U+FFFD (the replacement character): how the editor shows bytes of the file that are not UTF-8; saving the file writes U+FFFD in their place. `harn-workbench check` reads the bytes and reports them as invalid_utf8.',
  }));
  const next = runs[MAX_ENCODING_DIAGNOSTICS];
  if (next !== undefined) {
    out.push({
      range: analysis.lineIndex.rangeOf(next.start, next.end),
      severity: 'warning',
      source: 'harn.syntax',
      code: 'replacement_character',
      message: `${runs.length - MAX_ENCODING_DIAGNOSTICS} more runs of U+FFFD from here on; only the first ${MAX_ENCODING_DIAGNOSTICS} are shown.`,
    });
  }
  return out;
}
