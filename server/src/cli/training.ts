// `training-example RUN_RECORD`: the run projected into harn.agent_training_example.v1 (training/project.ts) as
// JSON on stdout or in --out FILE (exit 0), or the refusal as one JSON object on stderr (exit 1).

import * as fs from 'node:fs';
import { nodeRunRecordFs } from '../artifacts/runRecord';
import { projectTrainingExample } from '../training/project';
import { trainingExampleJson } from '../training/serialize';
import { ParsedArgs, UsageError } from './args';

export function runTrainingExample(args: ParsedArgs, maxLineBytes: number | undefined): number {
  const [runRecordPath, ...extra] = args.positional;
  if (runRecordPath === undefined) throw new UsageError('training-example needs RUN_RECORD (a run.json)', 'training-example');
  if (extra.length > 0) throw new UsageError(`training-example takes one RUN_RECORD, not also ${JSON.stringify(extra[0])}`, 'training-example');
  const runId = args.options.get('--run-id');
  const sessionId = args.options.get('--session-id');
  const out = args.options.get('--out');
  if (out === '') throw new UsageError('--out needs a file name', 'training-example');
  const outcome = projectTrainingExample(
    { runRecordPath, ...(runId === undefined ? {} : { runId }), ...(sessionId === undefined ? {} : { sessionId }) },
    nodeRunRecordFs,
    { maxLineBytes },
  );
  if (!outcome.ok) {
    const { kind, message, event_index } = outcome.refusal;
    process.stderr.write(JSON.stringify(event_index === undefined ? { kind, message } : { kind, message, event_index }) + '\n');
    return 1;
  }
  const json = trainingExampleJson(outcome.example);
  if (out === undefined) {
    process.stdout.write(json);
    return 0;
  }
  try {
    fs.writeFileSync(out, json);
  } catch (e) {
    process.stderr.write(`harn-workbench: cannot write ${out}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  return 0;
}
