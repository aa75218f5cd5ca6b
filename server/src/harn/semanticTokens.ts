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
import { Binding, BindingKind, buildScopes, Scope } from './scope';
import { bindingsByName, ScopeResolver } from './scopeResolver';
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

/** What the ModuleHost said about the names a file imports: valid while the host answers the same and the file's imports are the same. */
interface HostAnswers {
  /** By module path and name. */
  exported: Map<string, Binding | undefined>;
  /** The names the file's `import "path"`s bring in, once asked. */
  wildcard: Map<string, Binding> | undefined;
}

/**
 * What classifying a statement's names needs beyond the statement itself: the file's top-level bindings and
 * wildcard imports, and the ModuleHost for imported names. Shared by the statements of a computation, so each
 * imported name is looked up once.
 */
class FileContext {
  private importNames: Map<A.Name, Binding> | undefined;

  constructor(
    private readonly file: string,
    readonly host: ModuleHost | undefined,
    private readonly rootBindings: readonly Binding[],
    private readonly wildcardImports: readonly A.ImportDecl[],
    private readonly answers: HostAnswers = { exported: new Map(), wildcard: undefined },
  ) {}

  /** The binding an `import { name }` declares. */
  importBinding(name: A.Name): Binding | undefined {
    this.importNames ??= new Map(this.rootBindings.filter((b) => b.kind === 'import').map((b) => [b.nameNode, b] as const));
    return this.importNames.get(name);
  }

  /** What `modulePath` exports as `name` (followed through its re-exports), looked up once per computation. */
  exported(modulePath: string, name: string): Binding | undefined {
    if (!this.host) return undefined;
    const key = `${modulePath}\n${name}`;
    const exported = this.answers.exported;
    if (!exported.has(key)) exported.set(key, findExported(this.host, this.host.resolveImport(this.file, modulePath), name, 0)?.binding);
    return exported.get(key);
  }

  /** What an imported name imports. */
  readonly imported = (b: Binding): Binding | undefined => (b.modulePath === undefined ? undefined : this.exported(b.modulePath, b.name));

  /** A name every `import "path"` of the file brings in. */
  fromWildcard(name: string): Binding | undefined {
    const host = this.host;
    if (!host) return undefined;
    let wildcard = this.answers.wildcard;
    if (!wildcard) {
      wildcard = this.answers.wildcard = new Map();
      for (const decl of this.wildcardImports) {
        if (decl.path?.value === undefined) continue;
        for (const located of moduleExports(host, host.resolveImport(this.file, decl.path.value))) {
          if (!wildcard.has(located.binding.name)) wildcard.set(located.binding.name, located.binding);
        }
      }
    }
    return wildcard.get(name);
  }
}

/** One top-level statement's tokens into `found` (by start). Depends on the statement, `lookup` and `context` only. */
function addStatementTokens(stmt: A.Stmt, lookup: ScopeResolver, context: FileContext, found: Map<number, SemanticToken>): void {
  const add = (name: A.NodeBase | undefined, type: TokenType, modifiers: TokenModifier[] = []): void => {
    if (!name || name.end <= name.start || found.has(name.start)) return;
    found.set(name.start, { start: name.start, end: name.end, type, modifiers });
  };
  const imported = context.imported;

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
    const local = lookup.resolveNameAt(name, node.start);
    if (local) return bindingToken(local, imported);
    const viaImport = context.fromWildcard(name);
    if (viaImport) return bindingToken(viaImport, () => undefined);
    if (BUILTINS.has(name)) return { type: 'function', modifiers: ['defaultLibrary'] };
    return undefined;
  };

  // `ui.page`: a member of a namespace import is what the module exports under that name (unknown: no token).
  const namespaceBinding = (object: A.Expr): Binding | undefined => {
    if (object.kind !== 'Identifier') return undefined;
    const b = lookup.resolveNameAt(object.name, object.start);
    return b?.kind === 'namespace' ? b : undefined;
  };
  const isNamespace = (object: A.Expr): boolean => namespaceBinding(object) !== undefined;
  const namespaceMember = (member: A.Member): { type: TokenType; modifiers: TokenModifier[] } | undefined => {
    const ns = namespaceBinding(member.object);
    if (!ns || !member.property || ns.modulePath === undefined) return undefined;
    const found = context.exported(ns.modulePath, member.property.text);
    // Found in another module, and followed through its re-exports already.
    return found ? bindingToken(found, () => undefined) : undefined;
  };

  const typeName = (name: A.Name): void => {
    if (isTypeParam(name.text, name.start)) return add(name, 'typeParameter');
    const local = lookup.resolveNameAt(name.text, name.start) ?? context.fromWildcard(name.text);
    if (local) {
      const token = bindingToken(local, imported);
      return add(name, token.type, token.modifiers);
    }
    if (BUILTIN_TYPES.has(name.text)) return add(name, 'type', ['defaultLibrary']);
    add(name, 'type');
  };

  A.walk(stmt, (node) => {
    const declared = DECLARED[node.kind];
    // Only declarations have a name or type parameters: the other nodes (most of them) skip both checks.
    if (declared) {
      if ('name' in node && node.name && typeof node.name === 'object' && node.name.kind === 'Name') add(node.name, declared, ['declaration']);
      if ('typeParams' in node && Array.isArray(node.typeParams) && node.typeParams.length > 0) {
        typeParamScopes.push({ start: node.start, end: node.end, names: new Set(node.typeParams.map((p: A.TypeParam) => p.name.text)) });
      }
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
          const binding = context.importBinding(name);
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
}

const byStart = (a: SemanticToken, b: SemanticToken): number => a.start - b.start;

/**
 * The file's semantic tokens, in document order, one per name (never overlapping). `host` resolves imported names
 * (their kind); without it they read as variables. Computed from scratch: SemanticTokensCache gives the same,
 * recomputing only the statements an edit touched.
 */
export function semanticTokens(analysis: HarnAnalysis, file: string, host?: ModuleHost): SemanticToken[] {
  const scopes = analysis.scopes;
  const context = new FileContext(file, host, scopes.root.bindings, scopes.wildcardImports);
  const lookup = new ScopeResolver(scopes);
  const found = new Map<number, SemanticToken>();
  for (const stmt of analysis.file.statements) addStatementTokens(stmt, lookup, context, found);
  return [...found.values()].sort(byStart);
}

/** What a top-level statement adds to the file's root scope, independent of where the statement stands. */
interface TopLevelPart {
  /** Its bindings; `visibleAfter` is where each becomes visible, relative to the statement's start (undefined: the whole file). */
  bindings: { binding: Binding; visibleAfter: number | undefined }[];
  wildcardImports: A.ImportDecl[];
  /** Everything of it that classifying another statement's names can depend on, as text. */
  signature: string;
}

/** A statement's own scopes, built alone: its top-level part and its nested scopes (absolute, valid for this text only). */
function statementScopes(stmt: A.Stmt): { part: TopLevelPart; children: Scope[] } {
  const scopes = buildScopes({ kind: 'SourceFile', start: stmt.start, end: stmt.end, statements: [stmt] });
  const bindings = scopes.root.bindings.map((binding) => ({
    binding,
    visibleAfter: binding.visibleFrom > stmt.start ? binding.visibleFrom - stmt.start : undefined,
  }));
  const keyword = (b: Binding): string => (b.declaration.kind === 'LetDecl' ? b.declaration.keyword : '');
  // Visible from the statement's end (a `let`) whatever its length: what other statements see is the order.
  const visibility = (after: number | undefined): string => (after === undefined ? 'file' : after === stmt.end - stmt.start ? 'end' : String(after));
  const signature = [
    ...bindings.map(({ binding: b, visibleAfter }) => `${b.kind} ${b.name} ${keyword(b)} ${b.modulePath ?? ''} ${visibility(visibleAfter)}`),
    ...scopes.wildcardImports.map((d) => `* ${d.path?.value ?? ''}`),
  ].join('\n');
  return { part: { bindings, wildcardImports: scopes.wildcardImports, signature }, children: scopes.root.children };
}

/** Top-level parts by statement object (a statement kept by HarnAnalysis.edited has the same text). */
const topLevelParts = new WeakMap<A.Stmt, TopLevelPart>();

/** A position relative to a statement's start: on its first line, the character counts from the statement's column. */
interface RelativePosition {
  line: number;
  character: number;
}

interface StatementEntry {
  /** The cache generation it was computed in: valid while the file's environment stays that generation's. */
  generation: number;
  /** Its index among the file's statements when computed. */
  ordinal: number;
  /** Its tokens, at the offsets they had when the statement started at `base`. */
  tokens: SemanticToken[];
  base: number;
  /** Its tokens encoded on their own (see encodeTokens): all but the first token's two deltas hold in any file. */
  encoded: number[];
  first: RelativePosition;
  last: RelativePosition;
}

type HostCall = { kind: 'resolve'; from: string; path: string; answer: string | undefined } | { kind: 'load'; file: string; answer: HarnAnalysis | undefined };

/**
 * One document's semantic tokens, computed per top-level statement and kept per statement object, stored relative
 * to the statement's start: after an edit inside one statement (HarnAnalysis.edited keeps the others), only that
 * statement is classified and encoded again, and the encoded runs of the others are joined with only their first
 * token's deltas recomputed. What a statement's colours depend on besides itself is checked on every call: the
 * file's top-level bindings and imports (their names, kinds, `const`, order), and every answer the ModuleHost gave
 * (asked again; a changed file is a new analysis). When any changed, every statement is computed again.
 */
export class SemanticTokensCache {
  private entries = new WeakMap<A.Stmt, StatementEntry>();
  private generation = 0;
  /** The top-level parts of the statements, in order, the entries of this generation were computed with. */
  private environment: readonly TopLevelPart[] | undefined;
  private file: string | undefined;
  private host: ModuleHost | undefined;
  /** The host calls this generation's entries were computed from, and what they told. */
  private hostCalls = new Map<string, HostCall>();
  private hostAnswers: HostAnswers = { exported: new Map(), wildcard: undefined };
  /** What the last call did: statements classified again, and statements reused. */
  lastRun = { computed: 0, reused: 0 };

  /** The file's tokens, as semanticTokens gives them. */
  tokens(analysis: HarnAnalysis, file: string, host?: ModuleHost): SemanticToken[] {
    return this.tokensIn(analysis, file, host, -Infinity, Infinity);
  }

  /** The tokens starting in [from, to), as tokensInRange(semanticTokens(…)) gives them. */
  tokensIn(analysis: HarnAnalysis, file: string, host: ModuleHost | undefined, from: number, to: number): SemanticToken[] {
    const statements = analysis.file.statements;
    const entries = this.refresh(analysis, file, host, (stmt) => stmt.end >= from && stmt.start < to);
    const out: SemanticToken[] = [];
    statements.forEach((stmt, i) => {
      const entry = entries[i];
      if (!entry) return;
      const shift = stmt.start - entry.base;
      for (const t of entry.tokens) {
        const start = t.start + shift;
        if (start >= from && start < to) out.push({ start, end: t.end + shift, type: t.type, modifiers: t.modifiers });
      }
    });
    return out;
  }

  /**
   * The file's tokens in the protocol's encoding, as encodeTokens(semanticTokens(…)) gives them. Typed: as a list,
   * a 5,000-line file's 37,000 integers took 296 KB of the young generation at each keystroke, the most of any step,
   * and brought a scavenge every twentieth keystroke or so (the LSP adaptor lists them for a full response only).
   */
  encoded(analysis: HarnAnalysis, file: string, host?: ModuleHost): Uint32Array {
    const statements = analysis.file.statements;
    const entries = this.refresh(analysis, file, host, () => true);
    let total = 0;
    for (const entry of entries) total += entry?.encoded.length ?? 0;
    const data = new Uint32Array(total);
    let at = 0;
    let line = 0;
    let character = 0;
    statements.forEach((stmt, i) => {
      const entry = entries[i];
      if (!entry || entry.encoded.length === 0) return;
      const origin = analysis.lineIndex.positionAt(stmt.start);
      const first = absolute(origin, entry.first);
      data[at] = first.line - line;
      data[at + 1] = first.line === line ? first.character - character : first.character;
      const run = entry.encoded;
      for (let k = 2; k < run.length; k++) data[at + k] = run[k] as number;
      at += run.length;
      const last = absolute(origin, entry.last);
      line = last.line;
      character = last.character;
    });
    return data;
  }

  /** The entry of every statement `wanted` selects (undefined for the others), computing those not valid any more. */
  private refresh(analysis: HarnAnalysis, file: string, host: ModuleHost | undefined, wanted: (stmt: A.Stmt) => boolean): (StatementEntry | undefined)[] {
    const statements = analysis.file.statements;
    const parts: TopLevelPart[] = [];
    const fresh = new Map<A.Stmt, Scope[]>();
    for (const stmt of statements) {
      let part = topLevelParts.get(stmt);
      if (!part) {
        const built = statementScopes(stmt);
        part = built.part;
        topLevelParts.set(stmt, part);
        fresh.set(stmt, built.children);
      }
      parts.push(part);
    }
    if (file !== this.file || host !== this.host || !sameEnvironment(parts, this.environment) || !this.hostAnswersSame()) {
      this.generation++;
      this.hostCalls.clear();
      this.hostAnswers = { exported: new Map(), wildcard: undefined };
      this.file = file;
      this.host = host;
    }
    this.environment = parts;

    let context: { context: FileContext; root: Scope; rootByName: Map<string, Binding[]> } | undefined;
    const contextNow = (): NonNullable<typeof context> => {
      if (context) return context;
      const bindings: Binding[] = [];
      const wildcardImports: A.ImportDecl[] = [];
      statements.forEach((stmt, i) => {
        const part = parts[i];
        if (!part) return;
        for (const { binding, visibleAfter } of part.bindings) {
          bindings.push({ ...binding, visibleFrom: visibleAfter === undefined ? analysis.file.start : stmt.start + visibleAfter });
        }
        wildcardImports.push(...part.wildcardImports);
      });
      const root: Scope = { start: analysis.file.start, end: analysis.file.end, bindings, children: [] };
      const recording = host && this.recording(host);
      return (context = { context: new FileContext(file, recording, bindings, wildcardImports, this.hostAnswers), root, rootByName: bindingsByName(bindings) });
    };

    const run = { computed: 0, reused: 0 };
    const entries = statements.map((stmt, ordinal): StatementEntry | undefined => {
      if (!wanted(stmt)) return undefined;
      const cached = this.entries.get(stmt);
      if (cached && cached.generation === this.generation && cached.ordinal === ordinal) {
        run.reused++;
        return cached;
      }
      run.computed++;
      const { context: fileContext, root, rootByName } = contextNow();
      const children = fresh.get(stmt) ?? statementScopes(stmt).children;
      const lookup = new ScopeResolver({ root: { ...root, children }, wildcardImports: [], imports: [] }, { rootByName });
      const found = new Map<number, SemanticToken>();
      addStatementTokens(stmt, lookup, fileContext, found);
      const tokens = [...found.values()].sort(byStart);
      const encoded = encodeRun(tokens, analysis.lineIndex);
      const origin = analysis.lineIndex.positionAt(stmt.start);
      const entry: StatementEntry = {
        generation: this.generation,
        ordinal,
        tokens,
        base: stmt.start,
        encoded: encoded.data,
        first: relative(origin, encoded.first),
        last: relative(origin, encoded.last),
      };
      this.entries.set(stmt, entry);
      return entry;
    });
    this.lastRun = run;
    return entries;
  }

  /** `host`, noting every answer it gives (they are asked again on the next call: see hostAnswersSame). */
  private recording(host: ModuleHost): ModuleHost {
    return {
      resolveImport: (from, path) => {
        const answer = host.resolveImport(from, path);
        this.hostCalls.set(`r\u0000${from}\u0000${path}`, { kind: 'resolve', from, path, answer });
        return answer;
      },
      load: (file) => {
        const answer = host.load(file);
        this.hostCalls.set(`l\u0000${file}`, { kind: 'load', file, answer });
        return answer;
      },
    };
  }

  /** Whether the host answers as it did when this generation's entries were computed. */
  private hostAnswersSame(): boolean {
    const host = this.host;
    if (!host) return true;
    for (const call of this.hostCalls.values()) {
      const answer = call.kind === 'resolve' ? host.resolveImport(call.from, call.path) : host.load(call.file);
      if (answer !== call.answer) return false;
    }
    return true;
  }
}

/** Whether two files' top-level parts, statement by statement, say the same (the same part objects, or the same signatures). */
function sameEnvironment(parts: readonly TopLevelPart[], previous: readonly TopLevelPart[] | undefined): boolean {
  if (!previous || previous.length !== parts.length) return false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const before = previous[i];
    if (part !== before && part?.signature !== before?.signature) return false;
  }
  return true;
}

function relative(origin: RelativePosition, at: RelativePosition): RelativePosition {
  const line = at.line - origin.line;
  return { line, character: line === 0 ? at.character - origin.character : at.character };
}

function absolute(origin: RelativePosition, at: RelativePosition): RelativePosition {
  return { line: origin.line + at.line, character: at.line === 0 ? origin.character + at.character : at.character };
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
  return encodeRun(tokens, lineIndex).data;
}

/** encodeTokens' data, with the positions of the first and last tokens it encodes (0:0 when none). */
function encodeRun(tokens: readonly SemanticToken[], lineIndex: LineIndex): { data: number[]; first: RelativePosition; last: RelativePosition } {
  const data: number[] = [];
  let first: RelativePosition | undefined;
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
    first ??= at;
    line = at.line;
    character = at.character;
  }
  return { data, first: first ?? { line: 0, character: 0 }, last: { line, character } };
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
export function tokenEdits(previous: ArrayLike<number>, next: ArrayLike<number>): TokenEdit[] {
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
  const data: number[] = [];
  for (let i = prefix * 5; i < (tokensAfter - suffix) * 5; i++) data.push(next[i] as number);
  return [{ start: prefix * 5, deleteCount: (tokensBefore - prefix - suffix) * 5, data }];
}
