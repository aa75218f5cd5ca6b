// Long mutation-fuzzing run of the lexer and parser (the same mutator and checks as test/unit/fuzz.test.ts).
//
//   npm run fuzz                                   200000 cases from a fresh random seed
//   node --import tsx test/fuzz/long.ts 50000      50000 cases
//   node --import tsx test/fuzz/long.ts 1 --seed N reproduce the case with seed N
//
// Case i uses seed (base + i). Exits 1 after the run if any case broke an invariant, printing each
// failing seed and writing its input next to the system temp files.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusFiles, corpusRoot, corpusSkip, readCorpus, repoRoot } from '../support/corpus';
import { checkParse, fuzzCase, startWatchdog } from '../support/fuzz';

function parseArgs(argv: string[]): { count: number; seed: number } {
  let count = 200000;
  let seed = (Date.now() ^ (process.pid << 16)) >>> 0;
  const args = [...argv];
  for (let arg = args.shift(); arg !== undefined; arg = args.shift()) {
    if (arg === '--seed') seed = Number(args.shift()) >>> 0;
    else if (/^\d+$/.test(arg)) count = Number(arg);
    else {
      console.error(`usage: long.ts [count] [--seed N]   (unknown argument ${arg})`);
      process.exit(2);
    }
  }
  return { count, seed };
}

/** Corpus files when the shared corpus is present, plus the repository's own `.harn` examples. */
function loadSources(): Array<readonly [string, string]> {
  const sources: Array<readonly [string, string]> = corpusFiles().map((f) => [f, readCorpus(f)] as const);
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.harn')) sources.push([path.relative(repoRoot, full), readFileSync(full, 'utf8')]);
    }
  };
  walk(path.join(repoRoot, 'examples'));
  return sources;
}

function main(): void {
  const { count, seed } = parseArgs(process.argv.slice(2));
  const sources = loadSources();
  if (corpusSkip) console.log(`note: ${corpusSkip}; fuzzing the repository examples only`);
  else console.log(`corpus: ${corpusRoot}`);
  if (sources.length === 0) {
    console.error('no .harn sources to mutate');
    process.exit(2);
  }
  console.log(`fuzzing ${count} cases from ${sources.length} sources, base seed ${seed}`);

  const watchdog = startWatchdog(30000);
  const began = Date.now();
  let failures = 0;
  let lastReport = began;
  for (let i = 0; i < count; i++) {
    const caseSeed = (seed + i) >>> 0;
    watchdog.beat(`case seed ${caseSeed} (reproduce: node --import tsx test/fuzz/long.ts 1 --seed ${caseSeed})`);
    const c = fuzzCase(caseSeed, sources);
    const problems = checkParse(c.text);
    if (problems.length > 0) {
      failures++;
      const file = path.join(os.tmpdir(), `harn-fuzz-${caseSeed}.harn`);
      writeFileSync(file, c.text);
      console.log(`\nFAIL case seed ${caseSeed}: mutation of ${c.source} (${c.operations.join('; ')})`);
      for (const p of problems.slice(0, 5)) console.log(`  ${p}`);
      console.log(`  input written to ${file}`);
      console.log(`  reproduce: node --import tsx test/fuzz/long.ts 1 --seed ${caseSeed}`);
      if (c.text.length <= 4000) console.log(`  input: ${JSON.stringify(c.text)}`);
    }
    const now = Date.now();
    if (now - lastReport >= 10000 || i + 1 === count) {
      lastReport = now;
      const rate = Math.round(((i + 1) * 1000) / Math.max(1, now - began));
      console.log(`progress ${i + 1}/${count} (${rate}/s), failures ${failures}`);
    }
  }
  watchdog.stop();
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  console.log(`\ntotal ${count} cases in ${seconds} s, base seed ${seed}: ${failures} failure(s)`);
  process.exit(failures > 0 ? 1 : 0);
}

main();
