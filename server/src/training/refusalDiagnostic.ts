// A run record that cannot be projected into a training example says so where a reader looks: one information
// diagnostic (source `harn.training`, code the refusal kind) on the `llm_jsonl` pointer's `descriptor` key, else the
// pointer, else the top of the file. The editor and `check` build it here, so both report the same thing.

import { parseRunRecord } from '../artifacts/runRecord';
import { LineSpan } from '../artifacts/types';
import { WorkbenchDiagnostic } from '../diagnostics';
import { TrainingRefusal } from './example';

export const TRAINING_SOURCE = 'harn.training';

/** Where a projection refusal is shown in the run record's text (0-based line, UTF-16 characters). */
export function refusalSpan(runRecordText: string): LineSpan {
  const pointer = parseRunRecord(runRecordText).pointers[0];
  return pointer?.descriptor?.keySpan ?? pointer?.span ?? { line: 0, startCharacter: 0, endLine: 0, endCharacter: 0 };
}

/** Absolute paths in upstream's messages, and how to show them (relative to the root, as every other message). */
export interface ShownPaths {
  /** The files the projection read (the run record, its transcript). */
  files: readonly string[];
  show(absolute: string): string;
}

export function refusalMessage(refusal: TrainingRefusal, paths?: ShownPaths): string {
  const row = refusal.event_index === undefined ? '' : ` (transcript row ${refusal.event_index})`;
  let message = refusal.message;
  // Longest first, so that a path inside another is not cut short.
  for (const file of [...(paths?.files ?? [])].sort((a, b) => b.length - a.length)) message = message.split(file).join(paths?.show(file) ?? file);
  return `This run cannot be exported as a training example: ${message}${row}`;
}

export function projectionRefusalDiagnostic(runRecordText: string, refusal: TrainingRefusal, paths?: ShownPaths): WorkbenchDiagnostic {
  const span = refusalSpan(runRecordText);
  const d: WorkbenchDiagnostic = {
    range: { start: { line: span.line, character: span.startCharacter }, end: { line: span.endLine, character: span.endCharacter } },
    severity: 'information',
    source: TRAINING_SOURCE,
    code: refusal.kind,
    message: refusalMessage(refusal, paths),
  };
  if (refusal.event_index !== undefined) d.data = { event_index: refusal.event_index };
  return d;
}
