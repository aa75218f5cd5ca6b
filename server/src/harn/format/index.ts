// `harn fmt` (harn-fmt 0.7.50) over our AST, following the rule book RULES.md beside it (§ numbers below
// refer to it). Like upstream, two printers: the statement printer renders statement-position bodies and
// claims whole-line comments by line ranges (§4.1); the expression printer returns text for a node at a
// logical depth and never claims comments (§3.1). There is no layout search: every break is a local rule.
// A file with syntax errors (which upstream refuses) is formatted around them: the top-level items that hold
// an error, or touch one's lines, are copied byte for byte, whole lines; the others are formatted.

import * as A from '../ast';
import { Comment } from '../lexer';
import { LineIndex } from '../../text/lineIndex';
import { parse, ParseResult } from '../parser';
import { Token, TokenKind } from '../tokens';
import { formatDuration, formatFloat, formatInt, utf8Length, utf8LengthUpTo } from './literals';
import { pushAll } from '../../util/arrays';
import { lastAtMost, runningMax, TakeAtLeast } from '../../util/prefixMax';

export interface FormatOptions {
  /** `[fmt] line_width`, default 100. */
  lineWidth: number;
  /** `[fmt] separator_width`, default 80: the width of the top-level `// ----` section bars (§4.4). */
  separatorWidth: number;
}

export const DEFAULT_FORMAT_OPTIONS: FormatOptions = { lineWidth: 100, separatorWidth: 80 };

export type FormatResult = { text: string } | { refused: string };

export function format(text: string, options: FormatOptions = DEFAULT_FORMAT_OPTIONS): FormatResult {
  const source = formatterSource(text);
  return formatParsed(source, parse(source), options);
}

/** The text the formatter reads for `text`: without a BOM, with LF line ends only. */
export function formatterSource(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.includes('\r') ? withoutBom.replace(/\r\n?/g, '\n') : withoutBom;
}

/**
 * format() of a text whose formatter source (formatterSource) is `source`, parsed already as `parsed`: for a caller
 * that needs the parse too (range formatting), so that a large file is not parsed twice per request.
 */
export function formatParsed(source: string, parsed: ParseResult, options: FormatOptions = DEFAULT_FORMAT_OPTIONS): FormatResult {
  const first = parsed.diagnostics[0];
  const refusal = (message: string): FormatResult => {
    if (!first) return { refused: message };
    // 1-based, as upstream's messages give them (the text is LF-only here).
    const { line, character } = new LineIndex(source).positionAt(first.start);
    const at = `${line + 1}:${character + 1}`;
    return { refused: `cannot format around the syntax error: ${first.message.endsWith(` at ${at}`) ? first.message : `${first.message} at ${at}`}` };
  };
  try {
    const printer = new Printer(source, parsed.file, parsed.comments, options);
    if (parsed.diagnostics.length > 0 && !printer.markBroken(parsed.diagnostics, parsed.tokens)) return refusal('syntax error');
    return { text: printer.program() };
  } catch (error) {
    if (error instanceof TooDeep) return { refused: `cannot format: ${error.message}` };
    if (error instanceof Refusal) return refusal(error.message);
    throw error;
  }
}

class Refusal extends Error {}

/** A refusal for what cannot be printed (too deep), whatever syntax errors the file has: its own reason is given. */
class TooDeep extends Refusal {}

/**
 * Deepest indentation (in levels) the printer writes. Only an expression-position `else if` ladder nests in the
 * output more than it does in the parser (which stops at its MAX_NESTING of 128): each branch one block deeper.
 */
const MAX_PRINT_DEPTH = 1000;

/** No lines (claim's answer when there is no comment to print), shared. */
const NO_LINES: readonly string[] = [];

/** Indentation strings by depth, built once each. */
const PADS: string[] = [];
const pad = (depth: number): string => (PADS[depth] ??= '  '.repeat(depth));

/** §7.3 precedence, low → high; anything absent is 11. */
const PRECEDENCE: ReadonlyMap<string, number> = new Map([
  ['|>', 1],
  ['||', 3],
  ['&&', 4],
  ['==', 5],
  ['!=', 5],
  ['<', 6],
  ['>', 6],
  ['<=', 6],
  ['>=', 6],
  ['in', 6],
  ['not in', 6],
  ['is', 6],
  ['+', 7],
  ['-', 7],
  ['??', 8],
  ['*', 9],
  ['/', 9],
  ['%', 9],
  ['**', 10],
]);
const precedence = (op: string): number => PRECEDENCE.get(op) ?? 11;

/** §5.2: operators a line may start with; breaking before any other one needs a `\` continuation. */
const SAFE_AFTER_NEWLINE = new Set(['|>', '||', '&&', '==', '!=', '<', '>', '<=', '>=', '??', '+', '*', '/', '%', '**']);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** No line break and only ASCII, so that the UTF-8 width is the length (a loop: cheaper than a regex test). */
function isAsciiLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c > 0x7f) return false;
  }
  return true;
}

/** Strips the source's parentheses: the printer re-derives them (§7.3). */
function unparen(expr: A.Expr): A.Expr {
  let e = expr;
  while (e.kind === 'Paren') {
    if (!e.inner) throw new Refusal('empty parentheses');
    e = e.inner;
  }
  return e;
}

class Printer {
  private readonly lines: LineIndex;
  /** Comments by the line they start on (§4). */
  private readonly commentsByLine = new Map<number, Comment[]>();
  /** commentsByLine's lines, ascending: claim visits only these, not every line of its range. */
  private readonly commentLines: number[] = [];
  /** 1 at the (1-based) lines whose comments are printed: an array by line, cheaper to ask than a Set. */
  private readonly emitted: Uint8Array;
  private lastCommentLine = 0;
  private readonly shebang: string | undefined;
  /** Top-level items copied verbatim, with the source range (whole lines) they are copied from. */
  private readonly verbatim = new Map<A.Stmt, { from: number; to: number }>();
  /** The file ends inside an unterminated string: a newline added after it would become part of its value. */
  private endsInsideString = false;

  constructor(
    private readonly source: string,
    private readonly file: A.SourceFile,
    private readonly comments: Comment[],
    private readonly options: FormatOptions,
  ) {
    // format() hands over LF-only text: its line starts are the offsets after each \n, found without the
    // whole-text search for a \r that LineIndex would make.
    const starts = [0];
    for (let nl = source.indexOf('\n'); nl !== -1; nl = source.indexOf('\n', nl + 1)) starts.push(nl + 1);
    this.lines = new LineIndex(source, starts);
    // Lines up to the last one, and two past it (claimTopLevel looks at the two lines after a comment).
    this.emitted = new Uint8Array(starts.length + 3);
    if (source.startsWith('#!')) {
      const nl = source.indexOf('\n');
      this.shebang = nl < 0 ? source : source.slice(0, nl);
    }
    let unordered = false;
    for (const comment of comments) {
      if (this.shebang !== undefined && comment.start === 0) continue;
      const line = this.line(comment.start);
      const list = this.commentsByLine.get(line);
      if (list) list.push(comment);
      else {
        if (line < this.lastCommentLine) unordered = true;
        this.commentsByLine.set(line, [comment]);
        this.commentLines.push(line);
      }
      this.lastCommentLine = Math.max(this.lastCommentLine, line);
    }
    // The lexer gives comments in source order: their lines come ascending, sorted only if they do not.
    if (unordered) this.commentLines.sort((a, b) => a - b);
  }

  /** The 0-based line last found by line(): the printer mostly asks about the same line or the next ones. */
  private lineHint = 0;

  /**
   * How many postfix and binary frames are open (see postfix, binary): a chain is printed a link per call up to
   * CHAIN_FRAMES of them, as fast as the printer can, and past that with loops, which allocate their lists.
   */
  private chainFrames = 0;

  /** 1-based line of a UTF-16 offset. */
  private line(offset: number): number {
    const starts = this.lines.lineStarts;
    const hint = this.lineHint;
    if ((starts[hint] ?? 0) <= offset && offset < (starts[hint + 1] ?? Infinity)) return hint + 1;
    const line = this.lines.lineAt(offset);
    this.lineHint = line;
    return line + 1;
  }

  private startLine(node: A.NodeBase): number {
    const n = node as A.Expr;
    return this.line(n.kind === 'Paren' && n.inner ? unparen(n).start : node.start);
  }

  private endLine(node: A.NodeBase): number {
    return this.line(Math.max(node.start, node.end - 1));
  }

  private slice(node: A.NodeBase): string {
    return this.source.slice(node.start, node.end);
  }

  // ----------------------------------------------------------------------------------- comments

  /** Whole-line comments starting on lines [from, to) not yet printed, one output line each (§4.3). */
  private claim(from: number, to: number, depth: number): readonly string[] {
    const lines = this.commentLines;
    const first = this.firstCommentLine(from);
    // Most statements have no comment above them: nothing allocated for those.
    if (first >= lines.length || (lines[first] as number) >= to) return NO_LINES;
    const out: string[] = [];
    // A one-line doc block printed last: a doc run printed right after it joins it, as the next format
    // would (the two end up on consecutive lines), so that the result is a fixed point.
    let lastOneLineDoc: { body: string[]; at: number } | undefined;
    for (let i = first; i < lines.length; i++) {
      const line = lines[i] as number;
      if (line >= to) break;
      if (this.emitted[line] === 1) continue;
      const list = this.commentsByLine.get(line);
      if (!list) continue;
      if (list[0] && isDoc(list[0])) {
        let before: string[] = [];
        if (lastOneLineDoc && lastOneLineDoc.at === out.length - 1) {
          before = lastOneLineDoc.body;
          out.pop();
        }
        const run = this.docRun(line, depth, out, before);
        lastOneLineDoc = run.oneLine ? { body: run.body, at: out.length - 1 } : undefined;
        while ((lines[i + 1] ?? Infinity) < run.next) i++;
        continue;
      }
      this.emitted[line] = 1;
      for (const comment of list) {
        // Trailing blanks dropped by hand: `/[ \t]+$/` retries at every blank of a run.
        let end = comment.end;
        while (end > comment.start && isSpaceOrTab(this.source.charCodeAt(end - 1))) end--;
        out.push(pad(depth) + this.source.slice(comment.start, end));
      }
    }
    return out;
  }

  /** The index in commentLines of the first comment line at or after `line` (a binary search). */
  private firstCommentLine(line: number): number {
    const lines = this.commentLines;
    let low = 0;
    for (let high = lines.length; low < high;) {
      const mid = (low + high) >> 1;
      if ((lines[mid] as number) < line) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * §4.4: `claim` between top-level items, except that section headers — a `// ----` bar, a titled bar
   * `// ---- Title ----`, or bar / `// Title` / bar on three consecutive lines — are redrawn with bars of
   * `separatorWidth` columns and a blank line above and below. Appends to `out` (lines; '' is a blank line).
   */
  private claimTopLevel(from: number, to: number, out: string[]): void {
    const bar = `// ${'-'.repeat(Math.max(0, this.options.separatorWidth - 3))}`;
    const blankLine = (): void => {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
    };
    let segment = from;
    // Only lines holding comments can start a header: visit those, not every line of the range.
    const lines = this.commentLines;
    for (let i = this.firstCommentLine(from); i < lines.length; i++) {
      const line = lines[i] as number;
      if (line >= to) break;
      if (this.emitted[line] === 1) continue;
      // A line comment ending a line shared with other comments counts too: those go on their own lines
      // first, and the bar is then alone on its line, as it will be the next time.
      const here = this.plainLineComment(line, false);
      if (here === undefined) continue;
      let header: string[] | undefined;
      let next = line + 1;
      const title = this.plainLineComment(line + 1)?.trim();
      if (
        sectionBar(here) === '' &&
        line + 2 < to &&
        this.emitted[line + 1] !== 1 &&
        this.emitted[line + 2] !== 1 &&
        title &&
        sectionBar(title) !== '' &&
        sectionBar(this.plainLineComment(line + 2) ?? '') === ''
      ) {
        header = [bar, `// ${title}`, bar];
        next = line + 3;
      } else {
        const kind = sectionBar(here);
        if (kind !== undefined) header = kind === '' ? [bar] : [bar, `// ${kind}`, bar];
      }
      if (!header) continue;
      pushAll(out, this.claim(segment, line, 0));
      for (const c of (this.commentsByLine.get(line) ?? []).slice(0, -1)) out.push(this.source.slice(c.start, c.end).replace(/[ \t]+$/, ''));
      blankLine();
      pushAll(out, header);
      out.push('');
      for (let l = line; l < next; l++) this.emitted[l] = 1;
      segment = next;
      while ((lines[i + 1] ?? Infinity) < next) i++;
    }
    pushAll(out, this.claim(segment, to, 0));
  }

  /** The text after `//` of the last comment on `line` when that is a plain (not doc) line comment — and, if `alone`, the only one. */
  private plainLineComment(line: number, alone = true): string | undefined {
    const list = this.commentsByLine.get(line);
    const last = list && (!alone || list.length === 1) ? list[list.length - 1] : undefined;
    return last?.kind === 'line' ? this.source.slice(last.start + 2, last.end) : undefined;
  }

  /**
   * §4.3: the doc comments on consecutive lines from `line` (not yet printed) are re-rendered as one
   * canonical `/** … *\/` block: `///` runs become blocks, one-line blocks that fit collapse, the star
   * gutter is normalised. Returns the first line after the run.
   */
  private docRun(line: number, depth: number, out: string[], before: string[]): { next: number; body: string[]; oneLine: boolean } {
    let body: string[] = [...before];
    let l = line;
    for (let list = this.commentsByLine.get(l); list && this.emitted[l] !== 1 && list.every(isDoc); list = this.commentsByLine.get(++l)) {
      for (const c of list) pushAll(body, this.docLines(c));
      this.emitted[l] = 1;
    }
    // One slice after counting the leading blank lines: a shift() each was quadratic in their number.
    let first = 0;
    while (body[first] === '') first++;
    if (first > 0) body = body.slice(first);
    while (body[body.length - 1] === '') body.pop();
    const indent = pad(depth);
    const only = body.length === 1 ? body[0] : undefined;
    if (body.length === 0) out.push(`${indent}/** */`);
    else if (only !== undefined && 2 * depth + utf8Length(`/** ${only} */`) <= this.options.lineWidth) out.push(`${indent}/** ${only} */`);
    else {
      out.push(`${indent}/**`);
      for (const b of body) out.push(b === '' ? `${indent} *` : `${indent} * ${b}`);
      out.push(`${indent} */`);
      return { next: l, body, oneLine: false };
    }
    return { next: l, body, oneLine: true };
  }

  private docLines(c: Comment): string[] {
    const text = this.source.slice(c.start, c.end);
    if (c.kind === 'legacyDoc') return [text.slice(3).replace(/^ /, '').trimEnd()];
    const pieces = text.slice(3, text.endsWith('*/') ? -2 : undefined).split('\n');
    const lines = pieces.map((piece, i) => (i === 0 ? piece.trim() : piece.trim().replace(/^\*/, '').replace(/^ /, '')));
    if (lines[0] === '') lines.shift();
    while (lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  // ------------------------------------------------------------------------------ broken files

  /**
   * Marks the top-level items to copy verbatim: those holding a diagnostic or a token no item covers
   * (what recovery skipped), widened to whole lines and merged with any item sharing those lines.
   * False when an error sits before the first item (nothing to attach it to).
   */
  markBroken(diagnostics: { start: number; end: number }[], tokens: Token[]): boolean {
    const items = this.file.statements;
    const ranges = items.map((item) => ({ start: item.start, end: item.end, broken: item.kind === 'ErrorStmt', absorbed: false }));
    // The last item of the run of items starting at or before `offset` (a scan from the first item, found by
    // binary search over the running maximum of the starts: near-linear in the tokens of a broken file).
    const startsSoFar = runningMax(items.map((item) => item.start));
    const owner = (offset: number): number => lastAtMost(startsSoFar, offset);
    const attach = (start: number, end: number): boolean => {
      const index = owner(start);
      const range = ranges[index];
      if (!range) return false;
      range.broken = true;
      range.end = Math.max(range.end, end);
      return true;
    };
    const insideComment = commentCover(this.comments);
    // The items by start, and their ends while unbroken: those never change (attach breaks what it extends).
    const byStart = ranges.map((_, i) => i).sort((a, b) => (ranges[a]?.start ?? 0) - (ranges[b]?.start ?? 0) || a - b);
    const sortedStarts = byStart.map((i) => ranges[i]?.start ?? 0);
    const unbrokenEnds = new TakeAtLeast(byStart.map((i) => (ranges[i]?.broken ? -Infinity : (ranges[i]?.end ?? 0))));
    const beforeStart = new Map<number, number[]>();
    for (let i = 1; i < ranges.length; i++) {
      const start = ranges[i]?.start ?? 0;
      const list = beforeStart.get(start);
      if (list) list.push(i - 1);
      else beforeStart.set(start, [i - 1]);
    }
    for (const d of diagnostics) {
      // An error inside a comment (an unterminated `/*`): comments are not copied with items, refuse.
      if (insideComment(d.start)) return false;
      if (!attach(d.start, d.end)) return false;
      // Also every item whose extent overlaps the error (recovery may end an item past it), and the item
      // before one whose first token is the error: that is usually the unfinished one (`f(a` then `let`).
      // Each found once: an item already broken stays so (the scan of every item for every error was quadratic).
      for (const k of unbrokenEnds.take(lastAtMost(sortedStarts, d.end), d.start)) {
        const r = ranges[byStart[k] ?? -1];
        if (r) r.broken = true;
      }
      for (const i of beforeStart.get(d.start) ?? []) {
        const r = ranges[i];
        if (r) r.broken = true;
      }
    }
    for (const t of tokens) {
      if (t.kind === TokenKind.EOF) continue;
      if (t.terminated === false && t.end === this.source.length) this.endsInsideString = true;
      const index = owner(t.start);
      const range = ranges[index];
      if (!range || t.start >= range.end) {
        if (!attach(t.start, t.end)) return false;
      }
    }
    // Whole lines, absorbing neighbours that share a line with a broken item, until nothing changes.
    for (let changed = true; changed;) {
      changed = false;
      for (let i = 0; i < ranges.length; i++) {
        const r = ranges[i];
        if (!r?.broken || r.absorbed) continue;
        r.start = this.lines.lineStarts[this.line(r.start) - 1] ?? r.start;
        const endLine = this.endLine(r);
        r.end = Math.max(r.start, (this.lines.lineStarts[endLine] ?? this.source.length + 1) - 1);
        const previous = ranges[i - 1];
        const next = ranges[i + 1];
        if (previous && !previous.broken && previous.end > r.start) changed = previous.broken = true;
        if (next && !next.broken && next.start <= r.end) changed = next.broken = true;
        if (next?.broken && next.start <= r.end) {
          next.start = r.start;
          next.end = Math.max(next.end, r.end);
          r.absorbed = true;
          changed = true;
        }
      }
    }
    items.forEach((item, i) => {
      const r = ranges[i];
      if (r?.broken) this.verbatim.set(item, r.absorbed ? { from: r.start, to: r.start } : { from: r.start, to: r.end });
    });
    return true;
  }

  /** The verbatim text of a broken item (its lines' comments count as printed). */
  private verbatimText(range: { from: number; to: number }): string {
    const text = this.source.slice(range.from, range.to);
    for (let line = this.line(range.from); line <= this.line(Math.max(range.from, range.to)); line++) this.emitted[line] = 1;
    return text.replace(/\n$/, '');
  }

  // ------------------------------------------------------------------------------------ program

  program(): string {
    const items = this.file.statements;
    const out: string[] = [];
    let index = 0;
    let previousStart = 0;
    const imports: A.ImportDecl[] = [];
    while (index < items.length && items[index]?.kind === 'ImportDecl') imports.push(items[index++] as A.ImportDecl);
    if (imports.some((item) => this.verbatim.has(item))) {
      // A broken import: no sorting, every item printed in place.
      imports.length = 0;
      index = 0;
    }
    if (imports.length > 0) {
      const fromLines = new Map<A.ImportDecl, number>();
      let from = 1;
      for (const item of imports) {
        fromLines.set(item, from);
        from = this.startLine(item) + 1;
      }
      const sorted = imports.map((item, order) => ({ item, order, key: this.importKey(item) }));
      sorted.sort((a, b) => compareKeys(a.key, b.key) || a.order - b.order);
      for (const { item } of sorted) {
        pushAll(out, this.claim(fromLines.get(item) ?? 1, this.startLine(item), 0));
        out.push(this.importText(item));
      }
      previousStart = this.startLine(imports[imports.length - 1] as A.ImportDecl);
    }
    for (; index < items.length; index++) {
      const item = items[index] as A.Stmt;
      const range = this.verbatim.get(item);
      if (range && range.to === range.from) continue; // absorbed into the next broken item
      if (out.length > 0) out.push('');
      // A statement is never parenthesised: its start line is that of its start (startLine not needed).
      const itemLine = this.line(item.start);
      // From the previous item's own start line (upstream: +1), so that a comment on an item's first line
      // (`fn f() { // c`) is hoisted below it instead of dropped (rule book §13 A).
      this.claimTopLevel(previousStart, range ? this.line(range.from) : itemLine, out);
      if (range) {
        out.push(this.verbatimText(range));
        previousStart = this.line(range.to);
        continue;
      }
      this.writeStmt(item, 0, true, out, '', itemLine);
      previousStart = itemLine;
    }
    const beforeTail = out.length;
    this.claimTopLevel(previousStart, this.lastCommentLine + 1, out);
    // The file ends inside an unterminated string of a broken last item: that item's text runs to the end
    // of the file exactly as it is (no newline added or taken away, it would be part of the string).
    const last = items[items.length - 1];
    const lastRange = last && this.verbatim.get(last);
    if (this.endsInsideString && lastRange && out.length === beforeTail) out[out.length - 1] = this.source.slice(lastRange.from);
    let text = out.join('\n');
    // A section header ends the file: upstream's blank line after it stays (the file ends in `\n\n`).
    if (out.length > beforeTail && out[out.length - 1] === '') text += '\n';
    if (!text.endsWith('\n') && !(this.endsInsideString && lastRange && out.length === beforeTail)) text += '\n';
    if (this.shebang !== undefined) text = this.shebang + '\n' + (text === '\n' ? '' : text);
    return text;
  }

  private importKey(item: A.ImportDecl): string[] {
    const path = item.path?.value ?? (item.path ? this.slice(item.path) : '');
    const names = (item.names ?? []).map((n) => n.text).sort(compareBytes);
    return [path.startsWith('std/') ? '0' : '1', path, item.names ? '1' : '0', names.join(',')];
  }

  private importText(item: A.ImportDecl): string {
    if (item.scopedPath || item.namespace || !item.path) return this.slice(item).trim();
    const pub = item.isPub ? 'pub ' : '';
    const path = this.slice(item.path);
    if (!item.names) return `${pub}import ${path}`;
    const names = item.names.map((n) => n.text).sort(compareBytes);
    const joined = names.join(', ');
    if (9 + utf8Length(joined) + 3 + 6 + utf8Length(path) + 1 > this.options.lineWidth) {
      return `${pub}import {\n${names.map((n) => `  ${n},\n`).join('')}} from ${path}`;
    }
    return `${pub}import { ${joined} } from ${path}`;
  }

  // --------------------------------------------------------------------------------- statements

  /**
   * Appends a block's statements to `lines`, as lines at `depth`. In statement mode (the statement printer)
   * each statement first claims the comments between the previous statement's START line (or the owner's
   * line) and its own start line (§4.1); in expression mode nothing is claimed.
   */
  private writeBody(block: A.Block | undefined, ownerLine: number, depth: number, statementMode: boolean, lines: string[]): void {
    let from = ownerLine + 1;
    const indent = pad(depth);
    for (const s of block?.statements ?? []) {
      const start = this.line(s.start);
      if (statementMode) for (const comment of this.claim(from, start, depth)) lines.push(comment);
      this.writeStmt(s, depth, statementMode, lines, indent, start);
      from = start + 1;
    }
  }

  /** Appends `lead` + `header {`, the body and `}` at `depth` to `lines`. */
  private writeBraced(
    lines: string[],
    lead: string,
    header: string,
    block: A.Block | undefined,
    ownerLine: number,
    depth: number,
    statementMode: boolean,
  ): void {
    lines.push(`${lead}${header} {`);
    this.writeBody(block, ownerLine, depth + 1, statementMode, lines);
    lines.push(`${pad(depth)}}`);
  }

  /** `header {` + body + `}` as text whose first line is unindented (expression position). */
  private braced(header: string, block: A.Block | undefined, ownerLine: number, depth: number, statementMode: boolean): string {
    const lines: string[] = [];
    this.writeBraced(lines, '', header, block, ownerLine, depth, statementMode);
    return lines.join('\n');
  }

  /**
   * A statement's text at `depth` (first line without indentation, later lines with theirs). Statements that
   * hold blocks are written as lines into one array, joined once, not nested texts copied at every level.
   */
  private stmt(s: A.Stmt, depth: number, statementMode: boolean): string {
    const simple = this.simpleStmt(s, depth);
    if (simple !== undefined) return simple;
    const lines: string[] = [];
    this.writeBlockStmt(s, depth, statementMode, lines, '', this.line(s.start));
    return lines.join('\n');
  }

  /**
   * Appends a statement's lines to `lines`, the first one prefixed by `lead`. `startLine` is the line of
   * `s.start`, passed by callers that know it (reads of a statement's fields are megamorphic).
   */
  private writeStmt(s: A.Stmt, depth: number, statementMode: boolean, lines: string[], lead: string, startLine?: number): void {
    const simple = this.simpleStmt(s, depth);
    if (simple !== undefined) lines.push(lead + simple);
    else this.writeBlockStmt(s, depth, statementMode, lines, lead, startLine ?? this.line(s.start));
  }

  /** The text of a statement that holds no statements, undefined for the others. */
  private simpleStmt(s: A.Stmt, depth: number): string | undefined {
    switch (s.kind) {
      case 'LetDecl': {
        const pub = s.isPub ? 'pub ' : '';
        if (!s.pattern) throw new Refusal('binding without a name');
        let text = `${pub}${s.keyword} ${this.pattern(s.pattern, depth)}`;
        if (s.type) text += `: ${this.type(s.type)}`;
        if (s.init) text += ` = ${this.expr(s.init, depth)}`;
        return text;
      }
      case 'ExprStmt': {
        // §13 F: a statement that would start with `if`/`match`/`{`… but continues (`match x {…} |> f`) would
        // read back as that statement followed by garbage: parenthesise it.
        const e = unparen(s.expr);
        const text = this.expr(e, depth);
        const first = leftmost(e);
        return first !== e && startsLikeStatement(first) ? `(${text})` : text;
      }
      case 'Assign': {
        // eval_pack / cost_route entries `key: value` come as Assign with operator ':'.
        const separator = s.operator === ':' ? ': ' : ` ${s.operator} `;
        return `${this.expr(s.target, depth)}${separator}${s.value ? this.expr(s.value, depth) : ''}`;
      }
      case 'Return':
      case 'Throw':
      case 'Yield':
      case 'Emit':
      case 'Break':
      case 'Continue': {
        const word = s.kind.toLowerCase();
        return s.value ? `${word} ${this.expr(s.value, depth)}` : word;
      }
      case 'Require':
        return `require ${this.expr(this.need(s.condition), depth)}${s.message ? `, ${this.expr(s.message, depth)}` : ''}`;
      case 'Try':
        return s.starOperand ? `try* ${this.bound(s.starOperand, Binding.Unary, depth)}` : undefined;
      case 'ImportDecl':
        return this.importText(s);
      case 'ErrorStmt':
        throw new Refusal('syntax error');
      default:
        return undefined;
    }
  }

  /**
   * Appends the lines of a statement that holds blocks (not a simpleStmt), the first one prefixed by `lead`.
   * `ownerLine`: the line of `s.start` (a statement is never parenthesised: no need for startLine).
   */
  private writeBlockStmt(s: A.Stmt, depth: number, statementMode: boolean, lines: string[], lead: string, ownerLine: number): void {
    switch (s.kind) {
      case 'If':
        this.writeIf(s, depth, statementMode, ownerLine, lines, lead);
        return;
      case 'For':
        if (!s.pattern || !s.iterable) throw new Refusal('incomplete for');
        this.writeBraced(
          lines,
          lead,
          `for ${this.pattern(s.pattern, depth)} in ${this.bound(s.iterable, Binding.Pipe, depth)}`,
          s.body,
          ownerLine,
          depth,
          statementMode,
        );
        return;
      case 'While':
        this.writeBraced(lines, lead, `while ${this.bound(this.need(s.condition), Binding.Pipe, depth)}`, s.body, ownerLine, depth, statementMode);
        return;
      case 'Retry':
        this.writeBraced(lines, lead, s.count ? `retry ${this.expr(s.count, depth)}` : 'retry', s.body, ownerLine, depth, statementMode);
        return;
      case 'Guard':
        this.writeBraced(lines, lead, `guard ${this.expr(this.need(s.condition), depth)} else`, s.otherwise, ownerLine, depth, statementMode);
        return;
      case 'BlockStmt': {
        const header = s.argument ? `${s.keyword} ${this.expr(s.argument, depth)}` : s.keyword;
        this.writeBraced(lines, lead, header, s.body, ownerLine, depth, statementMode);
        return;
      }
      case 'Match':
        this.writeMatch(s, depth, statementMode, lines, lead);
        return;
      case 'Try':
        this.writeTry(s, depth, statementMode, ownerLine, lines, lead);
        return;
      case 'Parallel':
        this.writeParallel(s, depth, statementMode, ownerLine, lines, lead);
        return;
      case 'Select': {
        lines.push(`${lead}select {`);
        for (const c of s.cases) {
          const header =
            c.label === 'default'
              ? 'default'
              : c.label === 'timeout'
                ? `timeout ${this.expr(this.need(c.expr), depth + 1)}`
                : `${c.name?.text ?? ''} from ${this.expr(this.need(c.expr), depth + 1)}`;
          this.writeBraced(lines, pad(depth + 1), header, c.body, this.startLine(c), depth + 1, statementMode);
        }
        lines.push(`${pad(depth)}}`);
        return;
      }
      case 'LetDecl':
      case 'ExprStmt':
      case 'Assign':
      case 'Return':
      case 'Throw':
      case 'Yield':
      case 'Emit':
      case 'Break':
      case 'Continue':
      case 'Require':
      case 'ImportDecl':
      case 'ErrorStmt':
        lines.push(lead + (this.simpleStmt(s, depth) ?? ''));
        return;
      default:
        this.writeDeclaration(s, depth, statementMode, lines, lead, ownerLine);
    }
  }

  private need<T>(value: T | undefined): T {
    if (value === undefined) throw new Refusal('incomplete statement');
    return value;
  }

  /** The last line written, taken off to be continued (`} else {`). */
  private reopen(lines: string[]): string {
    return lines.pop() ?? '';
  }

  /**
   * An `if` and its `else if`s with a loop, not a call per branch: a ladder is as long as the source makes it and
   * the parser does not bound it. In expression position each `else if` is a block nested in the previous one
   * (§6.3): a ladder deeper than MAX_PRINT_DEPTH would be printed with indentation growing with its length (text
   * quadratic in it), and the file is refused instead.
   */
  private writeIf(s: A.IfStmt, depth: number, statementMode: boolean, ownerLine: number, lines: string[], lead: string): void {
    let node = s;
    let at = depth;
    let first = lead;
    // The depths of the `}` closing the blocks `else if`s were expanded into, innermost last.
    const closing: number[] = [];
    for (;;) {
      this.writeBraced(lines, first, `if ${this.bound(this.need(node.condition), Binding.Pipe, at)}`, node.then, ownerLine, at, statementMode);
      const otherwise = node.otherwise;
      if (!otherwise) break;
      let elseIf: A.IfStmt | undefined;
      if (otherwise.kind === 'If') elseIf = otherwise;
      else if (otherwise.statements.length === 1 && otherwise.statements[0]?.kind === 'If') elseIf = otherwise.statements[0];
      if (statementMode && elseIf) {
        first = `${this.reopen(lines)} else `;
        node = elseIf;
        continue;
      }
      if (elseIf) {
        // Expression position: `else if` is expanded into a nested block (§6.3).
        if (at + 1 > MAX_PRINT_DEPTH) throw new TooDeep(`an \`else if\` ladder in an expression nests deeper than ${MAX_PRINT_DEPTH} blocks once printed`);
        lines.push(`${this.reopen(lines)} else {`);
        closing.push(at);
        at++;
        first = pad(at);
        node = elseIf;
        continue;
      }
      this.writeBraced(lines, `${this.reopen(lines)} `, 'else', otherwise as A.Block, ownerLine, at, statementMode);
      break;
    }
    for (let i = closing.length - 1; i >= 0; i--) lines.push(`${pad(closing[i] as number)}}`);
  }

  private writeTry(s: A.TryStmt, depth: number, statementMode: boolean, ownerLine: number, lines: string[], lead: string): void {
    this.writeBraced(lines, lead, 'try', s.body, ownerLine, depth, statementMode);
    if (s.catchBody || s.catchName) {
      let header = 'catch';
      if (s.catchName) header += ` (${s.catchName.text}${s.catchType ? `: ${this.type(s.catchType)}` : ''})`;
      this.writeBraced(lines, `${this.reopen(lines)} `, header, s.catchBody, ownerLine, depth, statementMode);
    }
    if (s.finallyBody) this.writeBraced(lines, `${this.reopen(lines)} `, 'finally', s.finallyBody, ownerLine, depth, statementMode);
  }

  private writeParallel(s: A.ParallelStmt, depth: number, statementMode: boolean, ownerLine: number, lines: string[], lead: string): void {
    let header = 'parallel';
    if (s.mode) header += ` ${s.mode}`;
    if (s.subject) header += ` ${this.expr(s.subject, depth)}`;
    if (s.options) {
      const options = unparen(s.options);
      if (options.kind !== 'Dict') throw new Refusal('parallel options');
      header += ` with { ${options.entries.map((e) => this.dictEntry(e, depth)).join(', ')} }`;
    }
    const binding = s.binding.length > 0 ? ` ${s.binding.map((b) => b.text).join(', ')} ->` : '';
    lines.push(`${lead}${header} {${binding}`);
    this.writeBody(s.body, ownerLine, depth + 1, statementMode, lines);
    lines.push(`${pad(depth)}}${s.stream ? ' as stream' : ''}`);
  }

  private writeMatch(s: A.MatchStmt, depth: number, statementMode: boolean, lines: string[], lead: string): void {
    lines.push(`${lead}match ${this.bound(this.need(s.subject), Binding.Pipe, depth)} {`);
    for (const arm of s.arms) {
      let head = arm.patterns.map((p) => this.expr(p, depth + 1)).join(' | ');
      if (arm.guard) head += ` if ${this.expr(arm.guard, depth + 1)}`;
      const only = arm.body?.statements.length === 1 ? arm.body.statements[0] : undefined;
      if (only && this.isSimple(only)) lines.push(`${pad(depth + 1)}${head} -> { ${this.stmt(only, depth + 1, false)} }`);
      else this.writeBraced(lines, pad(depth + 1), `${head} ->`, arm.body, this.startLine(arm), depth + 1, statementMode);
    }
    lines.push(`${pad(depth)}}`);
  }

  /** §7.5 `is_simple_expr`: a statement short enough to print inside `{ … }` on the closure's line. */
  private isSimple(s: A.Stmt): boolean {
    switch (s.kind) {
      case 'Return':
      case 'Break':
      case 'Continue':
      case 'Require':
      case 'Assign':
        return true;
      case 'ExprStmt':
        return this.isSimpleExpr(s.expr);
      default:
        return false;
    }
  }

  private isSimpleExpr(expr: A.Expr): boolean {
    const e = unparen(expr);
    switch (e.kind) {
      case 'Closure':
      case 'FnExpr':
      case 'StructLit':
      case 'ErrorExpr':
        return false;
      case 'StmtExpr':
        return e.stmt.kind === 'Try' && e.stmt.starOperand !== undefined;
      default:
        return true;
    }
  }

  // ------------------------------------------------------------------------------- declarations

  /** `startLine`: the line of `d.start`. The attributes read once: reads of a declaration's fields are megamorphic. */
  private writeDeclaration(d: A.Declaration, depth: number, statementMode: boolean, lines: string[], lead: string, startLine: number): void {
    const attributes = d.attributes;
    const keywordLine = attributes.length > 0 ? this.keywordLine(d, attributes) : startLine;
    const first = attributes.length > 0 ? this.writeAttributes(attributes, keywordLine, depth, statementMode, lines, lead) : lead;
    const pub = d.isPub ? 'pub ' : '';
    const name = d.name?.text ?? '';
    const ownerLine = keywordLine;
    switch (d.kind) {
      case 'FnDecl':
        this.writeBraced(lines, first, this.fnSignature(d, depth, pub), d.body, ownerLine, depth, statementMode);
        return;
      case 'PipelineDecl': {
        const params = this.params(d.params, depth, 2 * depth + utf8Length(pub) + 9 + utf8Length(name) + 1);
        let header = `${pub}pipeline ${name}(${params})`;
        if (d.returnType) header += ` -> ${this.type(d.returnType)}`;
        if (d.extendsName) header += ` extends ${d.extendsName.text}`;
        this.writeBraced(lines, first, header, d.body, ownerLine, depth, statementMode);
        return;
      }
      case 'ToolDecl': {
        const params = this.params(d.params, depth, 2 * depth + utf8Length(pub) + 5 + utf8Length(name) + 1);
        let header = `${pub}tool ${name}(${params})`;
        if (d.returnType) header += ` -> ${this.type(d.returnType)}`;
        lines.push(`${first}${header} {`);
        if (d.description) lines.push(`${pad(depth + 1)}description ${this.string(d.description)}`);
        this.writeBody(d.body, ownerLine, depth + 1, statementMode, lines);
        lines.push(`${pad(depth)}}`);
        return;
      }
      case 'OverrideDecl': {
        const params = this.params(d.params, depth, 2 * depth + 9 + utf8Length(name) + 1);
        this.writeBraced(lines, first, `override ${name}(${params})`, d.body, ownerLine, depth, statementMode);
        return;
      }
      case 'SkillDecl':
        lines.push(`${first}${pub}skill ${name} {`);
        for (const e of d.entries) lines.push(`${pad(depth + 1)}${e.key.text}${e.value ? ` ${this.expr(e.value, depth + 1)}` : ''}`);
        lines.push(`${pad(depth)}}`);
        return;
      case 'StructDecl':
        lines.push(`${first}${pub}struct ${name}${this.typeParams(d.typeParams)} {`);
        for (const f of d.fields) lines.push(`${pad(depth + 1)}${f.name.text}${f.optional ? '?' : ''}${f.type ? `: ${this.type(f.type)}` : ''}`);
        lines.push(`${pad(depth)}}`);
        return;
      case 'EnumDecl':
        lines.push(`${first}${pub}enum ${name}${this.typeParams(d.typeParams)} {`);
        for (const v of d.variants) {
          if (v.params.length === 0) lines.push(pad(depth + 1) + v.name.text);
          else lines.push(`${pad(depth + 1)}${v.name.text}(${this.params(v.params, depth + 1, 2 * (depth + 1) + utf8Length(v.name.text) + 1)})`);
        }
        lines.push(`${pad(depth)}}`);
        return;
      case 'TypeAliasDecl':
        lines.push(`${first}${pub}type ${name}${this.typeParams(d.typeParams)} = ${this.type(this.need(d.type))}`);
        return;
      case 'InterfaceDecl': {
        lines.push(`${first}${pub}interface ${name}${this.typeParams(d.typeParams)} {`);
        for (const t of d.associatedTypes) lines.push(`${pad(depth + 1)}type ${t.name?.text ?? ''}${t.type ? ` = ${this.type(t.type)}` : ''}`);
        for (const m of d.methods) lines.push(pad(depth + 1) + this.fnSignature(m, depth + 1, ''));
        lines.push(`${pad(depth)}}`);
        return;
      }
      case 'ImplDecl':
        lines.push(`${first}${d.traitName ? `impl ${d.traitName.text} for ${name}` : `impl ${name}`} {`);
        for (const m of d.methods) this.writeStmt(m, depth + 1, statementMode, lines, pad(depth + 1));
        lines.push(`${pad(depth)}}`);
        return;
      case 'EvalPackDecl': {
        let header = `${pub}eval_pack`;
        if (d.name) header += ` ${name}`;
        if (d.title) header += ` ${this.string(d.title)}`;
        this.writeBraced(lines, first, header, d.body, ownerLine, depth, statementMode);
        return;
      }
    }
  }

  /**
   * A declaration's attributes, one per line, and the lead of its keyword's line. Comments between
   * attributes, and between the last one and the declaration, stay there (rule book §4.1.7, §13 Q): each
   * attribute line claims the comments from its own line (a trailing one is hoisted below it) up to the next
   * attribute, the last one up to the keyword's line. Kept out of writeDeclaration: most declarations have none.
   */
  private writeAttributes(attributes: A.Attribute[], keywordLine: number, depth: number, statementMode: boolean, lines: string[], lead: string): string {
    let first = lead;
    attributes.forEach((a, i) => {
      lines.push(first + this.attribute(a));
      if (statementMode) {
        const next = attributes[i + 1];
        for (const comment of this.claim(this.line(a.start), next ? this.line(next.start) : keywordLine, depth)) lines.push(comment);
      }
      first = pad(depth);
    });
    return first;
  }

  /** The line of a declaration's first token after its `attributes` (`pub`, `fn`…), comments skipped. */
  private keywordLine(d: A.Declaration, attributes: A.Attribute[]): number {
    const last = attributes[attributes.length - 1];
    if (!last) return this.line(d.start);
    let at = last.end;
    for (;;) {
      while (at < this.source.length && /\s/.test(this.source[at] ?? '')) at++;
      const comment = this.commentStartingAt(at);
      if (!comment || comment.end <= at) break;
      at = comment.end;
    }
    return this.line(Math.min(at, d.end));
  }

  /** The comment starting at `offset`, if any: a binary search (comments come in source order). */
  private commentStartingAt(offset: number): Comment | undefined {
    const comments = this.comments;
    let low = 0;
    for (let high = comments.length; low < high;) {
      const mid = (low + high) >> 1;
      if ((comments[mid] as Comment).start < offset) low = mid + 1;
      else high = mid;
    }
    const found = comments[low];
    return found?.start === offset ? found : undefined;
  }

  private fnSignature(d: A.FnDecl, depth: number, pub: string): string {
    const name = d.name?.text ?? '';
    const gen = d.isGen ? 'gen ' : '';
    const generics = this.typeParams(d.typeParams);
    const prefix = 2 * depth + utf8Length(pub) + utf8Length(gen) + 3 + utf8Length(name) + utf8Length(generics) + 1;
    let header = `${pub}${gen}fn ${name}${generics}(${this.params(d.params, depth, prefix)})`;
    if (d.returnType) header += ` -> ${this.type(d.returnType)}`;
    if (d.throwsType) header += ` throws ${this.type(d.throwsType)}`;
    return header + this.whereClause(d);
  }

  /**
   * Our parser reads `where T: Bound` clauses but keeps nothing of them (AST gap), so the clause is
   * recovered from the source between the end of the signature and the body, whitespace collapsed.
   */
  private whereClause(d: A.FnDecl): string {
    const after = Math.max(d.returnType?.end ?? 0, d.throwsType?.end ?? 0, d.params[d.params.length - 1]?.end ?? 0, d.name?.end ?? d.start);
    const between = this.source.slice(after, d.body ? d.body.start : d.end);
    const match = between.includes('where') ? /(?:^|[\s)])where\b([\s\S]*)$/.exec(between) : null;
    return match ? ` where ${(match[1] ?? '').trim().replace(/\s+/g, ' ')}` : '';
  }

  private attribute(a: A.Attribute): string {
    if (a.args.length === 0) return `@${a.name.text}`;
    return `@${a.name.text}(${a.args.map((arg) => this.argument(arg, 0)).join(', ')})`;
  }

  private typeParams(params: A.TypeParam[]): string {
    if (params.length === 0) return '';
    return `<${params.map((p) => (p.variance ? `${p.variance} ` : '') + p.name.text).join(', ')}>`;
  }

  private params(params: A.Param[], depth: number, prefixLength: number): string {
    return this.commaSequence(
      params.map((p) => this.param(p)),
      prefixLength,
      depth,
    );
  }

  private param(p: A.Param): string {
    let text = (p.rest ? '...' : '') + p.name.text;
    if (p.type) text += `: ${this.type(p.type)}`;
    if (p.defaultValue) text += ` = ${this.expr(p.defaultValue, 0)}`;
    return text;
  }

  private pattern(p: A.BindingPattern, depth: number): string {
    if (p.kind === 'Name') return p.text;
    // `for (k, v) in …` is read as a list pattern; keep the tuple spelling.
    const tuple = p.kind === 'ListPattern' && this.source[p.start] === '(';
    const entries = p.entries.map((e) => {
      let text = e.rest ? `...${e.key.text}` : e.key.text;
      if (e.alias) text += `: ${e.alias.text}`;
      if (e.defaultValue) text += ` = ${this.expr(e.defaultValue, depth)}`;
      return text;
    });
    if (tuple) return `(${entries.join(', ')})`;
    return p.kind === 'DictPattern' ? `{${entries.join(', ')}}` : `[${entries.join(', ')}]`;
  }

  // -------------------------------------------------------------------------------------- types

  /** §8: types never wrap and get no parentheses. */
  private type(t: A.TypeExpr): string {
    switch (t.kind) {
      case 'NamedType':
        return t.args.length > 0 ? `${t.name.text}<${t.args.map((a) => this.type(a)).join(', ')}>` : t.name.text;
      case 'ListType':
        return `[${this.type(t.element)}]`;
      case 'ShapeType': {
        const fields = t.fields.map((f) => `${f.name.text}${f.optional ? '?' : ''}${f.type ? `: ${this.type(f.type)}` : ''}`);
        if (t.rest) fields.push(`...${this.type(t.rest)}`);
        return `{${fields.join(', ')}}`;
      }
      case 'FnType':
        return `fn(${t.params.map((p) => this.type(p)).join(', ')})${t.result ? ` -> ${this.type(t.result)}` : ''}`;
      case 'UnionType':
        return t.members.map((m) => this.type(m)).join(' | ');
      case 'IntersectionType':
        return t.members.map((m) => this.type(m)).join(' & ');
      case 'OptionalType':
        return `${this.type(t.inner)}?`;
      case 'LiteralType':
        return t.text;
      case 'ErrorType':
        throw new Refusal('type syntax error');
    }
  }

  // -------------------------------------------------------------------------------- expressions

  /** §5.1: all items inline, or one per line at depth+1 with trailing commas, closing delimiter at depth. */
  private commaSequence(items: readonly string[], prefixLength: number, depth: number): string {
    this.sequenceWrapped = false;
    if (items.length === 0) return '';
    // UTF-16 length ≤ UTF-8 length: a sequence already too wide by it is never joined nor scanned (a call
    // holding a closure body would be copied and read once per enclosing sequence).
    let width = prefixLength + 1 + 2 * (items.length - 1);
    for (const item of items) width += item.length;
    if (width <= this.options.lineWidth) {
      const inline = items.length === 1 ? (items[0] as string) : items.join(', ');
      // One scan for both: without a break or a non-ASCII character, the width is the one just summed.
      if (isAsciiLine(inline)) return inline;
      if (!inline.includes('\n') && prefixLength + utf8Length(inline) + 1 <= this.options.lineWidth) return inline;
    }
    this.sequenceWrapped = true;
    let text = '\n';
    for (const item of items) text += `${pad(depth + 1)}${item},\n`;
    return text + pad(depth);
  }

  /**
   * Whether the last commaSequence wrapped (its text has line breaks; an inline one never has): asked instead
   * of searching the text, which would flatten it, a copy made again by every enclosing call that asks.
   */
  private sequenceWrapped = false;

  private expr(e: A.Expr, depth: number): string {
    // Parentheses handled as a case, not by unparen first: the kind of most nodes is read once (a megamorphic read).
    switch (e.kind) {
      case 'Paren':
        return this.expr(unparen(e), depth);
      case 'Identifier':
        return e.name;
      case 'Int':
        return formatInt(e.raw);
      case 'Float':
        return formatFloat(e.raw);
      case 'Duration':
        return formatDuration(e.raw);
      case 'Bool':
      case 'Nil':
        return e.raw;
      case 'String':
        return this.string(e);
      case 'List':
        return `[${this.commaSequence(
          e.elements.map((x) => this.expr(x, depth + 1)),
          1,
          depth,
        )}]`;
      case 'Dict':
        return `{${this.commaSequence(
          e.entries.map((x) => this.dictEntry(x, depth + 1)),
          1,
          depth,
        )}}`;
      case 'StructLit':
        return `${e.name.name} {${this.commaSequence(
          e.entries.map((x) => this.dictEntry(x, depth + 1)),
          utf8Length(e.name.name) + 2,
          depth,
        )}}`;
      case 'Closure':
        return this.closure(e, depth);
      case 'FnExpr': {
        const params = e.params.map((p) => this.param(p)).join(', ');
        const header = `fn(${params})${e.returnType ? ` -> ${this.type(e.returnType)}` : ''}`;
        const body = this.need(e.body);
        const only = body.statements.length === 1 ? body.statements[0] : undefined;
        if (only && this.isSimple(only)) return `${header} { ${this.stmt(only, depth, false)} }`;
        return this.braced(header, body, this.startLine(e), depth, false);
      }
      case 'Call':
      case 'Member':
      case 'Index':
      case 'Slice':
      case 'TryPostfix':
        return this.postfix(e, depth);
      case 'Unary': {
        const operand = unparen(this.need(e.operand));
        const text = this.expr(operand, depth);
        const kind = operand.kind;
        const wrap = kind === 'Binary' || kind === 'Ternary' || kind === 'Range' || kind === 'TryPostfix';
        return e.operator + (wrap ? `(${text})` : text);
      }
      case 'Binary':
        return this.binary(e, depth);
      case 'Ternary':
        // §13 F (upstream adds no parentheses here): the condition is a binary-level operand, the branches ternaries.
        return `${this.bound(e.condition, Binding.Binary, depth)} ? ${this.bound(this.need(e.then), Binding.Ternary, depth)} : ${this.bound(this.need(e.otherwise), Binding.Ternary, depth)}`;
      case 'Range':
        return `${this.bound(e.from, Binding.Ternary, depth)} to ${this.bound(this.need(e.to), Binding.Ternary, depth)}${e.exclusive ? ' exclusive' : ''}`;
      case 'StmtExpr':
        return this.stmt(e.stmt, depth, false);
      case 'ErrorExpr':
        throw new Refusal('syntax error');
    }
  }

  /** §7.3: receivers of `.m()`, `.p`, `[i]`, `?` are parenthesised when they are operators (`try* x` too, §13 F). */
  private receiverText(o: A.Expr, text: string): string {
    // `(a?).m()`: without parentheses `a?.m()` is an optional call, `a??` the `??` operator. The kind read once:
    // AST nodes come in many shapes, so that every read of it is a megamorphic lookup.
    const kind = o.kind;
    const wrap = kind === 'Binary' || kind === 'Unary' || kind === 'Ternary' || kind === 'Range' || kind === 'TryPostfix' || binding(o, kind) < Binding.Postfix;
    return wrap ? `(${text})` : text;
  }

  /**
   * `expr` where the parser reads only forms binding at least as tightly as `least`: parenthesised otherwise
   * (§13 F). A postfix `x?` too: followed by an operand and a `:` further on the line it reads as a ternary.
   */
  private bound(expr: A.Expr, least: Binding, depth: number): string {
    const e = unparen(expr);
    const text = this.expr(e, depth);
    const kind = e.kind; // read once: a megamorphic read (AST nodes come in many shapes)
    return kind === 'TryPostfix' || binding(e, kind) < least ? `(${text})` : text;
  }

  private closure(e: A.Closure, depth: number): string {
    const { params, body } = e;
    const prefix = '';
    // `{ -> … }`: without its arrow a parameterless closure could read back as a dict or block (0.10 corpus).
    const explicitArrow = params.length === 0 && /^\{\s*->/.test(this.source.slice(e.start, e.start + 200));
    const head = params.length > 0 ? `${params.map((p) => this.param(p)).join(', ')} -> ` : explicitArrow ? '-> ' : '';
    const only = body.statements.length === 1 ? body.statements[0] : undefined;
    if (only && this.isSimple(only)) return `${prefix}{ ${head}${this.stmt(only, depth, false)} }`;
    const lines = [`${prefix}{${head ? ` ${head.trimEnd()}` : ''}`];
    this.writeBody(body, this.startLine(body), depth + 1, false, lines);
    lines.push(`${pad(depth)}}`);
    return lines.join('\n');
  }

  private argument(a: A.Argument, depth: number): string {
    const value = this.expr(this.need(a.value), depth);
    if (a.name) return `${a.name.text}: ${value}`;
    return a.spread ? `...${value}` : value;
  }

  /**
   * A postfix chain (`a.b.c`, `f()()`, `a.m().m()`, `a[0][0]`, `a??`): as deep as it is long and not bounded by the
   * parser, so walked with a loop from the outermost operation to the receiver the chain starts with, then printed
   * back out. The work is done in the order the recursive form did it: a call's arguments before its receiver, an
   * index, a slice's bounds and a member's name after it.
   */
  private postfix(e: PostfixExpr, depth: number): string {
    if (this.chainFrames >= CHAIN_FRAMES) return this.postfixChain(e, depth);
    // One link, its receiver printed by a call (a Refusal thrown leaves the count behind: the printer is done then).
    this.chainFrames++;
    let text: string;
    if (e.kind === 'Call') {
      const args = e.args.map((a) => this.argument(a, depth + 1));
      const typeArgs = this.typeArgsText(e);
      const callee = unparen(e.callee);
      const member = methodOf(callee);
      const receiver = callReceiver(callee, member);
      const object = receiver === undefined ? '' : this.receiverText(receiver, this.expr(receiver, depth));
      text = this.callText(e, object, args, typeArgs, member, depth);
    } else {
      const receiver = unparen(e.kind === 'TryPostfix' ? e.operand : e.object);
      const object = this.receiverText(receiver, this.expr(receiver, depth));
      text = this.postfixLink(e, object, depth);
    }
    this.chainFrames--;
    return text;
  }

  /** A call's `<…>` type arguments, or ''. */
  private typeArgsText(e: A.Call): string {
    return e.typeArgs.length > 0 ? `<${e.typeArgs.map((t) => this.type(t)).join(', ')}>` : '';
  }

  /** A member, index, slice or `?` after its receiver printed as `object`. */
  private postfixLink(node: A.Member | A.Index | A.Slice | A.TryPostfix, object: string, depth: number): string {
    switch (node.kind) {
      case 'Member':
        return `${object}${node.optional ? '?.' : '.'}${this.need(node.property).text}`;
      case 'Index':
        return `${object}${node.optional ? '?[' : '['}${this.expr(this.need(node.index), depth)}]`;
      case 'Slice':
        return `${object}[${node.from ? this.expr(node.from, depth) : ''}:${node.to ? this.expr(node.to, depth) : ''}]`;
      case 'TryPostfix':
        return `${object}?`;
    }
  }

  /** postfix() with a loop over the chain: for a chain met CHAIN_FRAMES frames deep, however long it is. */
  private postfixChain(e: PostfixExpr, depth: number): string {
    const levels: PostfixLevel[] = [];
    let base: A.Expr | undefined = e;
    while (base !== undefined) {
      const node: A.Expr = base;
      if (node.kind === 'Member' || node.kind === 'Index' || node.kind === 'Slice') {
        base = unparen(node.object);
        levels.push({ node, receiver: base, args: NO_LINES, typeArgs: '', member: undefined });
      } else if (node.kind === 'TryPostfix') {
        base = unparen(node.operand);
        levels.push({ node, receiver: base, args: NO_LINES, typeArgs: '', member: undefined });
      } else if (node.kind === 'Call') {
        const args = node.args.map((a) => this.argument(a, depth + 1));
        const typeArgs = this.typeArgsText(node);
        const callee = unparen(node.callee);
        const member = methodOf(callee);
        base = callReceiver(callee, member);
        levels.push({ node, receiver: base, args, typeArgs, member });
      } else break;
    }
    let text = base === undefined ? '' : this.expr(base, depth);
    for (let i = levels.length - 1; i >= 0; i--) {
      const { node, receiver, args, typeArgs, member } = levels[i] as PostfixLevel;
      const object = receiver === undefined ? '' : this.receiverText(receiver, text);
      if (node.kind === 'Call') text = this.callText(node, object, args, typeArgs, member, depth);
      else text = this.postfixLink(node as A.Member | A.Index | A.Slice | A.TryPostfix, object, depth);
    }
    return text;
  }

  /** A call whose arguments are printed, and its receiver (a method's) or callee (`object`, unless a name). */
  private callText(e: A.Call, object: string, args: readonly string[], typeArgs: string, member: A.Member | undefined, depth: number): string {
    if (member?.property) {
      // §5.3: a method call whose `)` is on a later source line than its receiver's end moves to its own line.
      const dot = member.optional ? '?.' : '.';
      const method = member.property.text;
      const list = this.commaSequence(args, utf8LengthUpTo(object, this.options.lineWidth) + utf8Length(method) + 1 + dot.length, depth);
      const wrapped = this.sequenceWrapped;
      const tail = `${dot}${method}${typeArgs}(${list})`;
      // Arguments printed on several lines put `)` on a later line in the output: move now, as formatting the
      // output again would (a fixed point; upstream moves it only on the second run).
      // endLine(e) written out: its reads of `e` are megamorphic, here they are of a Call.
      if (this.line(Math.max(e.start, e.end - 1)) > this.endLine(unparen(member.object)) || wrapped) return `${object}\n${pad(depth + 1)}${tail}`;
      return object + tail;
    }
    const callee = unparen(e.callee);
    const name = callee.kind === 'Identifier' ? callee.name : object;
    return `${name}${typeArgs}(${this.commaSequence(args, utf8Length(name) + (typeArgs === '' ? 0 : utf8Length(typeArgs)) + 1, depth)})`;
  }

  private dictEntry(entry: A.DictEntry, depth: number): string {
    const value = entry.value ? this.expr(entry.value, depth) : '';
    if (entry.spread) return `...${value}`;
    const key = this.need(entry.key);
    let keyText: string;
    if (key.kind === 'Name') keyText = key.text;
    else {
      const k = unparen(key);
      if (k.kind === 'String' && !k.raw && k.value !== undefined && IDENTIFIER.test(k.value)) keyText = k.value;
      else if (k.kind === 'String' && !entry.computed) keyText = `[${this.expr(k, depth)}]`;
      else keyText = `[${this.expr(k, depth)}]`;
    }
    return `${keyText}: ${value}`;
  }

  private string(s: A.StringLit): string {
    const text = this.source.slice(s.start, s.end); // not slice(): its reads of any node are megamorphic
    // Multi-line literals are copied verbatim (§7.1); single-line ones keep their escapes (§13 E), and a
    // literal tab becomes `\t` as upstream's re-escaping would write it.
    if (s.raw || !text.includes('\t') || this.line(s.start) !== this.endLine(s)) return text;
    return text.replace(/\t/g, '\\t');
  }

  /**
   * §5.2 breaking, §7.3 parentheses. A left-nested chain (`1 + 1 + …`, `a |> f |> …`) is as deep as it is long and
   * the parser does not bound it: its left spine is walked with a loop, not a call per operator. The work is done
   * in the order the recursive form did it (every operator's operands taken out of their parentheses outermost
   * first, then the leftmost operand printed, then each right operand from the innermost operator out).
   */
  private binary(e: A.Binary, depth: number): string {
    if (this.chainFrames >= CHAIN_FRAMES) return this.binaryChain(e, depth);
    this.chainFrames++;
    const op = e.operator;
    const left = unparen(e.left);
    const right = unparen(this.need(e.right));
    const l = this.operand(left, op, false, depth);
    const r = this.operand(right, op, true, depth);
    this.chainFrames--;
    return this.joined(l, op, r, left, right, depth);
  }

  /**
   * `l op r`, broken before the operator when the left operand starts on an earlier line than the right one, is too
   * wide or spans lines (§5.2).
   */
  private joined(l: string, op: string, r: string, left: A.Expr, right: A.Expr, depth: number): string {
    const inline = `${l} ${op} ${r}`;
    // A left operand printed on several lines (an `if`, a closure expanded) starts on an earlier line than the
    // right one in the output: break now, as formatting the output again would (a fixed point, unlike upstream).
    // The width first: it flattens a short `inline`, in which a line break is then found without flattening `l`
    // too (a copy; a long one is too wide anyway); only when `inline` has one can it be in `l`.
    if (
      this.line(left.start) < this.line(right.start) ||
      2 * depth + utf8LengthUpTo(inline, this.options.lineWidth) > this.options.lineWidth ||
      (inline.includes('\n') && l.includes('\n'))
    ) {
      return `${l}${SAFE_AFTER_NEWLINE.has(op) ? '' : ' \\'}\n${pad(depth + 1)}${op} ${r}`;
    }
    return inline;
  }

  /** binary() with a loop over the left spine: for a chain met CHAIN_FRAMES frames deep, however long it is. */
  private binaryChain(e: A.Binary, depth: number): string {
    const spine: A.Binary[] = [];
    const rights: A.Expr[] = [];
    let left: A.Expr = e;
    do {
      const node = left;
      spine.push(node);
      left = unparen(node.left);
      rights.push(unparen(this.need(node.right)));
    } while (left.kind === 'Binary');
    let i = spine.length - 1;
    let l = this.operand(left, (spine[i] as A.Binary).operator, false, depth);
    for (; ; i--) {
      const node = spine[i] as A.Binary;
      const right = rights[i] as A.Expr;
      const op = node.operator;
      const r = this.operand(right, op, true, depth);
      const text = this.joined(l, op, r, left, right, depth);
      if (i === 0) return text;
      // This operator is the left operand of the next one out.
      l = this.operandText(text, node, (spine[i - 1] as A.Binary).operator, false);
      left = node;
    }
  }

  private operand(child: A.Expr, parentOp: string, isRight: boolean, depth: number): string {
    return this.operandText(this.expr(child, depth), child, parentOp, isRight);
  }

  /** operand() of a child already printed as `text`. */
  private operandText(text: string, child: A.Expr, parentOp: string, isRight: boolean): string {
    const kind = child.kind; // read once: a megamorphic read (AST nodes come in many shapes)
    if (kind !== 'Binary') {
      // §13 F: a ternary or range operand, and a unary base of `**` (`-a ** b` reads `-(a ** b)`), need parentheses.
      const least = parentOp === '**' && !isRight ? Binding.Postfix : parentOp === '|>' ? (isRight ? Binding.Range : Binding.Pipe) : Binding.Binary;
      return kind === 'TryPostfix' || binding(child, kind) < least ? `(${text})` : text;
    }
    const c = precedence(child.operator);
    const p = precedence(parentOp);
    const andOr = (child.operator === '&&' && parentOp === '||') || (child.operator === '||' && parentOp === '&&');
    // `**` is right-associative: only a left `**` child keeps its parentheses (oracle: `2 ** 3 ** 2`).
    const power = parentOp === '**' && child.operator === '**';
    const wrap = c < p || (c === p && isRight && !power) || (power && !isRight) || andOr;
    return wrap ? `(${text})` : text;
  }
}

/**
 * §4.4: a comment text (after `//`) that is a section bar: '' for a pure bar (four or more dashes and
 * nothing else), the title for `---- Title` or `---- Title ----` (trailing run of four or more dashes
 * dropped), undefined otherwise.
 */
function sectionBar(text: string): string | undefined {
  const t = text.trim();
  const lead = /^-*/.exec(t)?.[0].length ?? 0;
  if (lead < 4) return undefined;
  if (lead === t.length) return '';
  const rest = t.slice(lead).trim();
  const trail = /-*$/.exec(rest)?.[0].length ?? 0;
  const title = trail >= 4 ? rest.slice(0, rest.length - trail).trim() : rest;
  return title === '' ? undefined : title;
}

/** The sub-expression an expression's text starts with. */
function leftmost(expr: A.Expr): A.Expr {
  for (let e = unparen(expr); ;) {
    let next: A.Expr | undefined;
    if (e.kind === 'Binary') next = e.left;
    else if (e.kind === 'Ternary') next = e.condition;
    else if (e.kind === 'Range') next = e.from;
    else if (e.kind === 'Member' || e.kind === 'Index' || e.kind === 'Slice') next = e.object;
    else if (e.kind === 'Call') next = e.callee;
    else if (e.kind === 'TryPostfix') next = e.operand;
    if (!next) return e;
    e = unparen(next);
  }
}

/** An expression that, at the start of a statement, would be read as a statement (or a block) instead. */
function startsLikeStatement(e: A.Expr): boolean {
  return e.kind === 'StmtExpr' || e.kind === 'Closure' || e.kind === 'Dict' || e.kind === 'FnExpr';
}

/** The method a call calls (`a.m()`), if its callee is one. */
function methodOf(callee: A.Expr): A.Member | undefined {
  return callee.kind === 'Member' && callee.property ? callee : undefined;
}

/** What a postfix chain goes on with after a call: a method's receiver, a callee that is no name (`(f)()`), or nothing. */
function callReceiver(callee: A.Expr, member: A.Member | undefined): A.Expr | undefined {
  return member ? unparen(member.object) : callee.kind === 'Identifier' ? undefined : callee;
}

/** Postfix and binary frames open at once before a chain is printed with a loop (Printer.chainFrames). */
const CHAIN_FRAMES = 64;

/** The expressions a postfix chain is made of (Printer.postfix). */
type PostfixExpr = A.Call | A.Member | A.Index | A.Slice | A.TryPostfix;

/** One operation of a postfix chain, its receiver (none for a call of a name) and, for a call, its printed arguments. */
interface PostfixLevel {
  node: A.Expr;
  receiver: A.Expr | undefined;
  args: readonly string[];
  typeArgs: string;
  member: A.Member | undefined;
}

/** How tightly an expression form binds, as our parser reads them (parsePipe … parsePostfix), loosest first. */
const enum Binding {
  Pipe,
  Range,
  Ternary,
  Binary,
  Unary,
  Power,
  Postfix,
}

/** `kind` is `e.kind`, passed by callers that have read it already (a megamorphic read). */
function binding(e: A.Expr, kind: A.Expr['kind'] = e.kind): Binding {
  switch (kind) {
    case 'Binary': {
      const op = (e as A.Binary).operator;
      return op === '|>' ? Binding.Pipe : op === '**' ? Binding.Power : Binding.Binary;
    }
    case 'Range':
      return Binding.Range;
    case 'Ternary':
      return Binding.Ternary;
    case 'Unary':
      return Binding.Unary;
    case 'StmtExpr': {
      const stmt = (e as A.StmtExpr).stmt;
      return stmt.kind === 'Try' && stmt.starOperand ? Binding.Unary : Binding.Postfix;
    }
    default:
      return Binding.Postfix;
  }
}

const isDoc = (c: Comment): boolean => c.kind === 'doc' || c.kind === 'legacyDoc';

const isSpaceOrTab = (code: number): boolean => code === 32 || code === 9;

/**
 * UTF-8 byte order (= code point order), from the UTF-16 code units without encoding both strings: units
 * below U+D800 and from U+E000 compare as code points; a surrogate (a code point above U+FFFF, or a lone one,
 * which encodes as U+FFFD) at the first difference falls back to comparing the encodings.
 */
function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if ((x >= 0xd800 && x < 0xe000) || (y >= 0xd800 && y < 0xe000)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
    return x - y;
  }
  return a.length - b.length;
}

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = compareBytes(a[i] ?? '', b[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Whether an offset lies inside one of the comments (an empty one counts as one character), in logarithmic
 * time: the comments by start, and how far those up to each one reach.
 */
function commentCover(comments: readonly Comment[]): (offset: number) => boolean {
  const sorted = [...comments].sort((a, b) => a.start - b.start);
  const starts = sorted.map((c) => c.start);
  const reach = runningMax(sorted.map((c) => Math.max(c.end, c.start + 1)));
  return (offset) => {
    const k = lastAtMost(starts, offset);
    return k >= 0 && (reach[k] ?? -Infinity) > offset;
  };
}
