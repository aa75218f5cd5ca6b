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
  addStatements(file.statements, root, { scopes, visit, topLevel: true, openUntil: file.end });
  return scopes;
}

/**
 * What a top-level statement adds below the file's root scope: the scopes it opens and the imports nested in it,
 * as built when the statement started at `start`. HarnAnalysis.edited reuses unchanged statements (shifted in
 * place), so their scopes are shifted too instead of rebuilt; a visitor needs the whole walk, so it always rebuilds.
 */
interface StatementScopes {
  start: number;
  /** How far past its start a body of it missing its `}` was allowed to reach (Build.openUntil): reused only for the same reach. */
  reach: number;
  children: Scope[];
  imports: A.ImportDecl[];
  wildcardImports: A.ImportDecl[];
}

const statementScopes = new WeakMap<A.Stmt, StatementScopes>();

/** The scopes under a top-level statement: reused when it was seen before (shifted to where it is now), else built. */
function addTopLevelNested(stmt: A.Stmt, root: Scope, file: Build): void {
  const cached = file.visit ? undefined : statementScopes.get(stmt);
  const known = cached && cached.reach === file.openUntil - stmt.start ? cached : undefined;
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
    reach: file.openUntil - stmt.start,
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
  /** How far a scope whose block is missing its `}` reaches: up to the next statement of an enclosing block, or the end of the file. */
  openUntil: number;
  /** The starts of every node that may open a scope (see ScopeStarts): a statement holding none is not walked. */
  scopeStarts?: ScopeStarts;
}

/**
 * The sorted starts of every node of a file that may open a scope, asked whether a stretch holds one. The walk asks
 * in source order, so a look-up starts where the last one ended, mostly right there; else it searches what lies
 * ahead (or, for an earlier stretch, the whole list) by halves.
 */
export class ScopeStarts {
  private next = 0;

  constructor(private readonly sorted: readonly number[]) {}

  /** Whether one of the starts is in [start, end]. */
  holds(start: number, end: number): boolean {
    const sorted = this.sorted;
    let i = this.next;
    if (i > 0 && (sorted[i - 1] as number) >= start) i = firstAtOrAfter(sorted, start, 0);
    else if (i < sorted.length && (sorted[i] as number) < start) i = firstAtOrAfter(sorted, start, i + 1);
    this.next = i;
    return i < sorted.length && (sorted[i] as number) <= end;
  }
}

/** The index of the first offset of a sorted list at or after `start` (its length if none), known to be `from` or later. */
function firstAtOrAfter(sorted: readonly number[], start: number, from: number): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] as number) < start) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The nodes under `node`'s fields other than `handled` (the ones the scope builder walks itself), to `visit`. */
function visitOthers(node: A.AnyNode, handled: readonly string[], visit: NodeVisitor | undefined): void {
  if (!visit) return;
  const from = pending.length;
  A.forEachChild(node, pushPending, handled);
  // Each child walked in turn, in source order (each walk works above them and leaves them as they are).
  const to = pending.length;
  for (let i = from; i < to; i++) walkPending(pending[i] as A.AnyNode, visit);
  if (pending.length !== from) pending.length = from;
}

/**
 * The nodes still to walk, for every walk of the builder: a walk started inside another (a scope's body inside an
 * expression) works above it and leaves it as it found it. One stack, not one (and a closure) per walk: a file
 * has a walk per statement.
 */
const pending: A.AnyNode[] = [];
const pushPending = (child: A.AnyNode): void => {
  pending.push(child);
};

/**
 * The children A.forEachChild finds, for the commonest kinds read field by field, pushed last to first (the first
 * child is popped next): its `for…in` over a node's fields, for every node, cost more than the rest of the builder.
 * False for the other kinds (none of these opens a scope: a Block does, and is left to addScopeOf).
 */
function pushChildrenReversed(node: A.AnyNode): boolean {
  switch (node.kind) {
    case 'Identifier':
    case 'Name':
    case 'Int':
    case 'Nil':
    case 'Bool':
      return true;
    case 'Argument':
      pushDefined(node.value);
      pushDefined(node.name);
      return true;
    case 'Call':
      pushReversed(node.args);
      pushReversed(node.typeArgs);
      pushDefined(node.callee);
      return true;
    case 'String': {
      // Text parts are not nodes; a hole stands for its expression.
      const parts = node.parts;
      for (let i = parts.length - 1; i >= 0; i--) {
        const part = parts[i] as (typeof parts)[number];
        if (part.kind === 'Hole' && part.expr) pending.push(part.expr);
      }
      return true;
    }
    case 'ExprStmt':
      pushDefined(node.expr);
      return true;
    case 'DictEntry':
      pushDefined(node.value);
      pushDefined(node.key);
      return true;
    case 'Member':
      pushDefined(node.property);
      pushDefined(node.object);
      return true;
    case 'Binary':
      pushDefined(node.right);
      pushDefined(node.left);
      return true;
    case 'LetDecl':
      pushDefined(node.init);
      pushDefined(node.type);
      pushDefined(node.pattern);
      return true;
    case 'Dict':
      pushReversed(node.entries);
      return true;
    case 'Param':
      pushDefined(node.defaultValue);
      pushDefined(node.type);
      pushDefined(node.name);
      return true;
    case 'NamedType':
      pushReversed(node.args);
      pushDefined(node.name);
      return true;
    case 'Return':
      pushDefined(node.value);
      return true;
    case 'List':
      pushReversed(node.elements);
      return true;
    case 'If':
      pushDefined(node.otherwise);
      pushDefined(node.then);
      pushDefined(node.condition);
      return true;
    case 'Index':
      pushDefined(node.index);
      pushDefined(node.object);
      return true;
    case 'Assign':
      pushDefined(node.value);
      pushDefined(node.target);
      return true;
    default:
      return false;
  }
}

/** Any node's children (A.forEachChild's), pushed last to first. */
function pushAllChildrenReversed(node: A.AnyNode): void {
  const from = pending.length;
  A.forEachChild(node, pushPending);
  for (let low = from, high = pending.length - 1; low < high; low++, high--) {
    const first = pending[low] as A.AnyNode;
    pending[low] = pending[high] as A.AnyNode;
    pending[high] = first;
  }
}

function pushDefined(node: A.AnyNode | undefined): void {
  if (node) pending.push(node);
}

function pushReversed(nodes: readonly A.AnyNode[]): void {
  for (let i = nodes.length - 1; i >= 0; i--) pending.push(nodes[i] as A.AnyNode);
}

/** A.walk's order (a parent, then its children in source order) over the shared stack, every node to `visit`. */
function walkPending(root: A.AnyNode, visit: NodeVisitor): void {
  const base = pending.length;
  pending.push(root);
  try {
    while (pending.length > base) {
      const node = pending.pop() as A.AnyNode;
      visit(node);
      if (!pushChildrenReversed(node)) pushAllChildrenReversed(node);
    }
  } finally {
    if (pending.length !== base) pending.length = base;
  }
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
  const scopeStarts = file.scopeStarts;
  if (scopeStarts && !file.topLevel) {
    // Given only for a file read without a diagnostic, where every block is closed: no scope reaches past its `}`,
    // so openUntil is not needed.
    for (let i = 0; i < statements.length; i++) {
      const stmt = statements[i] as A.Stmt;
      addBindingsOf(stmt, scope, file.scopes);
      if (scopeStarts.holds(stmt.start, stmt.end)) addNested(stmt, scope, file);
    }
    return;
  }
  const enclosingUntil = file.openUntil;
  for (let i = 0; i < statements.length; i++) {
    const stmt = statements[i] as A.Stmt;
    const next = statements[i + 1];
    file.openUntil = next ? Math.max(stmt.end, next.start - 1) : enclosingUntil;
    addBindingsOf(stmt, scope, file.scopes);
    if (file.topLevel) addTopLevelNested(stmt, scope, file);
    else addNested(stmt, scope, file);
  }
  file.openUntil = enclosingUntil;
}

/**
 * One top-level statement's part of buildScopes, but for its own bindings (addTopLevelBindings): the scopes it
 * opens in `into.root.children`, their bindings, the imports inside it, every node of it to `visit`. The workspace
 * index builds a file's scopes statement by statement (and only the edited one again).
 */
export function addStatementScopes(stmt: A.Stmt, into: FileScopes, visit?: NodeVisitor): void {
  // A body missing its `}` reaches no further than the statement here: only names are looked up in the index's
  // scopes, and none lies in the blank after a statement.
  addNested(stmt, into.root, { scopes: into, visit, topLevel: false, openUntil: stmt.end });
}

/**
 * addStatementScopes without a visitor, given the sorted starts of every node of the file that may open a scope
 * (a block, a function, a closure, a declaration with parameters: the parser's ParsedNames.scopeStarts): the
 * statements (at any depth) holding none of them open no scope and are not walked.
 */
export function addStatementScopesSkipping(stmt: A.Stmt, into: FileScopes, scopeStarts: ScopeStarts): void {
  if (!scopeStarts.holds(stmt.start, stmt.end)) return;
  addNested(stmt, into.root, { scopes: into, visit: undefined, topLevel: false, openUntil: stmt.end, scopeStarts });
}

/** The bindings a top-level statement adds to the root scope (and its imports), without walking inside it. */
export function addTopLevelBindings(stmt: A.Stmt, into: FileScopes): void {
  addBindingsOf(stmt, into.root, into);
}

/** The bindings a statement adds to its block's scope (declarations, `let`, imports). */
function addBindingsOf(stmt: A.Stmt, scope: Scope, scopes: FileScopes): void {
  switch (stmt.kind) {
    case 'FnDecl':
    case 'PipelineDecl':
    case 'ToolDecl':
    case 'SkillDecl':
    case 'EvalPackDecl':
    case 'StructDecl':
    case 'EnumDecl':
    case 'TypeAliasDecl':
    case 'InterfaceDecl': {
      const name = stmt.name;
      // Declarations are visible in their whole block (functions may call ones declared later).
      if (name)
        scope.bindings.push({
          name: name.text,
          kind: DECLARATION_KINDS[stmt.kind] as BindingKind,
          nameNode: name,
          declaration: stmt,
          visibleFrom: scope.start,
        });
      return;
    }
    case 'LetDecl': {
      const kindOfLet: BindingKind = stmt.keyword === 'var' ? 'variable' : 'constant';
      const pattern = stmt.pattern;
      // Most bind one name: no list made for it.
      if (pattern?.kind === 'Name') scope.bindings.push({ name: pattern.text, kind: kindOfLet, nameNode: pattern, declaration: stmt, visibleFrom: stmt.end });
      else {
        for (const name of boundNames(pattern)) {
          scope.bindings.push({ name: name.text, kind: kindOfLet, nameNode: name, declaration: stmt, visibleFrom: stmt.end });
        }
      }
      return;
    }
    case 'ImportDecl':
      addImportBindings(stmt, scope, scopes);
      return;
    default:
      return;
  }
}

/** An import's names (or its namespace) in its block's scope, and the import among the file's. */
function addImportBindings(stmt: A.ImportDecl, scope: Scope, scopes: FileScopes): void {
  scopes.imports.push(stmt);
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
    scopes.wildcardImports.push(stmt);
  }
}

/** The module path of an import: its string, or for `import std::agent::{a}` the segments joined by `/` ("std/agent"), as upstream lowers it. */
export function importModulePath(decl: A.ImportDecl): string | undefined {
  return decl.path?.value ?? decl.scopedPath?.map((n) => n.text).join('/');
}

/**
 * The scope of a body, block or closure. Lookups count both ends in (a cursor right after a name is on it), so a
 * closed body's scope ends before its `}`: the cursor after `}` is outside. A body missing its `}` (a file being
 * typed: `fn f(x) {⏎  return |`) reaches over the blank after its last token, up to what follows it.
 */
function child(scope: Scope, node: A.AnyNode, file: Build): Scope {
  const block = node.kind === 'Block' ? node : 'body' in node && node.body?.kind === 'Block' ? node.body : undefined;
  let end = node.end;
  if (block?.closed === false) end = Math.max(end, file.openUntil);
  else if (block && block.end === node.end && node.end > node.start) end = node.end - 1;
  const created: Scope = { start: node.start, end, bindings: [], children: [] };
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
 * scope are walked as A.walk walks them (an explicit stack: an expression chain nests as deep as it is long); recursion
 * happens only into the scopes, which the parser's nesting limit bounds.
 */
function addNested(root: A.AnyNode, scope: Scope, file: Build): void {
  const visit = file.visit;
  const scopeStarts = file.scopeStarts;
  const base = pending.length;
  pending.push(root);
  try {
    while (pending.length > base) {
      const node = pending.pop() as A.AnyNode;
      visit?.(node);
      // Nothing under a node holding no scope start opens a scope (the caller checked the root).
      if (scopeStarts && node !== root && !scopeStarts.holds(node.start, node.end)) continue;
      if (!pushChildrenReversed(node) && !addScopeOf(node, scope, file)) pushAllChildrenReversed(node);
    }
  } finally {
    if (pending.length !== base) pending.length = base;
  }
}

/** The scope a node opens, with its bindings; false for a node that opens none (its children are walked). */
function addScopeOf(node: A.AnyNode, scope: Scope, file: Build): boolean {
  switch (node.kind) {
    case 'FnDecl':
    case 'PipelineDecl':
    case 'ToolDecl':
    case 'OverrideDecl':
    case 'FnExpr': {
      const inner = child(scope, node, file);
      visitOthers(node, ['params', 'body'], file.visit);
      visitParams(node.params, file.visit);
      visitBlock(node.body, file);
      addParams(node.params, inner);
      for (const p of node.params) if (p.defaultValue) addNested(p.defaultValue, inner, file);
      if (node.body) addStatements(node.body.statements, inner, file);
      return true;
    }
    case 'Closure': {
      const inner = child(scope, node, file);
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
      addStatements(node.statements, child(scope, node, file), file);
      return true;
    case 'For': {
      visitOthers(node, ['iterable', 'body'], file.visit);
      visitBlock(node.body, file);
      if (node.iterable) addNested(node.iterable, scope, file);
      if (!node.body) return true;
      const inner = child(scope, node.body, file);
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
        const inner = child(scope, node.catchBody, file);
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
      const inner = child(scope, node.body, file);
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
      const inner = child(scope, node.body, file);
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
  void file;
  // One pass (the workspace index asks for every file): the `pub` ones, and the declared ones in case none is.
  const pub: Binding[] = [];
  const declared: Binding[] = [];
  for (const b of scopes.root.bindings) {
    const imported = b.kind === 'import' || b.kind === 'namespace';
    if (!imported) declared.push(b);
    if (imported && !isPubImport(b)) continue;
    const d = b.declaration;
    if ('isPub' in d && d.isPub === true) pub.push(b);
  }
  return pub.length > 0 ? pub : declared;
}

function isPubImport(b: Binding): boolean {
  return b.declaration.kind === 'ImportDecl' && b.declaration.isPub;
}
