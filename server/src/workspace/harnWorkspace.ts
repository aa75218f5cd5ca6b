// The Harn files the server knows: open documents (by version) and files read from disk (by mtime),
// each analysed once. Implements ModuleHost so imports resolve across open and unopened files.

import { URI } from 'vscode-uri';
import { HarnAnalysis } from '../harn/analysis';
import { resolveImport } from '../harn/modules';
import { ModuleHost } from '../harn/resolve';
import { isRegularFile, readFileTextSync, regularFileInfo } from './files';

export interface OpenDocument {
  uri: string;
  version: number;
  getText(): string;
}

export interface OpenDocuments {
  get(uri: string): OpenDocument | undefined;
}

/** Files larger than this are not read from disk for cross-file features. */
const MAX_IMPORTED_FILE_BYTES = 8 * 1024 * 1024;

export class HarnWorkspace implements ModuleHost {
  private readonly openCache = new Map<string, { version: number; analysis: HarnAnalysis }>();
  private readonly diskCache = new Map<string, { mtimeMs: number; size: number; analysis: HarnAnalysis }>();

  constructor(
    private readonly documents: OpenDocuments,
    private readonly roots: () => readonly string[],
  ) {}

  analysisOf(doc: OpenDocument): HarnAnalysis {
    const cached = this.openCache.get(doc.uri);
    if (cached && cached.version === doc.version) return cached.analysis;
    const analysis = new HarnAnalysis(doc.getText());
    this.openCache.set(doc.uri, { version: doc.version, analysis });
    return analysis;
  }

  forget(uri: string): void {
    this.openCache.delete(uri);
  }

  resolveImport(fromFile: string, importPath: string): string | undefined {
    return resolveImport(fromFile, importPath, this.roots(), {
      isFile: (p) => isRegularFile(p),
    });
  }

  load(file: string): HarnAnalysis | undefined {
    const open = this.documents.get(URI.file(file).toString());
    if (open) return this.analysisOf(open);
    // Only a regular file is read (never a FIFO), and only up to MAX_IMPORTED_FILE_BYTES.
    const stat = regularFileInfo(file);
    if (!stat.ok || stat.size > MAX_IMPORTED_FILE_BYTES) return undefined;
    const cached = this.diskCache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.analysis;
    const read = readFileTextSync(file, { maxBytes: MAX_IMPORTED_FILE_BYTES });
    if (!read.ok) return undefined;
    try {
      const analysis = new HarnAnalysis(read.text);
      this.diskCache.set(file, { mtimeMs: read.mtimeMs, size: read.size, analysis });
      return analysis;
    } catch {
      return undefined;
    }
  }
}

export function uriToPath(uri: string): string {
  return URI.parse(uri).fsPath;
}

export function pathToUri(file: string): string {
  return URI.file(file).toString();
}
