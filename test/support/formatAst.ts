// What formatting may and may not change in a Harn file, for the formatter's corpus, fuzz and property
// tests (issue 16): the AST with the formatter's legitimate respellings normalised away, the comments, the
// syntax errors.

import { formatDuration, formatFloat, formatInt } from '../../server/src/harn/format/literals';
import type { Comment } from '../../server/src/harn/lexer';

const IGNORED_FIELDS = new Set(['start', 'end', 'closed', 'doc', 'bodyStart', 'computed']);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * An AST without what the formatter may legitimately respell (rule book §11.8): positions, parentheses
 * (re-derived by precedence), dict key spellings (`"a"` / `["a"]` → `a`), the order of selective import names, `else { if }` vs `else if`,
 * number and duration spellings (printed from their values), doc text (kept as comments), and the order of
 * the leading imports.
 */
export function normalised(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalised);
  if (node === null || typeof node !== 'object') return node;
  const n = node as Record<string, unknown> & { kind?: string };
  if (n.kind === 'Paren') return normalised(n.inner);
  // `(match …)` as a statement: the parentheses made it an expression; without them it is the statement itself.
  if (n.kind === 'ExprStmt') {
    const inner = normalised(n.expr) as { kind?: string; stmt?: unknown };
    if (inner.kind === 'StmtExpr') return inner.stmt;
  }
  if (n.kind === 'Int' || n.kind === 'Float' || n.kind === 'Duration') {
    const raw = String(n.raw);
    return { kind: n.kind, value: n.kind === 'Int' ? formatInt(raw) : n.kind === 'Float' ? formatFloat(raw) : formatDuration(raw) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(n)) if (!IGNORED_FIELDS.has(key)) out[key] = normalised(value);
  if (n.kind === 'DictEntry') {
    const key = n.key as { kind?: string; text?: string; value?: string; raw?: boolean } | undefined;
    if (key?.kind === 'Name') out.key = key.text;
    else if (key?.kind === 'String' && !key.raw && key.value !== undefined && IDENTIFIER.test(key.value)) out.key = key.value;
  }
  if (n.kind === 'ImportDecl' && Array.isArray(out.names)) {
    // Selective import names are printed sorted (§6.1); their order means nothing.
    out.names = (out.names as { text?: string }[])
      .map((name) => JSON.stringify(name))
      .sort()
      .map((name) => JSON.parse(name) as unknown);
  }
  if (n.kind === 'SourceFile' && Array.isArray(out.statements)) {
    // The leading import run is sorted by the formatter (§6.1): compare it as a set.
    const statements = out.statements as { kind?: string }[];
    let imports = 0;
    while (statements[imports]?.kind === 'ImportDecl') imports++;
    const sorted = statements
      .slice(0, imports)
      .map((s) => JSON.stringify(s))
      .sort();
    out.statements = [...sorted.map((s) => JSON.parse(s) as unknown), ...statements.slice(imports)];
  }
  if (n.kind === 'If') {
    const otherwise = out.otherwise as { kind?: string; statements?: { kind?: string }[] } | undefined;
    const only = otherwise?.kind === 'Block' && otherwise.statements?.length === 1 ? otherwise.statements[0] : undefined;
    if (only?.kind === 'If') out.otherwise = only;
  }
  return out;
}

/**
 * The texts of the non-doc comments (doc runs are merged into blocks), as a sorted list: none lost, none
 * added. Line comments are compared trimmed, and section bars as what they are redrawn to (§4.4): a bar of
 * any width is one `bar`, a titled bar `// ---- T ----` is bar, `// T`, bar.
 */
export function sameComments(source: string, before: Comment[], output: string, after: Comment[]): boolean {
  const texts = (text: string, comments: Comment[]): string =>
    JSON.stringify(
      comments
        .filter((c) => c.kind === 'line' || c.kind === 'block')
        .flatMap((c) => {
          const spelled = text.slice(c.start, c.end).trimEnd();
          if (c.kind === 'block') return [spelled];
          const body = spelled.slice(2).trim();
          if (/^-{4,}$/.test(body)) return ['bar'];
          const titled = /^-{4,}\s*(.*?)\s*(?:-{4,})?$/.exec(body);
          return titled?.[1] ? ['bar', `//${titled[1]}`, 'bar'] : [`//${body}`];
        })
        .sort(),
    );
  return texts(source, before) === texts(output, after);
}

/** The same error messages in the same order; lexer messages name their line, which moves when the text around is formatted. */
export function sameErrors(before: { message: string }[], after: { message: string }[]): boolean {
  const messages = (list: { message: string }[]): string => JSON.stringify(list.map((d) => d.message.replace(/ at \d+:\d+$/, '')));
  return messages(before) === messages(after);
}
