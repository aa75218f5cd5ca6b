// Workspace index benchmarks: building the index of the shared corpus against parsing it alone, and references of
// a widely used name in a generated 3,000-file workspace once it is indexed.

import { spawnSync } from 'node:child_process';
import { indexText } from '../../server/src/harn/index/fileIndex';
import { referencesAt } from '../../server/src/harn/index/references';
import { WorkspaceIndex } from '../../server/src/harn/index/workspaceIndex';
import { resolveImport } from '../../server/src/harn/modules';
import { parse } from '../../server/src/harn/parser';
import { median, mulberry32, percentile } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

function secondsOf(body: () => void): number {
  const start = process.hrtime.bigint();
  body();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const INDEX_BENCHMARKS = ['index_vs_parse', 'references_p95_ms'];

/**
 * Each index benchmark measured in a fresh process of its own (this script run with --child-index <name>), as the
 * server indexes the workspace once it starts. In the process shared with the other benchmarks their figures
 * depended on which ran before them, each leaving its heap and the JIT's feedback behind: on one machine
 * index_vs_parse read 1.19 after all of them, 1.55 right after the keystroke benchmarks, 1.28–1.39 alone; and
 * references_p95_ms 17.1 and 22.4 ms after all of them, 14.0–16.2 ms alone.
 */
export function runHarnIndexBenchmarks(haveCorpus: boolean, wanted: (name: string) => boolean, script: string): void {
  for (const name of INDEX_BENCHMARKS) {
    if (!wanted(name) || (name === 'index_vs_parse' && !haveCorpus)) continue;
    const result = spawnSync(process.execPath, [script, '--child-index', name], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${name} child failed: ${result.stderr}`);
    process.stdout.write(result.stdout);
  }
}

/** One index benchmark, in this process (the child's side of runHarnIndexBenchmarks). */
export function indexBenchmarkChild(name: string, sources: () => string[], metric: Metric): void {
  if (name === 'index_vs_parse') indexVsParse(sources(), metric);
  else if (name === 'references_p95_ms') referencesP95(metric);
  else throw new Error(`no index benchmark named ${name}`);
}

/** Everything the index does per file read from disk (a lean parse, scopes, occurrences, the name set, exports) ÷ parse alone. */
function indexVsParse(sources: string[], metric: Metric): void {
  const files = sources.map((text, i) => ({ file: `/corpus/f${i}.harn`, text }));
  const parseAll = (): void => {
    for (const { text } of files) parse(text);
  };
  const indexAll = (): void => {
    const index = new WorkspaceIndex(() => undefined);
    // As the server indexes a file read from disk (harnIndexer.ts).
    for (const { file, text } of files) index.set(indexText(file, text));
  };
  for (let i = 0; i < 5; i++) {
    parseAll();
    indexAll();
  }
  // Alternated rounds, the median of the ratios of each pair.
  const ratios: number[] = [];
  const parseTimes: number[] = [];
  const indexTimes: number[] = [];
  for (let round = 0; round < 11; round++) {
    const p = secondsOf(parseAll);
    const x = secondsOf(indexAll);
    parseTimes.push(p);
    indexTimes.push(x);
    ratios.push(x / p);
  }
  console.log(
    `index: ${files.length} corpus files parsed in ${(median(parseTimes) * 1000).toFixed(1)} ms, indexed in ${(median(indexTimes) * 1000).toFixed(1)} ms`,
  );
  metric('index_vs_parse', median(ratios), 'x', '<=1.5');
}

/** A 3,000-file workspace: 60 folders of 50 files, each importing `shared_helper` from lib.harn and calling it. */
export function generatedWorkspace(count = 3000): Record<string, string> {
  const files: Record<string, string> = {
    '/ws/lib.harn': 'pub fn shared_helper(value) {\n  return value\n}\n\npub fn other_helper() {}\n',
  };
  for (let i = 0; i < count - 1; i++) {
    const folder = `/ws/pkg${Math.floor(i / 50)}`;
    files[`${folder}/m${i}.harn`] = [
      'import { shared_helper, other_helper } from "../lib"',
      '',
      `/** Step ${i}. */`,
      `pub fn step_${i}(input) {`,
      '  let first = shared_helper(input)',
      `  let second = shared_helper("\${first} ${i}")`,
      '  other_helper()',
      '  return second',
      '}',
      '',
      `pipeline run_${i}(task) {`,
      `  log(step_${i}(task))`,
      '  log(shared_helper(task))',
      '}',
      '',
    ].join('\n');
  }
  return files;
}

function referencesP95(metric: Metric): void {
  const files = generatedWorkspace();
  const index = new WorkspaceIndex((from, importPath) =>
    resolveImport(from, importPath, ['/ws'], { isFile: (p) => Object.hasOwn(files, p), realpath: (p) => p }),
  );
  const built = secondsOf(() => {
    for (const [file, text] of Object.entries(files)) index.set(indexText(file, text));
  });
  const names = Object.keys(files).filter((f) => f !== '/ws/lib.harn');
  const random = mulberry32(15);
  const times: number[] = [];
  let found = 0;
  for (let q = 0; q < 110; q++) {
    const file = names[Math.floor(random() * names.length)] ?? '/ws/lib.harn';
    const text = files[file] ?? '';
    const offset = text.indexOf('shared_helper(input)') + 3;
    const start = performance.now();
    const refs = referencesAt(index, file, offset, true);
    const elapsed = performance.now() - start;
    // The first queries warm the JIT up; the next 100 are measured.
    if (q >= 10) times.push(elapsed);
    found = refs?.length ?? 0;
  }
  if (found !== 1 + 4 * names.length) throw new Error(`references found ${found}, expected ${1 + 4 * names.length}`);
  console.log(
    `references: ${names.length + 1} files indexed in ${(built * 1000).toFixed(0)} ms; ${found} references per query, median ${median(times).toFixed(2)} ms`,
  );
  metric('references_p95_ms', percentile(times, 95), 'ms', '<=20');
}
