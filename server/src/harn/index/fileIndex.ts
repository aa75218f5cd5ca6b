// What one `.harn` file contributes to the workspace index: every name it mentions (each occurrence with what it
// refers to as far as the file alone can tell), the names it exports, the modules it imports and its declarations.
// Pure: an analysis in, plain data out. A broken file contributes what its partial AST holds.

import { HarnAnalysis } from '../analysis';
import * as A from '../ast';
import { Range } from '../../text/lineIndex';
import { OutlineKind, OutlineSymbol } from '../outline';
import { Binding, BindingKind, exportedBindings, importModulePath, resolveName, Scope } from '../scope';

/**
 * What an occurrence refers to, seen from its file: a binding declared in it (by the binding's name offset), a name
 * exported by an imported module (`import { a }`, `ns.a`), or a name not declared here (a wildcard import's, or a
 * builtin).
 */
export type LocalRef = { kind: 'local'; declStart: number } | { kind: 'imported'; modulePath: string } | { kind: 'free' };

export interface Occurrence {
  name: string;
  start: number;
  end: number;
  range: Range;
  /** A declaration or an assignment target (documentHighlight's write kind). */
  write: boolean;
  ref: LocalRef;
}

/** A binding declared in the file, for the scope checks of rename and for workspace symbols. */
export interface IndexedDeclaration {
  name: string;
  kind: BindingKind;
  start: number;
  range: Range;
  /** The whole declaration, for a symbol's location. */
  fullRange: Range;
  /** The extent of the scope it is declared in; top-level ones are visible from other files. */
  scopeStart: number;
  scopeEnd: number;
  topLevel: boolean;
}

/** A declaration as workspace symbols list it (from the outline: methods, fields and variants too). */
export interface IndexedSymbol {
  name: string;
  kind: OutlineKind;
  range: Range;
  selectionRange: Range;
  container: string | undefined;
}

/** An exported name: declared here (at `declStart`), or re-exported from a module (`pub import { a } from "…"`). */
export type Export = { kind: 'declared'; declStart: number } | { kind: 'reexported'; modulePath: string };

export interface FileIndex {
  file: string;
  occurrences: Occurrence[];
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
  const { scopes, lineIndex } = analysis;
  const occurrences: Occurrence[] = [];
  const declarations: IndexedDeclaration[] = [];
  const declStarts = new Set<number>();

  // Declarations: every binding of every scope. An imported name is a reference to the module's, not a declaration.
  const visitScope = (scope: Scope, topLevel: boolean): void => {
    for (const b of scope.bindings) {
      const { nameNode } = b;
      if (b.kind === 'import') {
        occurrences.push(occurrence(b.name, nameNode, lineIndex.rangeOf(nameNode.start, nameNode.end), false, importedRef(b)));
        continue;
      }
      declStarts.add(nameNode.start);
      const range = lineIndex.rangeOf(nameNode.start, nameNode.end);
      occurrences.push(occurrence(b.name, nameNode, range, true, { kind: 'local', declStart: nameNode.start }));
      declarations.push({
        name: b.name,
        kind: b.kind,
        start: nameNode.start,
        range,
        fullRange: lineIndex.rangeOf(b.declaration.start, b.declaration.end),
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
    const binding = resolveName(scopes, text, name.start);
    occurrences.push(occurrence(text, name, lineIndex.rangeOf(name.start, name.end), write, refOf(binding)));
  };
  const writeTargets = new Set<A.AnyNode>();
  A.walk(analysis.file, (node) => {
    switch (node.kind) {
      case 'Identifier':
        reference(node, writeTargets.has(node));
        return;
      case 'NamedType':
        reference(node.name);
        return;
      case 'ImplDecl':
        if (node.name) reference(node.name);
        if (node.traitName) reference(node.traitName);
        return;
      case 'PipelineDecl':
        if (node.extendsName) reference(node.extendsName);
        return;
      case 'Assign':
        writeTargets.add(node.target);
        return;
      case 'Member': {
        // `ns.name` where `ns` is a namespace import: a reference to the module's `name`.
        if (!node.property || node.object.kind !== 'Identifier') return;
        const namespace = resolveName(scopes, node.object.name, node.object.start);
        if (namespace?.kind === 'namespace' && namespace.modulePath !== undefined) {
          const p = node.property;
          occurrences.push(occurrence(p.text, p, lineIndex.rangeOf(p.start, p.end), false, { kind: 'imported', modulePath: namespace.modulePath }));
        }
        return;
      }
      default:
        return;
    }
  });

  occurrences.sort((a, b) => a.start - b.start);
  const byName = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    const list = byName.get(o.name);
    if (list) list.push(o);
    else byName.set(o.name, [o]);
  }

  const exports = new Map<string, Export>();
  for (const b of exportedBindings(analysis.file, scopes)) {
    if (exports.has(b.name)) continue;
    if (b.kind === 'import' && b.modulePath !== undefined) exports.set(b.name, { kind: 'reexported', modulePath: b.modulePath });
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
          range: lineIndex.rangeOf(s.start, s.end),
          selectionRange: lineIndex.rangeOf(s.selectionStart, s.selectionEnd),
          container,
        });
      }
      addSymbols(s.children, s.name || container);
    }
  };
  addSymbols(analysis.outline, undefined);
  return { file, occurrences, byName, declarations, symbols, exports, wildcardImports, pubWildcardImports, importPaths };
}

function occurrence(name: string, node: A.NodeBase, range: Range, write: boolean, ref: LocalRef): Occurrence {
  return { name, start: node.start, end: node.end, range, write, ref };
}

function importedRef(b: Binding): LocalRef {
  return b.modulePath === undefined ? { kind: 'free' } : { kind: 'imported', modulePath: b.modulePath };
}

function refOf(binding: Binding | undefined): LocalRef {
  if (!binding) return { kind: 'free' };
  if (binding.kind === 'import') return importedRef(binding);
  return { kind: 'local', declStart: binding.nameNode.start };
}

/** The occurrence at `offset` (a cursor right after a name counts), if any. */
export function occurrenceAt(index: FileIndex, offset: number): Occurrence | undefined {
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
