// Signature help for Harn: the call around the cursor, found from the tokens (so it works while the call is
// being typed and the file does not parse), its callee named as the inlay hints name it (the parser's Call node
// at that `(`: `ask_user(` and `fold<int, int>(` included; the token before the `(` when the parse lost the
// call), resolved like a hover (a declaration in the file, one imported through the ModuleHost, a namespace
// member, a builtin), and the active parameter counted from the commas at the call's own level: not those
// inside nested calls, lists, dicts, closures or `${}` holes of a string, and a named argument `name: value`
// activates the parameter of that name.

import { userMarkdown } from '../text/markdown';
import { HarnAnalysis } from './analysis';
import * as A from './ast';
import { Builtin, BuiltinParam, BuiltinSignature } from './builtins';
import { LocatedBinding, locateExpression, ModuleHost, targetAt } from './resolve';
import { BindingKind } from './scope';
import { HITL_KEYWORDS, Token, TokenKind } from './tokens';

export interface SignatureParameter {
  /** [start, end) of the parameter in the signature's label. */
  label: [number, number];
  name: string;
  rest: boolean;
}

export interface Signature {
  label: string;
  /** Markdown (a HarnDoc comment is passed through userMarkdown), or undefined. */
  documentation: string | undefined;
  parameters: SignatureParameter[];
}

export interface SignatureHelpResult {
  signatures: Signature[];
  activeSignature: number;
  activeParameter: number;
}

/** Where the enclosing call's `(` is, where its callee's last name starts, and which argument the cursor is in. */
export interface CallSite {
  open: Token;
  calleeStart: number;
  /** 0-based: the commas at the call's level before the cursor. */
  argument: number;
  /** `name:` when the cursor's argument is named. */
  argumentName: string | undefined;
}

const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);
/** Keywords before a name whose `(` opens a parameter list, not a call. */
const DECLARING = new Set(['fn', 'tool', 'pipeline', 'override']);

/** The index of the last token ending at or before `offset`. */
function lastTokenBefore(tokens: readonly Token[], offset: number): number {
  let low = 0;
  let high = tokens.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const t = tokens[mid];
    if (!t) break;
    if (t.end <= offset) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** Where the statement holding `offset` starts (its innermost block's), so that the scan never reads into an earlier statement. */
function statementStart(file: A.SourceFile, offset: number): number {
  const path = A.nodePathAt(file, offset);
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i];
    if (node?.kind !== 'Block' && node?.kind !== 'SourceFile') continue;
    // A cursor right before a block's `{` or right after its `}` is outside it (nodePathAt counts both ends in).
    const inside = node.kind === 'SourceFile' || (node.start < offset && (offset < node.end || !node.closed));
    if (!inside) continue;
    let start = node.start;
    for (const stmt of node.statements) if (stmt.start <= offset) start = stmt.start;
    return start;
  }
  return 0;
}

/** The token a callee is named by: `f` of `f(…)` and `f<T>(…)`, `b` of `a.b(…)`; undefined for any other callee (`f()(…)`). */
export function calleeNameStart(callee: A.Expr): number | undefined {
  if (callee.kind === 'Identifier') return callee.start;
  if (callee.kind === 'Member' && callee.property) return callee.property.start;
  return undefined;
}

/** The parser's Call whose argument list the `(` at `open` opens, if the parse kept one. */
function callOpenedAt(analysis: HarnAnalysis, open: Token): A.Call | undefined {
  const path = A.nodePathAt(analysis.file, open.start);
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i];
    if (node?.kind !== 'Call') continue;
    const first = node.args[0];
    // `f(a)(b)`: the outer call's callee ends before the second `(`, but so does the inner one's: the right one has no argument before `open`.
    if (first && first.start < open.end) continue;
    const lastTypeArg = node.typeArgs[node.typeArgs.length - 1];
    const between = analysis.text.slice(lastTypeArg?.end ?? node.callee.end, open.start);
    if (lastTypeArg ? /^\s*>\s*$/.test(between) : /^[ \t]*$/.test(between)) return node;
  }
  return undefined;
}

/** Where the callee of the call whose `(` is token `openIndex` is named, or undefined when that `(` opens no call of a named callee. */
function calleeBefore(analysis: HarnAnalysis, openIndex: number): number | undefined {
  const tokens = analysis.parsed.tokens;
  const open = tokens[openIndex];
  if (!open) return undefined;
  const call = callOpenedAt(analysis, open);
  if (call) return calleeNameStart(call.callee);
  // The parse lost the call: `f(` and `f (`, and the keywords the parser reads as callees (`ask_user(`); not
  // `if (`, `while (`, nor a declaration's `fn f(`.
  const callee = tokens[openIndex - 1];
  const before = tokens[openIndex - 2];
  const declares = before?.kind === TokenKind.Keyword && DECLARING.has(before.value);
  const named = callee?.kind === TokenKind.Identifier || (callee?.kind === TokenKind.Keyword && HITL_KEYWORDS.has(callee.value));
  if (!callee || !named || declares || !/^[ \t]*$/.test(analysis.text.slice(callee.end, open.start))) return undefined;
  return callee.start;
}

/** The innermost unclosed call around `offset`, read backwards from the tokens. */
export function callSiteAt(analysis: HarnAnalysis, offset: number): CallSite | undefined {
  const tokens = analysis.parsed.tokens;
  const floor = statementStart(analysis.file, offset);
  // Closers met (and `}…"` string tails: a hole closed), waiting for their opener.
  let depth = 0;
  let argument = 0;
  let argumentName: string | undefined;
  // Once a comma is passed, the tokens read belong to earlier arguments: no `name:` of the cursor's argument there.
  let pastCurrentArgument = false;
  const restart = (): void => {
    argument = 0;
    argumentName = undefined;
    pastCurrentArgument = false;
  };
  for (let i = lastTokenBefore(tokens, offset); i >= 0; i--) {
    const t = tokens[i];
    if (!t || t.start < floor) return undefined;
    const punct = t.kind === TokenKind.Punct ? t.value : undefined;
    if (t.kind === TokenKind.StringMiddle) {
      // `}…${` at the call's level: the cursor is in the next hole, and what was counted belongs to it.
      if (depth === 0) restart();
      continue;
    }
    if ((punct !== undefined && CLOSERS.has(punct)) || t.kind === TokenKind.StringTail) {
      depth++;
      continue;
    }
    if ((punct !== undefined && OPENERS.has(punct)) || t.kind === TokenKind.StringHead) {
      if (depth > 0) {
        depth--;
        continue;
      }
      const calleeStart = punct === '(' ? calleeBefore(analysis, i) : undefined;
      if (calleeStart !== undefined) return { open: t, calleeStart, argument, argumentName };
      // A list, dict, block, parenthesis or hole around the cursor: the call we want, if any, is further out.
      restart();
      continue;
    }
    if (depth > 0) continue;
    if (punct === ',') {
      argument++;
      pastCurrentArgument = true;
    } else if (punct === ':' && !pastCurrentArgument) {
      const name = tokens[i - 1];
      const before = tokens[i - 2];
      const startsArgument = before?.kind === TokenKind.Punct && (before.value === ',' || before.value === '(');
      if (name?.kind === TokenKind.Identifier && startsArgument) argumentName = name.value;
    }
  }
  return undefined;
}

export function signatureHelpAt(analysis: HarnAnalysis, file: string, offset: number, host: ModuleHost): SignatureHelpResult | undefined {
  const site = callSiteAt(analysis, offset);
  if (!site) return undefined;
  const signatures = calleeSignatures(analysis, file, site.calleeStart, host);
  return signatures ? choose(signatures, site) : undefined;
}

/** The signatures of the callee named at `nameStart` (one per form of a builtin), or undefined when it is not callable or not found. */
export function calleeSignatures(analysis: HarnAnalysis, file: string, nameStart: number, host: ModuleHost): Signature[] | undefined {
  const target = targetAt(analysis, file, nameStart, host);
  if (target?.kind === 'builtin') return builtinSignatures(target.builtin);
  if (target?.kind !== 'binding') {
    const method = methodAt(analysis, file, nameStart, host);
    return method ? [method] : undefined;
  }
  const { binding, analysis: declaring } = target.located;
  const signature = declaredSignature(binding.declaration, binding.nameNode.text, declaring.text);
  return signature ? [signature] : undefined;
}

const TYPE_KINDS: ReadonlySet<BindingKind> = new Set(['struct', 'enum', 'interface', 'type']);

/** The named type a `let` or parameter declares (`p: Point`), if it declares one. */
export function declaredNamedType(declaration: A.AnyNode): A.NamedType | undefined {
  const annotation = declaration.kind === 'LetDecl' || declaration.kind === 'Param' ? declaration.type : undefined;
  return annotation?.kind === 'NamedType' ? annotation : undefined;
}

/** The type a member's object stands for: the type itself (`Point.origin(`), or a variable's or parameter's declared one (`p.scale(` with `p: Point`). */
function objectType(analysis: HarnAnalysis, file: string, object: A.Expr, host: ModuleHost): LocatedBinding | undefined {
  const located = locateExpression(analysis, file, object, host);
  if (!located) return undefined;
  if (TYPE_KINDS.has(located.binding.kind)) return located;
  const annotation = declaredNamedType(located.binding.declaration);
  if (!annotation) return undefined;
  // The annotation's name is resolved where it is written.
  const type = targetAt(located.analysis, located.file, annotation.name.start, host);
  return type?.kind === 'binding' && TYPE_KINDS.has(type.located.binding.kind) ? type.located : undefined;
}

/**
 * `Type.method(` and `value.method(`: the method of an `impl Type` block (in the type's own file or in this one),
 * its `self` left out, since the call does not pass it.
 */
function methodAt(analysis: HarnAnalysis, file: string, nameStart: number, host: ModuleHost): Signature | undefined {
  const path = A.nodePathAt(analysis.file, nameStart);
  const member = path[path.length - 2];
  if (member?.kind !== 'Member' || member.property?.start !== nameStart) return undefined;
  const type = objectType(analysis, file, member.object, host);
  if (!type) return undefined;
  const typeName = type.binding.name;
  const methodName = member.property.text;
  for (const where of type.analysis === analysis ? [analysis] : [type.analysis, analysis]) {
    for (const stmt of where.file.statements) {
      if (stmt.kind !== 'ImplDecl' || stmt.name?.text !== typeName) continue;
      const method = stmt.methods.find((m) => m.name?.text === methodName);
      if (!method) continue;
      const params = method.params[0]?.name.text === 'self' ? method.params.slice(1) : method.params;
      const doc = method.doc ? userMarkdown(method.doc) : undefined;
      return { ...build(`fn ${typeName}.${methodName}`, paramsOf(params, where.text), returns(method.returnType, where.text)), documentation: doc };
    }
  }
  return undefined;
}

/** The index of the first signature that takes an argument at 0-based `argument` (or one named `argumentName`); 0 when none does. */
export function fittingSignature(signatures: readonly Signature[], argument: number, argumentName?: string): number {
  const index = signatures.findIndex(({ parameters: params }) =>
    argumentName !== undefined ? params.some((p) => p.name === argumentName) : argument < params.length || params.some((p) => p.rest),
  );
  return Math.max(0, index);
}

/** The first signature that takes that many arguments (or the named one), and its active parameter. */
function choose(signatures: Signature[], site: CallSite): SignatureHelpResult {
  const activeSignature = fittingSignature(signatures, site.argument, site.argumentName);
  const params = signatures[activeSignature]?.parameters ?? [];
  let activeParameter = site.argument;
  const named = site.argumentName === undefined ? -1 : params.findIndex((p) => p.name === site.argumentName);
  if (named >= 0) activeParameter = named;
  else {
    const rest = params.findIndex((p) => p.rest);
    if (rest >= 0 && activeParameter > rest) activeParameter = rest;
  }
  return { signatures, activeSignature, activeParameter };
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Builds `name(p1, p2) -> R` and each parameter's place in it. */
function build(head: string, params: { text: string; name: string; rest: boolean }[], tail: string): Omit<Signature, 'documentation'> {
  let label = `${head}(`;
  const parameters: SignatureParameter[] = [];
  params.forEach((p, i) => {
    if (i > 0) label += ', ';
    parameters.push({ label: [label.length, label.length + p.text.length], name: p.name, rest: p.rest });
    label += p.text;
  });
  return { label: `${label})${tail}`, parameters };
}

function builtinSignatures(b: Builtin): Signature[] {
  return b.signatures.map((s: BuiltinSignature) => {
    const params = s.params.map((p: BuiltinParam) => {
      let text = (p.rest ? '...' : '') + p.name;
      if (p.type) text += `: ${p.type}`;
      if (p.optional && !p.rest) text += ' = nil';
      return { text, name: p.name, rest: p.rest === true };
    });
    // Builtin docs are ours (builtins.ts): Markdown as written.
    return { ...build(`fn ${b.name}`, params, s.returns ? ` -> ${s.returns}` : ''), documentation: b.doc };
  });
}

const paramsOf = (params: readonly A.Param[], source: string): { text: string; name: string; rest: boolean }[] =>
  params.map((p) => ({ text: collapse(source.slice(p.start, p.end)), name: p.name.text, rest: p.rest }));
const returns = (type: A.TypeExpr | undefined, source: string): string => (type ? ` -> ${collapse(source.slice(type.start, type.end))}` : '');

/** A function, tool or pipeline declaration's signature, or a `let f = fn(…)` / closure's; undefined for anything not callable. */
export function declaredSignature(decl: A.AnyNode, name: string, source: string): Signature | undefined {
  const doc = 'doc' in decl && typeof decl.doc === 'string' && decl.doc.length > 0 ? userMarkdown(decl.doc) : undefined;
  switch (decl.kind) {
    case 'FnDecl':
      return { ...build(`fn ${name}`, paramsOf(decl.params, source), returns(decl.returnType, source)), documentation: doc };
    case 'ToolDecl':
      return { ...build(`tool ${name}`, paramsOf(decl.params, source), returns(decl.returnType, source)), documentation: doc };
    case 'PipelineDecl':
      return { ...build(`pipeline ${name}`, paramsOf(decl.params, source), returns(decl.returnType, source)), documentation: doc };
    case 'LetDecl': {
      const init = decl.init;
      if (init?.kind === 'FnExpr') return { ...build(`fn ${name}`, paramsOf(init.params, source), returns(init.returnType, source)), documentation: doc };
      if (init?.kind === 'Closure') return { ...build(name, paramsOf(init.params, source), ''), documentation: doc };
      return undefined;
    }
    default:
      return undefined;
  }
}
