// Gathers the gate's inputs from a workspace and keeps them current: which files are scanned (the
// scan globs, honouring .gitignore as git does), the sites each holds (cached per file, so a saved
// file re-scans only itself), the registry and the funnel. Paths from the registry or the settings that
// leave the root (`..`, absolute, a symlink out) are refused and never read.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Minimatch } from 'minimatch';
import { HarnAnalysis } from '../harn/analysis';
import { LineIndex } from '../text/lineIndex';
import { decodeUtf8, InvalidUtf8 } from '../text/utf8';
import { walkFiles } from '../workspace/fileWalk';
import { isRegularFile, readFileBytesSync } from '../workspace/files';
import { evaluateGateSteps, Finding, GateFindingKind, GateResult } from './gate';
import { HarnBoundaryScan, scanHarnBoundaries } from './harnSites';
import { parseRegistry, parseRegistrySteps, RegistryCache } from './registry';
import { isExemptSite, parseFunnel, scanRustMentions } from './rust';
import { runSteps, StepCounter, Steps } from './steps';
import { BoundarySite, Funnel, Registry, RustMention, TextRange } from './types';

export interface GateSettings {
  registryPath: string;
  funnelPath: string;
  rustGlobs: string[];
  harnGlobs: string[];
}

export const DEFAULT_GATE_SETTINGS: GateSettings = {
  registryPath: 'scripts/loud_boundaries.toml',
  funnelPath: 'crates/harn-vm/src/boundary.rs',
  rustGlobs: ['crates/**/*.rs'],
  harnGlobs: ['crates/**/*.harn'],
};

/** Where file text comes from: open editors first when the server has them, else the disk. */
export interface TextSource {
  /** Text of an open document at this absolute path, if any. */
  openText(absolutePath: string): string | undefined;
}

export const DISK_ONLY: TextSource = { openText: () => undefined };

/** Why a root-relative path may not be read, or undefined when it is safe. */
export function refusalReason(root: string, relative: string): string | undefined {
  if (relative.includes('\0')) return `refused: \`${relative}\` is not a valid path`;
  if (path.isAbsolute(relative) || /^[A-Za-z]:[\\/]/.test(relative) || relative.startsWith('\\')) {
    return `refused: \`${relative}\` is absolute; registry paths are relative to the repository root`;
  }
  const normalized = path.posix.normalize(relative.replace(/\\/g, '/'));
  if (normalized === '..' || normalized.startsWith('../')) return `refused: \`${relative}\` leaves the repository root`;
  // A symlink on the way may lead out: compare real paths when the file exists.
  try {
    const real = fs.realpathSync(path.join(root, normalized));
    const realRoot = fs.realpathSync(root);
    const rel = path.relative(realRoot, real);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return `refused: \`${relative}\` is a symbolic link that leads out of the repository root`;
  } catch {
    // Missing: nothing to follow, and the gate reports it as missing.
  }
  return undefined;
}

/**
 * What one scanned file names: Rust variants (mapped to wire ids with the current funnel on every run, so a
 * changed funnel never leaves stale ids behind) or `.harn` ids.
 */
export interface FileScan {
  rust: RustMention[];
  harn: { id: string; range: TextRange }[];
  /** What scanning the file threw (a bug of ours): the file then has no sites, and an internal_error finding. */
  failure?: unknown;
  /** The text scanned, kept when it has sites: their ranges are offsets into it (GateRun.texts). */
  text?: string;
  /** The text was an open document's (its unsaved text), not the file on disk's. */
  fromOpenDocument?: true;
}

/** A scanned file whose scan threw: where, and the error (for the log; the finding has its message). */
export interface ScanFailure {
  path: string;
  error: unknown;
}

export interface GateRun {
  result: GateResult;
  registry: Registry | undefined;
  funnel: Funnel | undefined;
  /** All sites (exempt ones included), for hover, completion and fixes. */
  allSites: BoundarySite[];
  /** The sites the gate checks (the funnel and test files are exempt): an entry's anchors are among these. */
  gateSites: BoundarySite[];
  scannedFiles: number;
  /** Files whose scan failed, each also an internal_error finding on the file (the gate checked the others). */
  failures: ScanFailure[];
  /**
   * The text of each file the findings' and sites' ranges are offsets into (the registry, the funnel, the scanned
   * files with sites), as this run read it: an open document may have been edited since, a file on disk changed.
   */
  texts: ReadonlyMap<string, string>;
  /** The scanned files this run read as open documents held them (a document closed since shows the disk again). */
  fromOpenDocuments: ReadonlySet<string>;
}

export class BoundaryGateWorkspace {
  private readonly scans = new Map<string, FileScan>();
  private fileList: string[] | undefined;
  private readonly referenced = new Map<string, { exists: boolean; text: string | undefined }>();
  /** Disk text of the registry and the funnel (undefined: unreadable), until invalidated. */
  private readonly diskTexts = new Map<string, string | undefined>();
  /** Why a file that exists was not read (a FIFO, a folder, a device, a read error), by root-relative path. */
  private readonly diskRefusals = new Map<string, string>();
  private parsedRegistry: { text: string; registry: Registry } | undefined;
  /** The registry's entries parsed at the last parse, so that an edit re-parses only the entry it touched. */
  private readonly registryCache: RegistryCache = { pieces: new Map() };
  private parsedFunnel: { text: string; funnel: Funnel } | undefined;
  private lastRun: GateRun | undefined;
  private readonly notUtf8 = new Map<string, { invalid: readonly InvalidUtf8[]; lineIndex: LineIndex }>();
  /** Compiled scan globs (compiling one costs more than matching a path with it). */
  private readonly matchers = new Map<string, Minimatch>();

  constructor(
    readonly root: string,
    readonly settings: GateSettings,
    private readonly source: TextSource = DISK_ONLY,
  ) {}

  get registryAbsolutePath(): string {
    return path.join(this.root, this.settings.registryPath);
  }

  get last(): GateRun | undefined {
    return this.lastRun;
  }

  /** Whether a root-relative path is scanned for sites. */
  isScanned(relative: string): boolean {
    const globs = relative.endsWith('.rs') ? this.settings.rustGlobs : relative.endsWith('.harn') ? this.settings.harnGlobs : [];
    return globs.some((g) => this.matcher(g).match(relative));
  }

  /** `minimatch(path, glob, { dot: true })`, compiled once per glob. */
  private matcher(glob: string): Minimatch {
    let compiled = this.matchers.get(glob);
    if (!compiled) {
      compiled = new Minimatch(glob, { dot: true });
      this.matchers.set(glob, compiled);
    }
    return compiled;
  }

  /** Whether a folder may hold a scanned file: false only when no glob's leading literal folders lead into it. */
  private mayHoldScanned(folder: string): boolean {
    const parts = folder.split('/');
    return [...this.settings.rustGlobs, ...this.settings.harnGlobs].some((glob) => {
      const literal = literalPrefix(glob);
      if (literal === undefined) return true;
      for (let i = 0; i < Math.min(parts.length, literal.length); i++) if (parts[i] !== literal[i]) return false;
      return true;
    });
  }

  /** A root-relative file's text: the open document's when the server has it, else the disk's. */
  readFile(relative: string): string | undefined {
    const open = this.source.openText(path.join(this.root, relative));
    if (open !== undefined) return open;
    return this.readDisk(relative);
  }

  /**
   * The one place file contents are read from disk (undefined when unreadable); tests count calls here. Only a
   * regular file is read (workspace/files.ts: a FIFO is never opened for a blocking read); why another one was
   * refused is kept for the registry's and the funnel's findings.
   */
  protected readDisk(relative: string): string | undefined {
    const read = readFileBytesSync(path.join(this.root, relative));
    if (read.ok) {
      this.diskRefusals.delete(relative);
      const decoded = decodeUtf8(read.bytes);
      if (decoded.invalid.length > 0) this.notUtf8.set(relative, { invalid: decoded.invalid, lineIndex: new LineIndex(decoded.text) });
      else this.notUtf8.delete(relative);
      return decoded.text;
    }
    if (read.code === 'missing') this.diskRefusals.delete(relative);
    else this.diskRefusals.set(relative, `${relative} ${read.reason}; it is not read`);
    return undefined;
  }

  /** The files last read from disk that are not UTF-8 (read with U+FFFD), with where; kept until invalidated. */
  get filesNotUtf8(): ReadonlyMap<string, { invalid: readonly InvalidUtf8[]; lineIndex: LineIndex }> {
    return this.notUtf8;
  }

  /**
   * The registry's or the funnel's text: an open document's on every run (it follows unsaved edits and
   * falls back to the disk when closed), else the disk's, read once until the file is invalidated.
   */
  private configuredText(relative: string): string | undefined {
    const open = this.source.openText(path.join(this.root, relative));
    if (open !== undefined) return open;
    if (!this.diskTexts.has(relative)) this.diskTexts.set(relative, this.readDisk(relative));
    return this.diskTexts.get(relative);
  }

  private isFile(relative: string): boolean {
    if (this.source.openText(path.join(this.root, relative)) !== undefined) return true;
    return isRegularFile(path.join(this.root, relative));
  }

  /** Forgets what is known of one file (changed, created or deleted) so the next run reads it again. */
  invalidate(relative: string, change: 'changed' | 'created' | 'deleted' = 'changed'): void {
    this.scans.delete(relative);
    this.referenced.delete(relative);
    this.diskTexts.delete(relative);
    this.diskRefusals.delete(relative);
    this.notUtf8.delete(relative);
    if (change !== 'changed') this.fileList = undefined;
  }

  /** Forgets everything (settings or .gitignore changed). */
  reset(): void {
    this.scans.clear();
    this.referenced.clear();
    this.diskTexts.clear();
    this.diskRefusals.clear();
    this.notUtf8.clear();
    this.fileList = undefined;
  }

  /**
   * A scanned file's sites, cached. Its text is read once: the funnel's comes from the funnel read, and
   * the text of a scanned file the registry also references (an anchor, a test) is kept for that use.
   */
  private scanFile(relative: string, referenced: ReadonlySet<string>): FileScan {
    const cached = this.scans.get(relative);
    if (cached) return cached;
    const open = relative === this.settings.funnelPath ? undefined : this.source.openText(path.join(this.root, relative));
    const text = relative === this.settings.funnelPath ? this.configuredText(relative) : (open ?? this.readDisk(relative));
    if (text !== undefined && referenced.has(relative) && !this.referenced.has(relative)) this.referenced.set(relative, { exists: true, text });
    let scan: FileScan = { rust: [], harn: [] };
    if (text !== undefined) {
      try {
        scan = this.scanText(relative, text);
        if (scan.rust.length > 0 || scan.harn.length > 0) scan = { ...scan, text };
        if (open !== undefined) scan = { ...scan, fromOpenDocument: true };
      } catch (error) {
        // One file's failure stays on that file: cached like a scan (until the file changes), reported by run().
        scan = { rust: [], harn: [], failure: error };
      }
    }
    this.scans.set(relative, scan);
    return scan;
  }

  /** The sites one file's text names: Rust mentions or `.harn` references. */
  protected scanText(relative: string, text: string): FileScan {
    if (relative.endsWith('.rs')) return { rust: scanRustMentions(text), harn: [] };
    return { rust: [], harn: scanHarn(text).references.map((ref) => ({ id: ref.id, range: ref.range })) };
  }

  private referencedFile(relative: string): { exists: boolean; text: string | undefined } {
    let known = this.referenced.get(relative);
    if (!known) {
      const exists = this.isFile(relative);
      known = { exists, text: exists ? this.readFile(relative) : undefined };
      this.referenced.set(relative, known);
    }
    return known;
  }

  /** The registry parsed from a text, parsed once per text (hovers and fixes ask for it on every request). */
  parseRegistryText(text: string): Registry {
    if (this.parsedRegistry?.text !== text) this.parsedRegistry = { text, registry: parseRegistry(text, this.registryCache) };
    return this.parsedRegistry.registry;
  }

  /** parseRegistryText in steps. */
  protected *parseRegistrySteps(text: string): Steps<Registry> {
    if (this.parsedRegistry?.text === text) return this.parsedRegistry.registry;
    const registry = yield* parseRegistrySteps(text, this.registryCache);
    this.parsedRegistry = { text, registry };
    return registry;
  }

  /** The registry parsed from its current text when that parse is at hand, without parsing (undefined otherwise). */
  parsedCurrentRegistry(): Registry | undefined {
    const text = this.configuredText(this.settings.registryPath);
    return text !== undefined && this.parsedRegistry?.text === text ? this.parsedRegistry.registry : undefined;
  }

  /** The registry as it is now (open document or disk): the last run may predate an edit. */
  currentRegistry(): Registry | undefined {
    const text = this.configuredText(this.settings.registryPath);
    return text === undefined ? undefined : this.parseRegistryText(text);
  }

  /** The funnel parsed from a text, once per text. */
  parseFunnelText(text: string): Funnel {
    if (this.parsedFunnel?.text !== text) this.parsedFunnel = { text, funnel: parseFunnel(text) };
    return this.parsedFunnel.funnel;
  }

  /** Runs the whole gate, re-reading only what was invalidated since the last run. */
  run(): GateRun {
    return runSteps(this.runSteps());
  }

  /**
   * run() in steps (steps.ts), yielding every STEP_BATCH entries, files or findings: the server runs them in
   * slices between requests and drops them when a newer run supersedes them. `last` is set when they finish.
   */
  *runSteps(): Steps<GateRun> {
    const { registryPath, funnelPath } = this.settings;
    const step = new StepCounter();
    const empty = (kind: GateFindingKind, where: string, message: string, registry?: Registry): GateRun => ({
      result: {
        findings: [{ kind, id: '', path: where, message, location: { path: where, ranges: kind === 'internal_error' ? [{ start: 0, end: 0 }] : [] } }],
        refused: true,
        boundaryCount: registry?.boundaries.length ?? 0,
        auditedCount: registry?.audited.length ?? 0,
      },
      registry,
      funnel: undefined,
      allSites: [],
      gateSites: [],
      scannedFiles: 0,
      failures: [],
      texts: new Map(),
      fromOpenDocuments: new Set(),
    });
    for (const configured of [registryPath, funnelPath]) {
      const reason = refusalReason(this.root, configured);
      if (reason) return (this.lastRun = empty('path_outside_root', configured, reason));
    }
    const registryText = this.configuredText(registryPath);
    const registryRefused = this.diskRefusals.get(registryPath);
    if (registryText === undefined && registryRefused !== undefined) return (this.lastRun = empty('unreadable_file', registryPath, registryRefused));
    if (registryText === undefined) return (this.lastRun = empty('missing_registry', registryPath, `missing ${registryPath}`));
    // The gate cannot run without its two inputs: a failure reading either is said on it, the run refused.
    let registry: Registry;
    try {
      registry = yield* this.parseRegistrySteps(registryText);
    } catch (error) {
      return (this.lastRun = { ...empty('internal_error', registryPath, inputFailure(registryPath, error)), failures: [{ path: registryPath, error }] });
    }
    const funnelText = this.configuredText(funnelPath);
    const funnelRefused = this.diskRefusals.get(funnelPath);
    if (funnelText === undefined && funnelRefused !== undefined) return (this.lastRun = empty('unreadable_file', funnelPath, funnelRefused, registry));
    if (funnelText === undefined) return (this.lastRun = empty('missing_funnel', funnelPath, `missing the funnel definition ${funnelPath}`, registry));
    let funnel: Funnel;
    try {
      funnel = this.parseFunnelText(funnelText);
    } catch (error) {
      return (this.lastRun = { ...empty('internal_error', funnelPath, inputFailure(funnelPath, error), registry), failures: [{ path: funnelPath, error }] });
    }

    this.fileList ??= walkFiles(this.root, { accept: (rel) => this.isScanned(rel), enter: (rel) => this.mayHoldScanned(rel) });
    const referencedPaths = new Set<string>();
    for (const entry of registry.boundaries) {
      for (const a of entry.anchors) referencedPaths.add(a.value);
      if (entry.test?.value) referencedPaths.add(entry.test.value);
    }
    for (const entry of registry.audited) for (const a of entry.anchors) referencedPaths.add(a.value);

    const allSites: BoundarySite[] = [];
    const sites: BoundarySite[] = [];
    const failures: ScanFailure[] = [];
    const fromOpenDocuments = new Set<string>();
    const texts = new Map<string, string>([
      [registryPath, registryText],
      [funnelPath, funnelText],
    ]);
    // Rust sites map to ids through the funnel's arms (a variant with no arm is not a site, as upstream).
    const wire = new Map(funnel.arms.map((a) => [a.variant, a.wire]));
    // Rust sites first, then .harn, as upstream concatenates its two greps.
    const ordered = [...this.fileList.filter((f) => f.endsWith('.rs')), ...this.fileList.filter((f) => !f.endsWith('.rs'))];
    for (const relative of ordered) {
      if (step.tick()) yield;
      const scan = this.scanFile(relative, referencedPaths);
      if (scan.failure !== undefined) failures.push({ path: relative, error: scan.failure });
      if (scan.text !== undefined && relative !== funnelPath) texts.set(relative, scan.text);
      if (scan.fromOpenDocument) fromOpenDocuments.add(relative);
      const exempt = isExemptSite(relative, funnelPath);
      const found: BoundarySite[] = [];
      for (const mention of scan.rust) {
        const id = wire.get(mention.variant);
        if (id !== undefined) found.push({ path: relative, id, range: mention.range });
      }
      for (const ref of scan.harn) found.push({ path: relative, id: ref.id, range: ref.range });
      for (const site of found) {
        allSites.push(site);
        if (!exempt) sites.push(site);
      }
    }

    const existing = new Set<string>();
    const contents = new Map<string, string>();
    const refused = new Map<string, string>();
    for (const relative of referencedPaths) {
      if (step.tick()) yield;
      const reason = refusalReason(this.root, relative);
      if (reason) {
        refused.set(relative, reason);
        continue;
      }
      const file = this.referencedFile(relative);
      if (file.exists) {
        existing.add(relative);
        if (file.text !== undefined) contents.set(relative, file.text);
      }
    }
    const result = yield* evaluateGateSteps({ registryPath, funnelPath, registry, funnel, sites, existing, contents, refused });
    // First: the findings after them may follow from the sites these files could not give.
    if (failures.length) result.findings = failures.map(failureFinding).concat(result.findings);
    this.lastRun = { result, registry, funnel, allSites, gateSites: sites, scannedFiles: ordered.length, failures, texts, fromOpenDocuments };
    return this.lastRun;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Why the gate could not run: reading the registry or the funnel failed. */
function inputFailure(where: string, error: unknown): string {
  return `failed to read ${where} (${errorText(error)}), a bug in Harn Workbench: the gate could not run`;
}

/** The internal_error finding of a file whose scan failed, at its start. */
function failureFinding(failure: ScanFailure): Finding {
  const reason = errorText(failure.error);
  return {
    kind: 'internal_error',
    id: '',
    path: failure.path,
    message: `scanning this file for boundary sites failed (${reason}), a bug in Harn Workbench: the gate checked every other file, without this file's sites`,
    location: { path: failure.path, ranges: [{ start: 0, end: 0 }] },
  };
}

/**
 * The folders a glob's path must start with — its leading segments free of glob syntax, the file name
 * excepted — or undefined when that cannot be told (no such segment; `.`, `..` or an empty segment, which
 * matching may normalise).
 */
function literalPrefix(glob: string): string[] | undefined {
  const segments = glob.split('/');
  const literal: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[\]{}()!+@\\#]/.test(segment)) break;
    if (segment === '' || segment === '.' || segment === '..') return undefined;
    literal.push(segment);
  }
  return literal.length > 0 ? literal : undefined;
}

/**
 * Scans a `.harn` text for boundary references and payload problems. Both need the word `boundary` in
 * the source (a `boundary` key; the `"boundary_failure"` event type), and no escape can spell a letter,
 * so a text without it is not parsed.
 */
export function scanHarn(text: string): HarnBoundaryScan {
  if (!text.includes('boundary')) return { references: [], problems: [] };
  return scanHarnBoundaries(new HarnAnalysis(text));
}
