// Shared shapes of the run-artifact domain (spec/harn-artifacts.md §1–§3, §7). Artifacts are read line
// by line, from an open document or streamed from disk (VS Code never syncs a file over 50 MB), so
// every position is a 0-based line plus UTF-16 characters within that line.

export type ArtifactKind = 'transcript' | 'eventLog' | 'runRecord' | 'jsonl';

export type ArtifactSeverity = 'error' | 'warning' | 'information' | 'hint';

/** The codes users and tools rely on (issue 4); other `harn.artifacts` codes may be added. */
export type ArtifactCode =
  | 'malformed_jsonl'
  | 'invalid_row'
  | 'unknown_row_type'
  | 'incomplete_source'
  | 'row_after_terminal'
  | 'unbound_tool_result_receipt'
  | 'duplicate_tool_result_receipt'
  | 'unpaired_tool_call'
  | 'event_index_gap'
  | 'event_index_duplicate'
  | 'boundary_failure'
  | 'unreported_boundary_failure';

/** A position span inside one line (or across lines for whole-file notes). */
export interface LineSpan {
  line: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
}

/** A diagnostic found in an artifact. */
export interface ArtifactProblem extends LineSpan {
  /** An ArtifactCode or another code (`string & {}` keeps the known ones offered by completion). */
  code: ArtifactCode | (string & {});
  severity: ArtifactSeverity;
  message: string;
  /** For boundary_failure and friends: boundary id, kind, owner, counts. */
  data?: Record<string, unknown>;
  /** The diagnostic source when not `harn.artifacts` (the directive checks: `harn.directives`). */
  source?: string;
}
