// The parser on inputs that once were, or could become, slow: a 1 MB single line, nested speculative
// generic calls (`a < b > (` …), thousands of unclosed braces, mutated corpus files. These were
// wall-clock limits in the unit tests; here each is a ratio against an anchor measured in the same run,
// interleaved: TypeScript's parser on the same text, the same parser on half the input (linear growth
// is 2×), or the same parser on the unmutated files.

import ts from 'typescript';
import { parse } from '../../server/src/harn/parser';
import { fuzzCase } from '../support/fuzz';
import { megabyteLine, nestedGenericCalls, unclosedBraces } from '../support/parserInputs';
import { median } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

/** Seconds for `reps` runs of `body`. */
function time(body: () => void, reps: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) body();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** The median over `rounds` interleaved rounds of time(b) / time(a), after warming both up. */
function timeRatio(a: () => void, b: () => void, rounds: number, reps: number): number {
  for (let i = 0; i < 3; i++) {
    a();
    b();
  }
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const ta = time(a, reps);
    const tb = time(b, reps);
    ratios.push(tb / ta);
  }
  return median(ratios);
}

const typescriptParse = (text: string) => (): void => {
  ts.createSourceFile('bench.ts', text, ts.ScriptTarget.Latest, false);
};
const harnParse = (text: string) => (): void => {
  parse(text);
};

export function runParserEdgeBenchmarks(sources: string[] | undefined, metric: Metric, wanted: (name: string) => boolean): void {
  if (wanted('megabyte_line_vs_typescript')) {
    const text = megabyteLine();
    // TypeScript's time over ours: above 1, ours is faster.
    metric('megabyte_line_vs_typescript', timeRatio(harnParse(text), typescriptParse(text), 7, 1), 'x', '>=1');
  }
  if (wanted('nested_generic_calls_vs_typescript')) {
    const text = nestedGenericCalls(40);
    metric('nested_generic_calls_vs_typescript', timeRatio(harnParse(text), typescriptParse(text), 9, 20), 'x', '>=1');
  }
  if (wanted('nested_generic_calls_scaling')) {
    // Twice the levels over the levels: 2 when the time is linear (a retry per level doubled it per level).
    metric('nested_generic_calls_scaling', timeRatio(harnParse(nestedGenericCalls(40)), harnParse(nestedGenericCalls(80)), 9, 10), 'x', '<=2.5');
  }
  if (wanted('unclosed_braces_scaling')) {
    // TypeScript's parser overflows its stack on these, so the anchor is ours on half the lines.
    metric('unclosed_braces_scaling', timeRatio(harnParse(unclosedBraces(20_000)), harnParse(unclosedBraces(40_000)), 7, 1), 'x', '<=2.5');
  }
  if (wanted('mutated_corpus_vs_corpus')) {
    if (!sources) {
      console.log('SKIP mutated_corpus_vs_corpus: no corpus');
      return;
    }
    // Broken input takes the recovery paths: its throughput over that of the same files unmutated.
    const named = sources.map((text, i) => [String(i), text] as const);
    const cases = Array.from({ length: 2000 }, (_, i) => fuzzCase(0x5eed_2026 + i, named));
    const originals = cases.map((c) => named[Number(c.source)]?.[1] ?? '');
    const bytes = (texts: string[]): number => texts.reduce((n, t) => n + t.length, 0);
    const mutated = cases.map((c) => c.text);
    const perByte = bytes(mutated) / bytes(originals);
    const ratio = timeRatio(
      () => originals.forEach((t) => parse(t)),
      () => mutated.forEach((t) => parse(t)),
      7,
      1,
    );
    // time(mutated) / time(originals) scaled by their sizes: the mutated files' throughput relative to the originals'.
    metric('mutated_corpus_vs_corpus', perByte / ratio, 'x', '>=0.5');
  }
}
