// Minimal edits to the funnel (crates/harn-vm/src/boundary.rs) for the code actions: the Rust half of
// upstream's "HOW TO ADD A BOUNDARY", step 1 — a variant at the end of `enum BoundaryId`, its arm after the
// last one of `as_str`'s match, and, when the impl has `const ALL: [Self; N] = [ … ];`, its element at the
// end with N incremented. Pure: text in, edits out. Positions come from the Rust lexer (a comment or a
// string never counts); the new lines copy the indentation and line ending of the element they follow.
// Returns [] when the id is already there, when a structure cannot be found unambiguously, or when the
// result, re-read with parseFunnel, is not the old funnel plus exactly the new variant and arm.

import { applyEdits, TextEdit, TODO_TITLE } from './registryEdits';
import { lexRust, parseFunnel, RustToken } from './rust';
import type { Funnel } from './types';

const BOUNDARY_ID = 'BoundaryId';

/**
 * The variant name for a wire id: its `_`-separated words, each with an upper-case first letter
 * (`chat_turn_cap` → `ChatTurnCap`), or undefined when that is no plain ASCII identifier (the id has
 * other characters, or starts with a digit, or gives the keyword `Self`).
 */
export function boundaryVariantName(wire: string): string | undefined {
  if (!/^[A-Za-z0-9_]+$/.test(wire)) return undefined;
  const name = wire
    .split('_')
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return /^[A-Z][A-Za-z0-9]*$/.test(name) && name !== 'Self' ? name : undefined;
}

/**
 * Edits adding the boundary `wire` to the funnel `text` (`funnel` = parseFunnel(text)): the variant
 * `Name,` at the end of `enum BoundaryId` — after a `/// <doc>` line (default `TODO: describe this
 * boundary`) when the enum's variants carry doc comments —, the arm `Self::Name => "wire",` after the
 * last arm of `as_str`'s match, and `Self::Name,` at the end of `ALL` with its length incremented.
 * [] when `wire` already has an arm, or when it cannot be done reliably (see the file comment).
 */
export function addBoundaryVariant(text: string, funnel: Funnel, wire: string, doc?: string): TextEdit[] {
  const name = boundaryVariantName(wire);
  if (name === undefined || funnel.arms.length === 0 || funnel.arms.some((a) => a.wire === wire)) return [];
  if (funnel.arms.some((a) => a.variant === name) || funnel.enumVariants.some((v) => v.name === name)) return [];
  // The funnel must be that of this text: its ranges are used below.
  if (!sameFunnel(parseFunnel(text), funnel)) return [];
  const before = locate(text, funnel);
  if (!before) return [];
  const edits: TextEdit[] = [];

  // The enum: a doc comment when its variants have them.
  const docLines = before.enumDocumented ? docComment(doc) : [];
  const variant = appendItem(text, before.tokens, before.enumList, name, docLines);
  // The arm, in the style of the last one (`Self::` or `BoundaryId::`).
  const arm = appendItem(text, before.tokens, before.armList, `${before.armPrefix}${name} => "${wire}"`, []);
  if (!variant || !arm) return [];
  edits.push(...variant, ...arm);
  if (before.all) {
    const { length, list, prefix } = before.all;
    const element = appendItem(text, before.tokens, list, `${prefix}${name}`, []);
    if (!element) return [];
    edits.push({ start: length.token.start, end: length.token.end, newText: `${length.value + 1}${length.suffix}` }, ...element);
  }
  edits.sort((a, b) => a.start - b.start);

  // Check: re-read, the funnel is the old one plus exactly the new arm and variant (and ALL one longer).
  const out = applyEdits(text, edits);
  const parsed = parseFunnel(out);
  const armKey = (a: { variant: string; wire: string }): string => `${a.variant}\u0000${a.wire}`;
  const newArms = parsed.arms.map(armKey);
  const newKey = armKey({ variant: name, wire });
  const at = newArms.indexOf(newKey);
  if (at < 0 || newArms.indexOf(newKey, at + 1) >= 0) return [];
  newArms.splice(at, 1);
  if (!sameList(newArms, funnel.arms.map(armKey))) return [];
  if (
    !sameList(
      parsed.enumVariants.map((v) => v.name),
      [...funnel.enumVariants.map((v) => v.name), name],
    )
  )
    return [];
  const after = locate(out, parsed);
  if (!after || after.enumList.items.length !== before.enumList.items.length + 1) return [];
  // The new arm is the last of `as_str`'s match.
  const lastArm = after.armList.items.at(-1);
  if (lastArm === undefined || after.armList.items.length !== before.armList.items.length + 1 || after.tokens.code[lastArm.last]?.value !== `"${wire}"`) {
    return [];
  }
  if (Boolean(after.all) !== Boolean(before.all)) return [];
  if (after.all && before.all) {
    if (after.all.length.value !== before.all.length.value + 1 || after.all.list.items.length !== after.all.length.value) return [];
    const last = after.all.list.items.at(-1);
    if (last === undefined || after.tokens.code[last.last]?.value !== name) return [];
  }
  return edits;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameFunnel(a: Funnel, b: Funnel): boolean {
  const arms = (f: Funnel): string[] => f.arms.map((x) => `${x.variant}\u0000${x.wire}\u0000${x.variantRange.start}\u0000${x.wireRange.start}`);
  const variants = (f: Funnel): string[] => f.enumVariants.map((v) => `${v.name}\u0000${v.range.start}`);
  return sameList(arms(a), arms(b)) && sameList(variants(a), variants(b));
}

/** `/// line` comment lines for a doc text (TODO_TITLE when there is none). */
function docComment(doc: string | undefined): string[] {
  const textOf = doc !== undefined && doc.trim() !== '' ? doc : TODO_TITLE;
  return textOf.split(/\r\n|\r|\n/).map((line) => (line.trimEnd() === '' ? '///' : `/// ${line.trimEnd()}`));
}

// ---------------------------------------------------------------------------------------------------
// Finding the enum, the `as_str` match and `ALL`, by tokens

interface Tokens {
  /** Every token, comments included. */
  all: RustToken[];
  /** The code tokens (comments dropped); indices below are into this list. */
  code: RustToken[];
}

/** One element of a comma-separated list: its first and last code tokens, and the comma after it. */
interface ListItem {
  first: number;
  last: number;
  comma: number | undefined;
}

/** A bracketed comma-separated list: its brackets' token indices and its elements. */
interface List {
  open: number;
  close: number;
  items: ListItem[];
}

interface Located {
  tokens: Tokens;
  enumList: List;
  /** Whether the enum's variants carry doc comments. */
  enumDocumented: boolean;
  /** The arms of `as_str`'s match that are funnel arms, as list items (the last one is the insertion point). */
  armList: List;
  armPrefix: string;
  all: { list: List; length: { token: RustToken; value: number; suffix: string }; prefix: string } | undefined;
}

function isPunct(token: RustToken | undefined, value: string): boolean {
  return token !== undefined && token.kind === 'punct' && token.value === value;
}

function isIdent(token: RustToken | undefined, value?: string): boolean {
  return token !== undefined && token.kind === 'ident' && !token.raw && (value === undefined || token.value === value);
}

const CLOSING_BRACKET: ReadonlyMap<string, string> = new Map([
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
]);

/** Index of the bracket closing the one at `open`, or undefined when unmatched or mismatched. */
function matching(code: RustToken[], open: number): number | undefined {
  const stack: string[] = [];
  for (let j = open; j < code.length; j++) {
    const token = code[j];
    if (token?.kind !== 'punct') continue;
    const closer = CLOSING_BRACKET.get(token.value);
    if (closer) stack.push(closer);
    else if (token.value === ')' || token.value === ']' || token.value === '}') {
      if (stack.pop() !== token.value) return undefined;
      if (stack.length === 0) return j;
    }
  }
  return undefined;
}

/** The next index at the same bracket depth: past a whole bracketed group when `i` opens one. */
function skip(code: RustToken[], i: number): number | undefined {
  const token = code[i];
  if (isPunct(token, '(') || isPunct(token, '[') || isPunct(token, '{')) {
    const close = matching(code, i);
    return close === undefined ? undefined : close + 1;
  }
  return i + 1;
}

/** Splits `open … close` at its top-level commas; undefined on an empty element (`a,,b`) or an unmatched bracket. */
function splitList(code: RustToken[], open: number, close: number): List | undefined {
  const items: ListItem[] = [];
  let i = open + 1;
  while (i < close) {
    const first = i;
    let last = i;
    while (i < close && !isPunct(code[i], ',')) {
      const next = skip(code, i);
      if (next === undefined || next > close) return undefined;
      // A group's last token is its closing bracket.
      last = next - 1;
      i = next;
    }
    if (last < first || isPunct(code[first], ',')) return undefined;
    const comma = i < close ? i : undefined;
    items.push({ first, last, comma });
    i++;
  }
  return { open, close, items };
}

/** The body (`{` and `}` indices) of every inherent `impl BoundaryId { … }`; undefined when one is unmatched. */
function implBodies(code: RustToken[]): Array<[number, number]> | undefined {
  const bodies: Array<[number, number]> = [];
  for (let i = 0; i < code.length; i++) {
    if (!isIdent(code[i], 'impl')) continue;
    let j = i + 1;
    let last: RustToken | undefined;
    if (isPunct(code[j], '::')) j++;
    while (isIdent(code[j])) {
      last = code[j];
      j++;
      if (!isPunct(code[j], '::')) break;
      j++;
    }
    // Generic and trait impls (`impl Display for BoundaryId`) stop here.
    if (last?.value !== BOUNDARY_ID || !isPunct(code[j], '{')) continue;
    const close = matching(code, j);
    if (close === undefined) return undefined;
    bodies.push([j, close]);
    i = close;
  }
  return bodies;
}

/** Indices of the items at the top level of a body (`{` … `}`) that start with `keyword name`. */
function membersNamed(code: RustToken[], body: [number, number], keyword: string, name: string): number[] | undefined {
  const found: number[] = [];
  for (let i = body[0] + 1; i < body[1];) {
    if (isIdent(code[i], keyword) && isIdent(code[i + 1], name)) found.push(i);
    const next = skip(code, i);
    if (next === undefined) return undefined;
    i = next;
  }
  return found;
}

/** From `i`, the first `{` at this depth before `limit` (skipping parenthesised and bracketed groups). */
function nextBrace(code: RustToken[], i: number, limit: number): number | undefined {
  while (i < limit) {
    if (isPunct(code[i], '{')) return i;
    if (isPunct(code[i], ';') || isPunct(code[i], '}')) return undefined;
    const next = skip(code, i);
    if (next === undefined) return undefined;
    i = next;
  }
  return undefined;
}

/** The index of the first token starting at or after `offset` (tokens are in text order). */
function firstTokenFrom(tokens: readonly RustToken[], offset: number): number {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((tokens[mid]?.start ?? Infinity) < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

function isDocComment(token: RustToken): boolean {
  if (token.kind !== 'comment') return false;
  const v = token.value;
  return (v.startsWith('///') && !v.startsWith('////')) || (v.startsWith('/**') && !v.startsWith('/***') && v !== '/**/');
}

/** Finds the enum, `as_str`'s match and `ALL` in `text`, or undefined when any is missing or ambiguous. */
function locate(text: string, funnel: Funnel): Located | undefined {
  const all = lexRust(text);
  if (all.some((t) => t.unterminated)) return undefined;
  const code = all.filter((t) => t.kind !== 'comment');
  const tokens: Tokens = { all, code };

  // `enum BoundaryId { … }`: exactly one, its variants those parseFunnel read.
  const enums: number[] = [];
  for (let i = 0; i + 1 < code.length; i++) if (isIdent(code[i], 'enum') && isIdent(code[i + 1], BOUNDARY_ID)) enums.push(i);
  const enumAt = enums.length === 1 ? enums[0] : undefined;
  if (enumAt === undefined || !isPunct(code[enumAt + 2], '{')) return undefined;
  const enumOpen = enumAt + 2;
  const enumClose = matching(code, enumOpen);
  if (enumClose === undefined) return undefined;
  const enumList = splitList(code, enumOpen, enumClose);
  if (!enumList || enumList.items.length === 0) return undefined;
  const names = enumList.items.map((item) => variantName(code, item));
  if (
    names.some((n) => n === undefined) ||
    !sameList(
      names as string[],
      funnel.enumVariants.map((v) => v.name),
    )
  )
    return undefined;
  const enumDocumented = enumList.items.some((item) => {
    // The token before an item is the enum's `{` or the previous item's comma; both are always there.
    const before = code[item.first - 1];
    const first = code[item.first];
    if (before === undefined || first === undefined) return false;
    const from = before.end;
    const to = first.start;
    // Tokens are in order: look only between the two (a scan of all of them per item is quadratic).
    for (let i = firstTokenFrom(all, from); i < all.length; i++) {
      const t = all[i];
      if (t === undefined || t.start >= to) break;
      if (isDocComment(t)) return true;
    }
    // `#[doc = "…"]`
    for (let i = item.first; isPunct(code[i], '#') && isPunct(code[i + 1], '['); i = (matching(code, i + 1) ?? item.last) + 1) {
      if (isIdent(code[i + 2], 'doc')) return true;
    }
    return false;
  });

  // `fn as_str` and `const ALL` at the top level of the inherent impls: at most one of each.
  const bodies = implBodies(code);
  if (!bodies) return undefined;
  const fns: Array<{ at: number; body: [number, number] }> = [];
  const consts: number[] = [];
  for (const body of bodies) {
    const f = membersNamed(code, body, 'fn', 'as_str');
    const c = membersNamed(code, body, 'const', 'ALL');
    if (!f || !c) return undefined;
    for (const at of f) fns.push({ at, body });
    for (const at of c) consts.push(at);
  }
  const fn = fns.length === 1 ? fns[0] : undefined;
  if (fn === undefined || consts.length > 1) return undefined;
  const fnOpen = nextBrace(code, fn.at + 2, fn.body[1]);
  if (fnOpen === undefined) return undefined;
  const fnClose = matching(code, fnOpen);
  if (fnClose === undefined) return undefined;
  let matchAt: number | undefined;
  for (let i = fnOpen + 1; i < fnClose;) {
    if (isIdent(code[i], 'match')) {
      matchAt = i;
      break;
    }
    const next = skip(code, i);
    if (next === undefined) return undefined;
    i = next;
  }
  if (matchAt === undefined) return undefined;
  const matchOpen = nextBrace(code, matchAt + 1, fnClose);
  if (matchOpen === undefined) return undefined;
  const matchClose = matching(code, matchOpen);
  if (matchClose === undefined) return undefined;
  const armList = armsOf(code, funnel, matchOpen, matchClose);
  if (!armList) return undefined;
  const lastArm = armList.items.at(-1);
  if (lastArm === undefined) return undefined; // armsOf never returns an empty list
  // The last arm's pattern `Self::X` or `BoundaryId::X` (or `…::BoundaryId::X`) sets the style.
  const armPrefix = isIdent(code[lastArm.first], 'Self') ? 'Self::' : `${BOUNDARY_ID}::`;

  let allConst: Located['all'];
  const [constAt] = consts; // at most one
  if (constAt !== undefined) {
    allConst = allOf(code, constAt);
    if (!allConst) return undefined;
  }
  return { tokens, enumList, enumDocumented, armList, armPrefix, all: allConst };
}

/** A variant's name: past its attributes and a visibility. */
function variantName(code: RustToken[], item: ListItem): string | undefined {
  let j = item.first;
  while (isPunct(code[j], '#') && isPunct(code[j + 1], '[')) {
    const close = matching(code, j + 1);
    if (close === undefined) return undefined;
    j = close + 1;
  }
  if (isIdent(code[j], 'pub')) {
    j++;
    if (isPunct(code[j], '(')) j = (matching(code, j) ?? item.last) + 1;
  }
  const token = code[j];
  return j <= item.last && token !== undefined && isIdent(token) ? token.value : undefined;
}

/**
 * The funnel arms of the match `open … close`, each as a list item from its pattern's first token to its
 * string literal, with the comma after it; undefined when there are none or one does not end as parseFunnel
 * read it (a `,` or the match's `}` after the literal).
 */
function armsOf(code: RustToken[], funnel: Funnel, open: number, close: number): List | undefined {
  const openToken = code[open];
  const closeToken = code[close];
  if (openToken === undefined || closeToken === undefined) return undefined;
  const from = openToken.end;
  const to = closeToken.start;
  const literals = [...new Set(funnel.arms.filter((a) => a.wireRange.start >= from && a.wireRange.end <= to).map((a) => a.wireRange.start))].sort(
    (a, b) => a - b,
  );
  if (literals.length === 0) return undefined;
  // Arms of this match, not of one nested in an arm's body.
  const topLevel = new Set<number>();
  for (let i = open + 1; i < close;) {
    topLevel.add(i);
    const next = skip(code, i);
    if (next === undefined) return undefined;
    i = next;
  }
  // Token indexes by offset, and each literal's earliest variant, built once (not searched per arm).
  const tokenAt = new Map<number, number>();
  code.forEach((t, i) => tokenAt.set(t.start, i));
  const earliestVariant = new Map<number, number>();
  for (const a of funnel.arms) earliestVariant.set(a.wireRange.start, Math.min(earliestVariant.get(a.wireRange.start) ?? Infinity, a.variantRange.start));
  const items: ListItem[] = [];
  for (const start of literals) {
    const literal = tokenAt.get(start) ?? -1;
    if (literal < 0 || !topLevel.has(literal)) return undefined;
    const after = code[literal + 1];
    if (!(isPunct(after, ',') || literal + 1 === close)) return undefined;
    // The pattern's first token: the earliest variant of this arm, back to the start of its path.
    let first = tokenAt.get(earliestVariant.get(start) ?? -1) ?? -1;
    if (first < 0) return undefined;
    while (first >= 2 && isPunct(code[first - 1], '::') && isIdent(code[first - 2])) first -= 2;
    if (!topLevel.has(first)) return undefined;
    items.push({ first, last: literal, comma: isPunct(after, ',') ? literal + 1 : undefined });
  }
  return { open, close, items };
}

/** `const ALL: [Self; N] = [ … ];` at `at` (the `const`), or undefined when it has another shape. */
function allOf(code: RustToken[], at: number): Located['all'] {
  let j = at + 2;
  /** Whether the next tokens are `values` (punctuation or names), moving past them when they are. */
  const expect = (...values: string[]): boolean => {
    for (const v of values) {
      if (!isPunct(code[j], v) && !isIdent(code[j], v)) return false;
      j++;
    }
    return true;
  };
  if (!expect(':', '[')) return undefined;
  if (!(isIdent(code[j], 'Self') || isIdent(code[j], BOUNDARY_ID))) return undefined;
  j++;
  if (!expect(';')) return undefined;
  const lengthToken = code[j];
  const digits = lengthToken?.kind === 'number' ? /^([0-9][0-9_]*)(usize)?$/.exec(lengthToken.value) : null;
  const lengthDigits = digits?.[1];
  if (lengthToken === undefined || !digits || lengthDigits === undefined) return undefined;
  j++;
  if (!expect(']', '=') || !isPunct(code[j], '[')) return undefined;
  const open = j;
  const close = matching(code, open);
  if (close === undefined || !isPunct(code[close + 1], ';')) return undefined;
  const list = splitList(code, open, close);
  const value = Number(lengthDigits.replace(/_/g, ''));
  const last = list?.items.at(-1);
  if (!list || last === undefined || list.items.length !== value) return undefined;
  // Each element a path to a variant; the new one follows the last one's style.
  if (!list.items.every((item) => isIdent(code[item.last]) && (item.first === item.last || isPunct(code[item.last - 1], '::')))) return undefined;
  const prefix = last.first === last.last ? '' : isIdent(code[last.first], 'Self') ? 'Self::' : `${BOUNDARY_ID}::`;
  return { list, length: { token: lengthToken, value, suffix: digits[2] ?? '' }, prefix };
}

// ---------------------------------------------------------------------------------------------------
// Appending to a list

/** The offset just before the line break ending the line that holds `offset` (or the end of the text). */
function lineEndOf(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  if (nl < 0) return text.length;
  return nl > offset && text[nl - 1] === '\r' ? nl - 1 : nl;
}

function indentOf(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? ''; // the pattern matches any text
}

/**
 * Edits appending `item` (with `comments` lines above it) after the last element of `list`, followed by a
 * comma, and a comma after the old last element when it had none. When the list goes on after that element's
 * line (`}` on the next line), the item gets its own line with that element's indentation and line ending;
 * otherwise (a one-line list) it goes inline, without the comments. Undefined when the line goes on into a
 * block comment.
 */
function appendItem(text: string, tokens: Tokens, list: List, item: string, comments: string[]): TextEdit[] | undefined {
  const { code, all } = tokens;
  const last = list.items.at(-1);
  const lastToken = last && code[last.last];
  const firstToken = last && code[last.first];
  // Lists here are never empty, and their items index `code`.
  if (last === undefined || lastToken === undefined || firstToken === undefined) return undefined;
  const lastEnd = lastToken.end;
  const after = last.comma !== undefined ? (code[last.comma]?.end ?? lastEnd) : lastEnd;
  const lineEnd = lineEndOf(text, after);
  const next = code[(last.comma ?? last.last) + 1];
  const commaEdit: TextEdit[] = last.comma === undefined ? [{ start: lastEnd, end: lastEnd, newText: ',' }] : [];
  if (next !== undefined && next.start < lineEnd) {
    // One line: `[A, B]` → `[A, B, C]`; `[A, B,]` → `[A, B, C,]`.
    return last.comma === undefined ? [{ start: lastEnd, end: lastEnd, newText: `, ${item}` }] : [{ start: after, end: after, newText: ` ${item},` }];
  }
  if (all.some((t) => t.kind === 'comment' && t.start < lineEnd && t.end > lineEnd)) return undefined;
  const eol = text.startsWith('\r\n', lineEnd) ? '\r\n' : '\n';
  const indent = indentOf(text, firstToken.start);
  const lines = [...comments, `${item},`].map((line) => eol + indent + line).join('');
  return [...commaEdit, { start: lineEnd, end: lineEnd, newText: lines }];
}
