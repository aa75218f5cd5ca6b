// Completion for Harn: keywords, names in scope, names exported by imported files and builtins; after
// `Enum.` the enum's variants, after `ui.` (a namespace import) the module's exports. Nothing inside comments or plain string text. `documentation` is Markdown: a
// binding's is its hover (renderBinding), a variant's its HarnDoc through userMarkdown.

import { userMarkdown } from '../text/markdown';
import { HarnAnalysis } from './analysis';
import * as A from './ast';
import { BUILTINS, formatSignature } from './builtins';
import { declarationSignature, renderBinding } from './hover';
import { importedBindings, LocatedBinding, locateExpression, ModuleHost, moduleExports, namespaceModule } from './resolve';
import { BindingKind, visibleBindings } from './scope';
import { KEYWORDS, TokenKind } from './tokens';

export type CompletionKind = 'keyword' | 'function' | 'variable' | 'constant' | 'struct' | 'enum' | 'enumMember' | 'interface' | 'module' | 'field' | 'class';

export interface Completion {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Sorts locals before imports before builtins before keywords. */
  sortText: string;
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
    add({
      label: builtin.name,
      kind: 'function',
      detail: builtin.signatures.map((s) => formatSignature(builtin, s)).join('  |  '),
      documentation: builtin.doc,
      sortText: '2' + builtin.name,
    });
  }
  for (const keyword of KEYWORDS) add({ label: keyword, kind: 'keyword', sortText: '3' + keyword });
  return items;
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
    return decl.variants.map((v) => ({
      label: v.name.text,
      kind: 'enumMember',
      detail: object.analysis.text.slice(v.start, v.end),
      documentation: v.doc === undefined ? undefined : userMarkdown(v.doc),
      sortText: '0' + v.name.text,
    }));
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
  return {
    label: b.name,
    kind: BINDING_KINDS[b.kind],
    detail: declarationSignature(b.declaration, b.nameNode, located.analysis.text).split('\n')[0],
    documentation: renderBinding(located, file, workspaceRoot),
    sortText: sortPrefix + b.name,
  };
}
