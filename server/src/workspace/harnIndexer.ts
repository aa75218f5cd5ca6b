// Keeps the workspace index (harn/index/) of every `.harn` file current: built once in the background when the
// folders are known (one file at a time, reads asynchronous, requests answered in between), then file by file: an
// open document from its editor text when it changes, a closed one from disk when the watcher says it changed. Files
// are re-indexed lazily: a change marks the file, the next query re-reads what is marked. A Harn checkout's `std/…`
// modules are files of the folder (crates/harn-stdlib/src/stdlib) and are indexed with it.

import * as path from 'node:path';
import { FileChangeType, FileEvent } from 'vscode-languageserver';
import { indexFile, indexText } from '../harn/index/fileIndex';
import { WorkspaceIndex } from '../harn/index/workspaceIndex';
import { decodeUtf8 } from '../text/utf8';
import { isPathIgnored, walkFiles } from './fileWalk';
import { readFileBytes } from './files';
import { rootOf } from './folders';
import { HarnWorkspace, pathToUri, uriToPath } from './harnWorkspace';
import { yieldToRequests } from '../features/handler';
import { SLICE_MS } from '../features/slices';

/** Files larger than this are not indexed (as HarnWorkspace does not read them for imports). */
const MAX_INDEXED_FILE_BYTES = 8 * 1024 * 1024;

export interface OpenHarnDocuments {
  get(uri: string): { uri: string; version: number; getText(): string } | undefined;
}

export class HarnIndexer {
  readonly index: WorkspaceIndex;
  /** Files to read again before the next query (changed in an editor or on disk). */
  private readonly dirty = new Set<string>();
  private building: Promise<void> = Promise.resolve();
  private generation = 0;

  constructor(
    private readonly workspace: HarnWorkspace,
    private readonly documents: OpenHarnDocuments,
    private readonly roots: () => readonly string[],
  ) {
    this.index = new WorkspaceIndex((from, importPath) => workspace.resolveImport(from, importPath));
  }

  /** Indexes every `.harn` file of the folders, in the background; a newer call supersedes an unfinished one. */
  rebuild(): Promise<void> {
    const generation = ++this.generation;
    this.building = this.build(generation);
    return this.building;
  }

  private async build(generation: number): Promise<void> {
    const files: string[] = [];
    for (const root of this.roots()) {
      for (const relative of walkFiles(root, { accept: (p) => p.endsWith('.harn') })) files.push(path.join(root, relative));
    }
    const wanted = new Set(files);
    for (const indexed of [...this.index.allFiles()]) if (!wanted.has(indexed.file) && !this.isOpen(indexed.file)) this.index.remove(indexed.file);
    this.index.importsMayHaveMoved();
    let sliceStart = performance.now();
    for (const file of files) {
      if (generation !== this.generation) return;
      await this.reindex(file);
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToRequests();
        sliceStart = performance.now();
      }
    }
  }

  private isOpen(file: string): boolean {
    return this.documents.get(pathToUri(file)) !== undefined;
  }

  /** Reads one file (the editor's text when it is open) into the index; a file that is gone or unreadable leaves it. */
  private async reindex(file: string): Promise<void> {
    this.dirty.delete(file);
    const open = this.documents.get(pathToUri(file));
    if (open) {
      // An open document changes by keystrokes: what its unchanged top-level statements contributed is kept.
      this.index.set(indexFile(file, this.workspace.analysisOf(open), { previous: this.index.get(file), reusable: true }));
      return;
    }
    const read = await readFileBytes(file, { maxBytes: MAX_INDEXED_FILE_BYTES });
    // A newer change while reading: it is marked again and read then.
    if (this.dirty.has(file) || this.isOpen(file)) return;
    if (!read.ok) {
      this.index.remove(file);
      return;
    }
    this.index.set(indexText(file, decodeUtf8(read.bytes).text));
  }

  private isIndexed(file: string): boolean {
    if (!file.endsWith('.harn')) return false;
    const root = rootOf(file, this.roots());
    // A file outside every folder is indexed while it is open only.
    if (root === undefined) return this.isOpen(file);
    return !isPathIgnored(root, path.relative(root, file).split(path.sep).join('/'));
  }

  documentOpened(uri: string): void {
    this.documentChanged(uri);
  }

  documentChanged(uri: string): void {
    const file = uriToPath(uri);
    if (this.isIndexed(file)) this.dirty.add(file);
  }

  /** A closed document is the file on disk again. */
  documentClosed(uri: string): void {
    const file = uriToPath(uri);
    if (rootOf(file, this.roots()) === undefined) this.index.remove(file);
    else this.dirty.add(file);
  }

  filesChanged(changes: readonly FileEvent[]): void {
    for (const change of changes) {
      const file = uriToPath(change.uri);
      if (!file.endsWith('.harn')) continue;
      if (change.type !== FileChangeType.Changed) this.index.importsMayHaveMoved();
      if (change.type === FileChangeType.Deleted && !this.isOpen(file)) {
        this.dirty.delete(file);
        this.index.remove(file);
      } else if (this.isIndexed(file)) this.dirty.add(file);
    }
  }

  /** The index once the background build is done and every marked file is read again. */
  async current(): Promise<WorkspaceIndex> {
    // A rebuild started meanwhile (settings or folders changed) supersedes the one awaited: wait for the newest.
    for (let awaited = this.building; ; awaited = this.building) {
      await awaited;
      if (awaited === this.building) break;
    }
    for (const file of [...this.dirty]) await this.reindex(file);
    return this.index;
  }
}
