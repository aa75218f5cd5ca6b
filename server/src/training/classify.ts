// Which files are training example files (spec/harn-artifacts.md §5): `*.training.json` (one example),
// `*.training.jsonl` (one example per line, as `harn models lora export` reads them), and any other `.json` whose
// top-level `schema_version` is `harn.agent_training_example.v1`. Asked before the run-artifact globs, so that a
// `run.training.json` is not taken for a run record nor an `llm_transcript.training.jsonl` for a transcript.
// Shared by the language server's router and the CLI. Pure but for the lazily read head of the file.

import { topLevelProperty } from '../artifacts/validate';
import { TRAINING_EXAMPLE_SCHEMA_VERSION } from './example';
import type { TrainingFileFormat } from './validate';

/** The format a training example file's name gives (only meaningful for a file the router took for one). */
export function trainingFormatOf(file: string): TrainingFileFormat {
  return /\.jsonl$/i.test(file) ? 'jsonl' : 'json';
}

/** The training example format of `file`, or undefined when it is none; `head` gives its first lines (read lazily). */
export function trainingFileFormat(file: string, head: () => readonly string[]): TrainingFileFormat | undefined {
  if (/\.training\.jsonl$/i.test(file)) return 'jsonl';
  if (/\.training\.json$/i.test(file)) return 'json';
  if (!/\.json$/i.test(file)) return undefined;
  return declaresTrainingSchema(head().join('\n')) ? 'json' : undefined;
}

const SCHEMA_VERSION_V1 = /"schema_version"\s*:\s*"harn\.agent_training_example\.v1"/;

/** Whether the (possibly cut-off) JSON text's top-level `schema_version` is the v1 string (serde writes it first). */
export function declaresTrainingSchema(text: string): boolean {
  // Cheap rejection before tokenizing.
  if (!SCHEMA_VERSION_V1.test(text)) return false;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const at = topLevelProperty(body, 'schema_version');
  if (at === undefined) return false;
  try {
    return JSON.parse(body.slice(at.valueStart, at.end)) === TRAINING_EXAMPLE_SCHEMA_VERSION;
  } catch {
    return false;
  }
}
