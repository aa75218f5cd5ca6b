// Name binding for one Harn file: which declaration a name refers to at an offset, and which names are
// visible there. Declarations (fn, struct, …) are visible in their whole block; `let`/`var`/`const`
// bindings from the end of their declaration on; parameters and loop variables in their body.

import * as A from './ast';
import { boundNames } from './outline';

export type BindingKind =
  | 'function'
  | 'pipeline'
  | 'tool'
  | 'skill'
  | 'evalPack'
  | 'struct'
  | 'enum'
  | 'type'
  | 'interface'
  | 'variable'
  | 'constant'
  | 'parameter'
  | 'import'
  | 'namespace';

export interface Binding {
  name: string;
  kind: BindingKind;
  /** The name token in its declaration. */
  nameNode: A.Name;
  /** The declaring node (declaration, LetDecl, Param, ImportDecl, ForStmt, …). */
  declaration: A.AnyNode;
  /** Offset from which the binding is visible within its scope. */
  visibleFrom: number;
  /** For imported names and namespaces: the module path string. */
  modulePath?: string;
}

export interface Scope {
  start: number;
  end: number;
  bindings: Binding[];
  children: Scope[];
}

export interface FileScopes {
  root: Scope;
  /** `import "path"` statements: everything exported by these modules is visible in the file (not `import * as ns`). */
  wildcardImports: A.ImportDecl[];
  /** All imports, for document links and cross-file lookups. */
  imports: A.ImportDecl[];
}

const DECLARATION_KINDS: Partial<Record<A.Stmt['kind'], BindingKind>> = {
  FnDecl: 'function',
  PipelineDecl: 'pipeline',
  ToolDecl: 'tool',
  SkillDecl: 'skill',
  EvalPackDecl: 'evalPack',
  StructDecl: 'struct',
  EnumDecl: 'enum',
  TypeAliasDecl: 'type',
  InterfaceDecl: 'interface',
};

/** Called once for every node of the tree while the scopes are built (one pass for the workspace index). */
export type NodeVisitor = (node: A.AnyNode) => void;

/**
 * The file's scopes. With `visit`, every node of the tree is also handed to it exactly once, parents before their
 * children, during the same pass (the bindings of a scope are complete only once buildScopes returns).
 */
export function buildScopes(file: A.SourceFile, visit?: NodeVisitor): FileScopes {
  const root: Scope = { start: file.start, end: file.end, bindings: [], children: [] };
  const scopes: FileScopes = { root, wildcardImports: [], imports: [] };
  visit?.(file);
  addStatements(file.statements, root, { scopes, visit, topLevel: true });
  return scopes;
}

/**
 * What a top-level statement adds below the file's root scope: the scopes it opens and the imports nested in it,
 * as built when the statement started at `start`. HarnAnalysis.edited reuses unchanged statements (shifted in
 * place), so their scopes are shifted too instead of rebuilt; a visitor needs the whole walk, so it always rebuilds.
 */
interface StatementScopes {
  start: number;
  children: Scope[];
  imports: A.ImportDecl[];
  wildcardImports: A.ImportDecl[];
}

const statementScopes = new WeakMap<A.Stmt, StatementScopes>();

/** The scopes under a top-level statement: reused when it was seen before (shifted to where it is now), else built. */
function addTopLevelNested(stmt: A.Stmt, root: Scope, file: Build): void {
  const known = file.visit ? undefined : statementScopes.get(stmt);
  if (known) {
    const delta = stmt.start - known.start;
    if (delta !== 0) {
      for (const scope of known.children) shiftScope(scope, delta);
      known.start = stmt.start;
    }
    for (const scope of known.children) root.children.push(scope);
    for (const i of known.imports) file.scopes.imports.push(i);
    for (const i of known.wildcardImports) file.scopes.wildcardImports.push(i);
    return;
  }
  const children = root.children.length;
  const imports = file.scopes.imports.length;
  const wildcardImports = file.scopes.wildcardImports.length;
  addNested(stmt, root, { ...file, topLevel: false });
  statementScopes.set(stmt, {
    start: stmt.start,
    children: root.children.slice(children),
    imports: file.scopes.imports.slice(imports),
    wildcardImports: file.scopes.wildcardImports.slice(wildcardImports),
  });
}

function shiftScope(scope: Scope, delta: number): void {
  const stack = [scope];
  for (let s = stack.pop(); s !== undefined; s = stack.pop()) {
    s.start += delta;
    s.end += delta;
    for (const b of s.bindings) b.visibleFrom += delta;
    for (const c of s.children) stack.push(c);
  }
}

/** What the builder carries down: the scopes being built and the visitor, if any. */
interface Build {
  scopes: FileScopes;
  visit: NodeVisitor | undefined;
  /** Whether the statements being added are the file's own (see addTopLevelNested). */
  topLevel: boolean;
}

/** The nodes under `node`'s fields other than `handled` (the ones the scope builder walks itself), to `visit`. */
function visitOthers(node: A.AnyNode, handled: readonly string[], visit: NodeVisitor | undefined): void {
  if (!visit) return;
  const walkVisiting = (child: A.AnyNode): void => A.walk(child, (n) => void visit(n));
  A.forEachChild(node, walkVisiting, handled);
}

/** A body block: the node itself to `visit` (its statements are walked by addStatements). */
function visitBlock(block: A.Block | undefined, file: Build): void {
  if (block) file.visit?.(block);
}

/** Parameters to `visit`, but for their default values (walked by addNested). */
function visitParams(params: readonly A.Param[], visit: NodeVisitor | undefined): void {
  if (!visit) return;
  for (const p of params) {
    visit(p);
    visitOthers(p, ['defaultValue'], visit);
  }
}

function addStatements(statements: A.Stmt[], scope: Scope, file: Build): void {
  for (const stmt of statements) {
    const kind = DECLARATION_KINDS[stmt.kind];
    if (kind && 'name' in stmt && stmt.name && typeof stmt.name === 'object') {
      // Declarations are visible in their whole block (functions may call ones declared later).
      scope.bindings.push({ name: stmt.name.text, kind, nameNode: stmt.name, declaration: stmt, visibleFrom: scope.start });
    }
    if (stmt.kind === 'LetDecl') {
      const kindOfLet: BindingKind = stmt.keyword === 'var' ? 'variable' : 'constant';
      for (const name of boundNames(stmt.pattern)) {
        scope.bindings.push({ name: name.text, kind: kindOfLet, nameNode: name, declaration: stmt, visibleFrom: stmt.end });
      }
    }
    if (stmt.kind === 'ImportDecl') {
      file.scopes.imports.push(stmt);
      if (stmt.namespace) {
        // `import * as ui from "…"` binds one name: the module's exports are reached through it.
        scope.bindings.push({
          name: stmt.namespace.text,
          kind: 'namespace',
          nameNode: stmt.namespace,
          declaration: stmt,
          visibleFrom: scope.start,
          modulePath: stmt.path?.value,
        });
      } else if (stmt.names) {
        for (const name of stmt.names) {
          scope.bindings.push({
            name: name.text,
            kind: 'import',
            nameNode: name,
            declaration: stmt,
            visibleFrom: scope.start,
            modulePath: importModulePath(stmt),
          });
        }
      } else {
        file.scopes.wildcardImports.push(stmt);
      }
    }
    if (file.topLevel) addTopLevelNested(stmt, scope, file);
    else addNested(stmt, scope, file);
  }
}

/** The module path of an import: its string, or for `import std::agent::{a}` the segments joined by `/` ("std/agent"), as upstream lowers it. */
export function importModulePath(decl: A.ImportDecl): string | undefined {
  return decl.path?.value ?? decl.scopedPath?.map((n) => n.text).join('/');
}

function child(scope: Scope, node: A.NodeBase): Scope {
  const created: Scope = { start: node.start, end: node.end, bindings: [], children: [] };
  scope.children.push(created);
  return created;
}

function addParams(params: A.Param[], scope: Scope): void {
  for (const p of params) {
    scope.bindings.push({ name: p.name.text, kind: 'parameter', nameNode: p.name, declaration: p, visibleFrom: scope.start });
  }
}

/**
 * Walks a node for the scopes it opens (bodies, blocks, closures) and the bindings they hold. Nodes that open no
 * scope are walked by A.walk (an explicit stack: an expression chain nests as deep as it is long); recursion
 * happens only into the scopes, which the parser's nesting limit bounds.
 */
function addNested(root: A.AnyNode, scope: Scope, file: Build): void {
  const visit = file.visit;
  A.walk(root, (node) => {
    visit?.(node);
    return !addScopeOf(node, scope, file);
  });
}

/** The scope a node opens, with its bindings; false for a node that opens none (its children are walked). */
function addScopeOf(node: A.AnyNode, scope: Scope, file: Build): boolean {
  switch (node.kind) {
    case 'FnDecl':
    case 'PipelineDecl':
    case 'ToolDecl':
    case 'OverrideDecl':
    case 'FnExpr': {
      const inner = child(scope, node);
      visitOthers(node, ['params', 'body'], file.visit);
      visitParams(node.params, file.visit);
      visitBlock(node.body, file);
      addParams(node.params, inner);
      for (const p of node.params) if (p.defaultValue) addNested(p.defaultValue, inner, file);
      if (node.body) addStatements(node.body.statements, inner, file);
      return true;
    }
    case 'Closure': {
      const inner = child(scope, node);
      // A closure's parameter defaults open no scope here: walked for the visitor only.
      visitOthers(node, ['body'], file.visit);
      visitBlock(node.body, file);
      addParams(node.params, inner);
      addStatements(node.body.statements, inner, file);
      return true;
    }
    case 'ImplDecl':
    case 'InterfaceDecl':
      visitOthers(node, ['methods'], file.visit);
      for (const method of node.methods) addNested(method, scope, file);
      return true;
    case 'Block':
      addStatements(node.statements, child(scope, node), file);
      return true;
    case 'For': {
      visitOthers(node, ['iterable', 'body'], file.visit);
      visitBlock(node.body, file);
      if (node.iterable) addNested(node.iterable, scope, file);
      if (!node.body) return true;
      const inner = child(scope, node.body);
      for (const name of boundNames(node.pattern)) {
        inner.bindings.push({ name: name.text, kind: 'variable', nameNode: name, declaration: node, visibleFrom: inner.start });
      }
      addStatements(node.body.statements, inner, file);
      return true;
    }
    case 'Try': {
      visitOthers(node, ['body', 'starOperand', 'catchBody', 'finallyBody'], file.visit);
      visitBlock(node.catchBody, file);
      if (node.body) addNested(node.body, scope, file);
      if (node.starOperand) addNested(node.starOperand, scope, file);
      if (node.catchBody) {
        const inner = child(scope, node.catchBody);
        if (node.catchName) {
          inner.bindings.push({ name: node.catchName.text, kind: 'variable', nameNode: node.catchName, declaration: node, visibleFrom: inner.start });
        }
        addStatements(node.catchBody.statements, inner, file);
      }
      if (node.finallyBody) addNested(node.finallyBody, scope, file);
      return true;
    }
    case 'Parallel': {
      visitOthers(node, ['subject', 'options', 'body'], file.visit);
      visitBlock(node.body, file);
      if (node.subject) addNested(node.subject, scope, file);
      if (node.options) addNested(node.options, scope, file);
      if (!node.body) return true;
      const inner = child(scope, node.body);
      for (const name of node.binding) {
        inner.bindings.push({ name: name.text, kind: 'variable', nameNode: name, declaration: node, visibleFrom: inner.start });
      }
      addStatements(node.body.statements, inner, file);
      return true;
    }
    case 'SelectCase': {
      visitOthers(node, ['expr', 'body'], file.visit);
      visitBlock(node.body, file);
      if (node.expr) addNested(node.expr, scope, file);
      if (!node.body) return true;
      const inner = child(scope, node.body);
      if (node.name) inner.bindings.push({ name: node.name.text, kind: 'variable', nameNode: node.name, declaration: node, visibleFrom: inner.start });
      addStatements(node.body.statements, inner, file);
      return true;
    }
    default:
      return false;
  }
}

/** Scopes containing `offset`, innermost first. */
export function scopeChainAt(scopes: FileScopes, offset: number): Scope[] {
  const chain: Scope[] = [];
  let current: Scope | undefined = scopes.root;
  while (current) {
    chain.unshift(current);
    let next: Scope | undefined;
    for (const c of current.children) {
      if (c.start <= offset && offset <= c.end) {
        next = c;
        break;
      }
    }
    current = next;
  }
  return chain;
}

/** The binding `name` refers to at `offset`, if it is declared in this file. */
export function resolveName(scopes: FileScopes, name: string, offset: number): Binding | undefined {
  for (const scope of scopeChainAt(scopes, offset)) {
    let found: Binding | undefined;
    for (const b of scope.bindings) {
      // The latest visible binding wins (a later `let x` shadows an earlier one).
      if (b.name === name && b.visibleFrom <= offset) found = b;
    }
    if (found) return found;
  }
  return undefined;
}

/** Every binding visible at `offset`, innermost first, without shadowed duplicates. */
export function visibleBindings(scopes: FileScopes, offset: number): Binding[] {
  const seen = new Set<string>();
  const out: Binding[] = [];
  for (const scope of scopeChainAt(scopes, offset)) {
    for (let i = scope.bindings.length - 1; i >= 0; i--) {
      const b = scope.bindings[i];
      if (!b || b.visibleFrom > offset || seen.has(b.name)) continue;
      seen.add(b.name);
      out.push(b);
    }
  }
  return out;
}

/**
 * Top-level declarations another file can import: `pub` ones, or all of them when none is marked `pub`.
 * Imported names and namespaces are exported only by a `pub import`.
 */
export function exportedBindings(file: A.SourceFile, scopes: FileScopes): Binding[] {
  const imported = (b: Binding): boolean => b.kind === 'import' || b.kind === 'namespace';
  const top = scopes.root.bindings.filter((b) => !imported(b) || isPubImport(b));
  const isPub = (b: Binding): boolean => {
    const d = b.declaration;
    return 'isPub' in d && d.isPub === true;
  };
  const pub = top.filter(isPub);
  void file;
  return pub.length > 0 ? pub : top.filter((b) => !imported(b));
}

function isPubImport(b: Binding): boolean {
  return b.declaration.kind === 'ImportDecl' && b.declaration.isPub;
}
