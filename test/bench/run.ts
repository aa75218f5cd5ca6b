// Benchmarks (`npm run bench`). Every figure is printed as a METRIC line, read mechanically:
//   METRIC <name> <value> <unit> goal <op><target>
// Ratios are measured against an anchor run in the same process, interleaved, so machine noise
// affects both sides alike. These are never assertions in `npm test`.

import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { runHarnBenchmarks } from './harn';

function metric(name: string, value: number, unit: string, goal: string): void {
  console.log(`METRIC ${name} ${value.toFixed(2)} ${unit} goal ${goal}`);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const wanted = (name: string): boolean => only.length === 0 || only.some((o) => name.startsWith(o));
  if (corpusSkip) {
    console.log(`SKIP harn benchmarks: ${corpusSkip}`);
    return;
  }
  const sources = corpusFiles().map((f) => readCorpus(f));
  await runHarnBenchmarks(sources, metric, wanted);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
