// The hierarchical outline of a Harn file: declarations with their members, in source order.
// Pure: AST in, plain data (offsets) out.

import { MAX_OUTLINE_SYMBOLS, SymbolBudget } from '../outlineCap';
import * as A from './ast';

export type OutlineKind =
  | 'pipeline'
  | 'function'
  | 'method'
  | 'tool'
  | 'skill'
  | 'evalPack'
  | 'struct'
  | 'field'
  | 'enum'
  | 'variant'
  | 'typeAlias'
  | 'interface'
  | 'impl'
  | 'constant'
  | 'variable'
  | 'import';

export interface OutlineSymbol {
  name: string;
  detail: string;
  kind: OutlineKind;
  start: number;
  end: number;
  selectionStart: number;
  selectionEnd: number;
  children: OutlineSymbol[];
}

/** An outline capped at MAX_OUTLINE_SYMBOLS (outlineCap.ts): the first symbols, and how many more there were. */
export interface Outline {
  symbols: OutlineSymbol[];
  omitted: number;
  /** The offset of the first symbol left out. */
  firstOmitted: number | undefined;
}

/**
 * The outline, at most `max` symbols in document order (a parent before its children); the rest are only
 * counted, so a 20 MB file of declarations holds a few thousand symbols, not a million. Names and details are
 * short whatever the source: a detail is cut from at most a few hundred characters of it.
 */
export function cappedOutline(file: A.SourceFile, source: string, max = MAX_OUTLINE_SYMBOLS): Outline {
  const ctx: Ctx = { source, budget: new SymbolBudget(max) };
  const symbols: OutlineSymbol[] = [];
  for (const stmt of file.statements) collectStatement(stmt, ctx, symbols, true);
  return { symbols, omitted: ctx.budget.omitted, firstOmitted: ctx.budget.firstOmitted };
}

export function outline(file: A.SourceFile, source: string): OutlineSymbol[] {
  return cappedOutline(file, source).symbols;
}

/**
 * One top-level statement's outline symbols, uncapped (the workspace index outlines a file statement by statement).
 * Details are read from `source`: '' leaves them without the source's text.
 */
export function statementOutline(stmt: A.Stmt, source: string): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  collectStatement(stmt, { source, budget: new SymbolBudget(Number.POSITIVE_INFINITY) }, symbols, true);
  return symbols;
}

interface Ctx {
  source: string;
  budget: SymbolBudget;
}

/** Adds the symbol `make` builds to `into` when the budget keeps it (returned, for its children); else counts it. */
function add(ctx: Ctx, into: OutlineSymbol[] | undefined, node: A.NodeBase, make: () => OutlineSymbol): OutlineSymbol | undefined {
  // A parent left out leaves its children out too (the budget is spent): they are only counted.
  if (!ctx.budget.take(node.start) || into === undefined) return undefined;
  const made = make();
  into.push(made);
  return made;
}

function symbol(name: A.Name | undefined, fallback: string, kind: OutlineKind, node: A.NodeBase, detail: string): OutlineSymbol {
  const selection = name ?? node;
  return {
    name: truncate(name?.text ?? fallback, NAME_MAX),
    detail: truncate(detail),
    kind,
    start: node.start,
    end: Math.max(node.end, selection.end),
    selectionStart: selection.start,
    selectionEnd: name ? name.end : Math.min(node.end, node.start + 1),
    children: [],
  };
}

const NAME_MAX = 120;
const DETAIL_MAX = 80;

/** Source text for a detail, whitespace collapsed, read from at most a few times DETAIL_MAX characters. */
export function snippet(source: string, start: number, end: number): string {
  const cut = Math.min(end, start + 4 * DETAIL_MAX);
  const slice = source.slice(start, cut);
  // Most snippets (a parameter, a type) hold no whitespace to collapse: the regular expression's replace would copy
  // each anyway, and the outline of a long file is made again at every keystroke.
  const text = collapsed(slice) ? slice : slice.replace(/\s+/g, ' ');
  return cut < end ? `${text}…` : text;
}

/** Whether `text` is what `text.replace(/\s+/g, ' ')` gives: no whitespace but single spaces (ASCII only; else unsure). */
function collapsed(text: string): boolean {
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (space) return false;
      space = true;
      continue;
    }
    // Tab, line feed, vertical tab, form feed, carriage return; and any non-ASCII character (Unicode spaces).
    if ((c >= 9 && c <= 13) || c > 127) return false;
    space = false;
  }
  return true;
}

function paramsText(params: A.Param[], source: string): string {
  let out = '(';
  // Index loops here and in nestedIn: an iterator's step objects were most of what an outline allocated.
  for (let i = 0; i < params.length; i++) {
    if (out.length > DETAIL_MAX) return `${out}…)`;
    const p = params[i] as A.Param;
    out += (i > 0 ? ', ' : '') + snippet(source, p.start, p.end);
  }
  return `${out})`;
}

function typeText(type: A.TypeExpr | undefined, source: string): string {
  return type ? snippet(source, type.start, type.end) : '';
}

function collectStatement(stmt: A.Stmt, ctx: Ctx, into: OutlineSymbol[] | undefined, topLevel: boolean): void {
  const { source } = ctx;
  switch (stmt.kind) {
    case 'FnDecl':
      fnSymbol(stmt, ctx, into, 'function');
      return;
    case 'PipelineDecl': {
      const detail = (): string => paramsText(stmt.params, source) + (stmt.extendsName ? ` extends ${stmt.extendsName.text}` : '');
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(pipeline)', 'pipeline', stmt, detail()));
      nestedIn(stmt.body, ctx, made?.children);
      return;
    }
    case 'ToolDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(tool)', 'tool', stmt, paramsText(stmt.params, source)));
      nestedIn(stmt.body, ctx, made?.children);
      return;
    }
    case 'SkillDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(skill)', 'skill', stmt, 'skill'));
      for (const e of stmt.entries) add(ctx, made?.children, e, () => symbol(e.key, e.key.text, 'field', e, ''));
      return;
    }
    case 'EvalPackDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, stmt.title?.value ?? '(eval_pack)', 'evalPack', stmt, stmt.title?.value ?? 'eval_pack'));
      nestedIn(stmt.body, ctx, made?.children);
      return;
    }
    case 'StructDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(struct)', 'struct', stmt, 'struct'));
      for (const f of stmt.fields) {
        add(ctx, made?.children, f, () => symbol(f.name, f.name.text, 'field', f, (f.optional ? '?' : '') + (f.type ? `: ${typeText(f.type, source)}` : '')));
      }
      return;
    }
    case 'EnumDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(enum)', 'enum', stmt, 'enum'));
      for (const v of stmt.variants)
        add(ctx, made?.children, v, () => symbol(v.name, v.name.text, 'variant', v, v.params.length ? paramsText(v.params, source) : ''));
      return;
    }
    case 'TypeAliasDecl':
      add(ctx, into, stmt, () => symbol(stmt.name, '(type)', 'typeAlias', stmt, typeText(stmt.type, source)));
      return;
    case 'InterfaceDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(interface)', 'interface', stmt, 'interface'));
      for (const t of stmt.associatedTypes) add(ctx, made?.children, t, () => symbol(t.name, '(type)', 'typeAlias', t, typeText(t.type, source)));
      for (const m of stmt.methods) fnSymbol(m, ctx, made?.children, 'method');
      return;
    }
    case 'ImplDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(impl)', 'impl', stmt, stmt.traitName ? `impl ${stmt.traitName.text}` : 'impl'));
      for (const m of stmt.methods) fnSymbol(m, ctx, made?.children, 'method');
      return;
    }
    case 'OverrideDecl': {
      const made = add(ctx, into, stmt, () => symbol(stmt.name, '(override)', 'function', stmt, 'override ' + paramsText(stmt.params, source)));
      nestedIn(stmt.body, ctx, made?.children);
      return;
    }
    case 'ImportDecl':
      // `import * as ui from "…"` binds a name, like a top-level `let`; other imports bind none.
      if (topLevel && stmt.namespace) {
        const namespace = stmt.namespace;
        add(ctx, into, stmt, () => symbol(namespace, namespace.text, 'import', stmt, stmt.path?.value ?? ''));
      }
      return;
    case 'LetDecl':
      if (!topLevel) return;
      for (const name of boundNames(stmt.pattern)) {
        add(ctx, into, stmt, () =>
          symbol(name, name.text, stmt.keyword === 'var' ? 'variable' : 'constant', stmt, stmt.type ? typeText(stmt.type, source) : stmt.keyword),
        );
      }
      return;
    default:
      return;
  }
}

function fnSymbol(fn: A.FnDecl, ctx: Ctx, into: OutlineSymbol[] | undefined, kind: 'function' | 'method'): void {
  const detail = (): string => paramsText(fn.params, ctx.source) + (fn.returnType ? ` -> ${typeText(fn.returnType, ctx.source)}` : '');
  const made = add(ctx, into, fn, () => symbol(fn.name, '(fn)', kind, fn, detail()));
  nestedIn(fn.body, ctx, made?.children);
}

/** Declarations nested inside a body (declarations are ordinary statements and may appear in blocks). */
function nestedIn(body: A.Block | undefined, ctx: Ctx, into: OutlineSymbol[] | undefined): void {
  if (!body) return;
  const statements = body.statements;
  for (let i = 0; i < statements.length; i++) collectStatement(statements[i] as A.Stmt, ctx, into, false);
}

export function boundNames(pattern: A.BindingPattern | undefined): A.Name[] {
  if (!pattern) return [];
  if (pattern.kind === 'Name') return [pattern];
  return pattern.entries.map((e) => e.alias ?? e.key);
}

function truncate(text: string, max = 80): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
