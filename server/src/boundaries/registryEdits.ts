// Minimal, idempotent text edits to scripts/loud_boundaries.toml for the code actions and the CLI.
// Pure: text in, edits out. Each function returns [] when there is nothing to do (or nothing it can do
// safely): every edit list is checked by applying it and re-parsing, and is only returned when the result
// is valid TOML whose data equals the old data with exactly the intended change.

import type { AST } from 'toml-eslint-parser';
import { keyHeadName, parseTomlAst, tomlDocumentValue } from './registry';
import type { BoundaryEntry, Registry, TextRange } from './types';

/** A replacement of `[start, end)` of the ORIGINAL text. The edits of one list never overlap. */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** What `addBoundaryEntry` writes. */
export interface NewBoundaryEntry {
  id: string;
  anchors: string[];
  title?: string;
  drops?: string;
  test?: string;
}

export const TODO_TITLE = 'TODO: describe this boundary';
export const TODO_DROPS = 'TODO: describe what this boundary drops';
export const BOUNDARY_EVENT = 'agent_event:boundary_failure';

/** Applies non-overlapping edits (in any order) to `text`. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at || edit.end < edit.start || edit.end > text.length) throw new RangeError(`overlapping or invalid edit [${edit.start}, ${edit.end})`);
    out += text.slice(at, edit.start) + edit.newText;
    at = edit.end;
  }
  return out + text.slice(at);
}

// ---------------------------------------------------------------------------------------------------------------
// TOML strings

/** A TOML basic string for `value`: `"`, `\` and control characters escaped, everything else kept as is. */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += '\\u' + code.toString(16).toUpperCase().padStart(4, '0');
    else if (code >= 0xd800 && code <= 0xdfff)
      out += '\\uFFFD'; // a lone surrogate has no TOML spelling
    else out += ch;
  }
  return out + '"';
}

/** True when `value` can be written as a single-line literal string `'…'`. */
function literalAllowed(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a literal string cannot hold
  return !/['\u0000-\u0008\u000a-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
}

/** The string value of a single TOML string token, or undefined when `source` is not one. */
function readTomlString(source: string): string | undefined {
  try {
    const kv = parseTomlAst(`v = ${source}`).body[0].body[0];
    if (kv?.type !== 'TOMLKeyValue' || kv.value.type !== 'TOMLValue' || kv.value.kind !== 'string') return undefined;
    return kv.value.range[1] === 4 + source.length ? kv.value.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Replaces the TOML string at `range` (quotes included) by `newValue`, escaped. A single-line literal string
 * stays literal when the new value allows it. [] when the string already has that value.
 */
export function replaceString(text: string, range: TextRange, newValue: string): TextEdit[] {
  const original = text.slice(range.start, range.end);
  if (readTomlString(original) === newValue) return [];
  const literal = original.startsWith("'") && !original.startsWith("'''") && literalAllowed(newValue);
  const newText = literal ? `'${newValue}'` : tomlString(newValue);
  return newText === original ? [] : [{ start: range.start, end: range.end, newText }];
}

// ---------------------------------------------------------------------------------------------------------------
// Lines and trivia

function eolOf(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/** The end of the line holding `pos`, before its line ending. */
function lineEnd(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  if (nl < 0) return text.length;
  return nl > pos && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** The start of the line after the one holding `pos` (text.length on the last line). */
function nextLineStart(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl < 0 ? text.length : nl + 1;
}

function isBlankLine(text: string, start: number): boolean {
  return /^[ \t]*$/.test(text.slice(start, lineEnd(text, start)));
}

/** Only spaces/tabs between the line start and `pos`. */
function firstOnLine(text: string, pos: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, pos), pos));
}

/** Only spaces/tabs and perhaps a comment from `pos` to the end of its line. */
function restIsTrivia(text: string, pos: number): boolean {
  return /^[ \t]*(#.*)?$/.test(text.slice(pos, lineEnd(text, pos)));
}

function leadingWhitespace(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t]*/.exec(text.slice(start, pos))?.[0] ?? '';
}

function skipSpaces(text: string, pos: number): number {
  while (text[pos] === ' ' || text[pos] === '\t') pos++;
  return pos;
}

/** Skips whitespace, line endings and comments from `pos`, not past `limit`. */
function skipTrivia(text: string, pos: number, limit: number): number {
  while (pos < limit) {
    const ch = text[pos];
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') pos++;
    else if (ch === '#') pos = lineEnd(text, pos);
    else break;
  }
  return pos;
}

/** The index of the comma following an array element that ends at `end`, or -1. */
function commaAfter(text: string, end: number, close: number): number {
  const at = skipTrivia(text, end, close);
  return text[at] === ',' ? at : -1;
}

// ---------------------------------------------------------------------------------------------------------------
// Checking

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const rb = b as Record<string, unknown>;
  const ra = a as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && deepEqual(ra[k], rb[k]));
}

type Doc = Record<string, unknown>;

/** Array.isArray, narrowing to unknown[] rather than any[]. */
const isArray = (value: unknown): value is unknown[] => Array.isArray(value);

/** The `[[boundary]]` tables of the document data, when `boundary` is an array of tables. */
function boundaryList(doc: Doc): Doc[] | undefined {
  const list = doc.boundary;
  return Array.isArray(list) && list.every((t) => typeof t === 'object' && t !== null && !Array.isArray(t) && !(t instanceof Date))
    ? (list as Doc[])
    : undefined;
}

/**
 * Returns `edits` when applying them to `text` gives valid TOML whose data equals `change` applied to the old
 * data; otherwise []. `change` mutates a copy of the old data and returns false when it cannot.
 */
function checked(text: string, edits: TextEdit[], change: (doc: Doc) => boolean): TextEdit[] {
  if (!edits.length) return edits;
  try {
    const expected = structuredClone(tomlDocumentValue(parseTomlAst(text)));
    if (!change(expected)) return [];
    const actual = tomlDocumentValue(parseTomlAst(applyEdits(text, edits)));
    return deepEqual(actual, expected) ? edits : [];
  } catch {
    return [];
  }
}

function parseOrUndefined(text: string): AST.TOMLProgram | undefined {
  try {
    return parseTomlAst(text);
  } catch {
    return undefined;
  }
}

function tables(ast: AST.TOMLProgram): AST.TOMLTable[] {
  return ast.body[0].body.filter((n): n is AST.TOMLTable => n.type === 'TOMLTable');
}

/** The `[[boundary]]` table of `entry`, and its index in the `boundary` array. */
function tableOf(ast: AST.TOMLProgram, entry: BoundaryEntry): { table: AST.TOMLTable; index: number } | undefined {
  const table = tables(ast).find((t) => t.range[0] === entry.headerRange.start);
  if (!table || table.kind !== 'array' || table.resolvedKey.length !== 2 || table.resolvedKey[0] !== 'boundary') return undefined;
  const index = table.resolvedKey[1];
  return typeof index === 'number' ? { table, index } : undefined;
}

function entriesWithId(registry: Registry, id: string): BoundaryEntry[] {
  return registry.boundaries.filter((e) => e.id?.value === id);
}

/** The `anchors` key/value of a table; `null` when anchors is written as a dotted key (left alone). */
function anchorsKeyValue(table: AST.TOMLTable): AST.TOMLKeyValue | undefined | null {
  let found: AST.TOMLKeyValue | undefined;
  for (const kv of table.body) {
    if (keyHeadName(kv.key) !== 'anchors') continue;
    if (kv.key.keys.length > 1) return null;
    found = kv;
  }
  return found;
}

/** Merges touching or overlapping deletions. */
function mergeDeletions(ranges: TextRange[]): TextEdit[] {
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: TextEdit[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ start: r.start, end: r.end, newText: '' });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Entries

/**
 * Appends a `[[boundary]]` block after the last `[[boundary]]` table (before whatever follows it, such as the
 * `[[audited]]` section and its comment), or at the end of the file when there is none. [] when the id is
 * already registered or the file does not parse.
 */
export function addBoundaryEntry(text: string, registry: Registry, entry: NewBoundaryEntry): TextEdit[] {
  if (!registry.parsed || entriesWithId(registry, entry.id).length) return [];
  const ast = parseOrUndefined(text);
  if (!ast) return [];
  const eol = eolOf(text);
  const title = entry.title ?? TODO_TITLE;
  const drops = entry.drops ?? TODO_DROPS;
  const [onlyAnchor, ...moreAnchors] = entry.anchors;
  const anchors =
    onlyAnchor === undefined
      ? '[]'
      : moreAnchors.length === 0
        ? `[${tomlString(onlyAnchor)}]`
        : `[${eol}${entry.anchors.map((a) => `  ${tomlString(a)},${eol}`).join('')}]`;
  const lines = [
    '[[boundary]]',
    `id = ${tomlString(entry.id)}`,
    `title = ${tomlString(title)}`,
    `drops = ${tomlString(drops)}`,
    'was_silent = true',
    `event = ${tomlString(BOUNDARY_EVENT)}`,
    `anchors = ${anchors}`,
  ];
  if (entry.test !== undefined) lines.push(`test = ${tomlString(entry.test)}`);
  const block = lines.join(eol);

  const last = tables(ast)
    .filter((t) => t.resolvedKey[0] === 'boundary')
    .pop();
  let edit: TextEdit;
  if (last) {
    const at = lineEnd(text, last.range[1]);
    edit = { start: at, end: at, newText: eol + eol + block };
  } else {
    const at = text.length;
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    let lead: string;
    if (/^\s*$/.test(body)) lead = '';
    else if (text.endsWith('\n')) lead = isBlankLine(text, lineStart(text, text.length - 1)) ? '' : eol;
    else lead = eol + eol;
    edit = { start: at, end: at, newText: lead + block + eol };
  }

  const data: Doc = { id: entry.id, title, drops, was_silent: true, event: BOUNDARY_EVENT, anchors: [...entry.anchors] };
  if (entry.test !== undefined) data.test = entry.test;
  return checked(text, [edit], (doc) => {
    if (doc.boundary === undefined) doc.boundary = [];
    const list = boundaryList(doc);
    if (!list) return false;
    list.push(data);
    return true;
  });
}

/**
 * Removes every `[[boundary]]` table with this id: its header through its last key/value (and the rest of that
 * line), the comment lines directly above its header (unless they start the file: that is the file's header),
 * plus the blank line that separated it from what follows. Comment lines after its last key/value and the next
 * table's comments are kept. [] when the id is not registered.
 */
export function removeEntry(text: string, registry: Registry, id: string): TextEdit[] {
  const entries = entriesWithId(registry, id);
  if (!entries.length) return [];
  const ast = parseOrUndefined(text);
  if (!ast) return [];
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const comments = new Set(ast.comments.map((c) => c.range[0]));
  const isCommentLine = (start: number): boolean => {
    const from = Math.max(start, bom);
    return comments.has(from + (/^[ \t]*/.exec(text.slice(from, lineEnd(text, from)))?.[0].length ?? 0));
  };
  const indices = new Set<number>();
  const deletions: TextRange[] = [];
  for (const entry of entries) {
    const found = tableOf(ast, entry);
    if (!found) return [];
    indices.add(found.index);
    let start = lineStart(text, found.table.range[0]);
    if (!/^[ \t\ufeff]*$/.test(text.slice(start, found.table.range[0]))) start = found.table.range[0];
    // Comment lines directly above the header document this entry, unless they open the file (its header).
    let above = start;
    while (above > bom) {
      const previous = lineStart(text, above - 1);
      if (!isCommentLine(previous)) break;
      above = previous;
    }
    if (above > bom) start = above;
    let end = nextLineStart(text, found.table.range[1]);
    if (end < text.length) {
      // One blank line separated the entry from what precedes it and one from what follows: drop one of them.
      const blankBefore = start <= bom || isBlankLine(text, lineStart(text, start - 1));
      if (blankBefore && isBlankLine(text, end)) end = nextLineStart(text, end);
    } else {
      // The entry ends the file: drop the blank line before it, and keep the file's last-line style.
      if (start > 0) {
        const previous = lineStart(text, start - 1);
        if (previous >= bom && isBlankLine(text, previous)) start = previous;
      }
      if (!text.endsWith('\n') && start > bom) start -= text[start - 2] === '\r' ? 2 : 1;
    }
    deletions.push({ start: Math.max(start, bom), end });
  }
  return checked(text, mergeDeletions(deletions), (doc) => {
    const list = boundaryList(doc);
    if (!list) return false;
    const kept = list.filter((_, i) => !indices.has(i));
    if (kept.length) doc.boundary = kept;
    else delete doc.boundary;
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Anchors

/**
 * Adds `path` to the anchors of the entry `id`, in the array's style: `["a"]` → `["a", "b"]`; one element per
 * line → a new line with the same indentation (and a trailing comma when the array has one). Without an
 * `anchors` key, adds `anchors = ["path"]` after the entry's last key/value. [] when already there or unknown.
 */
export function addAnchor(text: string, registry: Registry, id: string, path: string): TextEdit[] {
  const entry = entriesWithId(registry, id)[0];
  const ast = entry && parseOrUndefined(text);
  const found = ast && tableOf(ast, entry);
  if (!found) return [];
  const { table, index } = found;
  const kv = anchorsKeyValue(table);
  if (kv === null) return [];
  const eol = eolOf(text);
  const quoted = tomlString(path);
  const edits: TextEdit[] = [];

  if (!kv) {
    const lastNode = table.body[table.body.length - 1];
    const at = lineEnd(text, table.range[1]);
    const indent = lastNode ? leadingWhitespace(text, lastNode.range[0]) : '';
    edits.push({ start: at, end: at, newText: `${eol}${indent}anchors = [${quoted}]` });
  } else {
    const array = kv.value;
    if (array.type !== 'TOMLArray') return [];
    if (array.elements.some((e) => e.type === 'TOMLValue' && e.kind === 'string' && e.value === path)) return [];
    const open = array.range[0];
    const close = array.range[1] - 1;
    const elements = array.elements;
    const multiline = text.slice(open, close).includes('\n');
    const last = elements.at(-1);
    if (last === undefined) {
      if (!multiline) edits.push({ start: open + 1, end: close, newText: quoted });
      else {
        const at = lineStart(text, close);
        if (!firstOnLine(text, close)) return [];
        edits.push({ start: at, end: at, newText: `${leadingWhitespace(text, kv.range[0])}  ${quoted},${eol}` });
      }
    } else {
      const comma = commaAfter(text, last.range[1], close);
      const hasComma = comma >= 0;
      if (!multiline) {
        if (hasComma) edits.push({ start: comma + 1, end: comma + 1, newText: ` ${quoted},` });
        else edits.push({ start: last.range[1], end: last.range[1], newText: `, ${quoted}` });
      } else {
        // The indentation of the last element's line when that line holds only elements; else its column.
        const lineHead = text.slice(lineStart(text, last.range[0]), last.range[0]);
        const leading = /^[ \t]*/.exec(lineHead)?.[0] ?? '';
        const indent = /^["']/.test(lineHead.slice(leading.length) || '"') ? leading : ' '.repeat(lineHead.length);
        const after = hasComma ? comma + 1 : last.range[1];
        const end = lineEnd(text, after);
        const line = `${eol}${indent}${quoted}${hasComma ? ',' : ''}`;
        if (close > end && restIsTrivia(text, after)) {
          // `]` is on a later line: the new element gets a line of its own after the last one's line.
          if (!hasComma && end === last.range[1]) edits.push({ start: end, end, newText: ',' + line });
          else {
            if (!hasComma) edits.push({ start: last.range[1], end: last.range[1], newText: ',' });
            edits.push({ start: end, end, newText: line });
          }
        } else {
          edits.push({ start: after, end: after, newText: (hasComma ? '' : ',') + line });
        }
      }
    }
  }
  return checked(text, edits, (doc) => {
    const table = boundaryList(doc)?.[index];
    if (!table) return false;
    const anchors = table.anchors ?? [];
    if (!isArray(anchors)) return false;
    table.anchors = [...anchors, path];
    return true;
  });
}

/**
 * Removes `path` (every occurrence) from the anchors of the entry `id`, with its separator, keeping the
 * array's style; removing the last element leaves `anchors = []`. [] when absent.
 */
export function removeAnchor(text: string, registry: Registry, id: string, path: string): TextEdit[] {
  const entry = entriesWithId(registry, id)[0];
  const ast = entry && parseOrUndefined(text);
  const found = ast && tableOf(ast, entry);
  if (!found) return [];
  const kv = anchorsKeyValue(found.table);
  if (!kv || kv.value.type !== 'TOMLArray') return [];
  const array = kv.value;
  const elements = array.elements;
  const isPath = (e: AST.TOMLContentNode): boolean => e.type === 'TOMLValue' && e.kind === 'string' && e.value === path;
  const removed = elements.map((e, i) => (isPath(e) ? i : -1)).filter((i) => i >= 0);
  if (!removed.length) return [];
  const open = array.range[0];
  const close = array.range[1] - 1;
  const n = elements.length;
  const deletions: TextRange[] = [];

  if (removed.length === n) {
    deletions.push({ start: open + 1, end: close });
  } else {
    // Runs of consecutive removed elements, each deleted with its separators.
    const runs: [number, number][] = [];
    for (const i of removed) {
      const run = runs[runs.length - 1];
      if (run && run[1] === i - 1) run[1] = i;
      else runs.push([i, i]);
    }
    for (const [i, j] of runs) {
      const runFirst = elements[i];
      const runLast = elements[j];
      if (runFirst === undefined || runLast === undefined) continue; // runs hold indices into `elements`
      const a = runFirst.range[0];
      const b = runLast.range[1];
      const comma = commaAfter(text, b, close);
      if (j < n - 1) {
        const afterComma = comma + 1;
        if (firstOnLine(text, a) && restIsTrivia(text, afterComma)) {
          deletions.push({ start: lineStart(text, a), end: nextLineStart(text, afterComma) });
        } else if (restIsTrivia(text, afterComma)) {
          const previous = elements[i - 1]; // there is one exactly when i > 0
          const before = previous ? commaAfter(text, previous.range[1], close) + 1 : open + 1;
          deletions.push({ start: before, end: afterComma });
        } else {
          deletions.push({ start: a, end: skipSpaces(text, afterComma) });
        }
      } else {
        // The run ends at the last element but not every element goes, so it starts after the first.
        const previous = elements[i - 1];
        if (previous === undefined) continue;
        const previousComma = commaAfter(text, previous.range[1], close);
        if (comma >= 0) {
          if (firstOnLine(text, a) && restIsTrivia(text, comma + 1)) {
            deletions.push({ start: lineStart(text, a), end: nextLineStart(text, comma + 1) });
          } else {
            deletions.push({ start: previousComma + 1, end: comma + 1 });
          }
        } else if (firstOnLine(text, a) && restIsTrivia(text, b)) {
          deletions.push({ start: lineStart(text, a), end: nextLineStart(text, b) });
          deletions.push({ start: previousComma, end: previousComma + 1 });
        } else {
          deletions.push({ start: previous.range[1], end: b });
        }
      }
    }
  }
  const index = found.index;
  return checked(text, mergeDeletions(deletions), (doc) => {
    const table = boundaryList(doc)?.[index];
    if (!table || !isArray(table.anchors)) return false;
    table.anchors = table.anchors.filter((a) => a !== path);
    return true;
  });
}
