// harn/exportTrainingExample: projects a run record into `harn.agent_training_example.v1` and answers with the text
// the CLI prints (the client writes it beside the run record) or the refusal, with where to look. The projector reads
// the run record and its transcript as written on disk (upstream's authority rule), so an open run record with
// unsaved changes is refused: what would be exported is not what the editor shows.

import * as path from 'node:path';
import { z } from 'zod';
import { ExportTrainingExampleRequest, ExportTrainingExampleResult } from '../protocol';
import { projectTrainingExampleAsync } from '../training/project';
import { refusalSpan } from '../training/refusalDiagnostic';
import { lineOfEventIndex } from '../training/rows';
import { trainingExampleJson } from '../training/serialize';
import { readFileText, refusalMessage, regularFileInfo } from '../workspace/files';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { workspaceRefusal } from '../workspace/roots';
import { FeatureContext } from './context';
import { guarded } from './handler';

const ExportTrainingExampleParamsSchema = z.strictObject({ uri: z.string().min(1) });

type Refused = Extract<ExportTrainingExampleResult, { ok: false }>;

const FAILED: Refused = { ok: false, kind: 'internal_error', message: 'Projecting failed; the Harn Workbench log says why.' };

/** `run.json` → `run.training.json`, `x.run.json` → `x.run.training.json` (a final `.json` replaced), beside it. */
export function trainingExampleTarget(runRecord: string): string {
  return runRecord.endsWith('.json') ? `${runRecord.slice(0, -'.json'.length)}.training.json` : `${runRecord}.training.json`;
}

export function registerTrainingExample(ctx: FeatureContext): void {
  ctx.connection.onRequest(
    ExportTrainingExampleRequest,
    guarded(ctx, 'exportTrainingExample', FAILED, async (raw: unknown, token): Promise<ExportTrainingExampleResult> => {
      const params = ExportTrainingExampleParamsSchema.safeParse(raw);
      if (!params.success) {
        const issue = params.error.issues[0];
        return {
          ok: false,
          kind: 'invalid_params',
          message: `Invalid parameters: ${issue ? `${issue.path.join('.') || '(params)'}: ${issue.message}` : 'expected { uri }'}.`,
        };
      }
      const { uri } = params.data;
      const file = uriToPath(uri);
      const name = path.basename(file);
      const outside = workspaceRefusal(file, ctx.roots());
      if (outside !== undefined) return { ok: false, kind: 'outside_workspace', message: outside };
      if (ctx.kindOf(uri) !== 'runRecord')
        return {
          ok: false,
          kind: 'not_a_run_record',
          message: `${name} is not a run record (a run.json, *.run.json, or JSON whose _type is "run_record"): only a run record can be exported as a training example.`,
        };
      // As written: the projector reads the disk, so the open document must say the same.
      const disk = await readFileText(file, { token });
      if (!disk.ok) return 'cancelled' in disk ? FAILED : { ok: false, kind: 'run_record_unreadable', message: `${refusalMessage(disk, name)}.` };
      const open = ctx.documents.get(uri);
      // The editor drops a UTF-8 BOM from the text it shows; the bytes on disk keep it.
      if (open !== undefined && open.getText() !== disk.text.replace(/^\uFEFF/, ''))
        return {
          ok: false,
          kind: 'unsaved_run_record',
          message: `${name} has unsaved changes; a training example is projected from the run record as written on disk. Save it first, then export again.`,
        };
      const outcome = await projectTrainingExampleAsync({ runRecordPath: file }, { token });
      if (outcome === undefined || token.isCancellationRequested) return { ok: false, kind: 'cancelled', message: 'The export was cancelled.' };
      if (outcome.ok) {
        const target = trainingExampleTarget(file);
        // Anything there (a file, or even a folder the write would then fail on) is asked about first.
        const there = regularFileInfo(target);
        return {
          ok: true,
          text: trainingExampleJson(outcome.example),
          target: pathToUri(target),
          exists: there.ok || there.code !== 'missing',
          messages: outcome.example.messages.length,
        };
      }
      const { refusal } = outcome;
      const answer: Refused = { ok: false, kind: refusal.kind, message: refusal.message };
      if (refusal.event_index !== undefined) answer.eventIndex = refusal.event_index;
      const row =
        refusal.event_index === undefined || outcome.transcriptPath === undefined ? undefined : await rowOf(outcome.transcriptPath, refusal.event_index, token);
      answer.open = row ?? { uri, line: refusalSpan(disk.text).line };
      return answer;
    }),
  );
}

/** The transcript's line of a 1-based row, to open; undefined when it cannot be read (the run record is opened then). */
async function rowOf(transcript: string, eventIndex: number, token: { isCancellationRequested: boolean }): Promise<{ uri: string; line: number } | undefined> {
  const read = await readFileText(transcript, { token });
  if (!read.ok) return undefined;
  const line = lineOfEventIndex(read.text, eventIndex);
  return line === undefined ? undefined : { uri: pathToUri(transcript), line };
}
