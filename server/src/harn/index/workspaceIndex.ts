// The workspace index: each `.harn` file's FileIndex, the files mentioning each name, and the resolution of what an
// occurrence refers to across files (imports, namespace members, `pub import` re-exports), mirroring resolve.ts's
// findExported over the index instead of the ASTs, so that a query touches no file and parses nothing. Pure: the
// caller feeds it files (in the background, and again as they change) and says where an import path leads.

import { BUILTINS } from '../builtins';
import { Range } from '../../text/lineIndex';
import { isMemberId, memberId } from './members';
import { declarationAt, FileIndex, IndexedDeclaration, mayMention, Occurrence, occurrenceAt, occurrencesNamed, rangeOf } from './fileIndex';

/** What a name refers to, workspace-wide: a declaration (its file and name offset) or a builtin. */
export type DeclId = string;

export function declId(file: string, start: number): DeclId {
  return `${file}\n${start}`;
}

const BUILTIN_PREFIX = '\0builtin\n';

export function builtinId(name: string): DeclId {
  return BUILTIN_PREFIX + name;
}

export function isBuiltinId(id: DeclId): boolean {
  return id.startsWith(BUILTIN_PREFIX);
}

/** The declaration's file and offset, undefined for a builtin. */
export function parseDeclId(id: DeclId): { file: string; start: number } | undefined {
  if (isBuiltinId(id) || isMemberId(id)) return undefined;
  const cut = id.lastIndexOf('\n');
  return { file: id.slice(0, cut), start: Number(id.slice(cut + 1)) };
}

export interface LocatedOccurrence {
  file: string;
  occurrence: Occurrence;
  range: Range;
}

/** As resolve.ts: re-exports are followed at most this deep. */
const MAX_REEXPORT_DEPTH = 8;

export type ImportResolver = (fromFile: string, modulePath: string) => string | undefined;

export class WorkspaceIndex {
  private readonly files = new Map<string, FileIndex>();
  /** The files in path order, for answers in a stable order; undefined after a file is added or removed. */
  private sortedFiles: FileIndex[] | undefined;
  /** Where each file's import paths lead; dropped when files appear or disappear (importsMayHaveMoved). */
  private readonly resolutions = new Map<string, Map<string, string | undefined>>();

  constructor(private readonly resolveImport: ImportResolver) {}

  get size(): number {
    return this.files.size;
  }

  get(file: string): FileIndex | undefined {
    return this.files.get(file);
  }

  allFiles(): IterableIterator<FileIndex> {
    return this.files.values();
  }

  set(index: FileIndex): void {
    this.remove(index.file);
    this.files.set(index.file, index);
    this.sortedFiles = undefined;
  }

  remove(file: string): void {
    const old = this.files.get(file);
    this.resolutions.delete(file);
    if (!old) return;
    this.files.delete(file);
    this.sortedFiles = undefined;
  }

  /** A file was created or deleted: an import path may lead elsewhere now. */
  importsMayHaveMoved(): void {
    this.resolutions.clear();
  }

  /**
   * The files that may mention `name`, in path order: a look-up in each file's name set, a few microseconds per
   * thousand files, cheaper than keeping a workspace-wide map of names current on every keystroke. A file whose set
   * holds another name of the same hash is among them: occurrencesNamed (or mentions) tells.
   */
  filesMentioning(name: string): FileIndex[] {
    this.sortedFiles ??= [...this.files.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    return this.sortedFiles.filter((f) => mayMention(f, name));
  }

  private resolved(file: string, modulePath: string): string | undefined {
    let map = this.resolutions.get(file);
    if (!map) this.resolutions.set(file, (map = new Map<string, string | undefined>()));
    if (map.has(modulePath)) return map.get(modulePath);
    const target = this.resolveImport(file, modulePath);
    map.set(modulePath, target);
    return target;
  }

  /** The occurrence at `offset` in `file` and what it refers to (undefined: nothing the index can follow). */
  locate(file: string, offset: number, memo: Resolution = new Resolution()): { occurrence: Occurrence; id: DeclId | undefined } | undefined {
    const index = this.files.get(file);
    const occurrence = index && occurrenceAt(index, offset);
    if (!index || !occurrence) return undefined;
    return { occurrence, id: this.resolve(index, occurrence, memo) };
  }

  /** What an occurrence of `index` refers to. */
  resolve(index: FileIndex, o: Occurrence, memo: Resolution): DeclId | undefined {
    const { ref } = o;
    if (ref.kind === 'local') return declId(index.file, ref.declStart);
    if (ref.kind === 'member') {
      // The type's declaration, resolved by the type's name as this file writes it; the member is its name there.
      const ownerId = this.resolve(index, { name: ref.typeName, start: o.start, end: o.end, write: false, ref: ref.owner }, memo);
      return ownerId === undefined || isBuiltinId(ownerId) ? undefined : memberId(ownerId, o.name);
    }
    if (ref.kind === 'imported') {
      // An imported ref is one file's (its module path and namespaces on the way): memoized by the ref itself.
      return memo.get(ref, o.name, () => {
        let module = this.resolved(index.file, ref.modulePath);
        for (const namespace of ref.via ?? []) module = this.namespaceModule(module, namespace, 0);
        return this.exported(module, o.name, 0, new Map());
      });
    }
    // A free name (all files share the free ref): memoized by its file.
    return memo.get(index, o.name, () => {
      const explored = new Map<string, number>();
      for (const modulePath of index.wildcardImports) {
        const found = this.exported(this.resolved(index.file, modulePath), o.name, 0, explored);
        if (found) return found;
      }
      return BUILTINS.has(o.name) ? builtinId(o.name) : undefined;
    });
  }

  /** The declaration of `name` that `file` exports, through `pub import` re-exports (as resolve.ts's findExported). */
  private exported(file: string | undefined, name: string, depth: number, explored: Map<string, number>): DeclId | undefined {
    if (!file || depth > MAX_REEXPORT_DEPTH) return undefined;
    const shallowest = explored.get(file);
    if (shallowest !== undefined && shallowest <= depth) return undefined;
    explored.set(file, depth);
    const index = this.files.get(file);
    if (!index) return undefined;
    const exported = index.exports.get(name);
    if (exported?.kind === 'declared') return declId(file, exported.declStart);
    if (exported?.kind === 'reexported') return this.exported(this.resolved(file, exported.modulePath), name, depth + 1, explored);
    for (const modulePath of index.pubWildcardImports) {
      const found = this.exported(this.resolved(file, modulePath), name, depth + 1, explored);
      if (found) return found;
    }
    return undefined;
  }

  /** The module a namespace exported by `file` stands for (`pub import * as forms from "…"`), through re-exports. */
  private namespaceModule(file: string | undefined, name: string, depth: number): string | undefined {
    const index = file === undefined || depth > MAX_REEXPORT_DEPTH ? undefined : this.files.get(file);
    if (!index || file === undefined) return undefined;
    const exported = index.exports.get(name);
    if (exported?.kind === 'declared') return exported.namespaceOf === undefined ? undefined : this.resolved(file, exported.namespaceOf);
    if (exported?.kind === 'reexported') return this.namespaceModule(this.resolved(file, exported.modulePath), name, depth + 1);
    for (const modulePath of index.pubWildcardImports) {
      const found = this.namespaceModule(this.resolved(file, modulePath), name, depth + 1);
      if (found) return found;
    }
    return undefined;
  }

  declarationOf(id: DeclId): { file: string; declaration: IndexedDeclaration } | undefined {
    const parsed = parseDeclId(id);
    const fileIndex = parsed && this.files.get(parsed.file);
    const declaration = parsed && fileIndex && declarationAt(fileIndex, parsed.start);
    return parsed && declaration ? { file: parsed.file, declaration } : undefined;
  }

  /**
   * Every occurrence of `name` that refers to `id`, in file then source order: in the declaring file only for a
   * local binding, else in every file mentioning the name. `shouldStop` is asked between files (cancellation).
   */
  occurrencesOf(id: DeclId, name: string, memo: Resolution = new Resolution(), shouldStop: () => boolean = () => false): LocatedOccurrence[] | undefined {
    const out: LocatedOccurrence[] = [];
    const done = this.forEachOccurrenceOf(id, name, memo, shouldStop, (index, occurrence) => {
      out.push({ file: index.file, occurrence, range: rangeOf(index, occurrence) });
    });
    return done ? out : undefined;
  }

  /**
   * occurrencesOf's occurrences handed to `visit` one by one (false: stopped): a caller keeping less of each than a
   * LocatedOccurrence (references keep a range) does not make thousands of objects that live until the answer.
   */
  forEachOccurrenceOf(
    id: DeclId,
    name: string,
    memo: Resolution,
    shouldStop: () => boolean,
    visit: (index: FileIndex, occurrence: Occurrence) => void,
  ): boolean {
    const declared = this.declarationOf(id);
    const local = declared && !declared.declaration.topLevel ? this.files.get(declared.file) : undefined;
    const files = local ? [local] : this.filesMentioning(name);
    for (const index of files) {
      if (shouldStop()) return false;
      for (const occurrence of occurrencesNamed(index, name)) if (this.resolve(index, occurrence, memo) === id) visit(index, occurrence);
    }
    return true;
  }
}

/**
 * Resolutions memoized for one query: each (file, module, name) is followed once, however often it occurs. Keyed by
 * an object standing for the file and module (an imported ref, or the file's index for a free name), then by the
 * name: a string key made for every occurrence cost more than following the import.
 */
export class Resolution {
  private readonly memo = new Map<object, Map<string, DeclId | undefined>>();

  get(owner: object, name: string, compute: () => DeclId | undefined): DeclId | undefined {
    let byName = this.memo.get(owner);
    if (!byName) this.memo.set(owner, (byName = new Map<string, DeclId | undefined>()));
    if (byName.has(name)) return byName.get(name);
    const value = compute();
    byName.set(name, value);
    return value;
  }
}
