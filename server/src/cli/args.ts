// The CLI's commands, their options and their help texts, and the parsing of argv against them.

import { DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_LIMIT } from '../artifacts/jsonl';
import { OUTPUT_FORMATS, OutputFormat } from '../report/format';

/** A usage error (exit 2): the message, and the command whose `--help` explains it. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: CommandName,
  ) {
    super(message);
  }
}

export const COMMAND_NAMES = ['check', 'check-loud-boundaries', 'transcript', 'run-control', 'training-example', 'run', 'fmt'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

interface OptionSpec {
  name: string;
  /** The value's placeholder; undefined for a flag. */
  value?: string;
  help: string;
}

interface CommandSpec {
  synopsis: string;
  about: string;
  options: OptionSpec[];
}

const EXIT_STATUS = 'Exit status: 0 no error-severity diagnostic, 1 at least one, 2 usage or I/O error.';
const EXIT_STATUS_OF: Partial<Record<CommandName, string>> = {
  'training-example': 'Exit status: 0 projected, 1 refused, 2 usage or I/O error.',
  run: "Exit status: the pipeline's own (128 + N when signal N ended it); 0 for --dry-run; 1 refused, nothing started; 2 usage or I/O error.",
  fmt: 'Exit status: 0 every file formatted (or already so), 1 --check found a file to reformat, a file could not be formatted,\nor no .harn files were found; 2 usage or I/O error (a file that cannot be read or written; the others are still done).',
};
/** How the root is found without --root, for the help texts. */
const ROOT_DISCOVERY =
  'the nearest folder at or above it with scripts/loud_boundaries.toml,\n' +
  'searched up to the top of its git repository (a folder with .git); else that top; else the current folder.';

const FORMAT: OptionSpec = { name: '--format', value: 'FORMAT', help: `${OUTPUT_FORMATS.join(', ')} (default text)` };
const MAX_LINE_BYTES: OptionSpec = {
  name: '--max-line-bytes',
  value: 'N',
  help: `artifact lines longer than N bytes are not read, one line_too_long each (default ${DEFAULT_MAX_LINE_BYTES}, at most ${MAX_LINE_BYTES_LIMIT})`,
};
const HELP: OptionSpec = { name: '-h, --help', help: "this command's help" };

const COMMANDS: Record<CommandName, CommandSpec> = {
  check: {
    synopsis: 'harn-workbench check [PATH...] [--root DIR] [--format FORMAT] [--max-line-bytes N]',
    about: [
      'Checks every .harn file (syntax, boundary payloads) and run artifact (transcripts, event logs, run records,',
      'a3s run-control logs) under each PATH (files, or folders walked as git sees them; default: the current folder), and runs the',
      'loud-boundary gate once on each root that holds scripts/loud_boundaries.toml.',
      '',
      `Without --root, the root of a file is ${ROOT_DISCOVERY}`,
      'Paths are shown relative to the root when every file has the same one, else to the current folder.',
    ].join('\n'),
    options: [{ name: '--root', value: 'DIR', help: 'the root of every PATH (default: see above)' }, FORMAT, MAX_LINE_BYTES, HELP],
  },
  'check-loud-boundaries': {
    synopsis: 'harn-workbench check-loud-boundaries [--root DIR] [--registry PATH] [--funnel PATH] [--format FORMAT]',
    about: [
      "Runs upstream's `make check-loud-boundaries` gate: the registry, the BoundaryId funnel and every construction",
      "site in agreement. Text output is upstream's: the OK line on stdout, or the findings on stderr.",
      '',
      `Without --root, the root is, for the current folder, ${ROOT_DISCOVERY.replace('; else that top; else the current folder.', '.')}`,
      'A missing registry or funnel, or one that is not a regular file or leaves the root, exits 2.',
    ].join('\n'),
    options: [
      { name: '--root', value: 'DIR', help: 'the repository to check (default: see above)' },
      { name: '--registry', value: 'PATH', help: 'the registry, relative to the root (default scripts/loud_boundaries.toml)' },
      { name: '--funnel', value: 'PATH', help: 'the BoundaryId funnel, relative to the root (default crates/harn-vm/src/boundary.rs)' },
      FORMAT,
      HELP,
    ],
  },
  transcript: {
    synopsis: 'harn-workbench transcript FILE [--run-record PATH] [--root DIR] [--format FORMAT] [--max-line-bytes N]',
    about: [
      'Validates one LLM transcript (or an agent event log) streamed from disk and, with --run-record, verifies',
      "that run record's transcript descriptors against the files on disk.",
      '',
      `Without --root, the root of FILE (paths are shown relative to it) is ${ROOT_DISCOVERY}`,
    ].join('\n'),
    options: [
      { name: '--run-record', value: 'PATH', help: 'a run.json whose llm_jsonl descriptors are verified too' },
      { name: '--root', value: 'DIR', help: 'the folder paths are shown relative to (default: see above)' },
      FORMAT,
      MAX_LINE_BYTES,
      HELP,
    ],
  },
  'run-control': {
    synopsis: 'harn-workbench run-control compose (--steer TEXT | --interrupt [--reason R] [--force]) --log LOG [--run RUN]',
    about: [
      'Prints one a3s run-control request (a JSON line) bound to the latest snapshot of LOG (of RUN with --run): its run,',
      'session, turn id and revision, with a fresh request id. It is pre-checked as the inbox would admit it: a',
      "request the protocol refuses is not printed; the refusal is (upstream's code and message, on stderr, exit 1).",
      "Append the line to the host's inbox to send it; the same line again is an idempotent retry.",
    ].join('\n'),
    options: [
      { name: '--steer', value: 'TEXT', help: 'a steer: TEXT becomes a user message at the next safe point' },
      { name: '--interrupt', help: 'an interrupt: stop the run at its next safe point' },
      { name: '--reason', value: 'R', help: "the interrupt's reason (at most 4 KiB of UTF-8)" },
      { name: '--force', help: 'mark the interrupt forced (advisory: cleanup and governance still run)' },
      { name: '--log', value: 'LOG', help: 'the run-control log whose latest snapshot the request is bound to' },
      { name: '--run', value: 'RUN', help: "bind to this run's latest snapshot instead (a log holds several runs)" },
      HELP,
    ],
  },
  'training-example': {
    synopsis: 'harn-workbench training-example RUN_RECORD [--run-id ID] [--session-id ID] [--out FILE] [--max-line-bytes N]',
    about: [
      'Projects the finished run of RUN_RECORD (a run.json) into one harn.agent_training_example.v1, as upstream does:',
      'the run record as written, its llm_jsonl transcript verified against the descriptor (digest included), then',
      'every row replayed. The example is printed as JSON on stdout (or written to FILE). A run that cannot be',
      'projected exits 1 with the refusal as one JSON object {"kind", "message", "event_index"?} on stderr',
      '(event_index: the 1-based row of the transcript). There is no lenient mode.',
    ].join('\n'),
    options: [
      { name: '--run-id', value: 'ID', help: 'refuse (run_id_mismatch) unless the run record holds this run' },
      { name: '--session-id', value: 'ID', help: 'refuse (session_id_mismatch) unless the transcript belongs to this session' },
      { name: '--out', value: 'FILE', help: 'write the example to FILE instead of stdout' },
      { name: '--max-line-bytes', value: 'N', help: `transcript lines longer than N bytes are refused (line_too_long; default ${DEFAULT_MAX_LINE_BYTES})` },
      HELP,
    ],
  },
  run: {
    synopsis:
      'harn-workbench run PIPELINE.harn [--input FILE] (--fixed DIR | --per-run PARAM) [--reserved NAME]... [--binary PATH] [--arg ARG]... [--env-pass NAME]... [--dry-run]',
    about: [
      'Runs `harn run [ARG...] PIPELINE.harn` (no shell) in the directory the run workspace names, or refuses and starts',
      "nothing: --fixed DIR (absolute) for every run, or --per-run PARAM, read from the --input file's JSON object.",
      "With --input, the run's task (the input's one field left once PARAM and the reserved names are removed, its text",
      'when it is not JSON, or a JSON string) reaches the pipeline as HARN_TASK. Never the current folder by default.',
      '--dry-run prints what it would start as one JSON object {"binary", "args", "cwd", "env", "task"} ("env": the',
      'names of the variables the child gets) and starts nothing. A refusal prints its reason on stderr (exit 1).',
    ].join('\n'),
    options: [
      { name: '--input', value: 'FILE', help: "the run's input (JSON): the per-run directory and the task" },
      { name: '--fixed', value: 'DIR', help: 'run in DIR, an absolute path to an existing directory' },
      { name: '--per-run', value: 'PARAM', help: "run in the directory named by the input's PARAM field" },
      { name: '--reserved', value: 'NAME', help: 'an input field that is not the task (repeatable)' },
      { name: '--binary', value: 'PATH', help: 'the harn binary: a name on PATH or an absolute path (default harn)' },
      { name: '--arg', value: 'ARG', help: 'a flag for `harn run`, before the pipeline (repeatable, in order)' },
      {
        name: '--env-pass',
        value: 'NAME',
        help: 'pass only the named variables (repeatable; aion env_pass; missing ones refuse the run); default: inherit all',
      },
      { name: '--dry-run', help: 'print the plan as JSON and start nothing' },
      HELP,
    ],
  },
  fmt: {
    synopsis: 'harn-workbench fmt [--check | --write | --stdout] [--line-width N] [--separator-width N] PATH...',
    about: [
      "Formats .harn files as upstream's `harn fmt` (harn-fmt 0.7.50) does, byte for byte: each PATH is a file, or a folder",
      'walked as git sees it (.gitignore honoured, .git and symbolic links skipped) for its *.harn files. Default mode:',
      '--write, as `harn fmt`. A file with syntax errors is formatted around them (its broken declarations kept as they',
      'are); the output is LF without a BOM. Options come from the harn.toml nearest each file ([fmt] line_width,',
      'separator_width; a malformed one is a warning and the defaults), then from the flags.',
    ].join('\n'),
    options: [
      { name: '--check', help: 'write nothing; name each file that would change on stderr (PATH: would be reformatted)' },
      { name: '--write', help: 'rewrite the files that change, atomically, keeping their mode; print `formatted PATH` (default)' },
      { name: '--stdout', help: "print the one PATH's formatted text on stdout; write nothing" },
      { name: '--line-width', value: 'N', help: 'the maximum line width (default 100; overrides [fmt] line_width)' },
      { name: '--separator-width', value: 'N', help: 'the width of `// ----` separator bars (default 80; overrides [fmt] separator_width)' },
      HELP,
    ],
  },
};

/** Every option that takes a value, whichever command takes it (so that its value is never read as a PATH). */
const VALUE_OPTIONS = new Set(Object.values(COMMANDS).flatMap((c) => c.options.filter((o) => o.value !== undefined).map((o) => o.name)));
/** Options that are flags (no value), besides -h/--help. */
const FLAG_OPTIONS = new Set(
  Object.values(COMMANDS).flatMap((c) =>
    c.options.filter((o) => o.value === undefined && o.name.startsWith('--') && o.name !== '-h, --help').map((o) => o.name),
  ),
);

export function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

function optionLines(options: OptionSpec[]): string[] {
  const labels = options.map((o) => (o.value === undefined ? o.name : `${o.name} ${o.value}`));
  const width = Math.max(...labels.map((l) => l.length)) + 2;
  return options.map((o, i) => `  ${(labels[i] ?? '').padEnd(width)}${o.help}`);
}

export function commandHelp(name: CommandName, version: string): string {
  const spec = COMMANDS[name];
  return [
    `harn-workbench ${version}`,
    '',
    `Usage: ${spec.synopsis}`,
    '',
    spec.about,
    '',
    'Options:',
    ...optionLines(spec.options),
    '',
    EXIT_STATUS_OF[name] ?? EXIT_STATUS,
  ].join('\n');
}

export function generalHelp(version: string): string {
  return [
    `harn-workbench ${version}: checks (and the formatter) for Harn sources, the loud-boundary registry and run artifacts.`,
    '',
    'Usage:',
    ...COMMAND_NAMES.map((n) => `  ${COMMANDS[n].synopsis}`),
    '  harn-workbench -h | --help | --version',
    '',
    "`harn-workbench COMMAND --help` explains a command's options and defaults.",
    EXIT_STATUS,
  ].join('\n');
}

/** The short pointer printed after a usage error. */
export function usageHint(command: CommandName | undefined): string {
  return command === undefined
    ? `Usage: ${COMMAND_NAMES.map((n) => `harn-workbench ${n} …`).join(' | ')}\nSee 'harn-workbench --help'.`
    : `Usage: ${COMMANDS[command].synopsis}\nSee 'harn-workbench ${command} --help'.`;
}

export interface ParsedArgs {
  command: CommandName | undefined;
  positional: string[];
  options: Map<string, string>;
  /** Every value of each option that takes one, in order (`options` keeps the last). */
  lists: Map<string, string[]>;
  help: boolean;
  version: boolean;
}

/**
 * Reads argv: `-h`/`--help` and `--version` anywhere, `--name VALUE` or `--name=VALUE`, `--` ends the options.
 * An option the command does not take, an unknown option or command is a UsageError, unless help was asked for.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { command: undefined, positional: [], options: new Map(), lists: new Map(), help: false, version: false };
  const words: string[] = [];
  const unknown: string[] = [];
  const given: string[] = [];
  // One iterator, so an option's value can be taken from it in the same pass.
  const args = argv.values();
  for (const arg of args) {
    if (arg === '--') {
      for (const rest of args) words.push(rest);
    } else if (arg === '-h' || arg === '--help') {
      parsed.help = true;
    } else if (arg === '--version') {
      parsed.version = true;
    } else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (FLAG_OPTIONS.has(name)) {
        if (eq > 0) throw new UsageError(`${name} takes no value`);
        parsed.options.set(name, '');
        given.push(name);
        continue;
      }
      if (!VALUE_OPTIONS.has(name)) {
        unknown.push(name);
        continue;
      }
      const value = eq > 0 ? arg.slice(eq + 1) : args.next().value;
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      parsed.lists.set(name, [...(parsed.lists.get(name) ?? []), value]);
      parsed.options.set(name, value);
      given.push(name);
    } else if (arg.startsWith('-') && arg !== '-') {
      unknown.push(arg);
    } else {
      words.push(arg);
    }
  }
  const [first, ...rest] = words;
  if (first !== undefined) {
    if (!isCommandName(first)) {
      if (parsed.version) return parsed;
      throw new UsageError(`unknown command ${JSON.stringify(first)} (commands: ${COMMAND_NAMES.join(', ')})`);
    }
    parsed.command = first;
    parsed.positional = rest;
  }
  if (parsed.help || parsed.version) return parsed;
  const command = parsed.command;
  const [firstUnknown] = unknown;
  if (firstUnknown !== undefined) throw new UsageError(`unknown option ${firstUnknown}`, command);
  if (command !== undefined) {
    const taken = new Set(COMMANDS[command].options.map((o) => o.name));
    const foreign = given.find((name) => !taken.has(name));
    if (foreign !== undefined) throw new UsageError(`${command} does not take ${foreign}`, command);
  }
  return parsed;
}

export function formatOf(args: ParsedArgs): OutputFormat {
  const format = args.options.get('--format') ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')}, not ${format}`, args.command);
  }
  return format as OutputFormat;
}

/** --max-line-bytes: a whole number of bytes from 1 to the longest line that can be decoded; undefined: the default. */
export function maxLineBytesOf(args: ParsedArgs): number | undefined {
  const raw = args.options.get('--max-line-bytes');
  if (raw === undefined) return undefined;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_LINE_BYTES_LIMIT) {
    throw new UsageError(`--max-line-bytes must be a whole number from 1 to ${MAX_LINE_BYTES_LIMIT}, not ${raw}`, args.command);
  }
  return value;
}
