// What one `.harn` file contributes to the workspace index: every name it mentions (each occurrence with what it
// refers to as far as the file alone can tell), the names it exports, the modules it imports and its declarations.
// Pure: an analysis in, plain data out. A broken file contributes what its partial AST holds.

import { HarnAnalysis } from '../analysis';
import * as A from '../ast';
import { LineIndex, Range } from '../../text/lineIndex';
import { OutlineKind, OutlineSymbol } from '../outline';
import { Binding, BindingKind, exportedBindings, FileScopes, importModulePath, Scope } from '../scope';

/**
 * What an occurrence refers to, seen from its file: a binding declared in it (by the binding's name offset), a name
 * exported by an imported module (`import { a }`, `ns.a`), or a name not declared here (a wildcard import's, or a
 * builtin).
 */
export type LocalRef =
  | { kind: 'local'; declStart: number }
  /** `via`: the namespaces re-exported on the way (`ui.forms.field`: via `forms` of the module `ui` stands for). */
  | { kind: 'imported'; modulePath: string; via?: readonly string[] }
  | { kind: 'free' };

/** Namespace chains (`ui.forms.field`) are followed this deep, as re-exports are. */
const MAX_NAMESPACE_CHAIN = 8;

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

export interface FileIndex {
  file: string;
  /** Positions are computed when asked (most occurrences are never shown). */
  lineIndex: LineIndex;
  /** In source order once `sorted` (occurrenceAt sorts them); each name's list in byName is in no particular order. */
  occurrences: Occurrence[];
  sorted: boolean;
  /** The occurrences of each name. */
  byName: Map<string, Occurrence[]>;
  declarations: IndexedDeclaration[];
  symbols: IndexedSymbol[];
  exports: Map<string, Export>;
  /** `import "…"` module paths (everything they export is visible here), and those that are `pub` (re-exported). */
  wildcardImports: string[];
  pubWildcardImports: string[];
  /** Every module path the file imports. */
  importPaths: string[];
}

export function indexFile(file: string, analysis: HarnAnalysis): FileIndex {
  // One pass over the tree builds the scopes and gathers the nodes that mention names; those are resolved once the
  // scopes are complete (a function may call one declared later in its block).
  const mentions: A.AnyNode[] = [];
  const writeTargets = new Set<A.AnyNode>();
  const scopes = analysis.scopesVisiting((node) => {
    switch (node.kind) {
      case 'Identifier':
      case 'NamedType':
      case 'ImplDecl':
      case 'PipelineDecl':
      case 'Member':
        mentions.push(node);
        return;
      case 'Assign':
        writeTargets.add(node.target);
        return;
      default:
        return;
    }
  });
  const { lineIndex } = analysis;
  const occurrences: Occurrence[] = [];
  const byName = new Map<string, Occurrence[]>();
  // Each name's string once per file (the map's key): the index outlives the tree, and a name recurs.
  const add = (name: string, node: A.NodeBase, write: boolean, ref: LocalRef): void => {
    const list = byName.get(name);
    const o: Occurrence = { name, start: node.start, end: node.end, write, ref };
    if (list) {
      o.name = (list[0] as Occurrence).name;
      list.push(o);
    } else byName.set(name, [o]);
    occurrences.push(o);
  };
  const declarations: IndexedDeclaration[] = [];
  const declStarts = new Set<number>();
  const resolver = new ScopeResolver(scopes);
  const refs = new Refs();

  // Declarations: every binding of every scope. An imported name is a reference to the module's, not a declaration.
  const visitScope = (scope: Scope, topLevel: boolean): void => {
    for (const b of scope.bindings) {
      const { nameNode } = b;
      if (b.kind === 'import') {
        add(b.name, nameNode, false, refs.of(b));
        continue;
      }
      declStarts.add(nameNode.start);
      add(b.name, nameNode, true, refs.of(b));
      declarations.push({
        name: b.name,
        kind: b.kind,
        start: nameNode.start,
        scopeStart: scope.start,
        scopeEnd: scope.end,
        topLevel,
      });
    }
    for (const child of scope.children) visitScope(child, false);
  };
  visitScope(scopes.root, true);

  // References: identifiers, type names, `impl X for Y`, `extends`, namespace members.
  const reference = (name: A.Name | A.Identifier, write = false): void => {
    if (declStarts.has(name.start)) return;
    const text = name.kind === 'Name' ? name.text : name.name;
    if (text.length === 0) return;
    add(text, name, write, refs.of(resolver.resolve(text, name.start)));
  };
  for (const node of mentions) {
    switch (node.kind) {
      case 'Identifier':
        reference(node, writeTargets.has(node));
        break;
      case 'NamedType':
        reference(node.name);
        break;
      case 'ImplDecl':
        if (node.name) reference(node.name);
        if (node.traitName) reference(node.traitName);
        break;
      case 'PipelineDecl':
        if (node.extendsName) reference(node.extendsName);
        break;
      case 'Member': {
        // `ns.name` (or `ns.inner.name`) where `ns` is a namespace import: a reference to the module's `name`.
        if (!node.property) break;
        const via: string[] = [];
        let base: A.Expr = node.object;
        while (base.kind === 'Member' && base.property && via.length < MAX_NAMESPACE_CHAIN) {
          via.unshift(base.property.text);
          base = base.object;
        }
        if (base.kind !== 'Identifier') break;
        const namespace = resolver.resolve(base.name, base.start);
        if (namespace?.kind === 'namespace' && namespace.modulePath !== undefined) {
          const p = node.property;
          const ref: LocalRef = via.length > 0 ? { kind: 'imported', modulePath: namespace.modulePath, via } : refs.memberOf(namespace, namespace.modulePath);
          add(p.text, p, false, ref);
        }
        break;
      }
      default:
        break;
    }
  }

  const exports = new Map<string, Export>();
  for (const b of exportedBindings(analysis.file, scopes)) {
    if (exports.has(b.name)) continue;
    if (b.kind === 'import' && b.modulePath !== undefined) exports.set(b.name, { kind: 'reexported', modulePath: b.modulePath });
    else if (b.kind === 'namespace' && b.modulePath !== undefined)
      exports.set(b.name, { kind: 'declared', declStart: b.nameNode.start, namespaceOf: b.modulePath });
    else exports.set(b.name, { kind: 'declared', declStart: b.nameNode.start });
  }
  const wildcardImports: string[] = [];
  const pubWildcardImports: string[] = [];
  const importPaths: string[] = [];
  for (const decl of scopes.imports) {
    const modulePath = importModulePath(decl);
    if (modulePath !== undefined) importPaths.push(modulePath);
  }
  for (const decl of scopes.wildcardImports) {
    const modulePath = decl.path?.value;
    if (modulePath === undefined) continue;
    wildcardImports.push(modulePath);
    if (decl.isPub) pubWildcardImports.push(modulePath);
  }
  const symbols: IndexedSymbol[] = [];
  const addSymbols = (list: readonly OutlineSymbol[], container: string | undefined): void => {
    for (const s of list) {
      // Imports are other files' symbols; a local variable is not a workspace symbol.
      if (s.kind === 'import' || (container !== undefined && s.kind === 'variable')) continue;
      if (s.name.length > 0) {
        symbols.push({
          name: s.name,
          kind: s.kind,
          start: s.start,
          end: s.end,
          selectionStart: s.selectionStart,
          selectionEnd: s.selectionEnd,
          container,
        });
      }
      addSymbols(s.children, s.name || container);
    }
  };
  addSymbols(analysis.outline, undefined);
  return { file, lineIndex, occurrences, sorted: false, byName, declarations, symbols, exports, wildcardImports, pubWildcardImports, importPaths };
}

const FREE: LocalRef = { kind: 'free' };

/** One ref object per binding, shared by its occurrences (a file has many more occurrences than bindings). */
class Refs {
  private readonly ofBinding = new Map<Binding, LocalRef>();

  of(binding: Binding | undefined): LocalRef {
    if (!binding) return FREE;
    let ref = this.ofBinding.get(binding);
    if (!ref) {
      if (binding.kind === 'import') ref = binding.modulePath === undefined ? FREE : { kind: 'imported', modulePath: binding.modulePath };
      else ref = { kind: 'local', declStart: binding.nameNode.start };
      this.ofBinding.set(binding, ref);
    }
    return ref;
  }

  private readonly ofNamespace = new Map<Binding, LocalRef>();

  /** The ref of `ns.name`: a name of the module the namespace stands for. */
  memberOf(namespace: Binding, modulePath: string): LocalRef {
    let ref = this.ofNamespace.get(namespace);
    if (!ref) this.ofNamespace.set(namespace, (ref = { kind: 'imported', modulePath }));
    return ref;
  }
}

export function rangeOf(index: FileIndex, node: { start: number; end: number }): Range {
  return index.lineIndex.rangeOf(node.start, node.end);
}

/**
 * scope.ts's resolveName, for the many names of one file: each scope's bindings grouped by name once, and the scope
 * holding an offset found by binary search among its siblings (they are in source order). Held equal to resolveName
 * on every identifier of the corpus by a test.
 */
export class ScopeResolver {
  /** Bindings by name, for the scopes with many (a small scope is scanned: most blocks bind a handful). */
  private readonly byName = new Map<Scope, Map<string, Binding[]>>();
  /** The chain of the last lookup, reused (a file resolves thousands of names). */
  private readonly chain: Scope[] = [];

  constructor(private readonly scopes: FileScopes) {}

  resolve(name: string, offset: number): Binding | undefined {
    const chain = this.chain;
    let depth = 0;
    for (let scope: Scope | undefined = this.scopes.root; scope; scope = childAt(scope, offset)) chain[depth++] = scope;
    for (let i = depth - 1; i >= 0; i--) {
      const scope = chain[i] as Scope;
      const bindings = scope.bindings.length > SCANNED_SCOPE_SIZE ? this.bindingsOf(scope).get(name) : scope.bindings;
      if (!bindings) continue;
      // The latest visible binding wins (a later `let x` shadows an earlier one).
      for (let j = bindings.length - 1; j >= 0; j--) {
        const b = bindings[j] as Binding;
        if (b.name === name && b.visibleFrom <= offset) return b;
      }
    }
    return undefined;
  }

  private bindingsOf(scope: Scope): Map<string, Binding[]> {
    let map = this.byName.get(scope);
    if (map) return map;
    map = new Map();
    for (const b of scope.bindings) {
      const list = map.get(b.name);
      if (list) list.push(b);
      else map.set(b.name, [b]);
    }
    this.byName.set(scope, map);
    return map;
  }
}

/** Scopes with at most this many bindings are scanned rather than indexed by name. */
const SCANNED_SCOPE_SIZE = 8;

/** The first child scope containing `offset` (ends inclusive), as scopeChainAt picks it. */
function childAt(scope: Scope, offset: number): Scope | undefined {
  const children = scope.children;
  let low = 0;
  let high = children.length - 1;
  let last = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((children[mid] as Scope).start <= offset) {
      last = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  // Siblings may touch (one ends where the next starts): the earlier one wins, as in a scan from the first.
  for (let i = Math.max(0, last - 1); i <= last; i++) {
    const c = children[i] as Scope;
    if (c.start <= offset && offset <= c.end) return c;
  }
  return undefined;
}

/** The occurrence at `offset` (a cursor right after a name counts), if any. */
export function occurrenceAt(index: FileIndex, offset: number): Occurrence | undefined {
  // Sorted on the first question (most files are never asked one).
  if (!index.sorted) {
    index.occurrences.sort((a, b) => a.start - b.start);
    index.sorted = true;
  }
  const list = index.occurrences;
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const o = list[mid];
    if (!o) break;
    if (o.end < offset) low = mid + 1;
    else if (o.start > offset) high = mid - 1;
    else {
      // Between two names (`a+b` has none, but `a.b` ends one where the next starts): prefer the one starting here.
      const next = list[mid + 1];
      return o.end === offset && next && next.start === offset ? next : o;
    }
  }
  return undefined;
}
