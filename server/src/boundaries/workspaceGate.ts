// Gathers the gate's inputs from a workspace and keeps them current: which files are scanned (the
// scan globs, honouring .gitignore as git does), the sites each holds (cached per file, so a saved
// file re-scans only itself), the registry and the funnel. Paths from the registry or the settings that
// leave the root (`..`, absolute, a symlink out) are refused and never read.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import { HarnAnalysis } from '../harn/analysis';
import { walkFiles } from '../workspace/fileWalk';
import { evaluateGate, GateResult } from './gate';
import { HarnBoundaryScan, scanHarnBoundaries } from './harnSites';
import { parseRegistry } from './registry';
import { isExemptSitePath, parseFunnel, scanRustMentions } from './rust';
import { BoundarySite, Funnel, Registry } from './types';

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

interface FileScan {
  sites: BoundarySite[];
}

export interface GateRun {
  result: GateResult;
  registry: Registry | undefined;
  funnel: Funnel | undefined;
  /** All sites (exempt ones included), for hover, completion and fixes. */
  allSites: BoundarySite[];
  scannedFiles: number;
}

export class BoundaryGateWorkspace {
  private readonly scans = new Map<string, FileScan>();
  private fileList: string[] | undefined;
  private readonly referenced = new Map<string, { exists: boolean; text: string | undefined }>();
  private lastRun: GateRun | undefined;

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
    return globs.some((g) => minimatch(relative, g, { dot: true }));
  }

  /** A root-relative file's text: the open document's when the server has it, else the disk's. */
  readFile(relative: string): string | undefined {
    const absolute = path.join(this.root, relative);
    const open = this.source.openText(absolute);
    if (open !== undefined) return open;
    try {
      return fs.readFileSync(absolute, 'utf8');
    } catch {
      return undefined;
    }
  }

  private isFile(relative: string): boolean {
    if (this.source.openText(path.join(this.root, relative)) !== undefined) return true;
    try {
      return fs.statSync(path.join(this.root, relative)).isFile();
    } catch {
      return false;
    }
  }

  /** Forgets what is known of one file (changed, created or deleted) so the next run reads it again. */
  invalidate(relative: string, change: 'changed' | 'created' | 'deleted' = 'changed'): void {
    this.scans.delete(relative);
    this.referenced.delete(relative);
    if (change !== 'changed') this.fileList = undefined;
  }

  /** Forgets everything (settings or .gitignore changed). */
  reset(): void {
    this.scans.clear();
    this.referenced.clear();
    this.fileList = undefined;
  }

  private scanFile(relative: string, funnel: Funnel): FileScan {
    const cached = this.scans.get(relative);
    if (cached) return cached;
    const text = this.readFile(relative);
    const sites: BoundarySite[] = [];
    if (text !== undefined) {
      if (relative.endsWith('.rs')) {
        const wire = new Map(funnel.arms.map((a) => [a.variant, a.wire]));
        for (const mention of scanRustMentions(text)) {
          const id = wire.get(mention.variant);
          if (id !== undefined) sites.push({ path: relative, id, range: mention.range });
        }
      } else {
        for (const ref of scanHarn(text).references) sites.push({ path: relative, id: ref.id, range: ref.range });
      }
    }
    const scan = { sites };
    this.scans.set(relative, scan);
    return scan;
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

  /** Runs the whole gate, re-reading only what was invalidated since the last run. */
  run(): GateRun {
    const { registryPath, funnelPath } = this.settings;
    const empty = (kind: 'missing_registry' | 'missing_funnel' | 'path_outside_root', where: string, message: string, registry?: Registry): GateRun => ({
      result: {
        findings: [{ kind, id: '', path: where, message, location: { path: where, ranges: [] } }],
        refused: true,
        boundaryCount: registry?.boundaries.length ?? 0,
        auditedCount: registry?.audited.length ?? 0,
      },
      registry,
      funnel: undefined,
      allSites: [],
      scannedFiles: 0,
    });
    for (const configured of [registryPath, funnelPath]) {
      const reason = refusalReason(this.root, configured);
      if (reason) return (this.lastRun = empty('path_outside_root', configured, reason));
    }
    const registryText = this.readFile(registryPath);
    if (registryText === undefined) return (this.lastRun = empty('missing_registry', registryPath, `missing ${registryPath}`));
    const registry = parseRegistry(registryText);
    const funnelText = this.readFile(funnelPath);
    if (funnelText === undefined) return (this.lastRun = empty('missing_funnel', funnelPath, `missing the funnel definition ${funnelPath}`, registry));
    const funnel = parseFunnel(funnelText);
    // Rust sites depend on the funnel's variants: a changed funnel means re-reading every .rs file.
    if (this.lastRun?.funnel && !sameArms(this.lastRun.funnel, funnel)) {
      for (const key of [...this.scans.keys()]) if (key.endsWith('.rs')) this.scans.delete(key);
    }

    this.fileList ??= walkFiles(this.root, { accept: (rel) => this.isScanned(rel) });
    const allSites: BoundarySite[] = [];
    const sites: BoundarySite[] = [];
    // Rust sites first, then .harn, as upstream concatenates its two greps.
    const ordered = [...this.fileList.filter((f) => f.endsWith('.rs')), ...this.fileList.filter((f) => !f.endsWith('.rs'))];
    for (const relative of ordered) {
      const scan = this.scanFile(relative, funnel);
      for (const site of scan.sites) {
        allSites.push(site);
        const exempt = relative.endsWith('.rs') && (relative === funnelPath || isExemptSitePath(relative));
        if (!exempt) sites.push(site);
      }
    }

    const existing = new Set<string>();
    const contents = new Map<string, string>();
    const refused = new Map<string, string>();
    const referencedPaths = new Set<string>();
    for (const entry of registry.boundaries) {
      for (const a of entry.anchors) referencedPaths.add(a.value);
      if (entry.test?.value) referencedPaths.add(entry.test.value);
    }
    for (const entry of registry.audited) for (const a of entry.anchors) referencedPaths.add(a.value);
    for (const relative of referencedPaths) {
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
    const result = evaluateGate({ registryPath, funnelPath, registry, funnel, sites, existing, contents, refused });
    this.lastRun = { result, registry, funnel, allSites, scannedFiles: ordered.length };
    return this.lastRun;
  }
}

function sameArms(a: Funnel, b: Funnel): boolean {
  return a.arms.length === b.arms.length && a.arms.every((arm, i) => arm.variant === b.arms[i].variant && arm.wire === b.arms[i].wire);
}

/** Scans a `.harn` text for boundary references and payload problems. */
export function scanHarn(text: string): HarnBoundaryScan {
  return scanHarnBoundaries(new HarnAnalysis(text));
}
