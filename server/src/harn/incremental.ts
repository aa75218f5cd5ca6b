// Incremental re-parse of one top-level statement after an edit (issue 15: per-keystroke work proportional
// to the edited declaration). The edit must lie inside the statement's outermost `{ … }`, and the re-read
// statement must be bracket- and string-balanced and end exactly where the old one did (shifted): then the
// lexer state around it, the bracket matching the parser consults (neverClosed, closure-vs-dict) and the
// parser's state between top-level statements are all unchanged, so the full parse would read the same. In
// every case not proven so, `reparseStatement` answers undefined and the caller parses the whole file.

import * as A from './ast';
import { LineIndex } from '../text/lineIndex';
import { Comment, lexRange, OffsetDiagnostic } from './lexer';
import { MAX_DIAGNOSTICS, mergeDiagnostics, ParseResult, parseStatementAt } from './parser';
import { Token, TokenKind } from './tokens';

export interface Reparse {
  parsed: ParseResult;
  /** The new offsets of the statement that was re-read. */
  from: number;
  to: number;
}

/** The old version: its text, parse and line index (for the positions some lexer messages quote). */
export interface PreviousParse {
  text: string;
  parsed: ParseResult;
  lineIndex: LineIndex;
}

/**
 * Parses for which every top-level statement starts outside every string hole (no `${` is left open across a
 * statement boundary, and no hole is cut by a line break). Known for the full parses checked so far and for
 * every result of reparseStatement (it keeps the property by construction).
 */
const holeFreeBoundaries = new WeakMap<ParseResult, boolean>();

/**
 * The parse of `text` reusing `previous` (which it consumes: its tokens and the statements after the edit are
 * shifted in place), or undefined when the edit may change more than one top-level statement.
 */
export function reparseStatement(previous: PreviousParse, text: string, lineIndex: LineIndex): Reparse | undefined {
  const oldText = previous.text;
  const old = previous.parsed;
  const prefix = commonPrefixLength(oldText, text);
  const suffix = commonSuffixLength(oldText, text, Math.min(oldText.length, text.length) - prefix);
  const changeStart = prefix;
  const oldChangeEnd = oldText.length - suffix;
  const delta = text.length - oldText.length;

  const statements = old.file.statements;
  const k = lastStartingAtOrBefore(statements, changeStart);
  const stmt = statements[k];
  if (!stmt || !(stmt.start < changeStart && oldChangeEnd < stmt.end)) return undefined;

  const tokens = old.tokens;
  const first = firstStartingAtOrAfter(tokens, stmt.start);
  const last = firstStartingAtOrAfter(tokens, stmt.end) - 1;
  const firstToken = tokens[first];
  const lastToken = tokens[last];
  if (!firstToken || !lastToken || firstToken.start !== stmt.start || !isPunct(lastToken, '}') || lastToken.end !== stmt.end) return undefined;
  // The edit lies inside the statement's outermost braces, whose tokens (and all before and after) stay.
  const open = matchingOpen(tokens, first, last);
  if (open === undefined || (tokens[open] as Token).end > changeStart || oldChangeEnd > lastToken.start) return undefined;
  if (!bracketBalanced(tokens, first, last + 1)) return undefined;
  if (!boundariesHoleFree(old)) return undefined;

  // Diagnostics: the statement's own lie strictly after its first token and before its end. One at its first
  // token may come from the statement before it (a failed separator check): those cases are left to a full parse,
  // as is a capped list and the once-per-file nesting report.
  const diagnostics = old.diagnostics;
  if (diagnostics.length > MAX_DIAGNOSTICS) return undefined;
  const ownFrom = firstDiagnosticAtOrAfter(diagnostics, stmt.start);
  let ownTo = ownFrom;
  for (let i = 0; i < ownFrom; i++) if ((diagnostics[i] as OffsetDiagnostic).end > stmt.start) return undefined;
  for (; ownTo < diagnostics.length && (diagnostics[ownTo] as OffsetDiagnostic).start <= stmt.end; ownTo++) {
    const d = diagnostics[ownTo] as OffsetDiagnostic;
    if (d.start <= firstToken.end || d.start >= stmt.end || d.end > stmt.end) return undefined;
  }
  for (const d of diagnostics) if (d.code === 'nesting_too_deep') return undefined;

  // Re-lex the statement.
  const newEnd = stmt.end + delta;
  const lexed = lexRange(text, stmt.start, newEnd, firstToken.nlBefore, lineIndex);
  const newLast = lexed.tokens[lexed.tokens.length - 1];
  if (lexed.end !== newEnd || !lexed.neutral || !newLast || !isPunct(newLast, '}') || newLast.end !== newEnd) return undefined;
  if (!bracketBalanced(lexed.tokens, 0, lexed.tokens.length) || !holesBalanced(lexed.tokens)) return undefined;

  // Splice tokens and comments (new arrays; the objects after the statement shifted in place).
  const newTokens = tokens.slice(0, first);
  for (const t of lexed.tokens) newTokens.push(t);
  for (let i = last + 1; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    t.start += delta;
    t.end += delta;
    newTokens.push(t);
  }
  const comments = old.comments;
  const commentFrom = firstStartingAtOrAfter(comments, stmt.start);
  const commentTo = firstStartingAtOrAfter(comments, stmt.end);
  const newComments = comments.slice(0, commentFrom);
  for (const c of lexed.comments) newComments.push(c);
  for (let i = commentTo; i < comments.length; i++) {
    const c = comments[i] as Comment;
    c.start += delta;
    c.end += delta;
    newComments.push(c);
  }

  // Re-parse it, as parseFile would at that token (the window's brackets are balanced, so matching them alone
  // gives the whole file's answer).
  const windowEnd = first + lexed.tokens.length;
  const parsed = parseStatementAt(text, newTokens, newComments, first, windowEnd, commentFrom);
  if (parsed.next !== windowEnd || parsed.stmt.start !== stmt.start || parsed.stmt.end !== newEnd || parsed.nestingReported) return undefined;
  const own = mergeDiagnostics(lexed.diagnostics, parsed.diagnostics);
  for (const d of own) if (d.start >= newEnd || d.end > newEnd) return undefined;
  if (diagnostics.length - (ownTo - ownFrom) + own.length > MAX_DIAGNOSTICS) return undefined;

  // Proven: splice the diagnostics, shift the statements after the edited one.
  const newDiagnostics = diagnostics.slice(0, ownFrom);
  for (const d of own) newDiagnostics.push(d);
  for (let i = ownTo; i < diagnostics.length; i++) {
    const d = diagnostics[i] as OffsetDiagnostic;
    const oldStart = d.start;
    d.start += delta;
    d.end += delta;
    requotePosition(d, oldStart, previous.lineIndex, lineIndex);
    newDiagnostics.push(d);
  }
  const newStatements = statements.slice(0, k);
  newStatements.push(parsed.stmt);
  for (let i = k + 1; i < statements.length; i++) {
    const s = statements[i] as A.Stmt;
    shiftStatement(s, delta);
    newStatements.push(s);
  }
  const file: A.SourceFile = { kind: 'SourceFile', statements: newStatements, start: 0, end: text.length };
  const result: ParseResult = { file, tokens: newTokens, comments: newComments, diagnostics: newDiagnostics };
  holeFreeBoundaries.set(result, true);
  return { parsed: result, from: stmt.start, to: newEnd };
}

/** Lexer messages quote the `line:column` of their start (`Unterminated string at 3:9`): requoted after a shift. */
function requotePosition(d: OffsetDiagnostic, oldStart: number, oldLines: LineIndex, newLines: LineIndex): void {
  if (!QUOTED_POSITION.test(d.message)) return;
  const before = oldLines.positionAt(oldStart);
  const after = newLines.positionAt(d.start);
  if (before.line === after.line && before.character === after.character) return;
  d.message = d.message.replace(` at ${before.line + 1}:${before.character + 1}`, ` at ${after.line + 1}:${after.character + 1}`);
}

const QUOTED_POSITION = / at \d+:\d+/;

// ------------------------------------------------------------------------------------------ shifting

/**
 * Every object of a statement's tree that carries offsets (nodes and string parts), listed once per statement:
 * a statement is shifted on most keystrokes before it, and a flat loop is several times cheaper than a walk.
 */
const offsetHolders = new WeakMap<A.Stmt, { holders: A.NodeBase[]; skills: A.SkillDecl[] }>();

/** Adds `delta` to every offset in `stmt`'s tree, in place. */
export function shiftStatement(stmt: A.Stmt, delta: number): void {
  let list = offsetHolders.get(stmt);
  if (!list) {
    list = collectOffsetHolders(stmt);
    offsetHolders.set(stmt, list);
  }
  const holders = list.holders;
  for (let i = 0; i < holders.length; i++) {
    const o = holders[i] as A.NodeBase;
    o.start += delta;
    o.end += delta;
  }
  for (const skill of list.skills) skill.bodyStart += delta;
}

function collectOffsetHolders(stmt: A.Stmt): { holders: A.NodeBase[]; skills: A.SkillDecl[] } {
  const holders: A.NodeBase[] = [];
  const skills: A.SkillDecl[] = [];
  // A Set, in case one object is reachable twice: it must be shifted once.
  const seen = new Set<object>();
  const stack: object[] = [stmt];
  for (let o = stack.pop(); o !== undefined; o = stack.pop()) {
    if (seen.has(o)) continue;
    seen.add(o);
    const record = o as Record<string, unknown>;
    if (typeof record.start === 'number' && typeof record.end === 'number') holders.push(o as A.NodeBase);
    if (record.kind === 'SkillDecl') skills.push(o as A.SkillDecl);
    for (const key in record) {
      const value = record[key];
      if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return { holders, skills };
}

// ------------------------------------------------------------------------------------------ checks

function isPunct(t: Token, value: string): boolean {
  return t.kind === TokenKind.Punct && t.value === value;
}

function bracketDelta(t: Token): number {
  if (t.kind !== TokenKind.Punct) return 0;
  const v = t.value;
  if (v === '{' || v === '(' || v === '[') return 1;
  if (v === '}' || v === ')' || v === ']') return -1;
  return 0;
}

/** Whether tokens[from, to) close every bracket they open and no other (any closing bracket counts, as in the parser). */
function bracketBalanced(tokens: Token[], from: number, to: number): boolean {
  let depth = 0;
  for (let i = from; i < to; i++) {
    depth += bracketDelta(tokens[i] as Token);
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** The index of the bracket that tokens[last] closes, searching back to `first`. */
function matchingOpen(tokens: Token[], first: number, last: number): number | undefined {
  let depth = 0;
  for (let i = last; i >= first; i--) {
    depth -= bracketDelta(tokens[i] as Token);
    if (depth === 0) return i;
  }
  return undefined;
}

/** Whether every `${` hole the tokens open they also close, and no line break cuts one. */
function holesBalanced(tokens: Token[]): boolean {
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === TokenKind.StringHead) {
      if (!t.terminated) return false;
      depth++;
    } else if (t.kind === TokenKind.StringMiddle) {
      if (!t.terminated || depth === 0) return false;
    } else if (t.kind === TokenKind.StringTail) {
      if (depth === 0) return false;
      depth--;
    }
  }
  return depth === 0;
}

/** See holeFreeBoundaries; computed once per full parse, in one pass over its tokens. */
function boundariesHoleFree(parsed: ParseResult): boolean {
  const known = holeFreeBoundaries.get(parsed);
  if (known !== undefined) return known;
  let answer = true;
  let depth = 0;
  let next = 0;
  const statements = parsed.file.statements;
  for (const t of parsed.tokens) {
    while (next < statements.length && (statements[next] as A.Stmt).start <= t.start) {
      if (depth !== 0) answer = false;
      next++;
    }
    if (t.kind === TokenKind.StringHead) {
      if (!t.terminated) answer = false;
      depth++;
    } else if (t.kind === TokenKind.StringMiddle) {
      if (!t.terminated) answer = false;
    } else if (t.kind === TokenKind.StringTail) depth = Math.max(0, depth - 1);
    if (!answer) break;
  }
  if (depth !== 0) answer = false;
  holeFreeBoundaries.set(parsed, answer);
  return answer;
}

// ------------------------------------------------------------------------------------------ searching

function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  // Whole chunks first: comparing slices is a memory compare, far cheaper than a loop over characters.
  for (let chunk = 4096; chunk >= 16; chunk >>= 2) {
    while (i + chunk <= max && a.slice(i, i + chunk) === b.slice(i, i + chunk)) i += chunk;
  }
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The common suffix of `a` and `b`, at most `max` long (so that it does not overlap the common prefix). */
function commonSuffixLength(a: string, b: string, max: number): number {
  let n = 0;
  for (let chunk = 4096; chunk >= 16; chunk >>= 2) {
    while (n + chunk <= max && a.slice(a.length - n - chunk, a.length - n) === b.slice(b.length - n - chunk, b.length - n)) n += chunk;
  }
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

/** The index of the last item starting at or before `offset` (-1 when none); items are sorted by start. */
function lastStartingAtOrBefore(items: readonly { start: number }[], offset: number): number {
  return firstStartingAtOrAfter(items, offset + 1) - 1;
}

/** The index of the first item starting at or after `offset` (items.length when none); items are sorted by start. */
function firstStartingAtOrAfter(items: readonly { start: number }[], offset: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((items[mid] as { start: number }).start < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

function firstDiagnosticAtOrAfter(diagnostics: OffsetDiagnostic[], offset: number): number {
  return firstStartingAtOrAfter(diagnostics, offset);
}
