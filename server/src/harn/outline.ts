// The hierarchical outline of a Harn file: declarations with their members, in source order.
// Pure: AST in, plain data (offsets) out.

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

export function outline(file: A.SourceFile, source: string): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const stmt of file.statements) collectStatement(stmt, source, out, true);
  return out;
}

function symbol(
  name: A.Name | undefined,
  fallback: string,
  kind: OutlineKind,
  node: A.NodeBase,
  detail: string,
  children: OutlineSymbol[] = [],
): OutlineSymbol {
  const selection = name ?? node;
  return {
    name: name?.text ?? fallback,
    detail,
    kind,
    start: node.start,
    end: Math.max(node.end, selection.end),
    selectionStart: selection.start,
    selectionEnd: name ? name.end : Math.min(node.end, node.start + 1),
    children,
  };
}

function paramsText(params: A.Param[], source: string): string {
  return `(${params.map((p) => source.slice(p.start, p.end).replace(/\s+/g, ' ')).join(', ')})`;
}

function typeText(type: A.TypeExpr | undefined, source: string): string {
  return type ? source.slice(type.start, type.end).replace(/\s+/g, ' ') : '';
}

function collectStatement(stmt: A.Stmt, source: string, out: OutlineSymbol[], topLevel: boolean): void {
  switch (stmt.kind) {
    case 'FnDecl':
      out.push(fnSymbol(stmt, source, 'function'));
      return;
    case 'PipelineDecl':
      out.push(
        symbol(
          stmt.name,
          '(pipeline)',
          'pipeline',
          stmt,
          paramsText(stmt.params, source) + (stmt.extendsName ? ` extends ${stmt.extendsName.text}` : ''),
          nestedIn(stmt.body, source),
        ),
      );
      return;
    case 'ToolDecl':
      out.push(symbol(stmt.name, '(tool)', 'tool', stmt, paramsText(stmt.params, source), nestedIn(stmt.body, source)));
      return;
    case 'SkillDecl':
      out.push(
        symbol(
          stmt.name,
          '(skill)',
          'skill',
          stmt,
          'skill',
          stmt.entries.map((e) => symbol(e.key, e.key.text, 'field', e, '')),
        ),
      );
      return;
    case 'EvalPackDecl':
      out.push(symbol(stmt.name, stmt.title?.value ?? '(eval_pack)', 'evalPack', stmt, stmt.title?.value ?? 'eval_pack', nestedIn(stmt.body, source)));
      return;
    case 'StructDecl':
      out.push(
        symbol(
          stmt.name,
          '(struct)',
          'struct',
          stmt,
          'struct',
          stmt.fields.map((f) => symbol(f.name, f.name.text, 'field', f, (f.optional ? '?' : '') + (f.type ? `: ${typeText(f.type, source)}` : ''))),
        ),
      );
      return;
    case 'EnumDecl':
      out.push(
        symbol(
          stmt.name,
          '(enum)',
          'enum',
          stmt,
          'enum',
          stmt.variants.map((v) => symbol(v.name, v.name.text, 'variant', v, v.params.length ? paramsText(v.params, source) : '')),
        ),
      );
      return;
    case 'TypeAliasDecl':
      out.push(symbol(stmt.name, '(type)', 'typeAlias', stmt, truncate(typeText(stmt.type, source))));
      return;
    case 'InterfaceDecl':
      out.push(
        symbol(stmt.name, '(interface)', 'interface', stmt, 'interface', [
          ...stmt.associatedTypes.map((t) => symbol(t.name, '(type)', 'typeAlias', t, truncate(typeText(t.type, source)))),
          ...stmt.methods.map((m) => fnSymbol(m, source, 'method')),
        ]),
      );
      return;
    case 'ImplDecl':
      out.push(
        symbol(
          stmt.name,
          '(impl)',
          'impl',
          stmt,
          stmt.traitName ? `impl ${stmt.traitName.text}` : 'impl',
          stmt.methods.map((m) => fnSymbol(m, source, 'method')),
        ),
      );
      return;
    case 'OverrideDecl':
      out.push(symbol(stmt.name, '(override)', 'function', stmt, 'override ' + paramsText(stmt.params, source), nestedIn(stmt.body, source)));
      return;
    case 'ImportDecl':
      // `import * as ui from "…"` binds a name, like a top-level `let`; other imports bind none.
      if (topLevel && stmt.namespace) out.push(symbol(stmt.namespace, stmt.namespace.text, 'import', stmt, stmt.path?.value ?? ''));
      return;
    case 'LetDecl':
      if (!topLevel) return;
      for (const name of boundNames(stmt.pattern)) {
        out.push(
          symbol(name, name.text, stmt.keyword === 'var' ? 'variable' : 'constant', stmt, stmt.type ? typeText(stmt.type, source) : stmt.keyword),
        );
      }
      return;
    default:
      return;
  }
}

function fnSymbol(fn: A.FnDecl, source: string, kind: 'function' | 'method'): OutlineSymbol {
  const ret = fn.returnType ? ` -> ${typeText(fn.returnType, source)}` : '';
  return symbol(fn.name, '(fn)', kind, fn, truncate(paramsText(fn.params, source) + ret), nestedIn(fn.body, source));
}

/** Declarations nested inside a body (declarations are ordinary statements and may appear in blocks). */
function nestedIn(body: A.Block | undefined, source: string): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  if (body) for (const stmt of body.statements) collectStatement(stmt, source, out, false);
  return out;
}

export function boundNames(pattern: A.BindingPattern | undefined): A.Name[] {
  if (!pattern) return [];
  if (pattern.kind === 'Name') return [pattern];
  return pattern.entries.map((e) => e.alias ?? e.key);
}

function truncate(text: string, max = 80): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
