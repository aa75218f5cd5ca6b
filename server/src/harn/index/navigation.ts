// Call hierarchy and implementations over the workspace index: which declarations call a function (in every file
// that mentions its name), which ones it calls, and the `impl` blocks of a type or interface. Pure: the index in,
// plain data out; a broken file contributes the calls and impls its partial AST holds.

import { Range } from '../../text/lineIndex';
import { OutlineKind } from '../outline';
import { allOccurrences, FileIndex, IndexedSymbol, Occurrence, rangeOf } from './fileIndex';
import { isMemberId } from './members';
import { isDeclarationOccurrence } from './references';
import { DeclId, declId, parseDeclId, Resolution, WorkspaceIndex } from './workspaceIndex';

/** Outline kinds that have a body whose calls are theirs. */
const CALLABLE: ReadonlySet<OutlineKind> = new Set(['function', 'method', 'tool', 'pipeline']);
/** Outline kinds an `impl` block can be for. */
const IMPLEMENTABLE: ReadonlySet<OutlineKind> = new Set(['struct', 'enum', 'interface', 'typeAlias']);

/** A function (or tool, pipeline, method), or a whole file for calls made at its top level. */
export interface CallItem {
  name: string;
  kind: OutlineKind | 'file';
  file: string;
  range: Range;
  selectionRange: Range;
  /** The callable's declaration; undefined for a file item (it has no outgoing calls of its own to ask for). */
  id: DeclId | undefined;
}

export interface CallEdge {
  item: CallItem;
  /** Where the calls are, in the caller's file. */
  fromRanges: Range[];
}

/** The callable declared by or referred to by the name at `offset`; undefined for anything else. */
export function prepareCallHierarchy(index: WorkspaceIndex, file: string, offset: number): CallItem | undefined {
  const at = index.locate(file, offset);
  // A method's name is a member (members.ts), not a declaration the workspace index lists: found below.
  if (at && !(at.id !== undefined && isMemberId(at.id))) return at.id === undefined ? undefined : itemOf(index, at.id);
  // A method's name is no binding (it is called on a value): its declaration still names a callable.
  const fileIndex = index.get(file);
  const method = fileIndex?.symbols.find((s) => s.kind === 'method' && s.selectionStart <= offset && offset <= s.selectionEnd);
  return fileIndex && method ? symbolItem(fileIndex, method) : undefined;
}

/** The callers of `id`: each enclosing callable (or file, for top-level calls) with the calls it makes. */
export function incomingCalls(index: WorkspaceIndex, id: DeclId, shouldStop: () => boolean = () => false): CallEdge[] | undefined {
  const target = symbolOf(index, id);
  if (!target) return [];
  const found = index.occurrencesOf(id, target.symbol.name, new Resolution(), shouldStop);
  if (!found) return undefined;
  const edges = new Map<string, CallEdge>();
  for (const { file, occurrence, range } of found) {
    const fileIndex = index.get(file);
    if (!fileIndex || isDeclarationOccurrence(occurrence) || !isCall(fileIndex, occurrence)) continue;
    const caller = enclosingCallable(fileIndex, occurrence.start);
    const key = `${file}\n${caller?.selectionStart ?? -1}`;
    let edge = edges.get(key);
    if (!edge) edges.set(key, (edge = { item: caller ? symbolItem(fileIndex, caller) : fileItem(fileIndex), fromRanges: [] }));
    edge.fromRanges.push(range);
  }
  return [...edges.values()];
}

/** What `id` calls from its body: each callee the index can follow (builtins have no place to go), in order of first call. */
export function outgoingCalls(index: WorkspaceIndex, id: DeclId): CallEdge[] {
  const caller = symbolOf(index, id);
  if (!caller) return [];
  const { fileIndex, symbol } = caller;
  return calleesOf(index, fileIndex, (o) => o.start >= symbol.selectionEnd && o.end <= symbol.end);
}

/** What a file calls at its top level (outside every function, tool, pipeline and method): a file item's outgoing calls. */
export function topLevelCalls(index: WorkspaceIndex, file: string): CallEdge[] {
  const fileIndex = index.get(file);
  return fileIndex ? calleesOf(index, fileIndex, (o) => enclosingCallable(fileIndex, o.start) === undefined) : [];
}

function calleesOf(index: WorkspaceIndex, fileIndex: FileIndex, within: (o: Occurrence) => boolean): CallEdge[] {
  const memo = new Resolution();
  const calls = allOccurrences(fileIndex)
    .filter((o) => !o.write && within(o) && isCall(fileIndex, o))
    .sort((a, b) => a.start - b.start);
  const edges = new Map<DeclId, CallEdge | undefined>();
  for (const o of calls) {
    const calleeId = index.resolve(fileIndex, o, memo);
    if (calleeId === undefined) continue;
    if (!edges.has(calleeId)) {
      const item = itemOf(index, calleeId);
      edges.set(calleeId, item && { item, fromRanges: [] });
    }
    edges.get(calleeId)?.fromRanges.push(rangeOf(fileIndex, o));
  }
  return [...edges.values()].filter((e): e is CallEdge => e !== undefined);
}

export interface ImplementationLocation {
  file: string;
  /** The whole `impl` block. */
  range: Range;
  /** Its type name (`impl Type`, `impl Trait for Type`). */
  selectionRange: Range;
}

/**
 * The `impl` blocks of the type or interface the name at `offset` refers to, across files: `impl Type` and
 * `impl Trait for Type` for a type, `impl Trait for …` for an interface. Undefined: not a type or interface.
 */
export function implementationsAt(
  index: WorkspaceIndex,
  file: string,
  offset: number,
  shouldStop: () => boolean = () => false,
): ImplementationLocation[] | undefined {
  const memo = new Resolution();
  const at = index.locate(file, offset, memo);
  const target = at?.id === undefined ? undefined : symbolOf(index, at.id);
  if (!at?.id || !target || !IMPLEMENTABLE.has(target.symbol.kind)) return undefined;
  const found = index.occurrencesOf(at.id, target.symbol.name, memo, shouldStop);
  if (!found) return undefined;
  const out: ImplementationLocation[] = [];
  for (const { file: where, occurrence } of found) {
    const fileIndex = index.get(where);
    const impl = fileIndex && implNaming(fileIndex, occurrence);
    if (fileIndex && impl)
      out.push({ file: where, range: rangeOf(fileIndex, impl), selectionRange: rangeOf(fileIndex, { start: impl.selectionStart, end: impl.selectionEnd }) });
  }
  return out;
}

/** The `impl` block whose head names the occurrence: its type (the symbol's name) or its trait (before `for`). */
function implNaming(fileIndex: FileIndex, o: Occurrence): IndexedSymbol | undefined {
  return fileIndex.symbols.find((s) => s.kind === 'impl' && (o.start === s.selectionStart || (o.start > s.start && o.end <= s.selectionStart)));
}

/** A call: the name is followed (past blanks) by `(`. */
function isCall(fileIndex: FileIndex, o: Occurrence): boolean {
  const text = fileIndex.lineIndex.text;
  let i = o.end;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text[i] === '(';
}

/** The innermost callable whose body holds `offset`. */
function enclosingCallable(fileIndex: FileIndex, offset: number): IndexedSymbol | undefined {
  let best: IndexedSymbol | undefined;
  for (const s of fileIndex.symbols) {
    if (!CALLABLE.has(s.kind) || offset < s.selectionEnd || offset > s.end) continue;
    if (!best || s.end - s.start < best.end - best.start) best = s;
  }
  return best;
}

function symbolOf(index: WorkspaceIndex, id: DeclId): { fileIndex: FileIndex; symbol: IndexedSymbol } | undefined {
  const parsed = parseDeclId(id);
  const fileIndex = parsed && index.get(parsed.file);
  const symbol = fileIndex?.symbols.find((s) => s.selectionStart === parsed?.start);
  return fileIndex && symbol ? { fileIndex, symbol } : undefined;
}

/** The call item of a callable declaration; undefined for any other declaration. */
function itemOf(index: WorkspaceIndex, id: DeclId): CallItem | undefined {
  const found = symbolOf(index, id);
  return found && CALLABLE.has(found.symbol.kind) ? symbolItem(found.fileIndex, found.symbol) : undefined;
}

function symbolItem(fileIndex: FileIndex, s: IndexedSymbol): CallItem {
  return {
    name: s.name,
    kind: s.kind,
    file: fileIndex.file,
    range: rangeOf(fileIndex, s),
    selectionRange: rangeOf(fileIndex, { start: s.selectionStart, end: s.selectionEnd }),
    id: declId(fileIndex.file, s.selectionStart),
  };
}

function fileItem(fileIndex: FileIndex): CallItem {
  const whole = rangeOf(fileIndex, { start: 0, end: fileIndex.lineIndex.text.length });
  const base = fileIndex.file.slice(Math.max(fileIndex.file.lastIndexOf('/'), fileIndex.file.lastIndexOf('\\')) + 1);
  return { name: base, kind: 'file', file: fileIndex.file, range: whole, selectionRange: rangeOf(fileIndex, { start: 0, end: 0 }), id: undefined };
}
