// Fuzzes the real language server over stdio with hostile documents of every kind it routes, random
// incremental edits, every request at random positions and file events (test/support/lspFuzz.ts says what is
// checked after each action).
//
//   npm run fuzz:lsp                                 60 s from a fresh random seed
//   npm run fuzz:lsp -- --seconds 300 --seed 7       five minutes from seed 7
//   npm run fuzz:lsp -- --documents 100              100 documents, however long they take
//   npm run fuzz:lsp -- --replay .fuzz-failures/F    the recorded step of a failure, on a fresh server
//   npm run fuzz:lsp -- --replay F --minimize        shrinks it (F.min.json): fewer actions, shorter texts
//
// Other options: --stop (end at the first failure), --kinds harn,registry,… (only those documents),
// --max-chars N (largest document, default 4,000,000), --timeout MS (a slower answer is a hang, default
// 5000), --max-rss MB (default 1536), --ignore KIND,… (failure kinds not counted, e.g. a known class while it
// is being fixed), --no-files (write no failure inputs). Inputs of failures go to the
// gitignored .fuzz-failures/. Builds dist/server.js first. Ends with
//   fuzz:lsp: N documents, M edits, K requests in S s, F failures
// and exits 1 when F > 0 (2 on a usage error).

import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../support/corpus';
import { FUZZ_KINDS, FuzzKind } from '../support/hostile';
import * as fs from 'node:fs';
import {
  Action,
  describeAction,
  DEFAULT_OPTIONS,
  formatSummary,
  LspFuzzOptions,
  minimizeFailure,
  readFailureFile,
  replayFailure,
  runLspFuzz,
} from '../support/lspFuzz';

const USAGE =
  'usage: npm run fuzz:lsp -- [--seconds N] [--seed S] [--documents N] [--stop] [--kinds K,…] [--max-chars N] [--timeout MS] [--max-rss MB] [--ignore KIND,…] [--no-files] [--replay FILE [--minimize]] [--no-build]';

function usage(why: string): never {
  console.error(`${why}\n${USAGE}`);
  process.exit(2);
}

function numberArg(name: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n < 0) usage(`${name} needs a non-negative number`);
  return n;
}

function isKind(value: string): value is FuzzKind {
  return (FUZZ_KINDS as readonly string[]).includes(value);
}

interface Args {
  options: LspFuzzOptions;
  replay: string | undefined;
  minimize: boolean;
  build: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const options: LspFuzzOptions = { ...DEFAULT_OPTIONS, seed: (Date.now() ^ (process.pid << 16)) >>> 0, log: (line) => console.log(line) };
  let replay: string | undefined;
  let build = true;
  let minimize = false;
  let documentsGiven = false;
  let secondsGiven = false;
  const args = [...argv];
  for (let arg = args.shift(); arg !== undefined; arg = args.shift()) {
    if (arg === '--seconds') {
      options.seconds = numberArg(arg, args.shift());
      secondsGiven = true;
    } else if (arg === '--seed') options.seed = numberArg(arg, args.shift()) >>> 0;
    else if (arg === '--documents') {
      options.documents = numberArg(arg, args.shift());
      documentsGiven = true;
    } else if (arg === '--stop') options.stopOnFailure = true;
    else if (arg === '--max-chars') options.maxChars = Math.max(1, numberArg(arg, args.shift()));
    else if (arg === '--timeout') options.requestTimeoutMs = numberArg(arg, args.shift());
    else if (arg === '--max-rss') options.maxRssMb = numberArg(arg, args.shift());
    else if (arg === '--no-files') options.failuresDir = undefined;
    else if (arg === '--no-build') build = false;
    else if (arg === '--minimize') minimize = true;
    else if (arg === '--replay') {
      replay = args.shift();
      if (replay === undefined) usage('--replay needs a file');
    } else if (arg === '--kinds') {
      const kinds = (args.shift() ?? '').split(',').filter((k) => k !== '');
      const unknown = kinds.filter((k) => !isKind(k));
      if (kinds.length === 0 || unknown.length > 0) usage(`--kinds takes some of ${FUZZ_KINDS.join(',')}`);
      options.kinds = kinds.filter(isKind);
    } else if (arg === '--ignore') {
      options.ignore = (args.shift() ?? '').split(',').filter((k) => k !== '');
      if (options.ignore.length === 0) usage('--ignore takes failure kinds, e.g. stale-range,diagnostics-bound');
    } else usage(`unknown argument ${arg}`);
  }
  // A count budget alone runs until the count is reached.
  if (documentsGiven && !secondsGiven) options.seconds = undefined;
  if (minimize && replay === undefined) usage('--minimize goes with --replay FILE');
  return { options, replay, minimize, build };
}

/** A short text of an action, shown in full (as JSON) when it is small. */
function shownText(action: Action): string {
  const text = action.op === 'open' ? action.text : action.op === 'write' && 'text' in action.content ? action.content.text : undefined;
  if (action.op === 'change') return `: ${JSON.stringify(action.changes).slice(0, 400)}`;
  return text === undefined ? '' : text.length <= 400 ? `: ${JSON.stringify(text)}` : `: ${JSON.stringify(text.slice(0, 200))}…`;
}

async function main(): Promise<void> {
  const { options, replay, minimize, build } = parseArgs(process.argv.slice(2));
  if (build) execFileSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (replay !== undefined) {
    const record = readFailureFile(replay);
    console.log(
      `replaying ${replay}: seed ${record.seed}, step ${record.step}, ${record.documentKind ?? '-'} ${record.generator ?? ''}, ${record.actions.length} actions`,
    );
    console.log(`recorded failure: ${record.failure.signature}`);
    if (minimize) {
      const small = await minimizeFailure(record, options);
      const out = replay.replace(/\.json$/, '') + '.min.json';
      fs.writeFileSync(out, JSON.stringify(small));
      console.log(`minimised to ${small.actions.length} action(s), written to ${out}:`);
      for (const action of small.actions) console.log(`  ${describeAction(action)}${shownText(action)}`);
      process.exit(0);
    }
    const summary = await replayFailure(record, { ...options, failuresDir: undefined });
    for (const line of formatSummary(summary)) console.log(line);
    const again = summary.classes.has(record.failure.signature);
    console.log(again ? 'the recorded failure reproduced' : 'the recorded failure did not reproduce');
    process.exit(summary.failures.length > 0 ? 1 : 0);
  }
  const budget = [
    options.seconds === undefined ? undefined : `${options.seconds} s`,
    options.documents === undefined ? undefined : `${options.documents} documents`,
  ]
    .filter((b) => b !== undefined)
    .join(' or ');
  console.log(
    `fuzz:lsp: seed ${options.seed}, ${budget}, request bound ${options.requestTimeoutMs} ms${options.kinds ? `, kinds ${options.kinds.join(',')}` : ''}`,
  );
  const summary = await runLspFuzz(options);
  for (const line of formatSummary(summary)) console.log(line);
  process.exit(summary.failures.length > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(2);
});
