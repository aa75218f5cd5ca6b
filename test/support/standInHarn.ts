// A stand-in for the `harn` binary, which cannot be installed on these machines: a small node script that records
// what it was started with (argv, working directory, environment) and exits. The contract under test is exactly
// what the extension and the CLI start, and where; the stand-in is the real process they start.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** One start of the stand-in, as it saw itself. */
export interface StandInRecord {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface StandInHarn {
  /** The temporary directory holding the script and its record. */
  dir: string;
  /** The executable: give it as the binary (`harn.run.binary`, `--binary`). */
  path: string;
  /** Where it appends one JSON line per start (unless HARN_STAND_IN_RECORD names another file). */
  recordPath: string;
  /** Every start so far, oldest first. */
  records(): StandInRecord[];
  /** The latest start, or undefined when it never ran. */
  last(): StandInRecord | undefined;
  /** Forgets the starts recorded so far. */
  clear(): void;
  /** Deletes the directory. */
  remove(): void;
}

export interface StandInOptions {
  /** The script's file name (default `harn`). */
  name?: string;
  /** The status it exits with (default 0). */
  exitCode?: number;
  /** A signal it kills itself with instead of exiting (to test 128 + n). */
  signal?: NodeJS.Signals;
  /** A line it prints on stdout (default: where it ran and its task). */
  stdout?: string;
}

/** The script. Its `#!` names this node by its absolute path: the child may get no PATH at all (env_pass). */
function script(recordPath: string, options: StandInOptions): string {
  return [
    `#!${process.execPath}`,
    "'use strict';",
    "const fs = require('node:fs');",
    `const record = process.env.HARN_STAND_IN_RECORD || ${JSON.stringify(recordPath)};`,
    'const seen = { argv: process.argv.slice(2), cwd: process.cwd(), env: { ...process.env } };',
    "fs.appendFileSync(record, JSON.stringify(seen) + '\\n');",
    options.stdout !== undefined
      ? `process.stdout.write(${JSON.stringify(options.stdout + '\n')});`
      : "process.stdout.write('stand-in harn ran in ' + seen.cwd + ' with HARN_TASK=' + JSON.stringify(process.env.HARN_TASK ?? null) + '\\n');",
    options.signal !== undefined ? `process.kill(process.pid, ${JSON.stringify(options.signal)});` : '',
    `process.exitCode = ${options.exitCode ?? 0};`,
    '',
  ].join('\n');
}

/** Writes a stand-in `harn` into a fresh temporary directory (or `dir`) and returns it with a reader of its record. */
export function writeStandInHarn(options: StandInOptions = {}, dir: string = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-stand-in-'))): StandInHarn {
  const file = path.join(dir, options.name ?? 'harn');
  const recordPath = `${file}.record.jsonl`;
  fs.writeFileSync(file, script(recordPath, options), { mode: 0o755 });
  const records = (): StandInRecord[] => {
    let text: string;
    try {
      text = fs.readFileSync(recordPath, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as StandInRecord);
  };
  return {
    dir,
    path: file,
    recordPath,
    records,
    last: () => records().at(-1),
    clear: () => fs.rmSync(recordPath, { force: true }),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
