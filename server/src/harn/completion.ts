// Completion for Harn: keywords, names in scope, names exported by imported files and builtins; after
// `Enum.` the enum's variants, after `ui.` (a namespace import) the module's exports. Nothing inside comments or plain string text. `documentation` is Markdown: a
// binding's is its hover (renderBinding), a variant's its HarnDoc through userMarkdown. Both are computed only when
// read: the editor's list carries each item's `source` alone, and resolveCompletion finds them from it later.

import { userMarkdown } from '../text/markdown';
import { HarnAnalysis } from './analysis';
import * as A from './ast';
import { Builtin, BUILTINS, formatSignature } from './builtins';
import { declarationSignature, renderBinding } from './hover';
import { importedBindings, LocatedBinding, locateExpression, ModuleHost, moduleExports, namespaceModule } from './resolve';
import { Binding, BindingKind, Scope, visibleBindings } from './scope';
import { KEYWORDS, TokenKind } from './tokens';

export type CompletionKind = 'keyword' | 'function' | 'variable' | 'constant' | 'struct' | 'enum' | 'enumMember' | 'interface' | 'module' | 'field' | 'class';

/** Where an item's detail and documentation come from: plain data, so that it travels in a completion item's `data`. */
export type CompletionSource =
  | { kind: 'builtin'; name: string }
  | { kind: 'keyword' }
  /** A binding declared in `file`, its name at `offset` (a hint: the file may have been edited since). */
  | { kind: 'binding'; file: string; name: string; offset: number }
  | { kind: 'variant'; file: string; name: string; offset: number };

export interface CompletionDetails {
  detail: string | undefined;
  documentation: string | undefined;
}

export interface Completion {
  label: string;
  kind: CompletionKind;
  /** Sorts locals before imports before builtins before keywords. */
  sortText: string;
  source: CompletionSource;
  /** Computed on first read (a binding's hover is not cheap, and the list needs none). */
  readonly detail: string | undefined;
  readonly documentation: string | undefined;
}

/** An item whose details are computed once, when first read. */
function completion(label: string, kind: CompletionKind, sortText: string, source: CompletionSource, details: () => CompletionDetails): Completion {
  let known: CompletionDetails | undefined;
  const get = (): CompletionDetails => (known ??= details());
  return {
    label,
    kind,
    sortText,
    source,
    get detail() {
      return get().detail;
    },
    get documentation() {
      return get().documentation;
    },
  };
}

const BINDING_KINDS: Record<BindingKind, CompletionKind> = {
  function: 'function',
  pipeline: 'function',
  tool: 'function',
  skill: 'class',
  evalPack: 'class',
  struct: 'struct',
  enum: 'enum',
  type: 'interface',
  interface: 'interface',
  variable: 'variable',
  constant: 'constant',
  parameter: 'variable',
  import: 'module',
  namespace: 'module',
};

export function completionsAt(analysis: HarnAnalysis, file: string, offset: number, host: ModuleHost, workspaceRoot?: string): Completion[] {
  if (insideCommentOrText(analysis, offset)) return [];
  const member = memberContext(analysis, offset);
  if (member) return memberCompletions(analysis, file, member, host, workspaceRoot);

  const items: Completion[] = [];
  const seen = new Set<string>();
  const add = (item: Completion): void => {
    if (seen.has(item.label)) return;
    seen.add(item.label);
    items.push(item);
  };
  for (const b of visibleBindings(analysis.scopes, offset)) {
    if (b.kind === 'import') continue;
    add(bindingCompletion({ file, analysis, binding: b }, file, workspaceRoot, '0'));
  }
  for (const located of importedBindings(analysis, file, host)) add(bindingCompletion(located, file, workspaceRoot, '1'));
  for (const builtin of BUILTINS.values()) {
    add(completion(builtin.name, 'function', '2' + builtin.name, { kind: 'builtin', name: builtin.name }, () => builtinDetails(builtin)));
  }
  for (const keyword of KEYWORDS) add(completion(keyword, 'keyword', '3' + keyword, { kind: 'keyword' }, () => NO_DETAILS));
  return items;
}

const NO_DETAILS: CompletionDetails = { detail: undefined, documentation: undefined };

function builtinDetails(builtin: Builtin): CompletionDetails {
  return { detail: builtin.signatures.map((s) => formatSignature(builtin, s)).join('  |  '), documentation: builtin.doc };
}

function bindingDetails(located: LocatedBinding, fromFile: string, workspaceRoot: string | undefined): CompletionDetails {
  const b = located.binding;
  return {
    detail: declarationSignature(b.declaration, b.nameNode, located.analysis.text).split('\n')[0],
    documentation: renderBinding(located, fromFile, workspaceRoot),
  };
}

function variantDetails(variant: A.EnumVariant, text: string): CompletionDetails {
  return { detail: text.slice(variant.start, variant.end), documentation: variant.doc === undefined ? undefined : userMarkdown(variant.doc) };
}

/** Of the candidates, the one whose name is nearest `offset` (the declaration that moved least since the list). */
function nearest<T>(candidates: readonly T[], offset: number, at: (c: T) => number): T | undefined {
  let best: T | undefined;
  for (const c of candidates) if (best === undefined || Math.abs(at(c) - offset) < Math.abs(at(best) - offset)) best = c;
  return best;
}

function bindingsNamed(scope: Scope, name: string, out: Binding[] = []): Binding[] {
  for (const b of scope.bindings) if (b.name === name) out.push(b);
  for (const child of scope.children) bindingsNamed(child, name, out);
  return out;
}

/**
 * The detail and documentation of an item from its source, for `completionItem/resolve`: the declaring file is read
 * again through the host (the open editor's text when it is open), so undefined details when it is gone or no longer
 * declares the name.
 */
export function resolveCompletion(source: CompletionSource, fromFile: string, host: ModuleHost, workspaceRoot?: string): CompletionDetails {
  switch (source.kind) {
    case 'keyword':
      return NO_DETAILS;
    case 'builtin': {
      const builtin = BUILTINS.get(source.name);
      return builtin ? builtinDetails(builtin) : NO_DETAILS;
    }
    case 'binding': {
      const analysis = host.load(source.file);
      const binding = analysis && nearest(bindingsNamed(analysis.scopes.root, source.name), source.offset, (b) => b.nameNode.start);
      return analysis && binding ? bindingDetails({ file: source.file, analysis, binding }, fromFile, workspaceRoot) : NO_DETAILS;
    }
    case 'variant': {
      const analysis = host.load(source.file);
      if (!analysis) return NO_DETAILS;
      const variants: A.EnumVariant[] = [];
      A.walk(analysis.file, (node) => {
        if (node.kind === 'EnumVariant' && node.name.text === source.name) variants.push(node);
      });
      const variant = nearest(variants, source.offset, (v) => v.name.start);
      return variant ? variantDetails(variant, analysis.text) : NO_DETAILS;
    }
  }
}

function insideCommentOrText(analysis: HarnAnalysis, offset: number): boolean {
  for (const c of analysis.parsed.comments) {
    if (c.start >= offset) break;
    // Typing at the end of a line comment continues it; the end of a block comment is after `*/`.
    const isLine = c.kind === 'line' || c.kind === 'legacyDoc';
    if (isLine ? offset <= c.end : offset < c.end) return true;
  }
  const t = analysis.tokenAt(offset);
  if (!t || t.start >= offset) return false;
  switch (t.kind) {
    case TokenKind.String:
    case TokenKind.RawString:
      return offset < t.end || !t.terminated;
    case TokenKind.StringHead:
      return offset < t.end - 1;
    case TokenKind.StringMiddle:
    case TokenKind.StringTail:
      return offset > t.start;
    default:
      return false;
  }
}

/** `object.` or `object.pa|`: the Member node being typed, if any. */
function memberContext(analysis: HarnAnalysis, offset: number): A.Member | undefined {
  const path = A.nodePathAt(analysis.file, offset);
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i];
    if (!node) return undefined; // i < length: always a node
    if (node.kind === 'Member') {
      const dotEnd = node.property ? node.property.start : node.end;
      if (offset >= dotEnd) return node;
      return undefined;
    }
    if (node.kind !== 'Name' && node.kind !== 'Identifier') return undefined;
  }
  return undefined;
}

function memberCompletions(analysis: HarnAnalysis, file: string, member: A.Member, host: ModuleHost, workspaceRoot: string | undefined): Completion[] {
  const object = locateExpression(analysis, file, member.object, host);
  if (!object) return [];
  const decl = object.binding.declaration;
  if (decl.kind === 'EnumDecl') {
    return decl.variants.map((v) =>
      completion(v.name.text, 'enumMember', '0' + v.name.text, { kind: 'variant', file: object.file, name: v.name.text, offset: v.name.start }, () =>
        variantDetails(v, object.analysis.text),
      ),
    );
  }
  const module = namespaceModule(object, host);
  if (!module) return [];
  const items: Completion[] = [];
  const seen = new Set<string>();
  for (const located of moduleExports(host, module)) {
    if (seen.has(located.binding.name)) continue;
    seen.add(located.binding.name);
    items.push(bindingCompletion(located, file, workspaceRoot, '0'));
  }
  return items;
}

function bindingCompletion(located: LocatedBinding, file: string, workspaceRoot: string | undefined, sortPrefix: string): Completion {
  const b = located.binding;
  const source: CompletionSource = { kind: 'binding', file: located.file, name: b.name, offset: b.nameNode.start };
  return completion(b.name, BINDING_KINDS[b.kind], sortPrefix + b.name, source, () => bindingDetails(located, file, workspaceRoot));
}
