// Run-control benchmark (issue 12): run_control_replay_vs_json_parse, the throughput of replaying a generated 50 MB
// run-control log (each row's schema, upstream's validate(), the fingerprint of each request and the replay's
// model) relative to only splitting the same text into lines and JSON.parse-ing each, in the same process,
// interleaved. A ratio of 1 is as fast as parsing alone; the goal is at least 0.6.

import { forEachTextLine } from '../../server/src/artifacts/jsonl';
import { RunControlReplay } from '../../server/src/runControl/replay';
import { LogWriter } from '../support/runControlLog';
import { median, mulberry32 } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

const WORDS = 'only fix the failing parser test and then run lexer suite stop refactoring keep answer short 読む café ✓'.split(' ');

/** A log of many runs written by the inbox model: turns, steers applied, interrupts settled by the close. */
export function generateRunControlLog(targetBytes: number, seed = 12): string {
  const random = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const words = (n: number): string => Array.from({ length: n }, () => WORDS[int(0, WORDS.length - 1)] ?? 'x').join(' ');
  const chunks: string[] = [];
  let bytes = 0;
  let runNumber = 0;
  let now = 1_767_000_000_000;
  while (bytes < targetBytes) {
    const log = new LogWriter(`sess-${runNumber % 7}`, `run-${runNumber}`, `rc-${runNumber}`);
    runNumber++;
    for (let turn = 1; turn <= int(20, 60); turn++) {
      log.turn(turn);
      for (let i = int(0, 3); i > 0; i--) log.submit(log.request({ kind: 'steer', input: words(int(5, 40)) }), (now += 3));
      if (random() < 0.8) log.applyAll((now += 5));
    }
    log.submit(log.request({ kind: 'interrupt', reason: words(int(1, 8)), force: random() < 0.3 }), (now += 2));
    log.close((now += 7));
    const text = log.text();
    chunks.push(text);
    bytes += text.length;
  }
  return chunks.join('');
}

function replayAll(text: string): number {
  let findings = 0;
  const replay = new RunControlReplay(() => findings++);
  forEachTextLine(text, (row, line) => replay.row(row, line));
  replay.finish();
  return findings;
}

function parseAll(text: string): number {
  let rows = 0;
  forEachTextLine(text, (row) => {
    if (JSON.parse(row) !== null) rows++;
  });
  return rows;
}

function time(run: () => number): { ms: number; result: number } {
  const start = process.hrtime.bigint();
  const result = run();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

export function runRunControlBenchmarks(metric: Metric, wanted: (name: string) => boolean): void {
  if (!wanted('run_control_replay_vs_json_parse')) return;
  const text = generateRunControlLog(50 * 1024 * 1024);
  const ratios: number[] = [];
  for (let round = 0; round < 5; round++) {
    const parse = time(() => parseAll(text));
    const replay = time(() => replayAll(text));
    if (replay.result !== 0) throw new Error(`the generated log should replay clean, found ${replay.result} findings`);
    ratios.push(parse.ms / replay.ms);
  }
  metric('run_control_replay_vs_json_parse', median(ratios), 'ratio', '>=0.6');
}
