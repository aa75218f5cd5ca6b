// Semantic tokens for Harn: every name the AST holds, classified by what it refers to (a declaration in the
// file, an imported one through the ModuleHost, a builtin) in VS Code's standard token types and modifiers,
// so that any theme colours them without configuration. Keywords, strings, numbers and comments are left to
// the TextMate grammar, whose scopes are finer than the standard types. Works on the partial AST of a broken
// file like on any other.

import { LineIndex } from '../text/lineIndex';
import { HarnAnalysis } from './analysis';
import * as A from './ast';
import { BUILTINS } from './builtins';
import { findExported, ModuleHost, moduleExports } from './resolve';
import { Binding, BindingKind } from './scope';
import { ScopeLookup } from './scopeLookup';
import { boundNames } from './outline';

/** The legend's token types, all standard (vscode's semantic token classification). The order is the protocol's index. */
export const TOKEN_TYPES = [
  'namespace',
  'type',
  'struct',
  'enum',
  'interface',
  'typeParameter',
  'parameter',
  'variable',
  'property',
  'enumMember',
  'function',
  'method',
  'decorator',
] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/** The legend's modifiers, all standard; bit i of a token's mask is TOKEN_MODIFIERS[i]. */
export const TOKEN_MODIFIERS = ['declaration', 'readonly', 'defaultLibrary'] as const;
export type TokenModifier = (typeof TOKEN_MODIFIERS)[number];

export interface SemanticToken {
  start: number;
  end: number;
  type: TokenType;
  modifiers: TokenModifier[];
}

/** Type names the runtime defines (spec/harn-language.md §1): coloured as default-library types. */
const BUILTIN_TYPES: ReadonlySet<string> = new Set([
  'int',
  'float',
  'string',
  'bool',
  'nil',
  'list',
  'dict',
  'any',
  'duration',
  'bytes',
  'never',
  'unknown',
  'closure',
  'Result',
  'Option',
  'Self',
]);

const BINDING_TYPES: Record<BindingKind, TokenType> = {
  function: 'function',
  pipeline: 'function',
  tool: 'function',
  skill: 'variable',
  evalPack: 'variable',
  struct: 'struct',
  enum: 'enum',
  type: 'type',
  interface: 'interface',
  variable: 'variable',
  constant: 'variable',
  parameter: 'parameter',
  import: 'variable',
  namespace: 'namespace',
};

const DECLARED: Partial<Record<A.AnyNode['kind'], TokenType>> = {
  FnDecl: 'function',
  PipelineDecl: 'function',
  ToolDecl: 'function',
  OverrideDecl: 'function',
  SkillDecl: 'variable',
  EvalPackDecl: 'variable',
  StructDecl: 'struct',
  EnumDecl: 'enum',
  TypeAliasDecl: 'type',
  InterfaceDecl: 'interface',
};

/** How a binding reads: its type, and `readonly` for a `const`. Imported names take the kind of what they import. */
function bindingToken(binding: Binding, imported: (b: Binding) => Binding | undefined): { type: TokenType; modifiers: TokenModifier[] } {
  const target = binding.kind === 'import' ? (imported(binding) ?? binding) : binding;
  const modifiers: TokenModifier[] = [];
  const decl = target.declaration;
  if (decl.kind === 'LetDecl' && decl.keyword === 'const') modifiers.push('readonly');
  return { type: BINDING_TYPES[target.kind], modifiers };
}

/**
 * The file's semantic tokens, in document order, one per name (never overlapping). `host` resolves imported names
 * (their kind); without it they read as variables.
 */
export function semanticTokens(analysis: HarnAnalysis, file: string, host?: ModuleHost): SemanticToken[] {
  const found = new Map<number, SemanticToken>();
  const add = (name: A.NodeBase | undefined, type: TokenType, modifiers: TokenModifier[] = []): void => {
    if (!name || name.end <= name.start || found.has(name.start)) return;
    found.set(name.start, { start: name.start, end: name.end, type, modifiers });
  };
  const scopes = analysis.scopes;
  const lookup = new ScopeLookup(scopes);
  let importNames: Map<A.Name, Binding> | undefined;
  const importBindings = (): Map<A.Name, Binding> =>
    (importNames ??= new Map(scopes.root.bindings.filter((b) => b.kind === 'import').map((b) => [b.nameNode, b] as const)));

  // Imported names: what each one is, looked up once per file and name.
  const importedCache = new Map<string, Binding | undefined>();
  const imported = (b: Binding): Binding | undefined => {
    if (!host || b.modulePath === undefined) return undefined;
    const key = `${b.modulePath}\n${b.name}`;
    if (!importedCache.has(key)) importedCache.set(key, findExported(host, host.resolveImport(file, b.modulePath), b.name, 0)?.binding);
    return importedCache.get(key);
  };
  let wildcard: Map<string, Binding> | undefined;
  const fromWildcard = (name: string): Binding | undefined => {
    if (!host) return undefined;
    if (!wildcard) {
      wildcard = new Map();
      for (const decl of scopes.wildcardImports) {
        if (decl.path?.value === undefined) continue;
        for (const located of moduleExports(host, host.resolveImport(file, decl.path.value))) {
          if (!wildcard.has(located.binding.name)) wildcard.set(located.binding.name, located.binding);
        }
      }
    }
    return wildcard.get(name);
  };

  // Type parameters are not in the scopes: each declaration's, by the range it covers (innermost last).
  const typeParamScopes: { start: number; end: number; names: Set<string> }[] = [];
  const isTypeParam = (name: string, at: number): boolean => {
    for (let i = typeParamScopes.length - 1; i >= 0; i--) {
      const s = typeParamScopes[i];
      if (s && s.start <= at && at <= s.end && s.names.has(name)) return true;
    }
    return false;
  };

  const reference = (name: string, node: A.NodeBase): { type: TokenType; modifiers: TokenModifier[] } | undefined => {
    const local = lookup.resolve(name, node.start);
    if (local) return bindingToken(local, imported);
    const viaImport = fromWildcard(name);
    if (viaImport) return bindingToken(viaImport, () => undefined);
    if (BUILTINS.has(name)) return { type: 'function', modifiers: ['defaultLibrary'] };
    return undefined;
  };

  // `ui.page`: a member of a namespace import is what the module exports under that name (unknown: no token).
  const namespaceBinding = (object: A.Expr): Binding | undefined => {
    if (object.kind !== 'Identifier') return undefined;
    const b = lookup.resolve(object.name, object.start);
    return b?.kind === 'namespace' ? b : undefined;
  };
  const isNamespace = (object: A.Expr): boolean => namespaceBinding(object) !== undefined;
  const memberCache = new Map<string, Binding | undefined>();
  const namespaceMember = (member: A.Member): { type: TokenType; modifiers: TokenModifier[] } | undefined => {
    const ns = namespaceBinding(member.object);
    if (!ns || !member.property || !host || ns.modulePath === undefined) return undefined;
    const key = `${ns.modulePath}\n${member.property.text}`;
    if (!memberCache.has(key)) memberCache.set(key, findExported(host, host.resolveImport(file, ns.modulePath), member.property.text, 0)?.binding);
    const found = memberCache.get(key);
    // Found in another module, and followed through its re-exports already.
    return found ? bindingToken(found, () => undefined) : undefined;
  };

  const typeName = (name: A.Name): void => {
    if (isTypeParam(name.text, name.start)) return add(name, 'typeParameter');
    const local = lookup.resolve(name.text, name.start) ?? fromWildcard(name.text);
    if (local) {
      const token = bindingToken(local, imported);
      return add(name, token.type, token.modifiers);
    }
    if (BUILTIN_TYPES.has(name.text)) return add(name, 'type', ['defaultLibrary']);
    add(name, 'type');
  };

  A.walk(analysis.file, (node) => {
    const declared = DECLARED[node.kind];
    if (declared && 'name' in node && node.name && typeof node.name === 'object' && node.name.kind === 'Name') {
      add(node.name, declared, ['declaration']);
    }
    if ('typeParams' in node && Array.isArray(node.typeParams) && node.typeParams.length > 0) {
      typeParamScopes.push({ start: node.start, end: node.end, names: new Set(node.typeParams.map((p: A.TypeParam) => p.name.text)) });
    }
    switch (node.kind) {
      case 'ImplDecl':
      case 'InterfaceDecl':
        for (const method of node.methods) add(method.name, 'method', ['declaration']);
        if (node.kind === 'ImplDecl') {
          if (node.name) typeName(node.name);
          if (node.traitName) typeName(node.traitName);
        }
        break;
      case 'StructField':
        add(node.name, 'property', ['declaration']);
        break;
      case 'EnumVariant':
        add(node.name, 'enumMember', ['declaration']);
        break;
      case 'ShapeField':
        add(node.name, 'property', ['declaration']);
        break;
      case 'Param':
        add(node.name, 'parameter', ['declaration']);
        break;
      case 'TypeParam':
        add(node.name, 'typeParameter', ['declaration']);
        break;
      case 'Attribute':
        add(node.name, 'decorator');
        break;
      case 'LetDecl': {
        const modifiers: TokenModifier[] = node.keyword === 'const' ? ['declaration', 'readonly'] : ['declaration'];
        if (node.pattern && node.pattern.kind !== 'Name') {
          // `{key: alias}`: the key names a field of the value, the alias is the binding.
          for (const entry of node.pattern.entries) if (entry.alias) add(entry.key, 'property');
        }
        for (const name of boundNames(node.pattern)) add(name, 'variable', modifiers);
        break;
      }
      case 'For':
        for (const name of boundNames(node.pattern)) add(name, 'variable', ['declaration']);
        break;
      case 'Parallel':
        for (const name of node.binding) add(name, 'variable', ['declaration']);
        break;
      case 'Try':
        add(node.catchName, 'variable', ['declaration']);
        break;
      case 'SelectCase':
        add(node.name, 'variable', ['declaration']);
        break;
      case 'ImportDecl':
        add(node.namespace, 'namespace', ['declaration']);
        for (const name of node.names ?? []) {
          const binding = importBindings().get(name);
          const token = binding ? bindingToken(binding, imported) : { type: 'variable' as const, modifiers: [] };
          add(name, token.type, token.modifiers);
        }
        for (const segment of node.scopedPath ?? []) add(segment, 'namespace');
        break;
      case 'PipelineDecl':
        if (node.extendsName) {
          const token = reference(node.extendsName.text, node.extendsName);
          add(node.extendsName, token?.type ?? 'function', token?.modifiers);
        }
        break;
      case 'NamedType':
        typeName(node.name);
        break;
      case 'StructLit': {
        const token = reference(node.name.name, node.name);
        add(node.name, token?.type ?? 'struct', token?.modifiers);
        for (const entry of node.entries) if (entry.key?.kind === 'Name') add(entry.key, 'property');
        break;
      }
      case 'Dict':
        for (const entry of node.entries) if (entry.key?.kind === 'Name') add(entry.key, 'property');
        break;
      case 'Argument':
        add(node.name, 'parameter');
        break;
      case 'SkillEntry':
        add(node.key, 'property');
        break;
      case 'Call':
        if (node.callee.kind === 'Member' && node.callee.property) {
          const member = namespaceMember(node.callee);
          if (member) add(node.callee.property, member.type, member.modifiers);
          else if (!isNamespace(node.callee.object)) add(node.callee.property, 'method');
        }
        break;
      case 'Member':
        if (node.property) {
          const object = node.object;
          const objectToken = object.kind === 'Identifier' ? reference(object.name, object) : undefined;
          const member = namespaceMember(node);
          if (member) add(node.property, member.type, member.modifiers);
          else if (objectToken?.type !== 'namespace') add(node.property, objectToken?.type === 'enum' ? 'enumMember' : 'property');
        }
        break;
      case 'Identifier': {
        const token = reference(node.name, node);
        if (token) add(node, token.type, token.modifiers);
        break;
      }
    }
  });
  return [...found.values()].sort((a, b) => a.start - b.start);
}

/** The tokens starting in [from, to). */
export function tokensInRange(tokens: readonly SemanticToken[], from: number, to: number): SemanticToken[] {
  return tokens.filter((t) => t.start >= from && t.start < to);
}

/**
 * The protocol's relative encoding: five integers per token (line delta, start delta, length, type index, modifier
 * mask). Names never span lines; a token that would (it cannot) is cut at its line's end.
 */
export function encodeTokens(tokens: readonly SemanticToken[], lineIndex: LineIndex): number[] {
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const token of tokens) {
    const at = lineIndex.positionAt(token.start);
    const lineEnd = lineIndex.lineContentEnd(at.line);
    const length = Math.min(token.end, lineEnd) - token.start;
    if (length <= 0) continue;
    let mask = 0;
    for (const m of token.modifiers) mask |= 1 << TOKEN_MODIFIERS.indexOf(m);
    data.push(at.line - line, at.line === line ? at.character - character : at.character, length, TOKEN_TYPES.indexOf(token.type), mask);
    line = at.line;
    character = at.character;
  }
  return data;
}

export interface TokenEdit {
  start: number;
  deleteCount: number;
  data: number[];
}

/**
 * The edits turning `previous` into `next` (both encoded): one edit covering what lies between their common prefix
 * and suffix, in whole tokens (5 integers), or none when they are equal.
 */
export function tokenEdits(previous: readonly number[], next: readonly number[]): TokenEdit[] {
  const tokensBefore = Math.floor(previous.length / 5);
  const tokensAfter = Math.floor(next.length / 5);
  const sameToken = (i: number, j: number): boolean => {
    for (let k = 0; k < 5; k++) if (previous[i * 5 + k] !== next[j * 5 + k]) return false;
    return true;
  };
  let prefix = 0;
  while (prefix < tokensBefore && prefix < tokensAfter && sameToken(prefix, prefix)) prefix++;
  let suffix = 0;
  while (suffix < tokensBefore - prefix && suffix < tokensAfter - prefix && sameToken(tokensBefore - 1 - suffix, tokensAfter - 1 - suffix)) suffix++;
  if (prefix === tokensBefore && prefix === tokensAfter) return [];
  return [{ start: prefix * 5, deleteCount: (tokensBefore - prefix - suffix) * 5, data: next.slice(prefix * 5, (tokensAfter - suffix) * 5) }];
}
