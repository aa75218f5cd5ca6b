// The formatter's output as LSP text edits (issue 16): few and small, so that cursors, selections and undo
// survive a format. Whole document, a range (the smallest run of whole top-level items around it), and on
// typing `}` (the block it closes). Positions are UTF-16, on the document's own text.
//
// Line ends: the formatter writes LF. A document whose first line break is CRLF gets its formatted text
// with CRLF line ends before the diff, so that a CRLF document keeps CRLF (its odd LF lines become CRLF,
// as `harn fmt` makes every line end alike); a BOM the document starts with is kept.
//
// Range and on-type formatting format the chosen items' lines as a document of their own. That is the
// text the whole file formats them to because the formatter prints each top-level item from the item
// alone (index.ts program(): one blank line between items, the comments between them claimed in order,
// no state carried from one item to the next; test/unit/formatEdits.test.ts checks it on every item of
// the corpus). It is checked again on every request: when the items' text is not in the whole file's
// formatted text (imports sorted across the run, an item copied verbatim because of an error next to
// it), nothing is changed and the reason says so.

import { LineIndex, Position, Range } from '../../text/lineIndex';
import { parse, ParseResult } from '../parser';
import { TokenKind } from '../tokens';
import { format, FormatOptions, formatParsed, formatterSource } from './index';

export interface TextEdit {
  range: Range;
  newText: string;
}

export type FormatEdits = { edits: TextEdit[] } | { refused: string };

/** Beyond this many differing lines the diff gives up on detail: one edit for the changed stretch. */
const MAX_DIFF_DISTANCE = 2000;

// ------------------------------------------------------------------------------------------ minimal edits

/** The lines of a text, each with its line break (\n, \r\n or a lone \r); no empty last piece. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * The index pairs (i, j) of a longest common subsequence of `a` and `b` under `equal`, in order: Myers' O(ND)
 * greedy diff after the common head and tail are taken off. Undefined when more than `maxDistance` elements differ.
 */
export function commonSubsequence<T>(
  a: readonly T[],
  b: readonly T[],
  equal: (x: T, y: T) => boolean,
  maxDistance = MAX_DIFF_DISTANCE,
): [number, number][] | undefined {
  let head = 0;
  while (head < a.length && head < b.length && equal(a[head] as T, b[head] as T)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && equal(a[a.length - 1 - tail] as T, b[b.length - 1 - tail] as T)) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const at = (x: number, y: number): boolean => equal(a[head + x] as T, b[head + y] as T);
  const middle = myers(n, m, at, maxDistance);
  if (middle === undefined) return undefined;
  const pairs: [number, number][] = [];
  for (let i = 0; i < head; i++) pairs.push([i, i]);
  for (const [x, y] of middle) pairs.push([head + x, head + y]);
  for (let i = tail; i > 0; i--) pairs.push([a.length - i, b.length - i]);
  return pairs;
}

function myers(n: number, m: number, equal: (x: number, y: number) => boolean, maxDistance: number): [number, number][] | undefined {
  if (n === 0 || m === 0) return [];
  const max = Math.min(n + m, maxDistance);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // Each round's furthest x per diagonal, as it was before the round (only diagonals -d-1 … d+1 matter).
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && equal(x, y)) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, distance: number): [number, number][] {
  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = distance; d > 0; d--) {
    const before = trace[d] as Int32Array;
    const vAt = (k: number): number => before[k + d + 1] as number;
    const k = x - y;
    const previousK = k === -d || (k !== d && vAt(k - 1) < vAt(k + 1)) ? k + 1 : k - 1;
    const previousX = vAt(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) pairs.push([--x, --y]);
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) pairs.push([--x, --y]);
  return pairs.reverse();
}

const lineContent = (line: string): string => line.replace(/(\r\n|\r|\n)$/, '');

/** Adds the edit turning `before` (at `offset` of the document) into `after`, less their common head and tail; none when equal. */
function trimmedEdit(before: string, after: string, offset: number, out: { start: number; end: number; newText: string }[]): void {
  if (before === after) return;
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  // Never between the \r and \n of a line break (no position points there).
  if (prefix > 0 && before[prefix - 1] === '\r' && before[prefix] === '\n') prefix--;
  let suffix = 0;
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  const end = before.length - suffix;
  if (suffix > 0 && before[end - 1] === '\r' && before[end] === '\n') suffix--;
  out.push({ start: offset + prefix, end: offset + before.length - suffix, newText: after.slice(prefix, after.length - suffix) });
}

/**
 * The text edits (LSP ranges on `before`) that turn `before` into `after`: a diff of the lines compared without the
 * spaces around them (so an indentation change pairs the line with itself, an edit of its leading spaces), one
 * edit per changed pair and per stretch of unpaired lines, each trimmed of what its old and new text share at
 * both ends. In order, never overlapping.
 */
export function minimalEdits(before: string, after: string): TextEdit[] {
  if (before === after) return [];
  const a = splitLines(before);
  const b = splitLines(after);
  const starts: number[] = [0];
  for (const line of a) starts.push((starts[starts.length - 1] as number) + line.length);
  const raw: { start: number; end: number; newText: string }[] = [];
  const stretch = (i0: number, i1: number, j0: number, j1: number): void => {
    trimmedEdit(a.slice(i0, i1).join(''), b.slice(j0, j1).join(''), starts[i0] as number, raw);
  };
  // Lines are paired by their text without the spaces around it: a re-indented line is a pair, an edit of its spaces.
  const key = (line: string): string => lineContent(line).trim();
  const pairs = commonSubsequence(a.map(key), b.map(key), (x, y) => x === y);
  if (pairs === undefined) stretch(0, a.length, 0, b.length);
  else {
    let i = 0;
    let j = 0;
    for (const [x, y] of pairs) {
      stretch(i, x, j, y);
      stretch(x, x + 1, y, y + 1);
      i = x + 1;
      j = y + 1;
    }
    stretch(i, a.length, j, b.length);
  }
  const index = new LineIndex(before);
  return raw.map((e) => ({ range: { start: index.positionAt(e.start), end: index.positionAt(e.end) }, newText: e.newText }));
}

// ------------------------------------------------------------------------------------------ the document

/** The formatter's LF text in the line ends (and BOM) of `like`. */
export function inStyleOf(formatted: string, like: string): string {
  const firstBreak = like.search(/\r\n|\r|\n/);
  const crlf = firstBreak >= 0 && like.startsWith('\r\n', firstBreak);
  const text = crlf ? formatted.replace(/\n/g, '\r\n') : formatted;
  return like.charCodeAt(0) === 0xfeff ? '\uFEFF' + text : text;
}

/** The formatter's source: no BOM, LF only (line numbers stay those of the document; characters too, but on a BOM's line 0). */
const asFormatterSees = formatterSource;

/**
 * The parse of the document's formatter source: `parsed` (the caller's parse of `text`, such as the open document's
 * analysis) when that source is `text` itself (no BOM, no CR), else a parse of its own. A large document is then
 * not parsed again for a format: its tokens alone take hundreds of megabytes.
 */
function parseOf(text: string, source: string, parsed: ParseResult | undefined): ParseResult {
  return parsed !== undefined && source === text ? parsed : parse(source);
}

/** Edits formatting the whole document; `parsed`, if given, is a parse of `text`. */
export function documentFormatEdits(text: string, options: FormatOptions, parsed?: ParseResult): FormatEdits {
  const source = asFormatterSees(text);
  const result = formatParsed(source, parseOf(text, source, parsed), options);
  if ('refused' in result) return result;
  return { edits: minimalEdits(text, inStyleOf(result.text, text)) };
}

/** Each top-level item's first and last line (0-based). */
function itemLines(statements: readonly { start: number; end: number }[], index: LineIndex): { first: number; last: number }[] {
  return statements.map((s) => ({ first: index.lineAt(s.start), last: index.lineAt(Math.max(s.start, s.end - 1)) }));
}

/**
 * Lines [first, last] of the document formatted as the whole file formats them, as edits; edits outside `keep` lines
 * dropped. `source` is the document's formatter source (asFormatterSees), `parsed` its parse: the whole file is
 * parsed once per request, and formatted once when the lines are all of it (a file of one huge line).
 */
function linesFormatEdits(
  text: string,
  source: string,
  parsed: ParseResult,
  first: number,
  last: number,
  options: FormatOptions,
  keep?: { first: number; last: number },
): FormatEdits {
  const whole = formatParsed(source, parsed, options);
  if ('refused' in whole) return whole;
  const index = new LineIndex(text);
  const slice = text.slice(index.lineStarts[first] ?? text.length, index.lineStarts[last + 1] ?? text.length);
  const part = slice === text ? whole : format(slice, options);
  if ('refused' in part) return part;
  if (!`\n${whole.text}`.includes(`\n${part.text}`))
    return {
      refused: `lines ${first + 1}–${last + 1} are formatted differently inside the whole file (an error beside them, or imports sorted across them): format the whole document`,
    };
  const edits = minimalEdits(slice, inStyleOf(part.text, slice)).map((e) => ({
    range: {
      start: { line: e.range.start.line + first, character: e.range.start.character },
      end: { line: e.range.end.line + first, character: e.range.end.character },
    },
    newText: e.newText,
  }));
  return { edits: keep ? edits.filter((e) => e.range.start.line >= keep.first && e.range.end.line <= keep.last) : edits };
}

/** The smallest run of whole top-level items (and those sharing their lines) around lines [from, to], as lines. */
function enclosingItems(items: readonly { first: number; last: number }[], from: number, to: number): { first: number; last: number } | undefined {
  const touched = items.filter((i) => i.last >= from && i.first <= to);
  const firstItem = touched[0];
  const lastItem = touched[touched.length - 1];
  if (!firstItem || !lastItem) return undefined;
  let first = firstItem.first;
  let last = lastItem.last;
  // Items sharing a line with the run join it (widening may reach more), until nothing changes.
  for (let changed = true; changed;) {
    changed = false;
    for (const i of items) {
      if (i.last >= first && i.first <= last && (i.first < first || i.last > last)) {
        first = Math.min(first, i.first);
        last = Math.max(last, i.last);
        changed = true;
      }
    }
  }
  return { first, last };
}

/**
 * Edits formatting the top-level items the range touches (a range ending at a line's start ends on the line before);
 * `parsed`, if given, is a parse of `text`.
 */
export function rangeFormatEdits(text: string, range: Range, options: FormatOptions, parsed?: ParseResult): FormatEdits {
  const to = range.end.line > range.start.line && range.end.character === 0 ? range.end.line - 1 : range.end.line;
  const source = asFormatterSees(text);
  const tree = parseOf(text, source, parsed);
  const run = enclosingItems(itemLines(tree.file.statements, new LineIndex(source)), range.start.line, to);
  if (!run) return { edits: [] };
  return linesFormatEdits(text, source, tree, run.first, run.last, options);
}

/**
 * After `}` was typed (the position is just after it): edits re-indenting the block it closes, from the item
 * around it formatted, restricted to the block's lines. None when that `}` is in a string or a comment, closes
 * nothing, or sits outside every top-level item. `parsed`, if given, is a parse of `text`.
 */
export function onTypeFormatEdits(text: string, position: Position, options: FormatOptions, parsed?: ParseResult): FormatEdits {
  const source = asFormatterSees(text);
  const bom = text.charCodeAt(0) === 0xfeff && position.line === 0 ? 1 : 0;
  const index = new LineIndex(source);
  const offset = index.offsetAt({ line: position.line, character: position.character - bom });
  const tree = parseOf(text, source, parsed);
  const tokens = tree.tokens;
  const close = tokens.findIndex((t) => t.kind === TokenKind.Punct && t.value === '}' && t.end === offset);
  const closing = tokens[close];
  if (!closing) return { edits: [] };
  let depth = 0;
  let open = -1;
  for (let i = close; i >= 0; i--) {
    const t = tokens[i];
    if (t?.kind !== TokenKind.Punct) continue;
    if (t.value === '}') depth++;
    else if (t.value === '{' && --depth === 0) {
      open = i;
      break;
    }
  }
  const opening = tokens[open];
  if (!opening) return { edits: [] };
  const item = tree.file.statements.find((s) => s.start <= opening.start && closing.end <= s.end);
  if (!item) return { edits: [] };
  const run = enclosingItems(itemLines(tree.file.statements, index), index.lineAt(item.start), index.lineAt(Math.max(item.start, item.end - 1)));
  if (!run) return { edits: [] };
  return linesFormatEdits(text, source, tree, run.first, run.last, options, { first: index.lineAt(opening.start), last: index.lineAt(closing.start) });
}
