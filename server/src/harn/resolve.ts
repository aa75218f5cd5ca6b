// What the name under the cursor refers to: a declaration in this file, one exported by an imported
// file (followed through `pub import` re-exports), a member of a namespace import, a builtin, or a keyword.

import { HarnAnalysis, isWord } from './analysis';
import * as A from './ast';
import { Builtin, BUILTINS } from './builtins';
import { Binding, exportedBindings, importModulePath, resolveName } from './scope';
import { TokenKind } from './tokens';

/** Loads the files a document imports. Implemented over open documents and the disk by the server and CLI. */
export interface ModuleHost {
  /** The file an import path refers to, seen from `fromFile`, or undefined when it cannot be found. */
  resolveImport(fromFile: string, importPath: string): string | undefined;
  /** The analysis of a file (from an open editor when it is open, else from disk). */
  load(file: string): HarnAnalysis | undefined;
  /** Why an import path that resolveImport leaves unresolved was refused (the file exists), if it was. */
  refusedImport?(fromFile: string, importPath: string): { file: string; reason: string } | undefined;
}

export interface LocatedBinding {
  file: string;
  analysis: HarnAnalysis;
  binding: Binding;
}

export type Target =
  | { kind: 'binding'; located: LocatedBinding; nameStart: number; nameEnd: number }
  | { kind: 'builtin'; builtin: Builtin; nameStart: number; nameEnd: number }
  | { kind: 'keyword'; keyword: string; nameStart: number; nameEnd: number }
  | {
      kind: 'import';
      importDecl: A.ImportDecl;
      resolved: string | undefined;
      /** The file it names, when that exists but is refused (a symbolic link out of the workspace). */
      refused?: { file: string; reason: string };
      nameStart: number;
      nameEnd: number;
    };

const MAX_REEXPORT_DEPTH = 8;

export function targetAt(analysis: HarnAnalysis, file: string, offset: number, host: ModuleHost): Target | undefined {
  const token = analysis.tokenAt(offset);
  if (!token) return undefined;

  // An import path string: the target is the module file.
  if (token.kind === TokenKind.String) {
    const decl = analysis.scopes.imports.find((i) => i.path && i.path.start === token.start);
    if (decl?.path?.value !== undefined) {
      const resolved = host.resolveImport(file, decl.path.value);
      const refused = resolved === undefined ? host.refusedImport?.(file, decl.path.value) : undefined;
      return { kind: 'import', importDecl: decl, resolved, ...(refused ? { refused } : {}), nameStart: token.start, nameEnd: token.end };
    }
    return undefined;
  }
  if (!isWord(token)) return undefined;
  const name = token.value;
  const path = A.nodePathAt(analysis.file, token.start);
  const parent = path[path.length - 2];
  const leaf = path[path.length - 1];
  // `a.b`: a member name is not a variable reference, except a member of a namespace (`ui.page`).
  if (leaf?.kind === 'Name' && parent?.kind === 'Member' && parent.property === leaf) {
    const member = locateExpression(analysis, file, parent, host);
    return member ? { kind: 'binding', located: member, nameStart: token.start, nameEnd: token.end } : undefined;
  }

  const located = locateName(analysis, file, name, token.start, host);
  if (located) return { kind: 'binding', located, nameStart: token.start, nameEnd: token.end };
  const builtin = BUILTINS.get(name);
  if (builtin) return { kind: 'builtin', builtin, nameStart: token.start, nameEnd: token.end };
  if (token.kind === TokenKind.Keyword) return { kind: 'keyword', keyword: name, nameStart: token.start, nameEnd: token.end };
  return undefined;
}

/** The declaration `name` refers to at `offset`: in this file (an imported name followed to its module), or exported by a wildcard import. */
function locateName(analysis: HarnAnalysis, file: string, name: string, offset: number, host: ModuleHost): LocatedBinding | undefined {
  const local = resolveName(analysis.scopes, name, offset);
  if (local) {
    if (local.kind === 'import' && local.modulePath !== undefined) {
      const imported = findExported(host, host.resolveImport(file, local.modulePath), name, 0);
      if (imported) return imported;
    }
    return { file, analysis, binding: local };
  }
  const explored = new Map<string, number>();
  for (const wildcard of analysis.scopes.wildcardImports) {
    if (wildcard.path?.value === undefined) continue;
    const imported = findExported(host, host.resolveImport(file, wildcard.path.value), name, 0, explored);
    if (imported) return imported;
  }
  return undefined;
}

/**
 * The declaration a name or a member chain refers to: `x`, or `ui.page` where `ui` is a namespace
 * (`import * as ui`), also through namespaces re-exported by `pub import * as` (`ui.forms.field`).
 */
export function locateExpression(analysis: HarnAnalysis, file: string, expr: A.Expr, host: ModuleHost, depth = 0): LocatedBinding | undefined {
  if (depth > MAX_REEXPORT_DEPTH) return undefined;
  if (expr.kind === 'Identifier') return locateName(analysis, file, expr.name, expr.start, host);
  if (expr.kind !== 'Member' || !expr.property) return undefined;
  const object = locateExpression(analysis, file, expr.object, host, depth + 1);
  const module = object && namespaceModule(object, host);
  return module ? findExported(host, module, expr.property.text, 0) : undefined;
}

/** The module file a namespace binding (`import * as ui from "…"`) stands for. */
export function namespaceModule(located: LocatedBinding, host: ModuleHost): string | undefined {
  const { binding } = located;
  if (binding.kind !== 'namespace' || binding.modulePath === undefined) return undefined;
  return host.resolveImport(located.file, binding.modulePath);
}

/**
 * The declaration of `name` exported by `file`, following `pub import` re-exports (at most MAX_REEXPORT_DEPTH deep).
 * `explored` holds each file's shallowest depth looked into during this lookup: reaching a file again no deeper
 * finds nothing new, so modules that re-export each other (`pub import "./a"` in a.harn, several times) cost one
 * look per file and depth, not one per path through them (exponential in the number of such imports).
 */
export function findExported(
  host: ModuleHost,
  file: string | undefined,
  name: string,
  depth: number,
  explored: Map<string, number> = new Map(),
): LocatedBinding | undefined {
  if (!file || depth > MAX_REEXPORT_DEPTH) return undefined;
  const shallowest = explored.get(file);
  if (shallowest !== undefined && shallowest <= depth) return undefined;
  explored.set(file, depth);
  const analysis = host.load(file);
  if (!analysis) return undefined;
  for (const binding of exportedBindings(analysis.file, analysis.scopes)) {
    if (binding.name !== name) continue;
    if (binding.kind === 'import' && binding.modulePath !== undefined) {
      return findExported(host, host.resolveImport(file, binding.modulePath), name, depth + 1, explored) ?? { file, analysis, binding };
    }
    return { file, analysis, binding };
  }
  // `pub import "x"` re-exports everything of x.
  for (const wildcard of analysis.scopes.wildcardImports) {
    if (!wildcard.isPub || wildcard.path?.value === undefined) continue;
    const found = findExported(host, host.resolveImport(file, wildcard.path.value), name, depth + 1, explored);
    if (found) return found;
  }
  return undefined;
}

/** Every name `file` exports, each followed to its declaration (through `pub import` re-exports): a namespace's members. */
export function moduleExports(host: ModuleHost, file: string | undefined, depth = 0): LocatedBinding[] {
  if (!file || depth > MAX_REEXPORT_DEPTH) return [];
  const analysis = host.load(file);
  if (!analysis) return [];
  const out: LocatedBinding[] = [];
  for (const binding of exportedBindings(analysis.file, analysis.scopes)) {
    const followed =
      binding.kind === 'import' && binding.modulePath !== undefined
        ? findExported(host, host.resolveImport(file, binding.modulePath), binding.name, depth + 1)
        : undefined;
    out.push(followed ?? { file, analysis, binding });
  }
  for (const wildcard of analysis.scopes.wildcardImports) {
    if (wildcard.isPub && wildcard.path?.value !== undefined) out.push(...moduleExports(host, host.resolveImport(file, wildcard.path.value), depth + 1));
  }
  return out;
}

/** Everything the files imported by `analysis` export, for completion (a namespace import brings in only its name). */
export function importedBindings(analysis: HarnAnalysis, file: string, host: ModuleHost): LocatedBinding[] {
  const out: LocatedBinding[] = [];
  for (const decl of analysis.scopes.imports) {
    const modulePath = decl.names ? importModulePath(decl) : decl.path?.value;
    if (modulePath === undefined || decl.namespace) continue;
    const target = host.resolveImport(file, modulePath);
    const imported = target ? host.load(target) : undefined;
    if (!target || !imported) continue;
    const wanted = decl.names ? new Set(decl.names.map((n) => n.text)) : undefined;
    for (const binding of exportedBindings(imported.file, imported.scopes)) {
      if (!wanted || wanted.has(binding.name)) out.push({ file: target, analysis: imported, binding });
    }
  }
  return out;
}
