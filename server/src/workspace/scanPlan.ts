// What the workspace check (features/workspaceScan.ts) reads, in what order, and what it says of files it will
// not read. Pure: the LSP layer lists the files (fileWalk.ts), classifies them (features/router.ts) and stats them.

import { WorkbenchDiagnostic } from '../diagnostics';

/** Files over this size are never read by the workspace check (stat only): one information diagnostic instead. */
export const MAX_SCAN_BYTES = 50 * 1024 * 1024;

export const WORKSPACE_SOURCE = 'harn.workspace';
export const TOO_LARGE_TO_SCAN = 'too_large_to_scan';

/** The kinds the workspace check reads from disk (the registry and Rust sources are the gate's). */
export type ScanKind = 'harn' | 'transcript' | 'eventLog' | 'runRecord' | 'runControlLog' | 'trainingExample' | 'jsonl';

const SCAN_KINDS: ReadonlySet<string> = new Set<ScanKind>(['harn', 'transcript', 'eventLog', 'runRecord', 'runControlLog', 'trainingExample', 'jsonl']);

export function isScanKind(kind: string | undefined): kind is ScanKind {
  return kind !== undefined && SCAN_KINDS.has(kind);
}

/** A root-relative posix path that may be a `.harn` file or a run artifact (the router decides which, if any). */
export function mayBeScanned(relative: string): boolean {
  return /\.(harn|jsonl|ndjson|json)$/i.test(relative) && !relative.split('/').includes('node_modules');
}

/** Folders the walk enters: not `node_modules` (dependencies, not the workspace's own files). */
export function mayHoldScanned(relativeFolder: string): boolean {
  return !relativeFolder.split('/').includes('node_modules');
}

/**
 * `.harn` sources first (the most common and quickest), then JSONL artifacts, JSON (run records) last: they read
 * the transcripts they point to, whose facts are then already known. Within each, by path (as the CLI lists them).
 */
function rank(relative: string): number {
  if (/\.harn$/i.test(relative)) return 0;
  if (/\.(jsonl|ndjson)$/i.test(relative)) return 1;
  return 2;
}

export function scanOrder(relatives: readonly string[]): string[] {
  return [...relatives].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether a file of this size is read, or only listed as too large. */
export function scanAction(size: number): 'check' | 'tooLarge' {
  return size > MAX_SCAN_BYTES ? 'tooLarge' : 'check';
}

/** "51.0 MB" (megabytes of 1024 × 1024 bytes, as VS Code counts its 50 MB sync limit). */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The one diagnostic of a file too large to check with the workspace: its size, the limit, what to do (a run
 * artifact can be validated from disk, streamed; a `.harn` file that size is no source the editor can hold).
 */
export function tooLargeToScanDiagnostic(size: number, kind: ScanKind): WorkbenchDiagnostic {
  const todo =
    kind === 'harn'
      ? 'A .harn source that large is not checked.'
      : kind === 'trainingExample'
        ? 'Run `harn-workbench check` on it to validate it.'
        : 'Run "Validate Run Artifact From Disk" (the quick fix here, or the command) to validate it, streamed.';
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'information',
    source: WORKSPACE_SOURCE,
    code: TOO_LARGE_TO_SCAN,
    message: `Not checked with the workspace: the file is ${megabytes(size)}, over the ${megabytes(MAX_SCAN_BYTES)} the workspace check reads. ${todo}`,
  };
}

/**
 * Closed files to check again after files changed on disk: the changed ones themselves, and every run record
 * when a JSONL file changed (a run record's checks read the transcripts it points to).
 */
export function affectedByChanges(changed: readonly string[], known: ReadonlyMap<string, ScanKind>): Set<string> {
  const out = new Set<string>(changed);
  if (changed.some((file) => /\.(jsonl|ndjson)$/i.test(file))) {
    for (const [file, kind] of known) if (kind === 'runRecord') out.add(file);
  }
  return out;
}
