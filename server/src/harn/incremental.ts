// Incremental re-parse after an edit (issue 15: per-keystroke work proportional to the edited declaration).
// Two cases are read alone, everything else is left to a full parse (reparseStatement answers undefined):
// - the edit lies inside one top-level statement, after its first three tokens (what the parser of the statement
//   before it may look at) and before its last one: the statement is re-lexed from its start and re-parsed, and
//   must end on the same token at the same (shifted) place, in the lexer's ordinary state (no string hole open),
//   treating brackets left open before it as before (so the bracket matching the parser consults elsewhere,
//   neverClosed and closure-or-dict, is unchanged), with its diagnostics its own;
// - the edit lies between two statements and leaves only whitespace and comments there, with the same line break
//   and column before the next one (a changed doc comment re-reads that statement).
// The other statements are reused: those after the edit shifted in place, every offset of their trees included.

import * as A from './ast';
import { LineIndex } from '../text/lineIndex';
import { lexRange, OffsetDiagnostic } from './lexer';
import { docCommentBefore, MAX_DIAGNOSTICS, mergeDiagnostics, ParseResult, parseStatementAt } from './parser';
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
 * Parses for which every top-level statement starts outside every string hole (where lexRange may start). Read
 * from the tokens of a full parse, conservatively: false when a line break cuts a hole anywhere (the tokens do not
 * say where). True for every result of reparseStatement by construction: the statement it re-lexed starts and ends
 * in the lexer's ordinary state, whatever its strings do inside.
 */
const holeFreeBoundaries = new WeakMap<ParseResult, boolean>();

/**
 * The parse of `text` reusing `previous` (which it consumes: its tokens and the statements after the edit are
 * shifted in place), or undefined when the edit may change more than one top-level statement.
 */
export function reparseStatement(previous: PreviousParse, text: string, lineIndex: LineIndex, change = changedRange(previous.text, text)): Reparse | undefined {
  const old = previous.parsed;
  // A capped list, the once-per-file nesting report and string holes across statements: left to a full parse.
  if (old.diagnostics.length > MAX_DIAGNOSTICS || !boundariesHoleFree(old)) return undefined;
  for (const d of old.diagnostics) if (d.code === 'nesting_too_deep') return undefined;
  const statements = old.file.statements;
  const k = lastStartingAtOrBefore(statements, change.from);
  const stmt = statements[k];
  if (stmt && stmt.start < change.from && change.oldTo < stmt.end) return reparseOne(previous, text, lineIndex, change, k);
  // Else the edit may lie between two statements: after the one ending at or before it.
  return relexGap(previous, text, lineIndex, change, stmt && stmt.end <= change.from ? k : k - 1);
}

type Change = { from: number; oldTo: number; newTo: number };

/** The edit lies inside statements[k], after its first three tokens and before its last: that statement is read again. */
function reparseOne(previous: PreviousParse, text: string, lineIndex: LineIndex, change: Change, k: number): Reparse | undefined {
  const old = previous.parsed;
  const statements = old.file.statements;
  const stmt = statements[k] as A.Stmt;
  const delta = change.newTo - change.oldTo;
  const tokens = old.tokens;
  const first = firstStartingAtOrAfter(tokens, stmt.start);
  const last = firstStartingAtOrAfter(tokens, stmt.end) - 1;
  const firstToken = tokens[first];
  const lastToken = tokens[last];
  const third = tokens[first + 2];
  if (!firstToken || !lastToken || !third || firstToken.start !== stmt.start || lastToken.end !== stmt.end || last < first + 3) return undefined;
  // What the parser reads of a statement before it never goes past its first two tokens when it starts a line with
  // a word or `@` and does not follow a `?` (whose ternary look-ahead scans the rest of the line); its last token
  // stays, so where the statement ends is read from the same tokens.
  if (change.from < third.end || change.oldTo > lastToken.start || lastToken.kind === TokenKind.Invalid) return undefined;
  if (!firstToken.nlBefore || !(firstToken.kind === TokenKind.Keyword || firstToken.kind === TokenKind.Identifier || isPunct(firstToken, '@'))) {
    return undefined;
  }
  const before = tokens[first - 1];
  if (before && isPunct(before, '?')) return undefined;
  // The statement's parse began at its first token: right after the statement before it. (A statement that failed
  // part-way may stand for a declaration inside it, a method of an `interface` it began as: its tokens start later.)
  const previousStatement = statements[k - 1];
  if (previousStatement ? before?.end !== previousStatement.end : first !== 0) return undefined;
  // Bracket matching (the parser's neverClosed, closure-or-dict, `(…) ->`). The statement's own brackets match among
  // its tokens, and what it leaves open reaches past it (which the parser follows: see parseStatementAt). Other
  // tokens' matching stays when no bracket before it is left open (then the tokens before it match among themselves,
  // the later ones' brackets among themselves), or else when it treats those open brackets as it did: the same
  // closing brackets with none of its own open (each with or without `->` after it), the same `->` there, and as many
  // left open (see bracketProfile).
  const oldProfile = bracketProfile(tokens, first, last + 1, tokens[last + 1]);
  let nothingOpen: boolean | undefined;
  const nothingOpenBefore = (): boolean => (nothingOpen ??= openBracketsBefore(tokens, first) === 0);

  // Diagnostics: the statement's own lie strictly after its first token and before its end. One at its first
  // token may come from the statement before it (a failed separator check), one from its end to the end of the
  // next token from it (`Unexpected end of file`, or an error at the token it stopped before): left to a full parse.
  const diagnostics = old.diagnostics;
  const ownFrom = firstStartingAtOrAfter(diagnostics, stmt.start);
  let ownTo = ownFrom;
  const nextEnd = (tokens[last + 1] as Token).end;
  for (let i = 0; i < ownFrom; i++) if ((diagnostics[i] as OffsetDiagnostic).end > stmt.start) return undefined;
  for (; ownTo < diagnostics.length && (diagnostics[ownTo] as OffsetDiagnostic).start <= nextEnd; ownTo++) {
    const d = diagnostics[ownTo] as OffsetDiagnostic;
    if (d.start <= firstToken.end || d.start >= stmt.end || d.end > stmt.end) return undefined;
  }

  // Re-lex the statement: it must end with the same token at the same (shifted) place.
  const newEnd = stmt.end + delta;
  const lexed = lexRange(text, stmt.start, newEnd, firstToken.nlBefore, lineIndex);
  const newLast = lexed.tokens[lexed.tokens.length - 1];
  if (lexed.end !== newEnd || !lexed.neutral || !newLast || newLast.end !== newEnd) return undefined;
  if (newLast.kind !== lastToken.kind || newLast.value !== lastToken.value || newLast.start !== lastToken.start + delta) return undefined;
  if (bracketProfile(lexed.tokens, 0, lexed.tokens.length, tokens[last + 1]) !== oldProfile && !nothingOpenBefore()) return undefined;

  // Splice tokens and comments in place (`previous` is consumed), shifting the objects after the statement.
  const newTokens = spliceShifted(tokens, first, last + 1, lexed.tokens, delta);
  const comments = old.comments;
  const commentFrom = firstStartingAtOrAfter(comments, stmt.start);
  const commentTo = firstStartingAtOrAfter(comments, stmt.end);
  const newComments = spliceShifted(comments, commentFrom, commentTo, lexed.comments, delta);

  // Re-parse it, as parseFile would at that token (the window's brackets are balanced, so matching them alone
  // gives the whole file's answer; the tokens after it are there for the parser's look-ahead).
  const windowEnd = first + lexed.tokens.length;
  const parsed = parseStatementAt(text, newTokens, newComments, first, windowEnd, commentFrom);
  if (parsed.next !== windowEnd || parsed.stmt.start !== stmt.start || parsed.stmt.end !== newEnd || parsed.nestingReported) return undefined;
  const own = mergeDiagnostics(lexed.diagnostics, parsed.diagnostics);
  for (const d of own) if (d.start >= newEnd || d.end > newEnd) return undefined;
  if (diagnostics.length - (ownTo - ownFrom) + own.length > MAX_DIAGNOSTICS) return undefined;

  // Proven: splice the diagnostics, shift the statements after the edited one.
  const newDiagnostics = spliceShifted(diagnostics, ownFrom, ownTo, own, delta);
  requotePositions(newDiagnostics, ownFrom + own.length, delta, previous.lineIndex, lineIndex);
  const newStatements = statements.slice(0, k);
  newStatements.push(parsed.stmt);
  for (let i = k + 1; i < statements.length; i++) {
    const s = statements[i] as A.Stmt;
    shiftStatement(s, delta);
    newStatements.push(s);
  }
  return finish(text, newStatements, newTokens, newComments, newDiagnostics, stmt.start, newEnd);
}

/**
 * The edit lies between statements[k] and the next one (whitespace and comments): when it still holds no token, the
 * tokens after it keep their line breaks and the next statement its doc comment, every statement is reused.
 */
function relexGap(previous: PreviousParse, text: string, lineIndex: LineIndex, change: Change, k: number): Reparse | undefined {
  const old = previous.parsed;
  const statements = old.file.statements;
  const before = statements[k];
  const after = statements[k + 1];
  // Before the first statement a BOM or shebang may be involved: left to a full parse.
  if (!before || change.from < before.end) return undefined;
  const tokens = old.tokens;
  const nextIndex = firstStartingAtOrAfter(tokens, before.end);
  const next = tokens[nextIndex] as Token;
  // The last token before the gap must not read into it: an unterminated string runs to the end of its line, and
  // most tokens decide where they end by the character after them (`/` then `/*` is a line comment), which an
  // edit right at the gap's start changes; a closing bracket is never more than itself.
  const lastBefore = tokens[nextIndex - 1];
  if (!lastBefore || !lastBefore.terminated || lastBefore.end !== before.end) return undefined;
  if (change.from === before.end && !(isPunct(lastBefore, '}') || isPunct(lastBefore, ')') || isPunct(lastBefore, ']'))) return undefined;
  if (change.oldTo > next.start || (after && next.start !== after.start)) return undefined;
  const delta = change.newTo - change.oldTo;
  const newNextStart = next.kind === TokenKind.EOF ? text.length : next.start + delta;
  const lexed = lexRange(text, before.end, newNextStart, false, lineIndex);
  if (lexed.tokens.length > 0 || lexed.end !== newNextStart || lexed.diagnostics.length > 0) return undefined;
  if (next.kind !== TokenKind.EOF) {
    // The next token keeps its line break (statement separators) and whether it starts at column 0 (where a
    // declaration closes a block left open before it).
    if (lexed.nlBeforeEnd !== next.nlBefore) return undefined;
    if ((previous.text.charCodeAt(next.start - 1) === 10) !== (text.charCodeAt(newNextStart - 1) === 10)) return undefined;
  }
  const diagnostics = old.diagnostics;
  const gapFrom = firstStartingAtOrAfter(diagnostics, before.end);
  if (gapFrom < diagnostics.length && (diagnostics[gapFrom] as OffsetDiagnostic).start < next.start) return undefined;
  for (let i = 0; i < gapFrom; i++) if ((diagnostics[i] as OffsetDiagnostic).end > before.end) return undefined;

  const comments = old.comments;
  const commentFrom = firstStartingAtOrAfter(comments, before.end);
  const commentTo = firstStartingAtOrAfter(comments, next.start);
  const newComments = spliceShifted(comments, commentFrom, commentTo, lexed.comments, delta);
  // The next statement's doc comment is read from these comments: when it changed (typing in a doc comment), the
  // statement is parsed again from its unchanged tokens, which it needs to be balanced and free of diagnostics for.
  const docChanged = after !== undefined && 'doc' in after && docCommentBefore(text, newComments, after.start + delta, commentFrom) !== after.doc;
  const afterLast = after ? firstStartingAtOrAfter(tokens, after.end) - 1 : -1;
  if (docChanged) {
    const afterDiagnostics = gapFrom < diagnostics.length && (diagnostics[gapFrom] as OffsetDiagnostic).start <= (after as A.Stmt).end;
    if (afterDiagnostics || !bracketBalanced(tokens, nextIndex, afterLast + 1)) return undefined;
  }

  const newTokens = spliceShifted(tokens, nextIndex, nextIndex, [], delta);
  let reread: A.Stmt | undefined;
  if (docChanged) {
    const parsed = parseStatementAt(text, newTokens, newComments, nextIndex, afterLast + 1, commentFrom);
    const end = (after as A.Stmt).end + delta;
    if (parsed.next !== afterLast + 1 || parsed.stmt.end !== end || parsed.diagnostics.length > 0 || parsed.nestingReported) return undefined;
    reread = parsed.stmt;
  }
  const newDiagnostics = spliceShifted(diagnostics, gapFrom, gapFrom, [], delta);
  requotePositions(newDiagnostics, gapFrom, delta, previous.lineIndex, lineIndex);
  const newStatements = statements.slice(0, k + 1);
  for (let i = k + 1; i < statements.length; i++) {
    const s = statements[i] as A.Stmt;
    if (reread && i === k + 1) {
      newStatements.push(reread);
      continue;
    }
    shiftStatement(s, delta);
    newStatements.push(s);
  }
  return finish(text, newStatements, newTokens, newComments, newDiagnostics, before.end, reread ? reread.end : newNextStart);
}

function finish(
  text: string,
  statements: A.Stmt[],
  tokens: Token[],
  comments: ParseResult['comments'],
  diagnostics: OffsetDiagnostic[],
  from: number,
  to: number,
): Reparse {
  const file: A.SourceFile = { kind: 'SourceFile', statements, start: 0, end: text.length };
  const parsed: ParseResult = { file, tokens, comments, diagnostics };
  holeFreeBoundaries.set(parsed, true);
  return { parsed, from, to };
}

function requotePositions(diagnostics: OffsetDiagnostic[], from: number, delta: number, oldLines: LineIndex, newLines: LineIndex): void {
  for (let i = from; i < diagnostics.length; i++) requotePosition(diagnostics[i] as OffsetDiagnostic, delta, oldLines, newLines);
}

/** Lexer messages quote the `line:column` of their start (`Unterminated string at 3:9`): requoted after a shift. */
function requotePosition(d: OffsetDiagnostic, delta: number, oldLines: LineIndex, newLines: LineIndex): void {
  if (!QUOTED_POSITION.test(d.message)) return;
  const before = oldLines.positionAt(d.start - delta);
  const after = newLines.positionAt(d.start);
  if (before.line === after.line && before.character === after.character) return;
  d.message = d.message.replace(` at ${before.line + 1}:${before.character + 1}`, ` at ${after.line + 1}:${after.character + 1}`);
}

/**
 * `items` with [from, to) replaced by `replacement` and every item after it shifted by `delta`: in place (a
 * splice is a memory move), unless the replacement is too long to pass as arguments.
 */
function spliceShifted<T extends { start: number; end: number }>(items: T[], from: number, to: number, replacement: T[], delta: number): T[] {
  let result: T[];
  if (replacement.length <= 10_000) {
    items.splice(from, to - from, ...replacement);
    result = items;
  } else {
    result = items.slice(0, from).concat(replacement, items.slice(to));
  }
  if (delta !== 0) {
    for (let i = from + replacement.length; i < result.length; i++) {
      const item = result[i] as T;
      item.start += delta;
      item.end += delta;
    }
  }
  return result;
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
  // 0 is the parser's "no body" (a skill's `{` never starts a file).
  for (const skill of list.skills) if (skill.bodyStart !== 0) skill.bodyStart += delta;
}

function collectOffsetHolders(stmt: A.Stmt): { holders: A.NodeBase[]; skills: A.SkillDecl[] } {
  const holders: A.NodeBase[] = [];
  const skills: A.SkillDecl[] = [];
  // The parser builds a tree: no object is reachable twice (checked over the corpus and fuzzed variants of it, and
  // the property tests compare every shifted tree with a fresh parse), so each is listed once without a visited
  // set, which would cost four times the walk.
  const stack: object[] = [stmt];
  for (let o = stack.pop(); o !== undefined; o = stack.pop()) {
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) {
        const item: unknown = o[i];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
      continue;
    }
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

/**
 * What tokens[from, to) do to the brackets left open before them: in order, each closing bracket met with none of
 * theirs open (`)`, or `)>` when a `->` follows it: `(…) ->` reads that) and each `->` met so (`>`: closure-or-dict
 * reads that), then how many of theirs they leave open. `after`: the token following them.
 */
function bracketProfile(tokens: Token[], from: number, to: number, after: Token | undefined): string {
  let depth = 0;
  let profile = '';
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    const d = bracketDelta(t);
    if (d > 0) depth++;
    else if (d < 0) {
      if (depth > 0) depth--;
      else {
        const next = i + 1 < to ? tokens[i + 1] : after;
        profile += next && isPunct(next, '->') ? ')>' : ')';
      }
    } else if (depth === 0 && isPunct(t, '->')) profile += '>';
  }
  return `${profile}|${depth}`;
}

/** How many brackets the tokens before `to` leave open (closing brackets with none open count for nothing, as in the parser). */
function openBracketsBefore(tokens: Token[], to: number): number {
  let depth = 0;
  for (let i = 0; i < to; i++) {
    const d = bracketDelta(tokens[i] as Token);
    if (d !== 0) depth = Math.max(0, depth + d);
  }
  return depth;
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

/** The edit that turns `oldText` into `text`: [from, oldTo) of the one replaced by [from, newTo) of the other. */
export function changedRange(oldText: string, text: string): { from: number; oldTo: number; newTo: number } {
  const prefix = commonPrefixLength(oldText, text);
  const suffix = commonSuffixLength(oldText, text, Math.min(oldText.length, text.length) - prefix);
  return { from: prefix, oldTo: oldText.length - suffix, newTo: text.length - suffix };
}

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
