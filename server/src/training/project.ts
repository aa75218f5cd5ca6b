// The one authoritative projection of a finished run into `harn.agent_training_example.v1` (spec §5; upstream's
// training_example/mod.rs `project_agent_training_example`): every fact present and typed, or a structured refusal
// saying why. No lenient mode, no fallback, no selection by output length or a `DONE` substring.
//
// Upstream's order: the run record as written (unreadable → run_record_unreadable; never a re-derived descriptor,
// so a transcript edited after the run finalised fails on its digest) → the expected run id → the first llm_jsonl
// pointer's descriptor checks (artifacts/runRecord.ts, the same checks as the run record's diagnostics) →
// missing_descriptor → incomplete_source → the strict row load (source.ts) → the replay (replay.ts) → pairing.
//
// The transcript is read once: the descriptor scan hashes it and hands each parsed row to the strict load.
// Where this differs from upstream on purpose: a run record path is made absolute first (so invalid_run_path is
// only the run's folder not resolving); a transcript reached through a symbolic link leaving the run's folder is
// path_traversal (upstream reads it); a transcript line over harn.artifacts.maxLineBytes is `line_too_long`
// (upstream has no bound); a run record over 256 MB is run_record_unreadable.

import * as nodePath from 'node:path';
import {
  LLM_JSONL,
  nodeRunRecordFs,
  parseRunRecord,
  transcriptFactsConsumer,
  verifiedTranscriptPointer,
  type ParsedRunRecord,
  type RunRecordFs,
  type TranscriptFacts,
  type TranscriptPointerVerdict,
} from '../artifacts/runRecord';
import { consumeFile, readFileBytes, type ByteConsumer, type CancellationLike } from '../workspace/files';
import type { AgentTrainingExample, TrainingExampleRequest, TrainingRefusal } from './example';
import { Refused, Replay, type DescriptorFacts, type ReplayContext } from './replay';
import { StrictRowLoad } from './source';

export type ProjectionOutcome =
  | { ok: true; example: AgentTrainingExample; transcriptPath: string }
  // transcriptPath: the absolute transcript file, whenever it was resolved (so an event_index can be opened)
  | { ok: false; refusal: TrainingRefusal; transcriptPath?: string };

/** The largest run record read (as the artifacts domain bounds the files it reads for compactions). */
export const MAX_RUN_RECORD_BYTES = 256 * 1024 * 1024;

export interface ProjectionOptions {
  /** Transcript lines longer than this are not read (`line_too_long`); default the artifacts domain's. */
  maxLineBytes?: number;
}

const refuse = (refusal: TrainingRefusal, transcriptPath?: string): ProjectionOutcome =>
  transcriptPath === undefined ? { ok: false, refusal } : { ok: false, refusal, transcriptPath };

function collectBytes(limit: number): ByteConsumer<Buffer | number> {
  return (function* () {
    const chunks: Buffer[] = [];
    let total = 0;
    for (let chunk = yield { read: 'next' }; chunk !== undefined; chunk = yield { read: 'next' }) {
      total += chunk.length;
      if (total > limit) return total;
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks, total);
  })();
}

/** Rust's `read_to_string` then `serde_json::from_str` into RunRecord, refusing as upstream's `load_run`. */
function loadRun(shown: string, bytes: Buffer): { parsed: ParsedRunRecord; id: string } | TrainingRefusal {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: 'run_record_unreadable', message: `failed to read ${shown}: stream did not contain valid UTF-8` };
  }
  // serde_json does not skip a BOM: the text is not JSON to it.
  if (text.startsWith('\uFEFF')) return { kind: 'run_record_unreadable', message: `failed to parse ${shown}: expected value at line 1 column 1 (a BOM)` };
  const parsed = parseRunRecord(text);
  const problem = parsed.problems[0];
  if (problem || !parsed.record) {
    const why = problem ? `${problem.message} (line ${problem.line + 1}, column ${problem.startCharacter + 1})` : 'not a run record';
    return { kind: 'run_record_unreadable', message: `failed to parse ${shown}: ${why}` };
  }
  return { parsed, id: parsed.record.id ?? '' };
}

/** The descriptor of the first llm_jsonl pointer as the typed record holds it (serde defaults for absent fields). */
function descriptorFacts(parsed: ParsedRunRecord): (DescriptorFacts & { complete: boolean }) | undefined {
  const pointer = parsed.record?.observability?.transcript_pointers?.find((p) => p.kind === LLM_JSONL);
  const d = pointer?.descriptor;
  if (!d) return undefined;
  return {
    schema_version: d.schema_version ?? '',
    session_id: d.session_id ?? null,
    sha256: d.sha256 ?? '',
    byte_len: d.byte_len ?? 0,
    terminal_status: d.terminal_status ?? null,
    complete: d.complete ?? false,
  };
}

/** Everything after the run record was read: the verdict on its transcript, then the rows, then the replay. */
class Projection {
  readonly rows = new StrictRowLoad();
  constructor(
    readonly request: TrainingExampleRequest,
    readonly runRecordPath: string,
    readonly parsed: ParsedRunRecord,
    readonly runId: string,
  ) {}

  /** The refusal before the replay, or the replay ready to run. */
  prepare(verdict: TranscriptPointerVerdict): { outcome: ProjectionOutcome } | { replay: Replay; events: StrictRowLoad['events']; file: string } {
    if (!verdict.ok) return { outcome: refuse(verdict.error, verdict.file) };
    const file = verdict.file;
    const descriptor = descriptorFacts(this.parsed);
    if (!descriptor) return { outcome: refuse({ kind: 'missing_descriptor', message: 'run has no llm_jsonl descriptor' }, file) };
    if (!descriptor.complete) {
      return { outcome: refuse({ kind: 'incomplete_source', message: `${verdict.joined} has no terminal record; the run did not finalize` }, file) };
    }
    const loadError = this.rows.refusal(verdict.joined);
    if (loadError) return { outcome: refuse(loadError, file) };
    const stages = this.parsed.record?.stages ?? [];
    const context: ReplayContext = {
      request: this.request,
      runId: this.runId,
      stageId: stages.length === 1 ? (stages[0]?.id ?? '') : undefined,
      descriptor,
      transcriptPath: verdict.joined,
      eventCount: this.rows.count,
      firstEventIndex: 1,
      lastEventIndex: this.rows.lastIndex,
      firstEventId: this.rows.firstIdentity,
      lastEventId: this.rows.lastIdentity,
    };
    try {
      return { replay: new Replay(this.rows.events, context), events: this.rows.events, file };
    } catch (e) {
      if (e instanceof Refused) return { outcome: refuse(e.refusal, file) };
      throw e;
    }
  }
}

function refusedOr<T>(file: string, run: () => T): T | ProjectionOutcome {
  try {
    return run();
  } catch (e) {
    if (e instanceof Refused) return refuse(e.refusal, file);
    throw e;
  }
}

/** Reads the run record and checks the expected run id; the projection, or the refusal. */
function begin(request: TrainingExampleRequest, bytes: Buffer | number | Error): Projection | ProjectionOutcome {
  const shown = request.runRecordPath;
  if (bytes instanceof Error) return refuse({ kind: 'run_record_unreadable', message: `failed to read ${shown}: ${bytes.message}` });
  if (typeof bytes === 'number') {
    return refuse({
      kind: 'run_record_unreadable',
      message: `failed to read ${shown}: it is over ${MAX_RUN_RECORD_BYTES} bytes, the most a run record is read to`,
    });
  }
  const run = loadRun(shown, bytes);
  if ('kind' in run) return refuse(run);
  if (request.runId !== undefined && run.id !== request.runId) {
    return refuse({ kind: 'run_id_mismatch', message: `${shown} holds run ${run.id}, not the requested ${request.runId}` });
  }
  return new Projection(request, nodePath.resolve(request.runRecordPath), run.parsed, run.id);
}

function finishOutcome(replay: Replay, file: string): ProjectionOutcome {
  const example = refusedOr(file, () => replay.finish());
  return 'ok' in example ? example : { ok: true, example, transcriptPath: file };
}

/** Projects a run synchronously (the CLI, tests). `fs` is the file system the run record and transcript are read through. */
export function projectTrainingExample(request: TrainingExampleRequest, fs: RunRecordFs = nodeRunRecordFs, options: ProjectionOptions = {}): ProjectionOutcome {
  let bytes: Buffer | number | Error;
  try {
    bytes = fs.consume(nodePath.resolve(request.runRecordPath), collectBytes(MAX_RUN_RECORD_BYTES));
  } catch (e) {
    bytes = e instanceof Error ? e : new Error(String(e));
  }
  const projection = begin(request, bytes);
  if (!(projection instanceof Projection)) return projection;
  const verdict = verifiedTranscriptPointer(projection.parsed, projection.runRecordPath, fs, {
    maxLineBytes: options.maxLineBytes,
    // The one read of the transcript: hashed and scanned for the descriptor checks, its rows kept for the replay.
    facts: (file) => fs.consume(file, transcriptFactsConsumer({ maxLineBytes: options.maxLineBytes, onRow: projection.rows.add })),
  });
  const prepared = projection.prepare(verdict);
  if ('outcome' in prepared) return prepared.outcome;
  const { replay, events, file } = prepared;
  const walked = refusedOr(file, () => {
    for (const event of events) replay.ingest(event);
  });
  if (walked) return walked;
  return finishOutcome(replay, file);
}

/** Events replayed between two yields to the event loop. */
const EVENTS_PER_SLICE = 2000;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Projects a run without blocking the event loop for long (the server): files read in chunks, the replay in
 * slices. Undefined once cancelled.
 */
export async function projectTrainingExampleAsync(
  request: TrainingExampleRequest,
  options: {
    token?: CancellationLike;
    maxLineBytes?: number;
    /** Told the transcript's size and mtime as it was opened and read (what the outcome says is true of that state). */
    onTranscriptRead?: (file: string, size: number, mtimeMs: number) => void;
  } = {},
): Promise<ProjectionOutcome | undefined> {
  const { token } = options;
  const read = await readFileBytes(nodePath.resolve(request.runRecordPath), { maxBytes: MAX_RUN_RECORD_BYTES, token });
  if (!read.ok && 'cancelled' in read) return undefined;
  let bytes: Buffer | number | Error;
  if (read.ok) bytes = read.bytes;
  else if (read.code === 'too_large') bytes = MAX_RUN_RECORD_BYTES + 1;
  else bytes = new Error(read.reason);
  const projection = begin(request, bytes);
  if (!(projection instanceof Projection)) return projection;

  // First learn which file the verification reads, then read it asynchronously once, then verify with its facts.
  let wanted: string | undefined;
  verifiedTranscriptPointer(projection.parsed, projection.runRecordPath, nodeRunRecordFs, {
    facts: (file) => {
      wanted = file;
      return 'pending';
    },
  });
  let facts: TranscriptFacts | Error | undefined;
  if (wanted !== undefined) {
    const consumed = await consumeFile(wanted, transcriptFactsConsumer({ maxLineBytes: options.maxLineBytes, onRow: projection.rows.add }), {
      noFollow: true,
      token,
    });
    if (!consumed.ok && 'cancelled' in consumed) return undefined;
    if (consumed.ok) options.onTranscriptRead?.(wanted, consumed.size, consumed.mtimeMs);
    if (!consumed.ok) facts = new Error(consumed.reason);
    else if (consumed.readError !== undefined) facts = new Error(consumed.readError);
    else facts = consumed.value;
  }
  if (token?.isCancellationRequested) return undefined;
  const verdict = verifiedTranscriptPointer(projection.parsed, projection.runRecordPath, nodeRunRecordFs, {
    maxLineBytes: options.maxLineBytes,
    facts: (file) => (file === wanted && facts !== undefined ? facts : new Error('the transcript changed while it was read')),
  });
  const prepared = projection.prepare(verdict);
  if ('outcome' in prepared) return prepared.outcome;
  const { replay, events, file } = prepared;
  for (let start = 0; start < events.length; start += EVENTS_PER_SLICE) {
    if (start > 0) {
      await yieldToLoop();
      if (token?.isCancellationRequested) return undefined;
    }
    const walked = refusedOr(file, () => {
      for (const event of events.slice(start, start + EVENTS_PER_SLICE)) replay.ingest(event);
    });
    if (walked) return walked;
  }
  return finishOutcome(replay, file);
}
