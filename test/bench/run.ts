// Benchmarks (`npm run bench`). Every figure is printed as a METRIC line, read mechanically:
//   METRIC <name> <value> <unit> goal <op><target>
// Ratios are measured against an anchor run in the same process, interleaved, so machine noise
// affects both sides alike. These are never assertions in `npm test`. The benchmark runs bundled by
// esbuild, like the shipped server (tsx's per-file transform turns enum reads into getter calls).

import { spawnSync } from 'node:child_process';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { artifactChild, runArtifactBenchmarks } from './artifacts';
import { runBigRegistryBenchmarks } from './bigRegistry';
import { runBoundaryBenchmarks } from './boundaries';
import { runWorkspaceScanBenchmarks } from './workspaceScan';
import { directiveChild, runDirectiveBenchmarks } from './directives';
import { runRunControlBenchmarks } from './runControl';
import { runTrainingBenchmarks } from './training';

function metric(name: string, value: number, unit: string, goal: string): void {
  console.log(`METRIC ${name} ${value.toFixed(2)} ${unit} goal ${goal}`);
}

/** Runs this same script as a child measuring one parser alone (see parseRate). */
function childRate(side: 'harn' | 'typescript'): number {
  const result = spawnSync(process.execPath, [__filename, '--child-parse-rate', side], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`child ${side} failed: ${result.stderr}`);
  return Number(result.stdout.trim());
}

async function main(): Promise<void> {
  // ./harn loads TypeScript (~50 MB of RSS): imported only where used, so the artifact children measure without it.
  if (process.argv[2] === '--child-directives') {
    directiveChild(process.argv.slice(3));
    return;
  }
  if (process.argv[2] === '--child-artifacts') {
    artifactChild(process.argv.slice(3));
    return;
  }
  if (process.argv[2] === '--child-parse-rate') {
    const { parseRate } = await import('./harn');
    const side = process.argv[3] === 'typescript' ? 'typescript' : 'harn';
    console.log(parseRate(side, side === 'harn' ? corpusFiles().map((f) => readCorpus(f)) : []));
    return;
  }
  if (process.argv[2] === '--child-index') {
    (await import('./harnIndex')).indexBenchmarkChild(process.argv[3] ?? '', () => corpusFiles().map((f) => readCorpus(f)), metric);
    return;
  }
  const only = process.argv.slice(2);
  const wanted = (name: string): boolean => only.length === 0 || only.some((o) => name.startsWith(o));
  if (corpusSkip) {
    console.log(`SKIP harn benchmarks: ${corpusSkip}`);
  } else {
    const sources = corpusFiles().map((f) => readCorpus(f));
    const { runHarnBenchmarks } = await import('./harn');
    runHarnBenchmarks(sources, metric, wanted, childRate);
    const { runKeystrokeBenchmarks } = await import('./keystroke');
    runKeystrokeBenchmarks(sources, metric, wanted);
    (await import('./format')).runFormatBenchmarks(sources, metric, wanted);
  }
  {
    const { runParserEdgeBenchmarks } = await import('./parserEdges');
    runParserEdgeBenchmarks(corpusSkip ? undefined : corpusFiles().map((f) => readCorpus(f)), metric, wanted);
  }
  {
    const { runHarnIndexBenchmarks } = await import('./harnIndex');
    runHarnIndexBenchmarks(!corpusSkip, wanted, __filename);
  }
  runBoundaryBenchmarks(metric, wanted);
  await runBigRegistryBenchmarks(metric, wanted);
  await runArtifactBenchmarks(metric, wanted, __filename);
  await runWorkspaceScanBenchmarks(metric, wanted);
  runDirectiveBenchmarks(metric, wanted, __filename);
  runRunControlBenchmarks(metric, wanted);
  runTrainingBenchmarks(metric, wanted);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
