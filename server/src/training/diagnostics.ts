// A training example file's problems as workbench diagnostics (the one shape the CLI and the server share), with
// the bytes that are not UTF-8 when the file was read from disk: upstream reads an example file with
// `read_to_string`, which refuses such a file, so each run of them is an error where the editor shows U+FFFD.

import { MAX_LINE_BYTES_LIMIT } from '../artifacts/jsonl';
import { artifactProblemDiagnostic, invalidUtf8Diagnostics, WorkbenchDiagnostic } from '../diagnostics';
import { LineIndex } from '../text/lineIndex';
import { InvalidUtf8 } from '../text/utf8';
import { TRAINING_SOURCE, TrainingFileFormat, TrainingValidateOptions, validateTrainingFile } from './validate';

export function trainingFileDiagnostics(
  text: string,
  format: TrainingFileFormat,
  invalid: readonly InvalidUtf8[] = [],
  options: TrainingValidateOptions = {},
): WorkbenchDiagnostic[] {
  const out: WorkbenchDiagnostic[] = [];
  if (invalid.length > 0) {
    const context = {
      source: TRAINING_SOURCE,
      severity: 'error' as const,
      consequence: 'upstream reads training examples as UTF-8 text and refuses this file',
    };
    const bom = text.charCodeAt(0) === 0xfeff;
    for (const d of invalidUtf8Diagnostics(invalid, new LineIndex(text), context)) {
      // VS Code hides a BOM: characters of line 0 are counted after it.
      if (bom && d.range.start.line === 0) d.range.start.character = Math.max(0, d.range.start.character - 1);
      if (bom && d.range.end.line === 0) d.range.end.character = Math.max(0, d.range.end.character - 1);
      out.push(d);
    }
  }
  for (const p of validateTrainingFile(text, format, options).problems) out.push(artifactProblemDiagnostic(p));
  return out;
}

/** A training example file too large to hold as one string here (the CLI reads an example file whole). */
export function trainingFileTooLarge(size: number): WorkbenchDiagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error',
    source: TRAINING_SOURCE,
    code: 'file_too_large',
    message: `Not checked: the file is ${size} bytes, over the ${MAX_LINE_BYTES_LIMIT} bytes it can be read as one text here. Split it into smaller files.`,
    data: { size, limit: MAX_LINE_BYTES_LIMIT },
  };
}
