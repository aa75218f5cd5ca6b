// The Harn files the server knows: open documents (by version) and files read from disk (by mtime),
// each analysed once. Implements ModuleHost so imports resolve across open and unopened files. Files read from
// disk are decoded here, keeping where they are not UTF-8.

import { URI } from 'vscode-uri';
import { HarnAnalysis } from '../harn/analysis';
import { FileProbe, resolveImportPath } from '../harn/modules';
import { ModuleHost } from '../harn/resolve';
import { decodeUtf8, InvalidUtf8 } from '../text/utf8';
import { isRegularFile, readFileBytesSync, regularFileInfo } from './files';
import { rootOf } from './folders';
import { realPathOf } from './roots';

export interface OpenDocument {
  uri: string;
  version: number;
  getText(): string;
}

export interface OpenDocuments {
  get(uri: string): OpenDocument | undefined;
}

/** The disk, for import resolution: regular files (links followed), and real paths. */
const DISK_PROBE: FileProbe = {
  isFile: (p) => isRegularFile(p),
  realpath: realPathOf,
};

/** Files larger than this are not read from disk for cross-file features. */
const MAX_IMPORTED_FILE_BYTES = 8 * 1024 * 1024;

export class HarnWorkspace implements ModuleHost {
  private readonly openCache = new Map<string, { version: number; analysis: HarnAnalysis }>();
  private readonly diskCache = new Map<string, { mtimeMs: number; size: number; analysis: HarnAnalysis; invalid: InvalidUtf8[] }>();

  constructor(
    private readonly documents: OpenDocuments,
    private readonly roots: () => readonly string[],
  ) {}

  analysisOf(doc: OpenDocument): HarnAnalysis {
    const cached = this.openCache.get(doc.uri);
    if (cached && cached.version === doc.version) return cached.analysis;
    // The previous version is consumed by `edited` (it reuses its unchanged statements).
    const analysis = cached ? HarnAnalysis.edited(cached.analysis, doc.getText()) : new HarnAnalysis(doc.getText());
    this.openCache.set(doc.uri, { version: doc.version, analysis });
    return analysis;
  }

  /** The open document of `uri`, if the editor has it open. */
  openDocument(uri: string): OpenDocument | undefined {
    return this.documents.get(uri);
  }

  forget(uri: string): void {
    this.openCache.delete(uri);
  }

  /** Imports resolve within the importing file's own folder (`std/…` in its checkout); a file outside every folder, within any. */
  private rootsFor(file: string): readonly string[] {
    const roots = this.roots();
    const own = rootOf(file, roots);
    return own === undefined ? roots : [own];
  }

  resolveImport(fromFile: string, importPath: string): string | undefined {
    const resolution = resolveImportPath(fromFile, importPath, this.rootsFor(fromFile), DISK_PROBE);
    return resolution.kind === 'found' ? resolution.file : undefined;
  }

  refusedImport(fromFile: string, importPath: string): { file: string; reason: string } | undefined {
    const resolution = resolveImportPath(fromFile, importPath, this.rootsFor(fromFile), DISK_PROBE);
    return resolution.kind === 'refused' ? { file: resolution.file, reason: resolution.reason } : undefined;
  }

  load(file: string): HarnAnalysis | undefined {
    const open = this.documents.get(URI.file(file).toString());
    if (open) return this.analysisOf(open);
    // Only a regular file is read (never a FIFO), and only up to MAX_IMPORTED_FILE_BYTES.
    const stat = regularFileInfo(file);
    if (!stat.ok || stat.size > MAX_IMPORTED_FILE_BYTES) return undefined;
    const cached = this.diskCache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.analysis;
    const read = readFileBytesSync(file, { maxBytes: MAX_IMPORTED_FILE_BYTES });
    if (!read.ok) return undefined;
    try {
      const source = decodeUtf8(read.bytes);
      const analysis = new HarnAnalysis(source.text);
      this.diskCache.set(file, { mtimeMs: read.mtimeMs, size: read.size, analysis, invalid: source.invalid });
      return analysis;
    } catch {
      return undefined;
    }
  }

  /**
   * Where a file read from disk by load() is not UTF-8: its first run of bad bytes and the analysis it is located
   * in; undefined when it is valid, open in the editor (the editor's text is what counts then) or not loaded.
   */
  invalidUtf8Of(file: string): { first: InvalidUtf8; count: number; analysis: HarnAnalysis } | undefined {
    if (this.documents.get(URI.file(file).toString())) return undefined;
    const cached = this.diskCache.get(file);
    const first = cached?.invalid[0];
    return cached && first ? { first, count: cached.invalid.length, analysis: cached.analysis } : undefined;
  }
}

export function uriToPath(uri: string): string {
  return URI.parse(uri).fsPath;
}

export function pathToUri(file: string): string {
  return URI.file(file).toString();
}
