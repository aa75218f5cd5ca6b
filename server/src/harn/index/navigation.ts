// Call hierarchy and implementations over the workspace index: which declarations call a function (in every file
// that mentions its name), which ones it calls, and the `impl` blocks of a type or interface. Pure: the index in,
// plain data out; a broken file contributes the calls and impls its partial AST holds.
//
// A method is followed where the index knows the member (members.ts): `Type.m()`, `self.m()` in an `impl`, `v.m()`
// with `v` of a declared type. Its calls are the occurrences resolving to its member id; a call on a value whose
// type is not declared is no occurrence at all, so it is left out.

import { Range } from '../../text/lineIndex';
import { cutCodePoints } from '../../text/surrogates';
import { OutlineKind, snippet } from '../outline';
import { allOccurrences, FileIndex, IndexedSymbol, Occurrence, occurrencesNamed, rangeOf } from './fileIndex';
import { isMemberId, parseMemberId } from './members';
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
  /** A method's `impl` (or `interface`) head, as written: `impl Point`, `impl Shape for Point`. */
  detail?: string;
}

export interface CallEdge {
  item: CallItem;
  /** Where the calls are, in the caller's file. */
  fromRanges: Range[];
}

/** The callable declared by or referred to by the name at `offset`; undefined for anything else. */
export function prepareCallHierarchy(index: WorkspaceIndex, file: string, offset: number): CallItem | undefined {
  const memo = new Resolution();
  const at = index.locate(file, offset, memo);
  if (at?.id !== undefined) {
    const item = itemOf(index, at.id, memo);
    if (item || !isMemberId(at.id)) return item;
  } else if (at) return undefined;
  // The declaration of a method whose `impl` type the index cannot resolve is no member occurrence: still a callable.
  const fileIndex = index.get(file);
  const method = fileIndex?.symbols.find((s) => s.kind === 'method' && s.selectionStart <= offset && offset <= s.selectionEnd);
  return fileIndex && method ? symbolItem(fileIndex, method) : undefined;
}

/** The callers of `id`: each enclosing callable (or file, for top-level calls) with the calls it makes. */
export function incomingCalls(index: WorkspaceIndex, id: DeclId, shouldStop: () => boolean = () => false): CallEdge[] | undefined {
  const memo = new Resolution();
  const target = symbolOf(index, id, memo);
  if (!target) return [];
  // A method is called through its member id; one whose `impl` type does not resolve has no calls the index sees.
  const calledAs = target.symbol.kind === 'method' ? methodMemberId(index, target.fileIndex, target.symbol, memo) : id;
  if (calledAs === undefined) return [];
  const found = index.occurrencesOf(calledAs, target.symbol.name, memo, shouldStop);
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
  const memo = new Resolution();
  const caller = symbolOf(index, id, memo);
  if (!caller) return [];
  const { fileIndex, symbol } = caller;
  return calleesOf(index, fileIndex, (o) => o.start >= symbol.selectionEnd && o.end <= symbol.end, memo);
}

/** What a file calls at its top level (outside every function, tool, pipeline and method): a file item's outgoing calls. */
export function topLevelCalls(index: WorkspaceIndex, file: string): CallEdge[] {
  const fileIndex = index.get(file);
  return fileIndex ? calleesOf(index, fileIndex, (o) => enclosingCallable(fileIndex, o.start) === undefined, new Resolution()) : [];
}

function calleesOf(index: WorkspaceIndex, fileIndex: FileIndex, within: (o: Occurrence) => boolean, memo: Resolution): CallEdge[] {
  const calls = allOccurrences(fileIndex)
    .filter((o) => !o.write && within(o) && isCall(fileIndex, o))
    .sort((a, b) => a.start - b.start);
  const edges = new Map<DeclId, CallEdge | undefined>();
  for (const o of calls) {
    const calleeId = index.resolve(fileIndex, o, memo);
    if (calleeId === undefined) continue;
    if (!edges.has(calleeId)) {
      const item = itemOf(index, calleeId, memo);
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
  // A member (a method, field or variant) has no impl blocks of its own.
  const target = at?.id === undefined || isMemberId(at.id) ? undefined : symbolOf(index, at.id, memo);
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

/** The declaration of a callable's id, or of a member id's method. */
function symbolOf(index: WorkspaceIndex, id: DeclId, memo: Resolution): { fileIndex: FileIndex; symbol: IndexedSymbol } | undefined {
  if (isMemberId(id)) return methodOf(index, id, memo);
  const parsed = parseDeclId(id);
  const fileIndex = parsed && index.get(parsed.file);
  const symbol = fileIndex?.symbols.find((s) => s.selectionStart === parsed?.start);
  return fileIndex && symbol ? { fileIndex, symbol } : undefined;
}

/**
 * The method a member id names: its declaration in an `impl` block, in whichever file holds it (the type's own
 * first, where it mostly is); undefined for a field or variant. Read from the index: the files mentioning the name.
 */
function methodOf(index: WorkspaceIndex, id: DeclId, memo: Resolution): { fileIndex: FileIndex; symbol: IndexedSymbol } | undefined {
  const member = parseMemberId(id);
  if (!member) return undefined;
  const typeFile = parseDeclId(member.ownerId)?.file;
  const files = index.filesMentioning(member.name);
  const ordered = [...files.filter((f) => f.file === typeFile), ...files.filter((f) => f.file !== typeFile)];
  for (const fileIndex of ordered) {
    for (const o of occurrencesNamed(fileIndex, member.name)) {
      if (o.ref.kind !== 'member' || !o.ref.declares || index.resolve(fileIndex, o, memo) !== id) continue;
      const symbol = fileIndex.symbols.find((s) => s.kind === 'method' && s.selectionStart === o.start);
      if (symbol) return { fileIndex, symbol };
    }
  }
  return undefined;
}

/** The member id of a method declared in an `impl` block, from the occurrence its name is (none: the type does not resolve). */
function methodMemberId(index: WorkspaceIndex, fileIndex: FileIndex, method: IndexedSymbol, memo: Resolution): DeclId | undefined {
  const at = index.locate(fileIndex.file, method.selectionStart, memo);
  const declares = at?.occurrence.start === method.selectionStart && at.occurrence.ref.kind === 'member' && at.occurrence.ref.declares;
  return declares && at.id !== undefined && isMemberId(at.id) ? at.id : undefined;
}

/** The call item of a callable declaration (or a method's member id); undefined for any other declaration. */
function itemOf(index: WorkspaceIndex, id: DeclId, memo: Resolution): CallItem | undefined {
  const found = symbolOf(index, id, memo);
  return found && CALLABLE.has(found.symbol.kind) ? symbolItem(found.fileIndex, found.symbol) : undefined;
}

function symbolItem(fileIndex: FileIndex, s: IndexedSymbol): CallItem {
  const detail = s.kind === 'method' ? methodHead(fileIndex, s) : undefined;
  return {
    name: s.name,
    kind: s.kind,
    file: fileIndex.file,
    range: rangeOf(fileIndex, s),
    selectionRange: rangeOf(fileIndex, { start: s.selectionStart, end: s.selectionEnd }),
    id: declId(fileIndex.file, s.selectionStart),
    ...(detail === undefined ? {} : { detail }),
  };
}

/** A detail is a short line: a longer head (generics, comments inside it) is cut. */
const MAX_DETAIL = 80;

/** The head of the innermost `impl` or `interface` block holding a method, up to its type's name, blanks collapsed. */
function methodHead(fileIndex: FileIndex, method: IndexedSymbol): string | undefined {
  let block: IndexedSymbol | undefined;
  for (const s of fileIndex.symbols) {
    if ((s.kind !== 'impl' && s.kind !== 'interface') || s.start > method.start || s.end < method.end) continue;
    if (!block || s.end - s.start < block.end - block.start) block = s;
  }
  if (!block) return undefined;
  // The outline's detail snippet: blanks collapsed, at most a few times the characters a detail shows read (the head
  // of a broken block can run far).
  const head = snippet(fileIndex.lineIndex.text, block.start, block.selectionEnd);
  if (head.length === 0) return undefined;
  // Cut by code points: a half of a surrogate pair would not survive JSON.
  return cutCodePoints(head, MAX_DETAIL).length < head.length ? `${cutCodePoints(head, MAX_DETAIL - 1)}…` : head;
}

function fileItem(fileIndex: FileIndex): CallItem {
  const whole = rangeOf(fileIndex, { start: 0, end: fileIndex.lineIndex.text.length });
  const base = fileIndex.file.slice(Math.max(fileIndex.file.lastIndexOf('/'), fileIndex.file.lastIndexOf('\\')) + 1);
  return { name: base, kind: 'file', file: fileIndex.file, range: whole, selectionRange: rangeOf(fileIndex, { start: 0, end: 0 }), id: undefined };
}
