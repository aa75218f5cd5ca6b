// harn-workbench: the CLI over the same domain modules as the language server (DESIGN.md "CLI contract").
// Exit codes: 0 no error-severity diagnostic, 1 at least one, 2 usage or I/O error.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { artifactByGlobs, classifyArtifact, DEFAULT_ARTIFACT_SETTINGS } from './artifacts/classify';
import { DEFAULT_RUN_CONTROL_SETTINGS, isRunControlLog } from './runControl/classify';
import { composeFromLog, runControlLogDiagnostics } from './cli/runControl';
import { runTrainingExample } from './cli/training';
import { runFmt } from './cli/fmt';
import { RunIoError, runPipeline } from './cli/run';
import { MAX_LINE_BYTES_LIMIT, readFirstLines } from './artifacts/jsonl';
import { verifyRunRecord } from './artifacts/runRecord';
import { projectTrainingExample } from './training/project';
import { projectionRefusalDiagnostic } from './training/refusalDiagnostic';
import { ArtifactProblem } from './artifacts/types';
import { JsonlKind, validateArtifactFile } from './artifacts/validate';
import { CompactionFiles } from './directives/compactions';
import { gateRunDiagnosticList } from './boundaries/diagnostics';
import { boundaryInfoLookup, parseRegistry } from './boundaries/registry';
import { renderGateText } from './boundaries/gate';
import { scanHarnBoundaries } from './boundaries/harnSites';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS, GateRun, GateSettings } from './boundaries/workspaceGate';
import { commandHelp, CommandName, formatOf, generalHelp, maxLineBytesOf, ParsedArgs, parseArgs, usageHint, UsageError } from './cli/args';
import { FoundRoot, present, RootFinder } from './cli/roots';
import { checkSummaryText, GateOutcome, KindCounts, notShownText, severityTotals } from './cli/summary';
import { artifactProblemDiagnostic, harnSyntaxDiagnostics, internalErrorDiagnostic, invalidUtf8Diagnostics } from './diagnostics';
import { WORKBENCH_VERSION } from './version';
import { HarnAnalysis } from './harn/analysis';
import { capPerFile, FileDiagnostic, OutputFormat, renderGithub, renderJson, renderSarif, renderText } from './report/format';
import { decodeUtf8 } from './text/utf8';
import { trainingFileFormat } from './training/classify';
import { trainingFileDiagnostics, trainingFileTooLarge } from './training/diagnostics';
import { TrainingFileFormat } from './training/validate';
import { walkFiles } from './workspace/fileWalk';
import { readFileBytesSync, readFileTextSync, refusalMessage, regularFileInfo } from './workspace/files';

const VERSION = WORKBENCH_VERSION;

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** `file` relative to `base`, with forward slashes (`.` for the base itself). */
function relativeTo(base: string, file: string): string {
  return toPosix(path.relative(base, file)) || '.';
}

/**
 * How paths on this machine are named in the output: relative to `base`, or to its real path for one resolved
 * through symbolic links (a run record's transcript) that lies under it.
 */
function shownFrom(base: string): (absolute: string) => string {
  let realBase: string | undefined;
  return (absolute) => {
    const shown = relativeTo(base, absolute);
    if (!shown.startsWith('../') && shown !== '..') return shown;
    try {
      realBase ??= fs.realpathSync(base);
    } catch {
      return shown;
    }
    const real = relativeTo(realBase, absolute);
    return real.startsWith('../') || real === '..' ? shown : real;
  };
}

/** A path named on the command line, resolved; an I/O error (exit 2) when it is missing or not a file or folder. */
interface Target {
  given: string;
  absolute: string;
  isFolder: boolean;
}

function targetOf(given: string): Target {
  const absolute = path.resolve(given);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new IoError(`no such file or folder: ${given}`);
  }
  if (!stat.isDirectory() && !stat.isFile()) {
    // A FIFO, a socket or a device named on the command line is refused: reading it could block for good.
    const info = regularFileInfo(absolute);
    throw new IoError(info.ok ? `cannot read ${given}` : refusalMessage(info, given));
  }
  return { given, absolute, isFolder: stat.isDirectory() };
}

/** The files named by the targets (files as given, folders walked honouring .gitignore) that `accept` takes. */
function collectFiles(targets: Target[], accept: (relative: string) => boolean): string[] {
  const files = new Set<string>();
  for (const target of targets) {
    if (target.isFolder) {
      for (const rel of walkFiles(target.absolute, { accept })) files.add(path.join(target.absolute, rel));
    } else if (accept(path.basename(target.absolute))) {
      files.add(target.absolute);
    }
  }
  return [...files].sort();
}

const CHECKED_FILE = /\.(harn|jsonl|json)$/i;

class IoError extends Error {}

/** A file's text; an I/O error (exit 2) when it cannot be read or is not a regular file (a FIFO is never opened to block). */
function readText(file: string, shown: string): string {
  const read = readFileTextSync(file);
  if (!read.ok) throw new IoError(refusalMessage(read, shown));
  return read.text;
}

function readBytes(file: string, shown: string): Buffer {
  const read = readFileBytesSync(file);
  if (!read.ok) throw new IoError(refusalMessage(read, shown));
  return read.bytes;
}

/** Where a file is checked from: its root, and how paths on this machine are named in the output. */
export interface FileContext {
  root: string;
  /** A path as the output names it: relative to the root, or to the current folder when the run has several roots. */
  show: (absolute: string) => string;
  titles: (id: string) => string | undefined;
}

/** The root the user gave, or the one found for a folder (RootFinder), once per run. */
function rootSource(args: ParsedArgs, registryPath: string): (folder: string) => FoundRoot {
  const given = args.options.get('--root');
  if (given === undefined) {
    const finder = new RootFinder(process.cwd(), registryPath);
    return (folder) => finder.rootOf(folder);
  }
  const root = path.resolve(given);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new IoError(`--root is not a folder: ${given}`);
  return () => ({ root, reason: 'option' });
}

/** Why a root without a registry got no gate run, naming the folder its search started from. */
function notRunReason(found: FoundRoot, start: string, cwd: string): string {
  const registry = DEFAULT_GATE_SETTINGS.registryPath;
  switch (found.reason) {
    case 'option':
      return `no ${registry} in it (--root)`;
    case 'git':
      return start === found.root
        ? `no ${registry} in it (the top of its git repository)`
        : `no ${registry} in ${relativeTo(cwd, start)} or above it, up to its git repository's top`;
    default:
      return `no ${registry} in ${relativeTo(cwd, start)} or above it, nor a .git`;
  }
}

interface RootGroup {
  found: FoundRoot;
  /** The first folder whose search led here: the place the summary names when the gate did not run. */
  start: string;
  files: string[];
}

function runCheck(args: ParsedArgs): number {
  const format = formatOf(args);
  const maxLineBytes = maxLineBytesOf(args);
  const cwd = process.cwd();
  const rootOf = rootSource(args, DEFAULT_GATE_SETTINGS.registryPath);
  const targets = (args.positional.length ? args.positional : [args.options.get('--root') ?? '.']).map(targetOf);
  const groups = new Map<string, RootGroup>();
  const groupOf = (folder: string): RootGroup => {
    const found = rootOf(folder);
    let group = groups.get(found.root);
    if (group === undefined) groups.set(found.root, (group = { found, start: folder, files: [] }));
    return group;
  };
  for (const target of targets) groupOf(target.isFolder ? target.absolute : path.dirname(target.absolute));
  for (const file of collectFiles(targets, (rel) => CHECKED_FILE.test(rel))) groupOf(path.dirname(file)).files.push(file);

  // As the search reads it: a registry that is a dangling link or a FIFO is still there (the gate reports it).
  const hasRegistry = (root: string): boolean => present(path.join(root, DEFAULT_GATE_SETTINGS.registryPath));
  // A root that only a folder's search passed through (`check examples`, whose files all lie in examples/*/ roots)
  // is left out, unless no root has a file or a gate, when it is the one to say why nothing ran.
  const idle = [...groups].filter(([root, group]) => group.files.length === 0 && !hasRegistry(root)).map(([root]) => root);
  if (idle.length < groups.size) for (const root of idle) groups.delete(root);
  // One root: paths relative to it (as with --root). Several: relative to the current folder, so none is ambiguous.
  const [only] = groups.size === 1 ? groups.keys() : [];
  const base = only ?? cwd;
  const show = shownFrom(base);
  const diagnostics: FileDiagnostic[] = [];
  const other = new KindCounts();
  const gates: GateOutcome[] = [];
  let harnFiles = 0;
  let artifactFiles = 0;
  let trainingFiles = 0;
  for (const [root, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const context: FileContext = { root, show, titles: registryTitles(root) };
    const found: FileDiagnostic[] = [];
    for (const file of group.files) {
      if (file.endsWith('.harn')) {
        harnFiles++;
        for (const d of isolated(context, file, 'Harn', () => FILE_CHECKS.harn(file, context))) found.push(d);
        continue;
      }
      // Training examples before the run artifacts, as in the editor (a `run.training.json` is no run record).
      const training = trainingFileFormat(file, () => readFirstLines(file, 5));
      if (training !== undefined) {
        trainingFiles++;
        for (const d of isolated(context, file, 'training example', () => FILE_CHECKS.training(file, context, training, maxLineBytes))) found.push(d);
        continue;
      }
      const checked = isolated(context, file, 'run-artifact', () => FILE_CHECKS.artifact(file, context, undefined, maxLineBytes));
      if (checked === undefined) continue;
      artifactFiles++;
      for (const d of checked) found.push(d);
    }
    for (const d of found) {
      other.add(d);
      diagnostics.push(d);
    }
    // The loud-boundary gate, once per root that has a registry.
    const shownRoot = relativeTo(cwd, root);
    if (hasRegistry(root)) {
      const gate = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS);
      const run = gate.run();
      traceFailures(run, context);
      for (const d of gateDiagnostics(gate, run, context)) diagnostics.push(d);
      gates.push({ root: shownRoot, ran: true, findings: run.result.findings.length });
    } else {
      gates.push({ root: shownRoot, ran: false, reason: notRunReason(group.found, group.start, cwd) });
    }
  }
  return report(diagnostics, 'position', format, (total, omitted) =>
    checkSummaryText({ total, omitted, harnFiles, artifactFiles, trainingFiles, gates, other }),
  );
}

/** A `.harn` file's syntax errors and boundary payload problems. */
function harnDiagnostics(file: string, context: FileContext): FileDiagnostic[] {
  const rel = context.show(file);
  // Bytes decoded here (not as text), so that each ill-formed UTF-8 sequence is reported where it is.
  const source = decodeUtf8(readBytes(file, rel));
  const analysis = new HarnAnalysis(source.text);
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

/** A training example file's schema and pairing problems (and its bytes that are not UTF-8). */
function trainingDiagnostics(file: string, context: FileContext, format: TrainingFileFormat, maxLineBytes: number | undefined): FileDiagnostic[] {
  const rel = context.show(file);
  const info = regularFileInfo(file);
  // Read whole: past the longest string V8 can make it could not be decoded at all.
  if (info.ok && info.size > MAX_LINE_BYTES_LIMIT) return [{ ...trainingFileTooLarge(info.size), path: rel }];
  const { text, invalid } = decodeUtf8(readBytes(file, rel));
  return trainingFileDiagnostics(text, format, invalid, { maxLineBytes }).map((d) => ({ ...d, path: rel }));
}

/** The per-file checks of `check`; a test may replace one to prove that a failure stays on its file. */
export const FILE_CHECKS = { harn: harnDiagnostics, artifact: artifactDiagnostics, training: trainingDiagnostics };

/**
 * One file's checks, so that their failure is an internal_error on that file and the other files are still
 * checked (exit 1, not 2). An unreadable file is still an I/O error (exit 2).
 */
function isolated<T extends FileDiagnostic[] | undefined>(context: FileContext, file: string, what: string, check: () => T): T | FileDiagnostic[] {
  try {
    return check();
  } catch (error) {
    if (error instanceof IoError) throw error;
    traceInternalError(context.show(file), error);
    return [{ ...internalErrorDiagnostic(what, error, 'the error output'), path: context.show(file) }];
  }
}

function traceInternalError(shown: string, error: unknown): void {
  const trace = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`harn-workbench: internal error while checking ${shown} (the other files are still checked): ${trace}\n`);
}

/** The stack traces of the gate's per-file failures (each is an internal_error finding on its file). */
function traceFailures(run: GateRun, context: FileContext): void {
  for (const failure of run.failures) traceInternalError(context.show(path.join(context.root, failure.path)), failure.error);
}

/**
 * An artifact problem on `rel`. A file that could not be read names itself by its absolute path (the domain reads
 * by path): named here as the output names it.
 */
function problemDiagnostic(p: ArtifactProblem, file: string, rel: string): FileDiagnostic {
  const d = artifactProblemDiagnostic(p);
  if (p.code === 'unreadable_file' && d.message.startsWith(file)) d.message = rel + d.message.slice(file.length);
  return { ...d, path: rel };
}

/** Boundary titles from the root's loud-boundary registry, so boundary_failure messages name them (as in the editor). */
function registryTitles(root: string): (id: string) => string | undefined {
  const read = readFileTextSync(path.join(root, DEFAULT_GATE_SETTINGS.registryPath));
  if (!read.ok) return () => undefined;
  const lookup = boundaryInfoLookup(parseRegistry(read.text));
  return (id) => lookup(id)?.title;
}

/** Verifies a run record's descriptors against the transcripts on disk, paths in messages named as the output names them. */
function runRecordDiagnostics(file: string, context: FileContext, maxLineBytes: number | undefined): FileDiagnostic[] {
  const rel = context.show(file);
  return verifyRunRecord(file, readText(file, rel), undefined, { maxLineBytes, showPath: context.show }).map((p) => problemDiagnostic(p, file, rel));
}

/**
 * `check` on a run record: its descriptors, and, as in the editor (where harn.training.projectionDiagnostics can turn
 * it off; the CLI reads no settings, so it is always on), why the run cannot be exported as a training example.
 */
function checkedRunRecordDiagnostics(file: string, context: FileContext, maxLineBytes: number | undefined): FileDiagnostic[] {
  const found = runRecordDiagnostics(file, context, maxLineBytes);
  const projected = projectTrainingExample({ runRecordPath: file }, undefined, maxLineBytes === undefined ? {} : { maxLineBytes });
  if (!projected.ok) {
    const rel = context.show(file);
    const files = projected.transcriptPath === undefined ? [file] : [file, projected.transcriptPath];
    found.push({ ...projectionRefusalDiagnostic(readText(file, rel), projected.refusal, { files, show: context.show }), path: rel });
  }
  return found;
}

/** The run records and event logs read for transcripts' compactions (a folder of transcripts shares them). */
const compactionFiles = new CompactionFiles();

/** Validates one artifact file from disk (streamed); undefined when the file is not an artifact. */
function artifactDiagnostics(file: string, context: FileContext, forced?: JsonlKind, maxLineBytes?: number): FileDiagnostic[] | undefined {
  // As in the editor: the artifacts' own globs first, then run-control logs (by their globs or rows).
  const head = (): string[] => readFirstLines(file, 5);
  if (!forced && !artifactByGlobs(file, context.root, DEFAULT_ARTIFACT_SETTINGS) && isRunControlLog(file, context.root, DEFAULT_RUN_CONTROL_SETTINGS, head))
    return runControlLogDiagnostics(file, context.show(file), maxLineBytes);
  const kind = forced ?? classifyArtifact(file, context.root, DEFAULT_ARTIFACT_SETTINGS, () => readFirstLines(file, 5));
  if (kind === undefined) return undefined;
  if (kind === 'runRecord') return checkedRunRecordDiagnostics(file, context, maxLineBytes);
  const rel = context.show(file);
  const compactions = kind === 'transcript' ? compactionFiles.of(file) : undefined;
  return validateArtifactFile(kind, file, {
    fileName: file,
    registryTitle: context.titles,
    maxLineBytes,
    ...(compactions ? { compactions } : {}),
  }).problems.map((p) => problemDiagnostic(p, file, rel));
}

function runTranscript(args: ParsedArgs): number {
  const [given, ...extra] = args.positional;
  if (given === undefined || extra.length > 0) throw new UsageError('transcript takes exactly one FILE', 'transcript');
  const format = formatOf(args);
  const maxLineBytes = maxLineBytesOf(args);
  const file = path.resolve(given);
  const info = regularFileInfo(file);
  if (!info.ok) throw new IoError(info.code === 'missing' ? `no such file: ${given}` : refusalMessage(info, given));
  const { root } = rootSource(args, DEFAULT_GATE_SETTINGS.registryPath)(path.dirname(file));
  const context: FileContext = { root, show: shownFrom(root), titles: registryTitles(root) };
  // An event log named as such is read as one; anything else given to `transcript` is a transcript.
  const detected = classifyArtifact(file, root, DEFAULT_ARTIFACT_SETTINGS, () => readFirstLines(file, 5));
  const kind: JsonlKind = detected === 'eventLog' ? 'eventLog' : 'transcript';
  const diagnostics = artifactDiagnostics(file, context, kind, maxLineBytes) ?? [];
  const runRecord = args.options.get('--run-record');
  if (runRecord !== undefined) {
    const recordFile = path.resolve(runRecord);
    if (!fs.existsSync(recordFile)) throw new IoError(`no such file: ${runRecord}`);
    for (const d of runRecordDiagnostics(recordFile, context, maxLineBytes)) diagnostics.push(d);
  }
  const kinds = new KindCounts();
  for (const d of diagnostics) kinds.add(d);
  const subject = `${context.show(file)} checked as ${kind === 'eventLog' ? 'an event log' : 'a transcript'}${runRecord === undefined ? '' : ` with ${context.show(path.resolve(runRecord))}`}`;
  return report(
    diagnostics,
    'position',
    format,
    (total, omitted) => `${subject}: ${kinds.total > 0 ? kinds.text() : severityTotals(total)}${notShownText(omitted)}`,
  );
}

function gateDiagnostics(gate: BoundaryGateWorkspace, run: GateRun, context: FileContext): FileDiagnostic[] {
  // In the gate's finding order, not grouped by file.
  return gateRunDiagnosticList(run, (relative) => gate.readFile(relative)).map(({ path: where, diagnostic }) => ({
    ...diagnostic,
    path: context.show(path.join(context.root, where)),
  }));
}

function runCheckLoudBoundaries(args: ParsedArgs): number {
  if (args.positional.length) {
    throw new UsageError(`check-loud-boundaries takes no paths (got ${args.positional.join(' ')}); use --root`, 'check-loud-boundaries');
  }
  const format = formatOf(args);
  const registryPath = toPosix(args.options.get('--registry') ?? DEFAULT_GATE_SETTINGS.registryPath);
  const found = rootSource(args, registryPath)(process.cwd());
  if (found.reason === 'git' || found.reason === 'cwd') {
    const where = found.reason === 'git' ? ` or above it, up to its git repository's top (${relativeTo(process.cwd(), found.root)})` : ' or above it';
    throw new IoError(`no ${registryPath} in the current folder${where}: run it inside a Harn checkout, or give --root DIR`);
  }
  const root = found.root;
  const settings: GateSettings = {
    ...DEFAULT_GATE_SETTINGS,
    registryPath,
    funnelPath: toPosix(args.options.get('--funnel') ?? DEFAULT_GATE_SETTINGS.funnelPath),
  };
  const gate = new BoundaryGateWorkspace(root, settings);
  const run = gate.run();
  const context: FileContext = { root, show: shownFrom(root), titles: () => undefined };
  traceFailures(run, context);
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
  report(gateDiagnostics(gate, run, context), 'given', format, () => '');
  return run.result.findings.length === 0 ? 0 : 1;
}

/** Prints the diagnostics, capped per file (capPerFile); the counts and the exit status are over all of them. */
function report(
  found: Iterable<FileDiagnostic>,
  order: 'given' | 'position',
  format: OutputFormat,
  summary: (total: ReturnType<typeof capPerFile>['total'], omitted: number) => string,
): number {
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
    default:
      output = renderText(diagnostics, summary(total, omitted));
  }
  if (output) process.stdout.write(output + '\n');
  return total.error > 0 ? 1 : 0;
}

/** `run-control compose`: the request bound to the log's latest snapshot on stdout (exit 0), or the refusal (exit 1). */
function runRunControl(args: ParsedArgs): number {
  const [sub, ...extra] = args.positional;
  if (sub !== 'compose' || extra.length > 0) throw new UsageError('run-control takes one subcommand: compose', 'run-control');
  const log = args.options.get('--log');
  if (log === undefined) throw new UsageError('run-control compose needs --log LOG', 'run-control');
  const steer = args.options.get('--steer');
  const interrupt = args.options.has('--interrupt');
  if ((steer === undefined) === !interrupt) throw new UsageError('give exactly one of --steer TEXT and --interrupt', 'run-control');
  if (steer !== undefined && (args.options.has('--reason') || args.options.has('--force')))
    throw new UsageError('--reason and --force go with --interrupt', 'run-control');
  const file = path.resolve(log);
  const info = regularFileInfo(file);
  if (!info.ok) throw new IoError(info.code === 'missing' ? `no such file: ${log}` : refusalMessage(info, log));
  const reason = args.options.get('--reason');
  const command =
    steer !== undefined
      ? { kind: 'steer' as const, input: steer }
      : { kind: 'interrupt' as const, force: args.options.has('--force'), ...(reason === undefined ? {} : { reason }) };
  const result = composeFromLog(readText(file, log), command, undefined, undefined, args.options.get('--run'));
  if (!result.ok) {
    process.stderr.write(`harn-workbench: ${result.code}: ${result.message}\n`);
    return 1;
  }
  process.stdout.write(result.line + '\n');
  return 0;
}

const RUNS: Record<CommandName, (args: ParsedArgs) => number> = {
  'run-control': runRunControl,
  check: runCheck,
  'check-loud-boundaries': runCheckLoudBoundaries,
  transcript: runTranscript,
  'training-example': (args) => runTrainingExample(args, maxLineBytesOf(args)),
  run: runPipeline,
  fmt: runFmt,
};

export function main(argv: string[]): number {
  try {
    const args = parseArgs(argv);
    if (args.help) {
      process.stdout.write((args.command === undefined ? generalHelp(VERSION) : commandHelp(args.command, VERSION)) + '\n');
      return 0;
    }
    if (args.version) {
      process.stdout.write(VERSION + '\n');
      return 0;
    }
    if (args.command === undefined) {
      process.stderr.write(`harn-workbench: no command given\n\n${generalHelp(VERSION)}\n`);
      return 2;
    }
    return RUNS[args.command](args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`harn-workbench: ${error.message}\n${usageHint(error.command)}\n`);
      return 2;
    }
    if (error instanceof IoError || error instanceof RunIoError) {
      process.stderr.write(`harn-workbench: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`harn-workbench: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
