// harn-workbench: the CLI over the same domain modules as the language server (DESIGN.md "CLI contract").
// Exit codes: 0 no error-severity diagnostic, 1 at least one, 2 usage or I/O error.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyArtifact, DEFAULT_ARTIFACT_SETTINGS } from './artifacts/classify';
import { MAX_LINE_BYTES_LIMIT, readFirstLines } from './artifacts/jsonl';
import { verifyRunRecord } from './artifacts/runRecord';
import { ArtifactProblem } from './artifacts/types';
import { JsonlKind, validateArtifactFile } from './artifacts/validate';
import { gateRunDiagnosticList } from './boundaries/diagnostics';
import { boundaryInfoLookup, parseRegistry } from './boundaries/registry';
import { renderGateText } from './boundaries/gate';
import { scanHarnBoundaries } from './boundaries/harnSites';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS, GateRun, GateSettings } from './boundaries/workspaceGate';
import { MAX_DIAGNOSTICS_PER_FILE } from './diagnosticCap';
import { artifactProblemDiagnostic, harnSyntaxDiagnostics, internalErrorDiagnostic, invalidUtf8Diagnostics } from './diagnostics';
import { WORKBENCH_VERSION } from './version';
import { HarnAnalysis } from './harn/analysis';
import { capPerFile, FileDiagnostic, OUTPUT_FORMATS, OutputFormat, renderGithub, renderJson, renderSarif, renderText } from './report/format';
import { decodeUtf8 } from './text/utf8';
import { walkFiles } from './workspace/fileWalk';
import { readFileBytesSync, readFileTextSync, refusalMessage, regularFileInfo } from './workspace/files';

const VERSION = WORKBENCH_VERSION;

class UsageError extends Error {}

const USAGE = `harn-workbench ${VERSION}: checks for Harn sources, the loud-boundary registry and run artifacts.

Usage:
  harn-workbench check [PATH...] [--root DIR] [--format text|json|github|sarif] [--max-line-bytes N]
  harn-workbench check-loud-boundaries [--root DIR] [--registry PATH] [--funnel PATH] [--format …]
  harn-workbench transcript FILE [--run-record PATH] [--root DIR] [--format …] [--max-line-bytes N]

Artifact lines longer than --max-line-bytes (default 268435456) are not read: line_too_long.
  harn-workbench --help | --version

Exit status: 0 no error, 1 errors found, 2 usage or I/O error.`;

interface ParsedArgs {
  command: string | undefined;
  positional: string[];
  options: Map<string, string>;
  flags: Set<string>;
}

const VALUE_OPTIONS = new Set(['--root', '--format', '--registry', '--funnel', '--run-record', '--out', '--max-line-bytes']);

function parseArgs(argv: string[]): ParsedArgs {
  const parsed: ParsedArgs = { command: undefined, positional: [], options: new Map(), flags: new Set() };
  // One iterator, so an option's value can be taken from it in the same pass.
  const args = argv.values();
  for (const arg of args) {
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (VALUE_OPTIONS.has(name)) {
        const value = eq > 0 ? arg.slice(eq + 1) : args.next().value;
        if (value === undefined) throw new UsageError(`${name} needs a value`);
        parsed.options.set(name, value);
      } else if (name === '--help' || name === '--version') {
        parsed.flags.add(name);
      } else {
        throw new UsageError(`unknown option ${name}`);
      }
    } else if (parsed.command === undefined) {
      parsed.command = arg;
    } else {
      parsed.positional.push(arg);
    }
  }
  return parsed;
}

function formatOf(args: ParsedArgs): OutputFormat {
  const format = args.options.get('--format') ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')}, not ${format}`);
  }
  return format as OutputFormat;
}

/** --max-line-bytes: a whole number of bytes from 1 to the longest line that can be decoded; undefined: the default. */
function maxLineBytesOf(args: ParsedArgs): number | undefined {
  const raw = args.options.get('--max-line-bytes');
  if (raw === undefined) return undefined;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_LINE_BYTES_LIMIT) {
    throw new UsageError(`--max-line-bytes must be a whole number from 1 to ${MAX_LINE_BYTES_LIMIT}, not ${raw}`);
  }
  return value;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** The files named by the arguments (files as given, folders walked honouring .gitignore) that `accept` takes. */
function collectFiles(root: string, targets: string[], accept: (relative: string) => boolean): string[] {
  const files = new Set<string>();
  for (const target of targets.length ? targets : [root]) {
    const absolute = path.resolve(target);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch {
      throw new IoError(`no such file or folder: ${target}`);
    }
    if (stat.isDirectory()) {
      for (const rel of walkFiles(absolute, { accept })) files.add(path.join(absolute, rel));
    } else if (!stat.isFile()) {
      // A FIFO, a socket or a device named on the command line is refused: reading it could block for good.
      const info = regularFileInfo(absolute);
      throw new IoError(info.ok ? `cannot read ${target}` : refusalMessage(info, target));
    } else if (accept(path.basename(absolute))) {
      files.add(absolute);
    }
  }
  return [...files].sort();
}

const CHECKED_FILE = /\.(harn|jsonl|json)$/i;

class IoError extends Error {}

/** A file's text; an I/O error (exit 2) when it cannot be read or is not a regular file (a FIFO is never opened to block). */
function readText(file: string, shown: string = file): string {
  const read = readFileTextSync(file);
  if (!read.ok) throw new IoError(refusalMessage(read, shown));
  return read.text;
}

function readBytes(file: string, shown: string = file): Buffer {
  const read = readFileBytesSync(file);
  if (!read.ok) throw new IoError(refusalMessage(read, shown));
  return read.bytes;
}

function runCheck(args: ParsedArgs): number {
  const root = path.resolve(args.options.get('--root') ?? '.');
  const format = formatOf(args);
  const maxLineBytes = maxLineBytesOf(args);
  const all = collectFiles(root, args.positional, (rel) => CHECKED_FILE.test(rel));
  const files = all.filter((f) => f.endsWith('.harn'));
  const diagnostics: FileDiagnostic[] = [];
  let artifactCount = 0;
  for (const file of all) {
    if (file.endsWith('.harn')) continue;
    const found = isolated(root, file, 'run-artifact', () => FILE_CHECKS.artifact(file, root, undefined, maxLineBytes));
    if (found === undefined) continue;
    artifactCount++;
    for (const d of found) diagnostics.push(d);
  }
  for (const file of files) {
    for (const d of isolated(root, file, 'Harn', () => FILE_CHECKS.harn(file, root))) diagnostics.push(d);
  }
  let checked = `${files.length} .harn file(s) and ${artifactCount} run artifact(s) checked`;
  // The loud-boundary gate, when the tree has a registry.
  if (fs.existsSync(path.join(root, DEFAULT_GATE_SETTINGS.registryPath))) {
    const gate = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS);
    const run = gate.run();
    traceFailures(run);
    for (const d of gateDiagnostics(gate, run)) diagnostics.push(d);
    checked += `, loud-boundary gate: ${run.result.findings.length} finding(s)`;
  }
  return report(diagnostics, 'position', format, checked);
}

/** A `.harn` file's syntax errors and boundary payload problems. */
function harnDiagnostics(file: string, root: string): FileDiagnostic[] {
  // Bytes decoded here (not as text), so that each ill-formed UTF-8 sequence is reported where it is.
  const source = decodeUtf8(readBytes(file));
  const analysis = new HarnAnalysis(source.text);
  const rel = relativeTo(root, file);
  const out: FileDiagnostic[] = [];
  for (const d of invalidUtf8Diagnostics(source.invalid, analysis.lineIndex)) out.push({ ...d, path: rel });
  for (const d of harnSyntaxDiagnostics(analysis)) out.push({ ...d, path: rel });
  for (const p of scanHarnBoundaries(analysis).problems) {
    out.push({
      path: rel,
      range: analysis.lineIndex.rangeOf(p.range.start, p.range.end),
      severity: 'warning',
      source: 'harn.boundaries',
      code: p.code,
      message: p.message,
    });
  }
  return out;
}

/** The per-file checks of `check`; a test may replace one to prove that a failure stays on its file. */
export const FILE_CHECKS = { harn: harnDiagnostics, artifact: artifactDiagnostics };

/**
 * One file's checks, so that their failure is an internal_error on that file and the other files are still
 * checked (exit 1, not 2). An unreadable file is still an I/O error (exit 2).
 */
function isolated<T extends FileDiagnostic[] | undefined>(root: string, file: string, what: string, check: () => T): T | FileDiagnostic[] {
  try {
    return check();
  } catch (error) {
    if (error instanceof IoError) throw error;
    traceInternalError(file, error);
    return [{ ...internalErrorDiagnostic(what, error, 'the error output'), path: relativeTo(root, file) }];
  }
}

function traceInternalError(file: string, error: unknown): void {
  const trace = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`harn-workbench: internal error while checking ${file} (the other files are still checked): ${trace}\n`);
}

/** The stack traces of the gate's per-file failures (each is an internal_error finding on its file). */
function traceFailures(run: GateRun): void {
  for (const failure of run.failures) traceInternalError(failure.path, failure.error);
}

function relativeTo(root: string, file: string): string {
  return toPosix(path.relative(root, file)) || path.basename(file);
}

function problemDiagnostic(p: ArtifactProblem, rel: string): FileDiagnostic {
  return { ...artifactProblemDiagnostic(p), path: rel };
}

/** Boundary titles from the root's loud-boundary registry, so boundary_failure messages name them (as in the editor). */
function registryTitles(root: string): (id: string) => string | undefined {
  const read = readFileTextSync(path.join(root, DEFAULT_GATE_SETTINGS.registryPath));
  if (!read.ok) return () => undefined;
  const lookup = boundaryInfoLookup(parseRegistry(read.text));
  return (id) => lookup(id)?.title;
}

/** Validates one artifact file from disk (streamed); undefined when the file is not an artifact. */
function artifactDiagnostics(file: string, root: string, forced?: JsonlKind, maxLineBytes?: number): FileDiagnostic[] | undefined {
  const kind = forced ?? classifyArtifact(file, root, DEFAULT_ARTIFACT_SETTINGS, () => readFirstLines(file, 5));
  if (kind === undefined) return undefined;
  const rel = relativeTo(root, file);
  if (kind === 'runRecord') return verifyRunRecord(file, readText(file), undefined, { maxLineBytes }).map((p) => problemDiagnostic(p, rel));
  return validateArtifactFile(kind, file, { fileName: file, registryTitle: registryTitles(root), maxLineBytes }).problems.map((p) => problemDiagnostic(p, rel));
}

function runTranscript(args: ParsedArgs): number {
  const [given, ...extra] = args.positional;
  if (given === undefined || extra.length > 0) throw new UsageError('transcript takes exactly one FILE');
  const root = path.resolve(args.options.get('--root') ?? '.');
  const format = formatOf(args);
  const maxLineBytes = maxLineBytesOf(args);
  const file = path.resolve(given);
  const info = regularFileInfo(file);
  if (!info.ok) throw new IoError(info.code === 'missing' ? `no such file: ${given}` : refusalMessage(info, given));
  // An event log named as such is read as one; anything else given to `transcript` is a transcript.
  const detected = classifyArtifact(file, root, DEFAULT_ARTIFACT_SETTINGS, () => readFirstLines(file, 5));
  const kind: JsonlKind = detected === 'eventLog' ? 'eventLog' : 'transcript';
  const diagnostics = artifactDiagnostics(file, root, kind, maxLineBytes) ?? [];
  const runRecord = args.options.get('--run-record');
  if (runRecord !== undefined) {
    const recordFile = path.resolve(runRecord);
    if (!fs.existsSync(recordFile)) throw new IoError(`no such file: ${runRecord}`);
    const recordText = readText(recordFile, runRecord);
    for (const p of verifyRunRecord(recordFile, recordText, undefined, { maxLineBytes })) diagnostics.push(problemDiagnostic(p, relativeTo(root, recordFile)));
  }
  return report(diagnostics, 'position', format, `${relativeTo(root, file)} checked as ${kind === 'eventLog' ? 'an event log' : 'a transcript'}`);
}

function gateDiagnostics(gate: BoundaryGateWorkspace, run: GateRun): FileDiagnostic[] {
  // In the gate's finding order, not grouped by file.
  return gateRunDiagnosticList(run, (relative) => gate.readFile(relative)).map(({ path: where, diagnostic }) => ({ ...diagnostic, path: where }));
}

function runCheckLoudBoundaries(args: ParsedArgs): number {
  if (args.positional.length) throw new UsageError(`check-loud-boundaries takes no paths (got ${args.positional.join(' ')}); use --root`);
  const root = path.resolve(args.options.get('--root') ?? '.');
  const format = formatOf(args);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new IoError(`--root is not a folder: ${root}`);
  const settings: GateSettings = {
    ...DEFAULT_GATE_SETTINGS,
    registryPath: toPosix(args.options.get('--registry') ?? DEFAULT_GATE_SETTINGS.registryPath),
    funnelPath: toPosix(args.options.get('--funnel') ?? DEFAULT_GATE_SETTINGS.funnelPath),
  };
  const gate = new BoundaryGateWorkspace(root, settings);
  const run = gate.run();
  traceFailures(run);
  const io = run.result.findings.find(
    (f) =>
      f.kind === 'missing_registry' || f.kind === 'missing_funnel' || f.kind === 'unreadable_file' || (run.result.refused && f.kind === 'path_outside_root'),
  );
  if (io) throw new IoError(io.message);
  if (format === 'text') {
    const text = renderGateText(run.result, settings.registryPath);
    // As upstream: the OK line on stdout, a failure report on stderr.
    if (run.result.findings.length === 0) process.stdout.write(text + '\n');
    else process.stderr.write(text + '\n');
    return run.result.findings.length === 0 ? 0 : 1;
  }
  // Gate diagnostics keep the gate's finding order (upstream's), not path order.
  report(gateDiagnostics(gate, run), 'given', format, '');
  return run.result.findings.length === 0 ? 0 : 1;
}

/** Prints the diagnostics, capped per file (capPerFile); the counts and the exit status are over all of them. */
function report(found: Iterable<FileDiagnostic>, order: 'given' | 'position', format: OutputFormat, checked: string): number {
  const { diagnostics, total, omitted } = capPerFile(found, order);
  let output: string;
  switch (format) {
    case 'json':
      output = renderJson(diagnostics, omitted);
      break;
    case 'github':
      output = renderGithub(diagnostics);
      break;
    case 'sarif':
      output = renderSarif(diagnostics, VERSION);
      break;
    default: {
      const notShown = omitted > 0 ? ` (${omitted} not shown: at most ${MAX_DIAGNOSTICS_PER_FILE} are listed per file)` : '';
      output = renderText(diagnostics, `${checked}: ${total.error} error(s), ${total.warning} warning(s), ${total.information + total.hint} other${notShown}`);
    }
  }
  if (output) process.stdout.write(output + '\n');
  return total.error > 0 ? 1 : 0;
}

export function main(argv: string[]): number {
  try {
    const args = parseArgs(argv);
    if (args.flags.has('--version')) {
      process.stdout.write(VERSION + '\n');
      return 0;
    }
    if (args.flags.has('--help') || args.command === undefined) {
      process.stdout.write(USAGE + '\n');
      return args.command === undefined && !args.flags.has('--help') ? 2 : 0;
    }
    switch (args.command) {
      case 'check':
        return runCheck(args);
      case 'check-loud-boundaries':
        return runCheckLoudBoundaries(args);
      case 'transcript':
        return runTranscript(args);
      default:
        throw new UsageError(`unknown command ${args.command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`harn-workbench: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof IoError) {
      process.stderr.write(`harn-workbench: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`harn-workbench: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
