// What one `.harn` file contributes to the workspace index: every name it mentions (each occurrence with what it
// refers to as far as the file alone can tell), the names it exports, the modules it imports and its declarations.
// Pure: an analysis in, plain data out. A broken file contributes what its partial AST holds.
//
// Built top-level statement by top-level statement. The occurrences are packed (four integers each: a name is its
// place in the text and a hash, refs are interned) since a workspace holds hundreds of thousands of them and objects for each cost the collector more
// than the indexing itself. Given the previous index of the file, a statement the edit left alone (the same
// object in the new analysis, see HarnAnalysis.edited) contributes what it did before, shifted, without a walk:
// re-indexing after a keystroke in a function costs that function.

import { HarnAnalysis } from '../analysis';
import * as A from '../ast';
import { LineIndex, Range } from '../../text/lineIndex';
import { MAX_OUTLINE_SYMBOLS } from '../../outlineCap';
import { OutlineKind, OutlineSymbol, statementOutline } from '../outline';
import { declaredNamedType } from '../signatureHelp';
import { memberAccess, MemberMention, memberMentions, SelfTypes } from './members';
import {
  addStatementScopes,
  addStatementScopesSkipping,
  addTopLevelBindings,
  Binding,
  BindingKind,
  exportedBindings,
  FileScopes,
  importModulePath,
  Scope,
  ScopeStarts,
} from '../scope';
import { parse, ParsedNames } from '../parser';
import { ScopeResolver } from '../scopeResolver';
import { pushAll } from '../../util/arrays';

/**
 * What an occurrence refers to, seen from its file: a binding declared in it (by the binding's name offset), a name
 * exported by an imported module (`import { a }`, `ns.a`), or a name not declared here (a wildcard import's, or a
 * builtin).
 */
export type LocalRef =
  | { kind: 'local'; declStart: number }
  /** `via`: the namespaces re-exported on the way (`ui.forms.field`: via `forms` of the module `ui` stands for). */
  | { kind: 'imported'; modulePath: string; via?: readonly string[] }
  | { kind: 'free' }
  /**
   * A member (variant, field, method: the occurrence's name) of the type `typeName` that `owner` refers to;
   * `declares`: the member's own declaration. See members.ts.
   */
  | { kind: 'member'; owner: LocalRef; typeName: string; declares: boolean };

/** Namespace chains (`ui.forms.field`) are followed this deep, as re-exports are. */
const MAX_NAMESPACE_CHAIN = 8;

/** One occurrence, as the queries read it (made when asked from the packed form). */
export interface Occurrence {
  name: string;
  start: number;
  end: number;
  /** A declaration or an assignment target (documentHighlight's write kind). */
  write: boolean;
  ref: LocalRef;
}

/** A binding declared in the file, for the scope checks of rename and for workspace symbols. */
export interface IndexedDeclaration {
  name: string;
  kind: BindingKind;
  start: number;
  /** The extent of the scope it is declared in; top-level ones are visible from other files. */
  scopeStart: number;
  scopeEnd: number;
  topLevel: boolean;
}

/** A declaration as workspace symbols list it (from the outline: methods, fields and variants too). */
export interface IndexedSymbol {
  name: string;
  kind: OutlineKind;
  start: number;
  end: number;
  selectionStart: number;
  selectionEnd: number;
  container: string | undefined;
}

/** An exported name: declared here (at `declStart`), or re-exported from a module (`pub import { a } from "…"`). */
export type Export =
  /** `namespaceOf`: a re-exported namespace (`pub import * as forms from "…"`) stands for that module. */
  { kind: 'declared'; declStart: number; namespaceOf?: string } | { kind: 'reexported'; modulePath: string };

/** Integers per occurrence in FileIndex.tables: start, end, the name's hash (see nameHash), ref id × 2 + 1 for a write. */
const STRIDE = 4;

export interface FileIndex {
  file: string;
  /** Positions are computed when asked (most occurrences are never shown). */
  lineIndex: LineIndex;
  /**
   * The file's tables, one after the other in one typed array: its occurrences in source order (from 0, STRIDE
   * integers each: read them with occurrenceOf, occurrencesNamed, occurrenceAt), its declarations (from
   * `declarationsAt`), its name set (from `nameSetAt`), its refs (from `refsAt`), its exports (read as `exports`)
   * and its counts (HEADER). Typed arrays: the collector never copies them, and workspaces keep them by the
   * megabyte. A file read from disk has a stretch of a block shared with other files (see roomInBlock).
   */
  tables: Int32Array;
  occurrenceCount: number;
  /**
   * An occurrence's or a declaration's name is its text, `lineIndex.text` from its start to its end, except those
   * listed here (by `start:end`): a name written otherwise (a quoted field name, `mod . Type`). Empty for most files.
   */
  spelled: ReadonlyMap<string, string>;
  /**
   * No two names the file mentions share a hash (known when the build met every name as a string: not when it
   * copied statements from a previous index). Then the occurrences of one hash all bear one name, and a query reads
   * the text of the first only.
   */
  namesApart: boolean;
  /**
   * Where in `tables` the set of the hashes of the names the file mentions is: `nameSetLength` slots (a power of
   * two), each a hash or -1, a hash in the first free slot from the one its low bits name.
   */
  nameSetAt: number;
  nameSetLength: number;
  /** Whether the name set holds `hash`. */
  holdsNameHash(hash: number): boolean;
  /**
   * What the occurrences refer to, one ref per binding (an occurrence holds its index): read them with refAt. Each
   * ref is an integer in `tables` from `refsAt` (see refAt), and the refs that are not a local binding's are objects
   * in `otherRefs`: most refs are, and an object each was most of what an index kept on the heap.
   */
  refsAt: number;
  refCount: number;
  otherRefs: readonly LocalRef[];
  /** Where in `tables` the declarations are, DECLARATION_STRIDE integers each: read them as `declarations` (made on the first read). */
  declarationsAt: number;
  declarationCount: number;
  readonly declarations: readonly IndexedDeclaration[];
  symbols: IndexedSymbol[];
  exports: ReadonlyMap<string, Export>;
  /** `import "…"` module paths (everything they export is visible here), and those that are `pub` (re-exported). */
  wildcardImports: readonly string[];
  pubWildcardImports: readonly string[];
  /** Every module path the file imports. */
  importPaths: readonly string[];
  /** What indexing the file's next version may take from this one (an index made `reusable` only). */
  reuse: Reuse | undefined;
  /** How many top-level statements were taken from the previous index rather than walked. */
  reusedStatements: number;
}

/** Integers per declaration in FileIndex.tables: start, scope start, scope end, the name's end, kind × 2 + 1 if top-level. */
const DECLARATION_STRIDE = 5;

const BINDING_KINDS: readonly BindingKind[] = [
  'function',
  'pipeline',
  'tool',
  'skill',
  'evalPack',
  'struct',
  'enum',
  'type',
  'interface',
  'variable',
  'constant',
  'parameter',
  'import',
  'namespace',
];
/** Each kind's code, its place in BINDING_KINDS (an object's property: cheaper to read than a Map's entry). */
const KIND_CODES = Object.fromEntries(BINDING_KINDS.map((kind, code) => [kind, code])) as Record<BindingKind, number>;

/** A ref's dependence on where things are: on nothing, on its statement's place, or on a top-level binding's (≥ 0). */
const INDEPENDENT = -2;
const STATEMENT_LOCAL = -1;
/** A member ref depends on its owner's ref (of index i): its place is MEMBER - i, and the owner is mapped when copied. */
const MEMBER = -3;

interface Reuse {
  /** The top-level bindings every statement was resolved against. */
  root: readonly RootSignature[];
  /** For each ref: INDEPENDENT, STATEMENT_LOCAL (a binding inside the statement), MEMBER - its owner's or the top-level binding's index. */
  refPlaces: Int32Array;
  /** Uncapped (index.symbols is the capped outline's when the file has more than the outline shows). */
  symbols: readonly IndexedSymbol[];
  /**
   * The top-level statements indexed, in order, and what each contributed: SPAN_STRIDE integers each in `spans`, its
   * imports in `imports`. Packed: an object per statement and a WeakMap from the statements to them were a third of
   * what re-indexing an open document allocated at each keystroke. The statements are the open document's (its
   * analysis holds them anyway), and at most the few an edit replaced beyond them.
   */
  statements: readonly A.Stmt[];
  spans: Int32Array;
  imports: readonly Imports[];
}

/** A top-level binding, as far as resolving names elsewhere in the file can tell. */
interface RootSignature {
  name: string;
  kind: BindingKind;
  modulePath: string | undefined;
  /** A `let`: visible after its statement only. */
  fromItsEnd: boolean;
  /** The type a `let` declares: `value.member` elsewhere resolves through it (members.ts). */
  declaredType: string | undefined;
}

/**
 * Integers per top-level statement in Reuse.spans, what it contributed to an index: the ranges of its tables, offsets
 * as they were then.
 */
const SPAN_STRIDE = 10;
/** Its start then. */
const SPAN_START = 0;
/** Its top-level bindings: the indexes [rootFrom, rootTo) of the root scope's. */
const SPAN_ROOT_FROM = 1;
const SPAN_ROOT_TO = 2;
const SPAN_OCCURRENCE_FROM = 3;
const SPAN_OCCURRENCE_TO = 4;
/** Its nested declarations (the top-level ones are made again from the root scope). */
const SPAN_DECLARATION_FROM = 5;
const SPAN_DECLARATION_TO = 6;
const SPAN_SYMBOL_FROM = 7;
const SPAN_SYMBOL_TO = 8;
/** Its outline's size, all nodes (some are not workspace symbols): the outline's cap counts them. */
const SPAN_OUTLINE_SIZE = 9;

interface Imports {
  importPaths: readonly string[];
  wildcardImports: readonly string[];
  pubWildcardImports: readonly string[];
}

export interface IndexOptions {
  /** The index of the file's previous version: what the statements the edit left alone contributed is reused. */
  previous?: FileIndex;
  /** Keep what a next version may reuse (an open document's index); implied by `previous`. */
  reusable?: boolean;
}

export function indexFile(file: string, analysis: HarnAnalysis, options: IndexOptions = {}): FileIndex {
  const previous = options.previous?.file === file ? options.previous : undefined;
  return new IndexBuilder(file, analysis, options.reusable === true || options.previous !== undefined).build(previous);
}

/**
 * The index of a file read from disk (no next version will reuse it), from its text: parsed lean (no doc comments,
 * no string values but module paths: see ParseOptions.lean), which the index does not read; the tree is not kept.
 */
export function indexText(file: string, text: string): FileIndex {
  const analysis = new HarnAnalysis(text, { lineIndex: new LineIndex(text), parsed: parse(text, { lean: true }), reparsed: 'full' });
  return indexFile(file, analysis);
}

/** A FileIndex whose declaration objects are made when first read (most files are never asked). */
class PackedFileIndex implements FileIndex {
  private declarationObjects: IndexedDeclaration[] | undefined;
  private exportMap: ReadonlyMap<string, Export> | undefined;
  /** Undefined until first read when the build left them out (see IndexBuilder.deferSymbols). */
  private symbolList: IndexedSymbol[] | undefined;
  /** `tables`, made when first read (see `block`). */
  private view: Int32Array | undefined;

  /**
   * `lines`: the line index, or the text for one made when first asked. `block`: the tables are its `length`
   * integers from `at` (a file read from disk shares a block with others, see roomInBlock). A file never asked about
   * keeps neither a line index nor a view of its stretch: a workspace keeps an index per file, and the collector
   * copies each object of each while the next files are indexed.
   */
  constructor(
    readonly file: string,
    private lines: LineIndex | string,
    private readonly block: Int32Array,
    private readonly at: number,
    private readonly length: number,
    private readonly extras: IndexExtras,
    symbols: IndexedSymbol[] | undefined,
  ) {
    this.symbolList = symbols;
  }

  get lineIndex(): LineIndex {
    if (typeof this.lines === 'string') this.lines = new LineIndex(this.lines);
    return this.lines;
  }

  get tables(): Int32Array {
    return (this.view ??= this.at === 0 && this.length === this.block.length ? this.block : this.block.subarray(this.at, this.at + this.length));
  }

  /** The `k`-th integer of the header (see HEADER), read from the block: no view made for it. */
  private header(k: number): number {
    return this.block[this.at + this.length - HEADER + k] as number;
  }

  // The counts are the header's, the places of the tables derived from them.
  get occurrenceCount(): number {
    return this.header(0);
  }

  get declarationCount(): number {
    return this.header(1);
  }

  get nameSetLength(): number {
    return this.header(2);
  }

  get refCount(): number {
    return this.header(3);
  }

  private get exportCount(): number {
    return this.header(4);
  }

  get reusedStatements(): number {
    return this.header(5);
  }

  get namesApart(): boolean {
    return this.header(6) === 1;
  }

  get declarationsAt(): number {
    return this.occurrenceCount * STRIDE;
  }

  get nameSetAt(): number {
    return this.declarationsAt + this.declarationCount * DECLARATION_STRIDE;
  }

  get refsAt(): number {
    return this.nameSetAt + this.nameSetLength;
  }

  private get exportsAt(): number {
    return this.refsAt + this.refCount;
  }

  /** Whether the file's name set holds `hash` (read from the block: every file is asked at every query). */
  holdsNameHash(hash: number): boolean {
    const block = this.block;
    const set = this.at + this.nameSetAt;
    const mask = this.nameSetLength - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const value = block[set + slot] as number;
      if (value === hash) return true;
      if (value === -1) return false;
    }
  }

  get spelled(): ReadonlyMap<string, string> {
    return this.extras.spelled;
  }

  get otherRefs(): readonly LocalRef[] {
    return this.extras.otherRefs;
  }

  private get exportPaths(): readonly string[] {
    return this.extras.exportPaths;
  }

  get wildcardImports(): readonly string[] {
    return this.extras.wildcardImports;
  }

  get pubWildcardImports(): readonly string[] {
    return this.extras.pubWildcardImports;
  }

  get importPaths(): readonly string[] {
    return this.extras.importPaths;
  }

  get reuse(): Reuse | undefined {
    return this.extras.reuse;
  }

  /** Made from the text when first read if the build left them out: workspace symbols and call items are rare queries. */
  get symbols(): IndexedSymbol[] {
    return (this.symbolList ??= symbolsOfText(this.lineIndex.text));
  }

  get declarations(): readonly IndexedDeclaration[] {
    return (this.declarationObjects ??= declarationsOf(this));
  }

  /**
   * Made when first read from the packed exports (EXPORT_STRIDE integers each in `tables`: the name's start and end,
   * its kind and module path): a map and an object per export, kept by every file of a workspace, were most of
   * what the collector copied of an index, and only the modules some import reaches are read.
   */
  get exports(): ReadonlyMap<string, Export> {
    if (this.exportMap) return this.exportMap;
    if (this.exportCount === 0) return (this.exportMap = NO_EXPORTS);
    const map = new Map<string, Export>();
    const { tables, exportsAt } = this;
    for (let i = 0; i < this.exportCount; i++) {
      const at = exportsAt + i * EXPORT_STRIDE;
      const start = tables[at] as number;
      const name = nameAt(this, start, tables[at + 1] as number);
      // The first of a name is its export (a later binding of the same name does not replace it).
      if (map.has(name)) continue;
      const code = tables[at + 2] as number;
      const kind = code % EXPORT_KINDS;
      const modulePath = this.exportPaths[(code - kind) / EXPORT_KINDS] as string;
      if (kind === EXPORT_REEXPORTED) map.set(name, { kind: 'reexported', modulePath });
      else if (kind === EXPORT_NAMESPACE) map.set(name, { kind: 'declared', declStart: start, namespaceOf: modulePath });
      else map.set(name, { kind: 'declared', declStart: start });
    }
    return (this.exportMap = map);
  }
}

/**
 * The integers at the end of FileIndex.tables: the occurrence, declaration, name-set slot, ref and export counts,
 * the statements reused, whether the names are apart (1) or not (0).
 */
const HEADER = 7;

/** What an index holds besides its tables, empty for most files: then one object shared by them all. */
interface IndexExtras {
  spelled: ReadonlyMap<string, string>;
  otherRefs: readonly LocalRef[];
  exportPaths: readonly string[];
  wildcardImports: readonly string[];
  pubWildcardImports: readonly string[];
  importPaths: readonly string[];
  reuse: Reuse | undefined;
}

function isEmpty(extras: IndexExtras): boolean {
  return (
    extras.spelled.size === 0 &&
    extras.otherRefs.length === 0 &&
    extras.exportPaths.length === 0 &&
    extras.wildcardImports.length === 0 &&
    extras.pubWildcardImports.length === 0 &&
    extras.importPaths.length === 0 &&
    extras.reuse === undefined
  );
}

/** Integers per export in FileIndex.tables: the name's start and end, then a kind + EXPORT_KINDS × its module path's index. */
const EXPORT_STRIDE = 3;
const EXPORT_DECLARED = 0;
/** `pub import { a } from "…"`. */
const EXPORT_REEXPORTED = 1;
/** `pub import * as ns from "…"`. */
const EXPORT_NAMESPACE = 2;
const EXPORT_KINDS = 3;
const exportScratch: number[] = [];

const FREE: LocalRef = { kind: 'free' };

/**
 * What an index keeps is shared when empty (most files export nothing or import nothing): a workspace keeps an
 * index per file, and the collector copies each object it keeps, so fewer objects per file is less collection.
 */
const NO_EXPORTS: ReadonlyMap<string, Export> = new Map();
const NO_SPELLINGS: ReadonlyMap<string, string> = new Map();
const NOTHING: readonly never[] = Object.freeze([]);
const NO_EXTRAS: IndexExtras = Object.freeze({
  spelled: NO_SPELLINGS,
  otherRefs: NOTHING,
  exportPaths: NOTHING,
  wildcardImports: NOTHING,
  pubWildcardImports: NOTHING,
  importPaths: NOTHING,
  reuse: undefined,
});

function orShared<T>(list: readonly T[]): readonly T[] {
  return list.length > 0 ? list : NOTHING;
}

/** A ref's integer: a local binding's name offset (≥ 0), FREE_CODE, or OTHER_CODE - its index among the other refs. */
const FREE_CODE = -1;
const OTHER_CODE = -2;

function refOfCode(code: number, otherRefs: readonly LocalRef[]): LocalRef {
  if (code >= 0) return { kind: 'local', declStart: code };
  return code === FREE_CODE ? FREE : (otherRefs[OTHER_CODE - code] ?? FREE);
}

/** The `r`-th ref of the file. */
export function refAt(index: FileIndex, r: number): LocalRef {
  return r >= 0 && r < index.refCount ? refOfCode(index.tables[index.refsAt + r] as number, index.otherRefs) : FREE;
}

function noScopes(): FileScopes {
  return { root: { start: 0, end: 0, bindings: [], children: [] }, imports: [], wildcardImports: [] };
}

/** The scopes of a statement that opens none, never added to (frozen: a push would throw). */
const NO_SCOPES: FileScopes = Object.freeze({
  root: Object.freeze({ start: 0, end: 0, bindings: frozenEmpty<Binding>(), children: frozenEmpty<Scope>() }),
  imports: frozenEmpty<A.ImportDecl>(),
  wildcardImports: frozenEmpty<A.ImportDecl>(),
});

function frozenEmpty<T>(): T[] {
  return Object.freeze([]) as unknown as T[];
}
const NO_IMPORTS: Imports = { importPaths: [], wildcardImports: [], pubWildcardImports: [] };

/**
 * The growing occurrence and declaration tables, shared by every build (one file is indexed at a time); each index
 * copies its part. The occurrences' is typed (doubled when full), so that a large file's are copied at once.
 */
let scratch = new Int32Array(1 << 14);
const declarationScratch: number[] = [];
/** Makes `scratch` at least `length` long (doubled, its contents kept). */
function growScratch(length: number): void {
  let size = scratch.length * 2;
  while (size < length) size *= 2;
  const grown = new Int32Array(size);
  grown.set(scratch);
  scratch = grown;
}

/** Tables longer than this are copied by `set`. */
const SET_AT_ONCE = 64;
/** Each ref's integer, place (see Reuse.refPlaces) and name hash: scratch too (grown once, not at every build); ref 0 is FREE. */
const REF_CODES: number[] = [FREE_CODE];
const REF_PLACES: number[] = [INDEPENDENT];
const REF_NAME_IDS: number[] = [-1];

/**
 * The hash of a name (FNV-1a over its UTF-16 units, kept to 31 bits so that -1 can mean none): occurrences and name
 * sets hold it, and a query compares the text where the hash matches. Hashing a name's few characters costs a
 * tenth of looking it up in a table of the workspace's names, which indexing did for every name it met.
 */
export function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 1;
}

/**
 * A set of name hashes for one build at a time, and its members in the order added: open addressing, a slot being
 * the current build's when its stamp is the build's number (no clearing between builds). Given the names, it also
 * tells whether two of them shared a hash (`collided`), or whether it cannot tell (`unnamed`: a hash added without).
 */
class HashScratch {
  readonly members: number[] = [];
  /** The name each member was added with (undefined: none given), for a set told names. Cleared by `end`: no source is kept alive. */
  private readonly names: (string | undefined)[] = [];
  count = 0;
  collided = false;
  unnamed = false;
  private slots = new Int32Array(1024);
  /** For each slot, the index of its member. */
  private memberOf = new Int32Array(1024);
  private stamps = new Int32Array(1024);
  private stamp = 0;

  /** Empties the set for the build numbered `stamp`. */
  start(stamp: number): void {
    this.stamp = stamp;
    this.count = 0;
    this.collided = false;
    this.unnamed = false;
  }

  constructor(private readonly named: boolean) {}

  /** Lets go of the names the build added (their room kept: a build at every keystroke would grow it again). */
  end(): void {
    // A loop: `fill` on a list of strings and holes costs more than this for the few names of a file.
    if (this.named) for (let i = 0; i < this.count; i++) this.names[i] = undefined;
  }

  has(hash: number): boolean {
    return this.memberAt(hash) >= 0;
  }

  /** The index of the member `hash` among the members, or -1. */
  memberAt(hash: number): number {
    const mask = this.slots.length - 1;
    for (let i = hash & mask; this.stamps[i] === this.stamp; i = (i + 1) & mask) if (this.slots[i] === hash) return this.memberOf[i] as number;
    return -1;
  }

  /** The index of the member `hash` when it is one; else adds it (without a name) and answers -1 - its index. */
  findOrAdd(hash: number): number {
    const mask = this.slots.length - 1;
    let i = hash & mask;
    for (; this.stamps[i] === this.stamp; i = (i + 1) & mask) if (this.slots[i] === hash) return this.memberOf[i] as number;
    this.unnamed = true;
    this.stamps[i] = this.stamp;
    this.slots[i] = hash;
    const member = this.count;
    this.memberOf[i] = member;
    if (this.named) this.names[member] = undefined;
    this.members[this.count++] = hash;
    if (this.count * 2 > this.slots.length) this.grow();
    return -1 - member;
  }

  add(hash: number, name?: string): void {
    const mask = this.slots.length - 1;
    let i = hash & mask;
    for (; this.stamps[i] === this.stamp; i = (i + 1) & mask) {
      if (this.slots[i] !== hash) continue;
      if (name === undefined) this.unnamed = true;
      else {
        const known = this.names[this.memberOf[i] as number];
        if (known === undefined) this.unnamed = true;
        else if (known !== name) this.collided = true;
      }
      return;
    }
    if (name === undefined) this.unnamed = true;
    this.stamps[i] = this.stamp;
    this.slots[i] = hash;
    this.memberOf[i] = this.count;
    if (this.named) this.names[this.count] = name;
    this.members[this.count++] = hash;
    if (this.count * 2 > this.slots.length) this.grow();
  }

  /** Half full: twice as many slots, this build's members put in again (the others' are stale anyway). */
  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.memberOf = new Int32Array(this.slots.length);
    this.stamps = new Int32Array(this.slots.length);
    const mask = this.slots.length - 1;
    for (let k = 0; k < this.count; k++) {
      const hash = this.members[k] as number;
      let j = hash & mask;
      while (this.stamps[j] === this.stamp) j = (j + 1) & mask;
      this.stamps[j] = this.stamp;
      this.slots[j] = hash;
      this.memberOf[j] = k;
    }
  }
}

/** The hashes of the names the current build met (the file's name set). */
const MET = new HashScratch(true);
/** The name offsets of the declarations the current build made: a name there is not a reference too. */
const DECLARED_AT = new HashScratch(false);
/**
 * The bindings the current build made a ref for, by their name's offset (one name, one binding), each member's ref
 * in REF_OF_BINDING: a Map keyed by the binding objects cost more than the rest of making the refs.
 */
const BINDINGS = new HashScratch(false);
const REF_OF_BINDING: number[] = [];
let builds = 0;
/**
 * The hashes of the names of the top-level bindings, each member's last binding (its index among the root's) in
 * ROOT_LAST and each binding's previous one of the same hash in ROOT_PREVIOUS (-1: none): a name no binding inside
 * its statement bears is resolved among these without the scopes (see IndexBuilder.rootBindingAt).
 */
const ROOTS = new HashScratch(false);
const ROOT_LAST: number[] = [];
const ROOT_PREVIOUS: number[] = [];
/**
 * The hashes of the names of the bindings inside the statement being indexed (not its top-level ones), each
 * member's last binding (its index among the statement's, declareScope's order) in NESTED_LAST and each binding's
 * previous one of the same hash in NESTED_PREVIOUS. For each binding: the binding (let go of once the statement
 * is indexed), its scope's extent, its ref. In a file parsed clean a name is resolved among
 * these (see IndexBuilder.nestedBindingAt) without descending the scopes.
 */
const NESTED = new HashScratch(false);
const NESTED_LAST: number[] = [];
const NESTED_PREVIOUS: number[] = [];
const NESTED_BINDINGS: (Binding | undefined)[] = [];
const NESTED_SCOPE_START: number[] = [];
const NESTED_SCOPE_END: number[] = [];
const NESTED_REF: number[] = [];
/** nestedBindingAt's answer when only the scopes can tell (the offset at an end of a scope holding such a binding). */
const ASK_THE_SCOPES = -2;
/** Where each top-level statement's top-level bindings, imports and wildcard imports start, and where the last ends (see build). */
const ROOT_FROM: number[] = [];
const IMPORT_FROM: number[] = [];
const WILDCARD_FROM: number[] = [];
let statementsIndexed = 0;

/** Puts binding `j` of name hash `hash` first in its hash's chain: `last` by member of `set`, `previous` by binding (-1: none). */
function chainByHash(set: HashScratch, last: number[], previous: number[], hash: number, j: number): void {
  const member = set.findOrAdd(hash);
  if (member >= 0) {
    previous[j] = last[member] as number;
    last[member] = j;
  } else {
    previous[j] = -1;
    last[-1 - member] = j;
  }
}

/** An offset as a key of a HashScratch: multiplied by an odd constant (one to one), so that near offsets spread. */
function offsetKey(offset: number): number {
  return Math.imul(offset, 0x9e3779b1);
}

/** Nobody's `self`: what a statement without an `impl` reads (memberMentions sets it only for an `impl`). */
const NO_SELF_TYPES: SelfTypes = new WeakMap();

/**
 * The tables of an index kept for no next version (a file read from disk: most of a workspace), as stretches of
 * shared blocks: making a typed array of its own allocates memory apart from the heap and registers it with the
 * collector, which cost about half of finishing an index (a twentieth of indexing). A block lives while any index
 * in it does, so only these indexes share them: they are replaced when their file changes on disk, rarely, while an
 * open document's index is made again at each keystroke and has tables of its own. Large tables have their own too.
 */
const TABLE_BLOCK = 1 << 16;
let tableBlock = new Int32Array(TABLE_BLOCK);
let tableBlockUsed = 0;

/** Room for `length` integers in `tableBlock` (a new block when the current one lacks it): where they start. */
function roomInBlock(length: number): number {
  if (length * 8 > TABLE_BLOCK) {
    // Large tables are a block of their own (the next tables start a new block).
    tableBlock = new Int32Array(length);
    tableBlockUsed = length;
    return 0;
  }
  // Against the current block's own length: a large table's block is full.
  if (tableBlockUsed + length > tableBlock.length) {
    tableBlock = new Int32Array(TABLE_BLOCK);
    tableBlockUsed = 0;
  }
  tableBlockUsed += length;
  return tableBlockUsed - length;
}

/** The properties of the `depth` members from `object` inward, innermost first (`ui.forms` of `ui.forms.field`: `forms`). */
function namespacesOnTheWay(object: A.Expr, depth: number): string[] {
  const via: string[] = [];
  for (let m = object, i = 0; i < depth && m.kind === 'Member' && m.property; i++, m = m.object) via.push(m.property.text);
  return via.reverse();
}

/** A merge's left run: scratch too. */
const mergeScratch: number[] = [];

/** `starts` sorted: as they are when they are, else a sorted copy. They come nearly sorted (a block is made before the function holding it). */
function sortedScopeStarts(starts: readonly number[]): readonly number[] {
  let inOrder = true;
  for (let i = 1; i < starts.length && inOrder; i++) inOrder = (starts[i - 1] as number) <= (starts[i] as number);
  if (inOrder) return starts;
  const sorted = starts.slice();
  sortSmallIntegers(sorted);
  return sorted;
}

/** Sorts integers in place: by insertion, which is linear on the nearly sorted lists met here, up to a budget; else natively. */
function sortSmallIntegers(list: number[]): void {
  const n = list.length;
  let budget = 4 * n + 32;
  for (let i = 1; i < n; i++) {
    const value = list[i] as number;
    let j = i - 1;
    while (j >= 0 && (list[j] as number) > value) {
      list[j + 1] = list[j] as number;
      j--;
      budget--;
    }
    list[j + 1] = value;
    if (budget < 0) {
      // Far from sorted: a typed array sorts numbers natively, without a comparator call per comparison.
      const sorted = Float64Array.from(list).sort();
      for (let k = 0; k < n; k++) list[k] = sorted[k] as number;
      return;
    }
  }
}

/** The declarations of an index as objects. */
function declarationsOf(index: FileIndex): IndexedDeclaration[] {
  const out: IndexedDeclaration[] = [];
  for (let i = 0, count = index.declarationCount; i < count; i++) out.push(declarationOf(index, i));
  return out;
}

function declarationOf(index: FileIndex, i: number): IndexedDeclaration {
  const data = index.tables;
  const at = index.declarationsAt + i * DECLARATION_STRIDE;
  const kindAndTop = data[at + 4] as number;
  return {
    name: nameAt(index, data[at] as number, data[at + 3] as number),
    kind: BINDING_KINDS[kindAndTop >> 1] ?? 'variable',
    start: data[at] as number,
    scopeStart: data[at + 1] as number,
    scopeEnd: data[at + 2] as number,
    topLevel: (kindAndTop & 1) === 1,
  };
}

/** The declaration whose name starts at `start`, if any (the first, as `declarations.find` gives it). */
export function declarationAt(index: FileIndex, start: number): IndexedDeclaration | undefined {
  const data = index.tables;
  const { declarationCount, declarationsAt } = index;
  for (let i = 0; i < declarationCount; i++) if (data[declarationsAt + i * DECLARATION_STRIDE] === start) return declarationOf(index, i);
  return undefined;
}

class IndexBuilder {
  private count = 0;
  private reusedStatements = 0;
  /** This build's number, for the stamps of MET, DECLARED_AT, BINDINGS and ROOTS. */
  private readonly buildNumber = ++builds;
  /** The names not written as they read (see FileIndex.spelled), made when the first is met. */
  private spelled: Map<string, string> | undefined;
  /** Each ref's integer (refOfCode reads them), and the refs that are objects. */
  private readonly refCodes = REF_CODES;
  /** How many refs the build made (ref 0 is FREE): the first refCount entries of the three tables below. */
  private refCount = 1;
  private readonly otherRefs: LocalRef[] = [];
  private readonly refPlaces = REF_PLACES;
  /** For a ref made for a binding, the hash of the binding's name (its occurrences all bear it); else -1. */
  private readonly refNameIds = REF_NAME_IDS;
  /** Made when first needed, as memberRefs (most files have neither). */
  private refOfNamespace: Map<Binding, number> | undefined;
  /** The member refs made, by owner ref × 2 + 1 for a declaration. */
  private memberRefs: Map<number, number> | undefined;
  /** Made when an `impl` is met (most files have none). */
  private selfTypeMap: SelfTypes | undefined;
  private readonly resolveName = (name: string, offset: number): Binding | undefined => this.resolveHashed(name, nameHash(name), offset);
  private declarationCount = 0;
  private readonly symbols: IndexedSymbol[] = [];
  private outlineSize = 0;
  private readonly importPaths: string[] = [];
  private readonly wildcardImports: string[] = [];
  private readonly pubWildcardImports: string[] = [];
  /** The file's top-level bindings and imports (every statement's, without walking inside them). */
  private readonly top: FileScopes;
  /** The ref of each top-level binding (0, FREE, for an import: those are refs of no place). */
  private readonly rootRefs: number[] = [];
  /** The scopes the statement being indexed opens, below the file's top-level bindings. */
  private readonly resolverRoot: Scope;
  private readonly resolver: ScopeResolver;
  /** A file parsed clean resolves nested names by hash (see nestedBindingAt); a broken one asks the resolver. */
  private readonly nestedByHash: boolean;
  /** How many nested bindings the statement being indexed has (see NESTED). */
  private nestedCount = 0;
  /** What each statement contributed (see Reuse), kept for an index made reusable only. */
  private readonly spans: Int32Array | undefined;
  private readonly spanImports: Imports[] | undefined;
  /**
   * An index kept for no next version (a file read from disk) leaves its symbols to be made from the text when first
   * read: most files are never asked for them, and the outline cost about a twentieth of indexing (more with the
   * collector).
   */
  private readonly deferSymbols: boolean;
  /** The scopes the statement being walked opens (new for each: setting an array's length to 0 costs more than a new one). */
  private own: FileScopes = noScopes();
  /**
   * What the parser noted of the file's names (a file it read without a diagnostic), and the starts of the nodes
   * that may open a scope, sorted: a statement is then not walked for the nodes that mention names, and only the
   * parts of it that hold a scope are walked for the scopes.
   */
  private readonly parsedNames: ParsedNames | undefined;
  private readonly scopeStarts: ScopeStarts | undefined;
  /** The nodes of the statement being walked that mention names, and the assignment targets among them. */
  private readonly mentions: A.AnyNode[] = [];
  private readonly writeTargets = new Set<A.AnyNode>();
  private readonly gather = (node: A.AnyNode): void => {
    switch (node.kind) {
      case 'Identifier':
      case 'NamedType':
      case 'ImplDecl':
      case 'PipelineDecl':
      case 'Member':
      case 'StructLit':
      case 'StructDecl':
      case 'EnumDecl':
        this.mentions.push(node);
        return;
      case 'Assign':
        this.writeTargets.add(node.target);
        return;
      default:
        return;
    }
  };

  constructor(
    private readonly file: string,
    private readonly analysis: HarnAnalysis,
    reusable: boolean,
  ) {
    const source = analysis.file;
    this.top = { root: { start: source.start, end: source.end, bindings: [], children: [] }, imports: [], wildcardImports: [] };
    this.resolverRoot = { start: source.start, end: source.end, bindings: this.top.root.bindings, children: [] };
    this.parsedNames = analysis.parsed.names;
    this.resolver = new ScopeResolver({ root: this.resolverRoot, imports: [], wildcardImports: [] }, { keepsChain: this.parsedNames !== undefined });
    this.nestedByHash = this.parsedNames !== undefined;
    this.spans = reusable ? new Int32Array(source.statements.length * SPAN_STRIDE) : undefined;
    this.spanImports = reusable ? [] : undefined;
    this.deferSymbols = !reusable;
    this.scopeStarts = this.parsedNames && new ScopeStarts(sortedScopeStarts(this.parsedNames.scopeStarts));
  }

  build(previous: FileIndex | undefined): FileIndex {
    MET.start(this.buildNumber);
    DECLARED_AT.start(this.buildNumber);
    BINDINGS.start(this.buildNumber);
    const { statements } = this.analysis.file;
    const root = this.top.root;
    // Every statement's top-level bindings first: a function may call one declared later in the file.
    const rootFrom = ROOT_FROM;
    const importFrom = IMPORT_FROM;
    const wildcardFrom = WILDCARD_FROM;
    for (let i = 0; i <= statements.length; i++) {
      rootFrom[i] = root.bindings.length;
      importFrom[i] = this.top.imports.length;
      wildcardFrom[i] = this.top.wildcardImports.length;
      if (i < statements.length) addTopLevelBindings(statements[i] as A.Stmt, this.top);
    }
    ROOTS.start(this.buildNumber);
    for (let j = 0; j < root.bindings.length; j++) {
      const b = root.bindings[j] as Binding;
      const hash = nameHash(b.name);
      chainByHash(ROOTS, ROOT_LAST, ROOT_PREVIOUS, hash, j);
      // An import's ref is made where its statement is indexed; a reference elsewhere may resolve to it before.
      this.rootRefs.push(b.kind === 'import' ? 0 : this.refOf(b, j));
    }
    // The same top-level bindings as the previous index's: its signature is kept (a keystroke makes none).
    const same = previous?.reuse !== undefined && sameSignatures(previous.reuse.root, root.bindings);
    const signature = same && previous?.reuse ? previous.reuse.root : this.spans ? root.bindings.map(signatureOf) : [];
    const reuse = same && previous?.reuse ? { index: previous, from: previous.reuse } : undefined;
    const copier = reuse && new SpanCopier(this, reuse.index, reuse.from);
    const spans = this.spans;

    for (let i = 0; i < statements.length; i++) {
      const stmt = statements[i] as A.Stmt;
      const from = rootFrom[i] as number;
      const to = rootFrom[i + 1] as number;
      // A statement HarnAnalysis.edited kept is where it was: it replaces one statement by one, however many edits apart.
      const oldSpans = reuse?.from.statements[i] === stmt ? reuse.from.spans : undefined;
      const at = i * SPAN_STRIDE;
      const occurrenceFrom = this.count;
      const symbolFrom = this.symbols.length;
      const outlineFrom = this.outlineSize;
      let imports: Imports;
      this.addTopLevelDeclarations(from, to);
      const nestedFrom = this.declarationCount;
      if (copier && oldSpans && oldSpans[at + SPAN_ROOT_FROM] === from && oldSpans[at + SPAN_ROOT_TO] === to) {
        copier.copy(oldSpans, at, stmt.start - (oldSpans[at + SPAN_START] as number));
        this.reusedStatements++;
        imports = reuse?.from.imports[i] ?? NO_IMPORTS;
      } else {
        this.indexStatement(stmt, i, from, to);
        imports = this.importsOf(importFrom[i] as number, importFrom[i + 1] as number, wildcardFrom[i] as number, wildcardFrom[i + 1] as number);
        if (!this.deferSymbols) this.addSymbols(statementOutline(stmt, ''), undefined);
      }
      if (spans) {
        spans[at + SPAN_START] = stmt.start;
        spans[at + SPAN_ROOT_FROM] = from;
        spans[at + SPAN_ROOT_TO] = to;
        spans[at + SPAN_OCCURRENCE_FROM] = occurrenceFrom;
        spans[at + SPAN_OCCURRENCE_TO] = this.count;
        spans[at + SPAN_DECLARATION_FROM] = nestedFrom;
        spans[at + SPAN_DECLARATION_TO] = this.declarationCount;
        spans[at + SPAN_SYMBOL_FROM] = symbolFrom;
        spans[at + SPAN_SYMBOL_TO] = this.symbols.length;
        spans[at + SPAN_OUTLINE_SIZE] = this.outlineSize - outlineFrom;
        this.spanImports?.push(imports);
      }
      pushAll(this.importPaths, imports.importPaths);
      pushAll(this.wildcardImports, imports.wildcardImports);
      pushAll(this.pubWildcardImports, imports.pubWildcardImports);
    }
    return this.finish(signature);
  }

  private finish(signature: readonly RootSignature[]): FileIndex {
    // The exports packed (see PackedFileIndex.exports), the module paths of the re-exported ones apart.
    const exported = exportedBindings(this.analysis.file, this.top);
    let exportPaths: string[] | undefined;
    for (let i = 0; i < exported.length; i++) {
      const b = exported[i] as Binding;
      const reexported = b.kind === 'import' ? EXPORT_REEXPORTED : b.kind === 'namespace' ? EXPORT_NAMESPACE : EXPORT_DECLARED;
      let code = EXPORT_DECLARED;
      if (reexported !== EXPORT_DECLARED && b.modulePath !== undefined) code = reexported + EXPORT_KINDS * ((exportPaths ??= []).push(b.modulePath) - 1);
      exportScratch[i * EXPORT_STRIDE] = b.nameNode.start;
      exportScratch[i * EXPORT_STRIDE + 1] = b.nameNode.end;
      exportScratch[i * EXPORT_STRIDE + 2] = code;
    }
    let symbols: IndexedSymbol[] | undefined = this.symbols;
    if (this.deferSymbols) symbols = undefined;
    else if (this.outlineSize > MAX_OUTLINE_SYMBOLS) symbols = cappedSymbols(this.analysis);
    const occurrencesEnd = this.count * STRIDE;
    const declarationsEnd = occurrencesEnd + this.declarationCount * DECLARATION_STRIDE;
    // The name set: an open-addressing table of the hashes, twice as many slots as names (-1: empty).
    let setSize = 2;
    while (setSize < MET.count * 2) setSize *= 2;
    const refsAt = declarationsEnd + setSize;
    const refCodes = this.refCodes;
    const refCount = this.refCount;
    const exportsAt = refsAt + refCount;
    const length = exportsAt + exported.length * EXPORT_STRIDE + HEADER;
    // An open document's index has tables of its own; the others' are a stretch of a shared block (see roomInBlock).
    const base = this.spans ? 0 : roomInBlock(length);
    const tables = this.spans ? new Int32Array(length) : tableBlock;
    // A subarray for `set` costs more than a loop copying a small file's tables.
    if (occurrencesEnd > SET_AT_ONCE) tables.set(scratch.subarray(0, occurrencesEnd), base);
    else for (let i = 0; i < occurrencesEnd; i++) tables[base + i] = scratch[i] as number;
    for (let i = occurrencesEnd, j = 0; i < declarationsEnd; i++, j++) tables[base + i] = declarationScratch[j] as number;
    tables.fill(-1, base + declarationsEnd, base + refsAt);
    const mask = setSize - 1;
    for (let k = 0; k < MET.count; k++) {
      const hash = MET.members[k] as number;
      let slot = hash & mask;
      while (tables[base + declarationsEnd + slot] !== -1) slot = (slot + 1) & mask;
      tables[base + declarationsEnd + slot] = hash;
    }
    for (let i = refsAt, j = 0; j < refCount; i++, j++) tables[base + i] = refCodes[j] as number;
    for (let i = exportsAt, j = 0; i < length - HEADER; i++, j++) tables[base + i] = exportScratch[j] as number;
    MET.end();
    ROOTS.end();
    DECLARED_AT.end();
    BINDINGS.end();
    const header = base + length - HEADER;
    tables[header] = this.count;
    tables[header + 1] = this.declarationCount;
    tables[header + 2] = setSize;
    tables[header + 3] = refCount;
    tables[header + 4] = exported.length;
    tables[header + 5] = this.reusedStatements;
    tables[header + 6] = !MET.collided && !MET.unnamed ? 1 : 0;
    const extras: IndexExtras = {
      spelled: this.spelled ?? NO_SPELLINGS,
      otherRefs: orShared(this.otherRefs),
      exportPaths: exportPaths ?? NOTHING,
      wildcardImports: orShared(this.wildcardImports),
      pubWildcardImports: orShared(this.pubWildcardImports),
      importPaths: orShared(this.importPaths),
      reuse: this.spans && {
        root: signature,
        refPlaces: copiedInts(this.refPlaces, refCount),
        symbols: this.symbols,
        statements: this.analysis.file.statements,
        spans: this.spans,
        imports: this.spanImports ?? [],
      },
    };
    // A file read from disk keeps its text, its line index made when first asked (most files never are).
    const lines = this.spans ? this.analysis.lineIndex : this.analysis.text;
    return new PackedFileIndex(this.file, lines, tables, base, length, isEmpty(extras) ? NO_EXTRAS : extras, symbols);
  }

  private addTopLevelDeclarations(from: number, to: number): void {
    const root = this.top.root;
    for (let j = from; j < to; j++) {
      const b = root.bindings[j] as Binding;
      if (b.kind === 'import') continue;
      this.addDeclaration(b.nameNode.start, root.start, root.end, b.nameNode.end, (KIND_CODES[b.kind] ?? 0) * 2 + 1);
    }
  }

  /** Walks one top-level statement (the `index`-th): its scopes, declarations, occurrences and imports. */
  private indexStatement(stmt: A.Stmt, index: number, rootFrom: number, rootTo: number): void {
    // The statement's scopes, and the nodes that mention names: those are resolved once the scopes are complete (a
    // function may call one declared later in its block). Noted by the parser, or gathered in the walk.
    const { writeTargets, parsedNames, scopeStarts } = this;
    let mentions: readonly A.AnyNode[] = this.mentions;
    let mentionFrom = 0;
    let mentionTo: number;
    // A statement holding no scope start opens none: it shares one empty set of scopes (most top-level statements).
    const opensNone = parsedNames !== undefined && scopeStarts !== undefined && !scopeStarts.holds(stmt.start, stmt.end);
    const own = (this.own = opensNone ? NO_SCOPES : noScopes());
    if (parsedNames && scopeStarts) {
      addStatementScopesSkipping(stmt, own, scopeStarts);
      mentions = parsedNames.nodes;
      mentionFrom = index > 0 ? (parsedNames.statementEnds[index - 1] ?? 0) : 0;
      mentionTo = parsedNames.statementEnds[index] ?? mentionFrom;
      // An assignment is noted after its target: the targets first (in a statement that holds one).
      const assignments = parsedNames.assignmentCounts;
      const assignmentsBefore = index > 0 ? assignments[index - 1] : 0;
      // A missing count (none should be) searches the statement.
      if (assignments[index] === undefined || assignments[index] !== assignmentsBefore) {
        for (let k = mentionFrom; k < mentionTo; k++) {
          const node = mentions[k] as A.AnyNode;
          if (node.kind === 'Assign') writeTargets.add(node.target);
        }
      }
    } else {
      if (this.mentions.length > 0) this.mentions.length = 0;
      addStatementScopes(stmt, own, this.gather);
      mentionTo = this.mentions.length;
    }
    this.resolverRoot.children = own.root.children;
    this.resolver.scopesChanged();
    const first = this.count;
    const root = this.top.root;
    // Its own top-level bindings, from the file's root scope (the walk above adds the nested ones only).
    for (let j = rootFrom; j < rootTo; j++) {
      const b = root.bindings[j] as Binding;
      if (b.kind !== 'import') DECLARED_AT.add(offsetKey(b.nameNode.start));
      const ref = this.refOf(b, j);
      this.spell(b.nameNode.start, b.nameNode.end, b.name);
      this.push(b.nameNode.start, b.nameNode.end, this.nameOf(ref, b.name), ref * 2 + (b.kind !== 'import' ? 1 : 0));
    }
    NESTED.start(++statementsIndexed);
    this.nestedCount = 0;
    for (const child of own.root.children) this.declareScope(child);

    const firstReference = this.count;
    // References: identifiers, type names, `impl X for Y`, `extends`, namespace members.

    for (let k = mentionFrom; k < mentionTo; k++) {
      const node = mentions[k] as A.AnyNode;
      switch (node.kind) {
        case 'Identifier':
          this.reference(node, writeTargets.size > 0 && writeTargets.has(node));
          break;
        case 'NamedType':
          this.reference(node.name, false);
          break;
        case 'ImplDecl':
          if (node.name) this.reference(node.name, false);
          if (node.traitName) this.reference(node.traitName, false);
          this.addMembers(memberMentions(node, this.resolveName, (this.selfTypeMap ??= new WeakMap())));
          break;
        case 'StructLit':
        case 'StructDecl':
        case 'EnumDecl':
          this.addMembers(memberMentions(node, this.resolveName, this.selfTypeMap ?? NO_SELF_TYPES));
          break;
        case 'PipelineDecl':
          if (node.extendsName) this.reference(node.extendsName, false);
          break;
        case 'Member': {
          // `ns.name` (or `ns.inner.name`) where `ns` is a namespace import: a reference to the module's `name`.
          if (!node.property) break;
          // The namespaces on the way are listed only once the base is known to be one (most chains are not).
          let depth = 0;
          let base: A.Expr = node.object;
          while (base.kind === 'Member' && base.property && depth < MAX_NAMESPACE_CHAIN) {
            depth++;
            base = base.object;
          }
          if (base.kind !== 'Identifier') break;
          const namespace = this.resolveName(base.name, base.start);
          if (namespace?.kind === 'namespace' && namespace.modulePath !== undefined) {
            const p = node.property;
            const via = depth > 0 ? namespacesOnTheWay(node.object, depth) : undefined;
            const ref = via
              ? this.addRef({ kind: 'imported', modulePath: namespace.modulePath, via }, INDEPENDENT)
              : this.memberOf(namespace, namespace.modulePath);
            this.addOccurrence(p.text, p, false, ref);
          } else if (depth === 0) {
            // `Type.member`, `value.member`: a member, when the type is known (members.ts).
            const access = memberAccess(node, namespace, this.resolveName, this.selfTypeMap ?? NO_SELF_TYPES, writeTargets.has(node));
            if (access) this.addMember(access);
          }
          break;
        }
        default:
          break;
      }
    }
    // Each list is nearly in source order already (a scope's bindings, then its children's; the walk's order):
    // each is sorted by insertion, then the two are merged.
    sortOccurrences(first, firstReference);
    sortOccurrences(firstReference, this.count);
    mergeOccurrences(first, firstReference, this.count);
    // No tree is kept alive by the scratch.
    for (let n = 0; n < this.nestedCount; n++) NESTED_BINDINGS[n] = undefined;
  }

  private addMembers(mentioned: readonly MemberMention[]): void {
    for (const m of mentioned) this.addMember(m);
  }

  /** A member name whose type is known; its ref is shared by the type's other members (the name tells them apart). */
  private addMember(m: MemberMention): void {
    const owner = this.refOf(m.owner);
    if (owner === 0) return;
    const key = owner * 2 + (m.declares ? 1 : 0);
    const memberRefs = (this.memberRefs ??= new Map<number, number>());
    let ref = memberRefs.get(key);
    if (ref === undefined) memberRefs.set(key, (ref = this.memberRef(owner, m.typeName, m.declares)));
    this.addOccurrence(m.name.text, m.name, m.write, ref);
  }

  /** Declarations: every binding of every scope. An imported name is a reference to the module's, not a declaration. */
  private declareScope(scope: Scope): void {
    for (const b of scope.bindings) {
      const { nameNode } = b;
      const ref = this.refOf(b);
      const hash = this.nameOf(ref, b.name);
      const j = this.nestedCount++;
      chainByHash(NESTED, NESTED_LAST, NESTED_PREVIOUS, hash, j);
      NESTED_BINDINGS[j] = b;
      NESTED_SCOPE_START[j] = scope.start;
      NESTED_SCOPE_END[j] = scope.end;
      NESTED_REF[j] = ref;
      this.spell(nameNode.start, nameNode.end, b.name);
      if (b.kind === 'import') {
        this.push(nameNode.start, nameNode.end, hash, ref * 2);
        continue;
      }
      DECLARED_AT.add(offsetKey(nameNode.start));
      this.push(nameNode.start, nameNode.end, hash, ref * 2 + 1);
      this.addDeclaration(nameNode.start, scope.start, scope.end, nameNode.end, (KIND_CODES[b.kind] ?? 0) * 2);
    }
    for (const child of scope.children) this.declareScope(child);
  }

  private reference(name: A.Name | A.Identifier, write: boolean): void {
    if (DECLARED_AT.has(offsetKey(name.start))) return;
    const text = name.kind === 'Name' ? name.text : name.name;
    if (text.length === 0) return;
    const hash = nameHash(text);
    const ref = this.refAtOffset(text, hash, name.start);
    this.spell(name.start, name.end, text);
    const known = ref > 0 && ref < this.refCount ? (this.refNameIds[ref] as number) : -1;
    this.push(name.start, name.end, known >= 0 ? known : this.noteName(hash, text), ref * 2 + (write ? 1 : 0));
  }

  /**
   * What `text` (of hash `hash`) at `offset` refers to, as the resolver tells, but a name no binding inside the
   * statement bears is the latest top-level binding of that name visible there (the root is the only scope that
   * could hold it), or nothing: found by its hash, without the scopes.
   */
  private resolveHashed(text: string, hash: number, offset: number): Binding | undefined {
    const member = NESTED.memberAt(hash);
    if (member >= 0) {
      const n = this.nestedBindingAt(text, member, offset);
      if (n >= 0) return NESTED_BINDINGS[n];
      if (n === ASK_THE_SCOPES) return this.resolver.resolve(text, offset);
    }
    const j = this.rootBindingAt(text, hash, offset);
    return j >= 0 ? this.top.root.bindings[j] : undefined;
  }

  /** The ref of what `text` (of hash `hash`) at `offset` refers to (see resolveHashed); a top-level binding's as made. */
  private refAtOffset(text: string, hash: number, offset: number): number {
    const member = NESTED.memberAt(hash);
    if (member >= 0) {
      const n = this.nestedBindingAt(text, member, offset);
      if (n >= 0) return NESTED_REF[n] as number;
      if (n === ASK_THE_SCOPES) return this.refOf(this.resolver.resolve(text, offset));
    }
    const j = this.rootBindingAt(text, hash, offset);
    if (j < 0) return 0;
    // Every top-level binding's ref is made before the statements are indexed, but an import's (made where met).
    const known = this.rootRefs[j] as number;
    return known > 0 ? known : this.refOf(this.top.root.bindings[j], j);
  }

  /**
   * The index among the statement's nested bindings (of the NESTED member `member`) of what `text` at `offset`
   * refers to, as the resolver would find it; -1 when none does (then a top-level binding may), ASK_THE_SCOPES when
   * only the scopes can tell. In a file parsed clean, sibling scopes share no offset but an end, so a scope strictly
   * holding the offset is on the resolver's chain, as are its ancestors: of the bindings visible there whose scope
   * strictly holds it, the innermost scope's latest is the resolver's answer. A scope holding the offset at an end
   * may not be on the chain (touching siblings), and a broken file's scopes may overlap: the resolver tells those.
   */
  private nestedBindingAt(text: string, member: number, offset: number): number {
    if (!this.nestedByHash) return ASK_THE_SCOPES;
    // From the latest declared. The scopes strictly holding the offset are one chain, and a scope's bindings are
    // declared before its children's: the first binding met there is the innermost scope's latest.
    for (let n = NESTED_LAST[member] as number; n >= 0; n = NESTED_PREVIOUS[n] as number) {
      const start = NESTED_SCOPE_START[n] as number;
      const end = NESTED_SCOPE_END[n] as number;
      if (offset < start || offset > end) continue;
      const b = NESTED_BINDINGS[n] as Binding;
      if (b.name !== text) continue;
      if (offset === start || offset === end) return ASK_THE_SCOPES;
      if (b.visibleFrom <= offset) return n;
    }
    return -1;
  }

  /** The index among the root's bindings of the latest one named `text` (of hash `hash`) visible at `offset`, or -1. */
  private rootBindingAt(text: string, hash: number, offset: number): number {
    const member = ROOTS.memberAt(hash);
    const bindings = this.top.root.bindings;
    for (let j = member >= 0 ? (ROOT_LAST[member] as number) : -1; j >= 0; j = ROOT_PREVIOUS[j] as number) {
      const b = bindings[j] as Binding;
      if (b.name === text && b.visibleFrom <= offset) return j;
    }
    return -1;
  }

  /** The hash of `name`, which an occurrence of the ref `ref` bears: the ref's binding's when it has one (made once). */
  private nameOf(ref: number, name: string): number {
    const hash = ref < this.refCount ? (this.refNameIds[ref] as number) : -1;
    return hash >= 0 ? hash : this.noteName(nameHash(name), name);
  }

  /**
   * Notes that the name at [start, end) is `name`, which FileIndex.spelled lists when the text there reads otherwise.
   * The length tells: a name is its token's text, or else made longer or shorter than its extent (a quoted field
   * name loses its quotes, `mod . Type` its blanks). A corpus test holds every name read to the tree's.
   */
  spell(start: number, end: number, name: string): void {
    if (end - start !== name.length) (this.spelled ??= new Map()).set(spellingKey(start, end), name);
  }

  /** A statement's imports: its own (the top-level pass's, [from, to)), then those inside it (the walk's). */
  private importsOf(from: number, to: number, wildcardFrom: number, wildcardTo: number): Imports {
    const own = this.own;
    if (from === to && wildcardFrom === wildcardTo && own.imports.length === 0) return NO_IMPORTS;
    const importPaths: string[] = [];
    const wildcardImports: string[] = [];
    const pubWildcardImports: string[] = [];
    const add = (decls: readonly A.ImportDecl[], from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const decl = decls[i] as A.ImportDecl;
        const modulePath = importModulePath(decl);
        if (modulePath !== undefined) importPaths.push(modulePath);
      }
    };
    const addWildcards = (decls: readonly A.ImportDecl[], from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const decl = decls[i] as A.ImportDecl;
        const modulePath = decl.path?.value;
        if (modulePath === undefined) continue;
        wildcardImports.push(modulePath);
        if (decl.isPub) pubWildcardImports.push(modulePath);
      }
    };
    add(this.top.imports, from, to);
    add(own.imports, 0, own.imports.length);
    addWildcards(this.top.wildcardImports, wildcardFrom, wildcardTo);
    addWildcards(own.wildcardImports, 0, own.wildcardImports.length);
    return { importPaths, wildcardImports, pubWildcardImports };
  }

  private addSymbols(list: readonly OutlineSymbol[], container: string | undefined): void {
    this.outlineSize += addSymbolsTo(this.symbols, list, container);
  }

  /** Puts the name of hash `hash` in the file's name set, once; returns the hash. `name`: the name, when at hand. */
  noteName(hash: number, name?: string): number {
    MET.add(hash, name);
    return hash;
  }

  addOccurrence(name: string, node: A.NodeBase, write: boolean, ref: number): void {
    this.spell(node.start, node.end, name);
    this.push(node.start, node.end, this.noteName(nameHash(name), name), ref * 2 + (write ? 1 : 0));
  }

  push(start: number, end: number, hash: number, refAndWrite: number): void {
    let at = this.count * STRIDE;
    if (at + STRIDE > scratch.length) growScratch(at + STRIDE);
    scratch[at++] = start;
    scratch[at++] = end;
    scratch[at++] = hash;
    scratch[at] = refAndWrite;
    this.count++;
  }

  addRef(ref: LocalRef, place: number): number {
    if (ref.kind === 'local') return this.addLocalRef(ref.declStart, place);
    return this.addRefCode(ref === FREE ? FREE_CODE : OTHER_CODE - (this.otherRefs.push(ref) - 1), place);
  }

  /** Room for `count` occurrences after the current ones, counted: where in `scratch` the first is to be written. */
  reserveOccurrences(count: number): number {
    const at = this.count * STRIDE;
    if (at + count * STRIDE > scratch.length) growScratch(at + count * STRIDE);
    this.count += count;
    return at;
  }

  /** The ref of a binding whose name starts at `declStart` (no object made for it). */
  addLocalRef(declStart: number, place: number): number {
    return this.addRefCode(declStart, place);
  }

  private addRefCode(code: number, place: number): number {
    const ref = this.refCount++;
    this.refCodes[ref] = code;
    this.refPlaces[ref] = place;
    this.refNameIds[ref] = -1;
    return ref;
  }

  /** A member ref of the type the ref `owner` refers to. */
  memberRef(owner: number, typeName: string, declares: boolean): number {
    const ownerRef = refOfCode(owner < this.refCount ? (this.refCodes[owner] as number) : FREE_CODE, this.otherRefs);
    return this.addRef({ kind: 'member', owner: ownerRef, typeName, declares }, MEMBER - owner);
  }

  /** The ref of the `rootIndex`-th top-level binding (after the build made them all). */
  rootRef(rootIndex: number): number {
    return this.rootRefs[rootIndex] ?? 0;
  }

  /** One ref per binding, shared by its occurrences (a file has many more occurrences than bindings). */
  private refOf(binding: Binding | undefined, rootIndex = STATEMENT_LOCAL): number {
    if (!binding) return 0;
    const found = BINDINGS.findOrAdd(offsetKey(binding.nameNode.start));
    if (found >= 0) return REF_OF_BINDING[found] as number;
    let id: number;
    if (binding.kind === 'import') id = binding.modulePath === undefined ? 0 : this.addRef({ kind: 'imported', modulePath: binding.modulePath }, INDEPENDENT);
    else id = this.addLocalRef(binding.nameNode.start, rootIndex);
    if (id > 0) this.refNameIds[id] = this.noteName(nameHash(binding.name), binding.name);
    REF_OF_BINDING[-1 - found] = id;
    return id;
  }

  /** The ref of `ns.name`: a name of the module the namespace stands for. */
  private memberOf(namespace: Binding, modulePath: string): number {
    const refOfNamespace = (this.refOfNamespace ??= new Map<Binding, number>());
    let id = refOfNamespace.get(namespace);
    if (id === undefined) refOfNamespace.set(namespace, (id = this.addRef({ kind: 'imported', modulePath }, INDEPENDENT)));
    return id;
  }

  addDeclaration(start: number, scopeStart: number, scopeEnd: number, nameEnd: number, kindAndTop: number): void {
    const at = this.declarationCount * DECLARATION_STRIDE;
    const data = declarationScratch;
    data[at] = start;
    data[at + 1] = scopeStart;
    data[at + 2] = scopeEnd;
    data[at + 3] = nameEnd;
    data[at + 4] = kindAndTop;
    this.declarationCount++;
  }

  addShiftedSymbol(s: IndexedSymbol, delta: number): void {
    // Not moved (before the edit): the same object, which no one changes.
    if (delta === 0) {
      this.symbols.push(s);
      return;
    }
    this.symbols.push({
      name: s.name,
      kind: s.kind,
      start: s.start + delta,
      end: s.end + delta,
      selectionStart: s.selectionStart + delta,
      selectionEnd: s.selectionEnd + delta,
      container: s.container,
    });
  }

  addOutlineSize(size: number): void {
    this.outlineSize += size;
  }
}

/** Copies what statements contributed to a previous index into the one being built, shifted to where they are now. */
class SpanCopier {
  /** The previous index's ref ids → the new index's (-1: not met yet). Name hashes are the names': kept as they are. */
  private readonly refIds: Int32Array;

  constructor(
    private readonly into: IndexBuilder,
    private readonly from: FileIndex,
    private readonly reuse: Reuse,
  ) {
    this.refIds = new Int32Array(from.refCount).fill(-1);
  }

  /** Copies the statement whose span is at `s` in `spans`, moved by `delta`. */
  copy(spans: Int32Array, s: number, delta: number): void {
    const data = this.from.tables;
    const spelled = this.from.spelled;
    const spells = spelled.size > 0;
    const occurrenceFrom = spans[s + SPAN_OCCURRENCE_FROM] as number;
    const occurrenceTo = spans[s + SPAN_OCCURRENCE_TO] as number;
    // Straight into the scratch, room made once for the statement's occurrences (a keystroke copies thousands).
    let out = this.into.reserveOccurrences(occurrenceTo - occurrenceFrom);
    const into = scratch;
    for (let i = occurrenceFrom; i < occurrenceTo; i++) {
      const at = i * STRIDE;
      const hash = this.into.noteName(data[at + 2] as number);
      const refAndWrite = data[at + 3] as number;
      const ref = this.mapped(refAndWrite >> 1, delta);
      const start = data[at] as number;
      const end = data[at + 1] as number;
      // A declaration's name is one of the statement's occurrences: its spelling moves with the occurrence's.
      const spelling = spells ? spelled.get(spellingKey(start, end)) : undefined;
      if (spelling !== undefined) this.into.spell(start + delta, end + delta, spelling);
      into[out] = start + delta;
      into[out + 1] = end + delta;
      into[out + 2] = hash;
      into[out + 3] = ref * 2 + (refAndWrite & 1);
      out += STRIDE;
    }
    const declarations = this.from.tables;
    const declarationTo = spans[s + SPAN_DECLARATION_TO] as number;
    for (let i = spans[s + SPAN_DECLARATION_FROM] as number; i < declarationTo; i++) {
      const at = this.from.declarationsAt + i * DECLARATION_STRIDE;
      const start = (declarations[at] as number) + delta;
      this.into.addDeclaration(
        start,
        (declarations[at + 1] as number) + delta,
        (declarations[at + 2] as number) + delta,
        (declarations[at + 3] as number) + delta,
        declarations[at + 4] as number,
      );
    }
    const symbolTo = spans[s + SPAN_SYMBOL_TO] as number;
    for (let i = spans[s + SPAN_SYMBOL_FROM] as number; i < symbolTo; i++) this.into.addShiftedSymbol(this.reuse.symbols[i] as IndexedSymbol, delta);
    this.into.addOutlineSize(spans[s + SPAN_OUTLINE_SIZE] as number);
  }

  private mapped(oldRef: number, delta: number): number {
    let ref = this.refIds[oldRef] as number;
    if (ref < 0) this.refIds[oldRef] = ref = this.refFor(oldRef, delta);
    return ref;
  }

  private refFor(oldRef: number, delta: number): number {
    const place = this.reuse.refPlaces[oldRef] ?? INDEPENDENT;
    if (place >= 0) return this.into.rootRef(place);
    // A local binding's ref read as its integer: no object made for each ref of each statement copied.
    const code = oldRef < this.from.refCount ? (this.from.tables[this.from.refsAt + oldRef] as number) : FREE_CODE;
    if (code >= 0) return this.into.addLocalRef(place === INDEPENDENT ? code : code + delta, place === INDEPENDENT ? INDEPENDENT : STATEMENT_LOCAL);
    const ref = refAt(this.from, oldRef);
    if (ref === FREE) return 0;
    if (ref.kind === 'member') return this.into.memberRef(this.mapped(MEMBER - place, delta), ref.typeName, ref.declares);
    if (place === INDEPENDENT || ref.kind !== 'local') return this.into.addRef(ref, INDEPENDENT);
    // A binding inside the statement: it moved with it (a ref belongs to the one statement holding its binding).
    return this.into.addLocalRef(ref.declStart + delta, STATEMENT_LOCAL);
  }
}

/** The first `count` of `list`, typed (kept apart from the collected heap). */
function copiedInts(list: readonly number[], count: number): Int32Array {
  const ints = new Int32Array(count);
  for (let i = 0; i < count; i++) ints[i] = list[i] as number;
  return ints;
}

function signatureOf(b: Binding): RootSignature {
  // As sameSignatures reads a binding.
  return {
    name: b.name,
    kind: b.kind,
    modulePath: b.modulePath,
    fromItsEnd: b.declaration.kind === 'LetDecl',
    declaredType: declaredNamedType(b.declaration)?.name.text,
  };
}

function sameSignatures(signatures: readonly RootSignature[], bindings: readonly Binding[]): boolean {
  if (signatures.length !== bindings.length) return false;
  for (let i = 0; i < signatures.length; i++) {
    const x = signatures[i] as RootSignature;
    const b = bindings[i] as Binding;
    if (x.name !== b.name || x.kind !== b.kind || x.modulePath !== b.modulePath || x.fromItsEnd !== (b.declaration.kind === 'LetDecl')) return false;
    if (x.declaredType !== declaredNamedType(b.declaration)?.name.text) return false;
  }
  return true;
}

/** Without the source: workspace symbols show no details, and reading them (whitespace collapsed) is costly. */
function symbolsOf(analysis: HarnAnalysis): IndexedSymbol[] {
  const symbols: IndexedSymbol[] = [];
  let outlineSize = 0;
  for (const stmt of analysis.file.statements) outlineSize += addSymbolsTo(symbols, statementOutline(stmt, ''), undefined);
  return outlineSize > MAX_OUTLINE_SYMBOLS ? cappedSymbols(analysis) : symbols;
}

/** The outline stops at its cap: workspace symbols list what it lists. */
function cappedSymbols(analysis: HarnAnalysis): IndexedSymbol[] {
  const symbols: IndexedSymbol[] = [];
  addSymbolsTo(symbols, analysis.outline, undefined);
  return symbols;
}

/** A deferred index's symbols: its text parsed again (the index keeps no tree), as the build would have made them. */
function symbolsOfText(text: string): IndexedSymbol[] {
  return symbolsOf(new HarnAnalysis(text));
}

/** Outline symbols as workspace symbols, flattened; returns how many outline nodes it read. */
function addSymbolsTo(into: IndexedSymbol[], list: readonly OutlineSymbol[], container: string | undefined): number {
  let read = 0;
  for (const s of list) {
    read++;
    // Imports are other files' symbols; a local variable is not a workspace symbol.
    if (s.kind !== 'import' && !(container !== undefined && s.kind === 'variable') && s.name.length > 0) {
      into.push({ name: s.name, kind: s.kind, start: s.start, end: s.end, selectionStart: s.selectionStart, selectionEnd: s.selectionEnd, container });
    }
    read += addSymbolsTo(into, s.children, s.name || container);
  }
  return read;
}

/** Sort keys hold an occurrence's start and its place among those sorted (which keeps equal starts in order). */
const PLACES = 2 ** 21;

/**
 * Puts the scratch table's occurrences [from, to) in source order (by start; equal starts stay in the order they
 * were made in). By insertion, as long as they are nearly in order; else by a sort of numeric keys.
 */
function sortOccurrences(from: number, to: number): void {
  const data = scratch;
  let budget = 8 * (to - from) + 64;
  for (let i = from + 1; i < to; i++) {
    const at = i * STRIDE;
    const start = data[at] as number;
    if ((data[at - STRIDE] as number) <= start) continue;
    const end = data[at + 1] as number;
    const name = data[at + 2] as number;
    const ref = data[at + 3] as number;
    let j = at - STRIDE;
    while (j >= from * STRIDE && (data[j] as number) > start) {
      data[j + STRIDE] = data[j] as number;
      data[j + STRIDE + 1] = data[j + 1] as number;
      data[j + STRIDE + 2] = data[j + 2] as number;
      data[j + STRIDE + 3] = data[j + 3] as number;
      j -= STRIDE;
      budget--;
    }
    data[j + STRIDE] = start;
    data[j + STRIDE + 1] = end;
    data[j + STRIDE + 2] = name;
    data[j + STRIDE + 3] = ref;
    if (budget < 0) {
      // Far from sorted (insertion would take quadratic time): the rest by keys.
      sortByKeys(from, to);
      return;
    }
  }
}

function sortByKeys(from: number, to: number): void {
  const data = scratch;
  const n = to - from;
  const copy = data.slice(from * STRIDE, to * STRIDE);
  let order: ArrayLike<number>;
  if (n < PLACES) {
    // A typed array sorts numbers natively, without a comparator call per comparison.
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) keys[k] = (copy[k * STRIDE] as number) * PLACES + k;
    keys.sort();
    for (let k = 0; k < n; k++) keys[k] = (keys[k] as number) % PLACES;
    order = keys;
  } else {
    const places = Array.from({ length: n }, (_, k) => k);
    order = places.sort((a, b) => (copy[a * STRIDE] as number) - (copy[b * STRIDE] as number) || a - b);
  }
  let at = from * STRIDE;
  for (let k = 0; k < order.length; k++) {
    const src = (order[k] as number) * STRIDE;
    data[at++] = copy[src] as number;
    data[at++] = copy[src + 1] as number;
    data[at++] = copy[src + 2] as number;
    data[at++] = copy[src + 3] as number;
  }
}

/** Merges the sorted runs [from, middle) and [middle, to) of the scratch table (the first run first on equal starts). */
function mergeOccurrences(from: number, middle: number, to: number): void {
  const data = scratch;
  if (from === middle || middle === to || (data[(middle - 1) * STRIDE] as number) <= (data[middle * STRIDE] as number)) return;
  const leftEnd = (middle - from) * STRIDE;
  const left = mergeScratch;
  for (let k = 0, src = from * STRIDE; k < leftEnd; k++) left[k] = data[src + k] as number;
  let l = 0;
  let r = middle * STRIDE;
  let at = from * STRIDE;
  const rightEnd = to * STRIDE;
  while (l < leftEnd && r < rightEnd) {
    const records = (left[l] as number) <= (data[r] as number) ? left : data;
    const src = records === left ? l : r;
    data[at] = records[src] as number;
    data[at + 1] = records[src + 1] as number;
    data[at + 2] = records[src + 2] as number;
    data[at + 3] = records[src + 3] as number;
    if (records === left) l += STRIDE;
    else r += STRIDE;
    at += STRIDE;
  }
  // What is left of the right run is in place already.
  while (l < leftEnd) data[at++] = left[l++] as number;
}

/** FileIndex.spelled's key of the name at [start, end). */
function spellingKey(start: number, end: number): string {
  return `${start}:${end}`;
}

/** The name at [start, end) of the file (an occurrence's or a declaration's). */
function nameAt(index: FileIndex, start: number, end: number): string {
  const spelling = index.spelled.size > 0 ? index.spelled.get(spellingKey(start, end)) : undefined;
  return spelling ?? index.lineIndex.text.slice(start, end);
}

/** Whether the name at [start, end) is `name` (no string made for it). */
function nameIs(index: FileIndex, start: number, end: number, name: string): boolean {
  const spelling = index.spelled.size > 0 ? index.spelled.get(spellingKey(start, end)) : undefined;
  if (spelling !== undefined) return spelling === name;
  return end - start === name.length && index.lineIndex.text.startsWith(name, start);
}

/** The `i`-th occurrence of the file, in source order. */
export function occurrenceOf(index: FileIndex, i: number): Occurrence {
  const data = index.tables;
  const at = i * STRIDE;
  return occurrenceNamed(index, i, nameAt(index, data[at] as number, data[at + 1] as number));
}

/** The `i`-th occurrence, whose name is known to be `name`. */
function occurrenceNamed(index: FileIndex, i: number, name: string): Occurrence {
  const data = index.tables;
  const at = i * STRIDE;
  const refAndWrite = data[at + 3] as number;
  return {
    name,
    start: data[at] as number,
    end: data[at + 1] as number,
    write: (refAndWrite & 1) === 1,
    ref: refAt(index, refAndWrite >> 1),
  };
}

/** The hashes of the names the file mentions (see nameHash), each once, ascending. */
export function nameSet(index: FileIndex): number[] {
  const slots = Array.from(index.tables.subarray(index.nameSetAt, index.nameSetAt + index.nameSetLength));
  return slots.filter((hash) => hash !== -1).sort((a, b) => a - b);
}

/**
 * The hash of a name a query asks about, kept for the next call: a query asks every file of the workspace about the
 * same name.
 */
let queried = { name: '', hash: nameHash('') };
function queryHash(name: string): number {
  if (queried.name !== name) queried = { name, hash: nameHash(name) };
  return queried.hash;
}

/**
 * Whether the file may mention `name`: its name set holds the name's hash (another name of the same hash lets it
 * through too; occurrencesNamed and mentions tell them apart). No text is read: a look-up over the workspace's files.
 */
export function mayMention(index: FileIndex, name: string): boolean {
  return index.holdsNameHash(queryHash(name));
}

/** Whether the file mentions `name` (an occurrence of it: a hash shared with another name is not enough). */
export function mentions(index: FileIndex, name: string): boolean {
  const hash = queryHash(name);
  if (!index.holdsNameHash(hash)) return false;
  const data = index.tables;
  const { namesApart } = index;
  for (let at = 0, end = index.occurrenceCount * STRIDE; at < end; at += STRIDE) {
    if (data[at + 2] !== hash) continue;
    if (nameIs(index, data[at] as number, data[at + 1] as number, name)) return true;
    if (namesApart) return false;
  }
  return false;
}

/** The occurrences of `name` in the file, in source order. */
export function occurrencesNamed(index: FileIndex, name: string): Occurrence[] {
  const out: Occurrence[] = [];
  const hash = queryHash(name);
  if (!index.holdsNameHash(hash)) return out;
  const data = index.tables;
  // Once one occurrence of the hash has been read as `name`, the others are too when the file's names are apart.
  let read = false;
  const { occurrenceCount, namesApart } = index;
  for (let i = 0, at = 0; i < occurrenceCount; i++, at += STRIDE) {
    if (data[at + 2] !== hash) continue;
    if ((read && namesApart) || nameIs(index, data[at] as number, data[at + 1] as number, name)) {
      read = true;
      out.push(occurrenceNamed(index, i, name));
    } else if (namesApart) return out;
  }
  return out;
}

/** Every occurrence of the file, in source order. */
export function allOccurrences(index: FileIndex): Occurrence[] {
  const out: Occurrence[] = [];
  for (let i = 0, count = index.occurrenceCount; i < count; i++) out.push(occurrenceOf(index, i));
  return out;
}

export function rangeOf(index: FileIndex, node: { start: number; end: number }): Range {
  return index.lineIndex.rangeOf(node.start, node.end);
}

/** The occurrence at `offset` (a cursor right after a name counts), if any. */
export function occurrenceAt(index: FileIndex, offset: number): Occurrence | undefined {
  const data = index.tables;
  const startOf = (i: number): number => data[i * STRIDE] as number;
  const endOf = (i: number): number => data[i * STRIDE + 1] as number;
  let low = 0;
  let high = index.occurrenceCount - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (endOf(mid) < offset) low = mid + 1;
    else if (startOf(mid) > offset) high = mid - 1;
    else {
      // Between two names (`a+b` has none, but `a.b` ends one where the next starts): prefer the one starting here.
      const next = mid + 1 < index.occurrenceCount && endOf(mid) === offset && startOf(mid + 1) === offset;
      return occurrenceOf(index, next ? mid + 1 : mid);
    }
  }
  return undefined;
}
