// Training projection benchmark (issue 13): training_projection_vs_json_parse, the throughput of projecting a
// generated 50 MB run (reading run.json, the transcript hashed, scanned and kept once, the descriptor checks, the
// strict row load, the replay and the pairing check) relative to only splitting the same transcript text into
// lines and JSON.parse-ing each, in the same process, interleaved. A ratio of 1 is as fast as parsing alone; the
// goal is at least 0.5.

import * as fs from 'node:fs';
import { forEachTextLine } from '../../server/src/artifacts/jsonl';
import { projectTrainingExample } from '../../server/src/training/project';
import { conversation, transcriptText, writeTrainingRun, type ConversationTurn } from '../support/trainingRuns';
import { median, mulberry32 } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

const WORDS = 'read the failing parser test then grep lexer suite and edit the file keep answer short 読む café ✓ "quoted" \\ back'.split(' ');

/** A run of one long session: turns of 0..3 tool calls with results of a few KB, until the transcript is ~targetBytes. */
export function generateTrainingRun(targetBytes: number, seed = 13): ReturnType<typeof writeTrainingRun> {
  const random = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const words = (n: number): string => Array.from({ length: n }, () => WORDS[int(0, WORDS.length - 1)] ?? 'x').join(' ');
  const turns: ConversationTurn[] = [];
  let bytes = 0;
  while (bytes < targetBytes) {
    const calls = Array.from({ length: int(0, 3) }, () => ({
      name: ['read', 'grep', 'edit'][int(0, 2)] ?? 'read',
      arguments: { path: `src/${words(1)}.ts`, line: int(1, 900) },
      result: words(int(50, 900)),
    }));
    const turn = { text: words(int(5, 60)), calls };
    turns.push(turn);
    // Each call's result and arguments are written twice or so (message + receipts), the prose twice (response + message).
    bytes += 2 * Buffer.byteLength(turn.text) + calls.reduce((n, c) => n + Buffer.byteLength(c.result) + 600, 900);
  }
  // The estimate above is rough: measure the rows once and keep the share of turns that makes targetBytes.
  const measured = Buffer.byteLength(transcriptText(conversation({ channel: 'text', user: 'fix the parser', turns }).rows));
  const kept = turns.slice(0, Math.max(1, Math.floor((turns.length * targetBytes) / measured)));
  kept.push({ text: 'done', calls: [] });
  return writeTrainingRun({ rows: conversation({ channel: 'text', user: 'fix the parser', turns: kept }).rows });
}

function parseAll(text: string): number {
  let rows = 0;
  forEachTextLine(text, (row) => {
    if (row.trim() && JSON.parse(row) !== null) rows++;
  });
  return rows;
}

function time<T>(run: () => T): { ms: number; result: T } {
  const start = process.hrtime.bigint();
  const result = run();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

export function runTrainingBenchmarks(metric: Metric, wanted: (name: string) => boolean): void {
  if (!wanted('training_projection_vs_json_parse')) return;
  const run = generateTrainingRun(50 * 1024 * 1024);
  try {
    const text = fs.readFileSync(run.transcriptPath, 'utf8');
    const ratios: number[] = [];
    for (let round = 0; round < 5; round++) {
      const parse = time(() => parseAll(text));
      const projection = time(() => projectTrainingExample({ runRecordPath: run.runPath }));
      if (!projection.result.ok) throw new Error(`the generated run should project, refused: ${JSON.stringify(projection.result.refusal)}`);
      if (projection.result.example.provenance.source.event_count !== parse.result) throw new Error('projection and parse saw different rows');
      ratios.push(parse.ms / projection.ms);
    }
    metric('training_projection_vs_json_parse', median(ratios), 'ratio', '>=0.5');
  } finally {
    fs.rmSync(run.dir, { recursive: true, force: true });
  }
}
