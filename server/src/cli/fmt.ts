// `harn-workbench fmt`: upstream's `harn fmt` (harn-cli 0.7.50) over our formatter (harn/format), with its messages:
// `PATH: would be reformatted` (--check), `formatted PATH` (write), `PATH: <refusal>`, `Error reading PATH: …`,
// `No .harn files found`. Where we differ (README "CLI"): exit 2, not 1, for a file that cannot be read or written
// (DESIGN.md's I/O errors); folders walked as git sees them; each file's own nearest harn.toml, not the first
// target's; writes atomic. Every file is still done after one fails; the exit status is the worst outcome.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format, FormatOptions } from '../harn/format/index';
import { FormatConfig, formatConfigFor } from '../harn/format/config';
import { decodeUtf8 } from '../text/utf8';
import { walkFiles } from '../workspace/fileWalk';
import { readFileBytesSync } from '../workspace/files';
import { ParsedArgs, UsageError } from './args';

type Mode = 'check' | 'write' | 'stdout';

const MODES: readonly Mode[] = ['check', 'write', 'stdout'];

/** Outcomes in order of precedence for the exit status. */
const OK = 0;
const NOT_FORMATTED = 1;
const IO_ERROR = 2;

/** One file to format: where it is, and how it is named in messages (as given, or the folder given joined to it). */
interface FmtFile {
  absolute: string;
  shown: string;
}

function modeOf(args: ParsedArgs): Mode {
  const given = MODES.filter((m) => args.options.has(`--${m}`));
  if (given.length > 1) throw new UsageError(`give at most one of --check, --write and --stdout (got ${given.map((m) => `--${m}`).join(' and ')})`, 'fmt');
  return given[0] ?? 'write';
}

/** --line-width / --separator-width: a whole number of columns (upstream's usize), or undefined when not given. */
function widthOf(args: ParsedArgs, name: string): number | undefined {
  const raw = args.options.get(name);
  if (raw === undefined) return undefined;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) throw new UsageError(`${name} must be a whole number of columns, not ${JSON.stringify(raw)}`, 'fmt');
  return value;
}

/** Byte order of each path component in turn: the order upstream's sorted, depth-first walk visits files in. */
function byComponents(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = Buffer.compare(Buffer.from(pa[i] ?? ''), Buffer.from(pb[i] ?? ''));
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/**
 * The files the targets name, in the order given: a folder's `.harn` files (walked as `check` walks, in upstream's
 * order), anything else as it is (a missing one then fails to be read, as upstream's does). Each file once.
 */
function collect(targets: readonly string[]): FmtFile[] {
  const seen = new Set<string>();
  const out: FmtFile[] = [];
  const add = (absolute: string, shown: string): void => {
    if (seen.has(absolute)) return;
    seen.add(absolute);
    out.push({ absolute, shown });
  };
  for (const given of targets) {
    const absolute = path.resolve(given);
    if (!isDirectory(absolute)) {
      add(absolute, given);
      continue;
    }
    const prefix = given.endsWith('/') || given.endsWith(path.sep) ? given : `${given}/`;
    const found = walkFiles(absolute, { accept: (rel) => rel.endsWith('.harn') }).sort(byComponents);
    for (const rel of found) add(path.join(absolute, rel), prefix + rel);
  }
  return out;
}

function isDirectory(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The harn.toml options of each file's folder, read once per folder; a malformed manifest is warned about once. */
class Configs {
  private readonly byFolder = new Map<string, FormatConfig>();
  private readonly warned = new Set<string>();

  constructor(private readonly overrides: Partial<FormatOptions>) {}

  optionsFor(file: string): FormatOptions {
    const folder = path.dirname(file);
    let config = this.byFolder.get(folder);
    if (config === undefined) {
      config = formatConfigFor(file);
      this.byFolder.set(folder, config);
    }
    if (config.error !== undefined && config.manifest !== undefined && !this.warned.has(config.manifest)) {
      this.warned.add(config.manifest);
      process.stderr.write(`warning: ${shownManifestError(config.manifest, config.error)}\n`);
    }
    return { ...config.options, ...this.overrides };
  }
}

/** `failed to parse PATH: why` with PATH relative to the current folder (the CLI never prints this machine's paths). */
function shownManifestError(manifest: string, error: string): string {
  const prefix = `failed to parse ${manifest}: `;
  const shown = path.relative(process.cwd(), manifest).split(path.sep).join('/') || manifest;
  return error.startsWith(prefix) ? `failed to parse ${shown}: ${error.slice(prefix.length)}` : error;
}

/** A failed step of a write, said without this machine's paths: `cannot create its temporary file (EACCES)`. */
class WriteError extends Error {}

function step<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new WriteError(`${what} (${code ?? (error instanceof Error ? error.message : String(error))})`);
  }
}

/** Replaces `file`'s content: a temporary file beside it (its real path), its mode kept, then renamed over it. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const target = step('cannot resolve it', () => fs.realpathSync(file));
  const mode = step('cannot stat it', () => fs.statSync(target).mode & 0o7777);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.fmt-tmp`);
  const fd = step('cannot create its temporary file', () => fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600));
  try {
    try {
      step('cannot write its temporary file', () => {
        let written = 0;
        while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
        fs.fchmodSync(fd, mode);
        fs.fsyncSync(fd);
      });
    } finally {
      fs.closeSync(fd);
    }
    step('cannot replace it', () => fs.renameSync(temp, target));
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Formats one file in `mode`, printing what upstream prints; its outcome (OK, NOT_FORMATTED, IO_ERROR). */
function formatFile(file: FmtFile, mode: Mode, configs: Configs): number {
  const read = readFileBytesSync(file.absolute);
  if (!read.ok) {
    process.stderr.write(`Error reading ${file.shown}: ${read.reason}\n`);
    return IO_ERROR;
  }
  const { text, invalid } = decodeUtf8(read.bytes);
  const [firstInvalid] = invalid;
  if (firstInvalid !== undefined) {
    // Formatting the decoded text would write U+FFFD over those bytes.
    process.stderr.write(`${file.shown}: not UTF-8 (an ill-formed byte sequence at byte ${firstInvalid.byteOffset}); not formatted\n`);
    return NOT_FORMATTED;
  }
  const options = configs.optionsFor(file.absolute);
  let result: ReturnType<typeof format>;
  try {
    result = format(text, options);
  } catch (error) {
    const trace = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${file.shown}: internal error in the formatter (the other files are still done): ${trace}\n`);
    return NOT_FORMATTED;
  }
  if ('refused' in result) {
    process.stderr.write(`${file.shown}: ${result.refused}\n`);
    return NOT_FORMATTED;
  }
  const formatted = Buffer.from(result.text, 'utf8');
  if (mode === 'stdout') {
    process.stdout.write(formatted);
    return OK;
  }
  if (formatted.equals(read.bytes)) return OK;
  if (mode === 'check') {
    process.stderr.write(`${file.shown}: would be reformatted\n`);
    return NOT_FORMATTED;
  }
  try {
    writeAtomically(file.absolute, formatted);
  } catch (error) {
    process.stderr.write(`Error writing ${file.shown}: ${messageOf(error)}\n`);
    return IO_ERROR;
  }
  process.stdout.write(`formatted ${file.shown}\n`);
  return OK;
}

export function runFmt(args: ParsedArgs): number {
  const mode = modeOf(args);
  const overrides: Partial<FormatOptions> = {};
  const lineWidth = widthOf(args, '--line-width');
  const separatorWidth = widthOf(args, '--separator-width');
  if (lineWidth !== undefined) overrides.lineWidth = lineWidth;
  if (separatorWidth !== undefined) overrides.separatorWidth = separatorWidth;
  const targets = args.positional;
  if (targets.length === 0) throw new UsageError('fmt needs at least one PATH (a .harn file or a folder)', 'fmt');
  if (mode === 'stdout') {
    const [only] = targets;
    if (only === undefined || targets.length > 1) throw new UsageError(`--stdout takes exactly one file (got ${targets.length} paths)`, 'fmt');
    if (isDirectory(path.resolve(only))) throw new UsageError(`--stdout takes one file, not a folder: ${only}`, 'fmt');
  }
  const files = collect(targets);
  if (files.length === 0) {
    process.stderr.write('No .harn files found\n');
    return NOT_FORMATTED;
  }
  const configs = new Configs(overrides);
  let status = OK;
  for (const file of files) status = Math.max(status, formatFile(file, mode, configs));
  return status;
}
