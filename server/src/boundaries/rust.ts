// Reading Rust source for the loud-boundary gate (spec/harn-artifacts.md §6): `BoundaryId::Variant`
// construction sites, and the funnel's `impl BoundaryId` arms and `enum BoundaryId` variants.
//
// Upstream's gate (scripts/check_loud_boundaries.harn) works on raw text: `rust_sites` greps lines for
// `BoundaryId::<Variant>` followed by `,` `)` `;` a space or the end of the line, and
// `boundary_wire_strings` cuts the funnel at the first "\n}\n" and splits lines. This module lexes
// instead, so that comments and string/char literals never count, paths may be spaced or split over
// lines, and blocks are brace-matched. Pure: text in, plain data out. Offsets are UTF-16 code units
// (JS string indices) into the text given.

import type { Funnel, FunnelArm, RustMention, TextRange } from './types';

// ---------------------------------------------------------------------------------------------------
// Lexer

export type RustTokenKind = 'ident' | 'lifetime' | 'number' | 'punct' | 'string' | 'char' | 'comment';

export interface RustToken {
  kind: RustTokenKind;
  start: number;
  end: number;
  /**
   * ident: the name (without a raw `r#`); punct: the operator (`::`, `=>` and `->` are single tokens,
   * everything else one character); other kinds: the source text.
   */
  value: string;
  /** ident: written `r#name` (then `start` is at the `r`). */
  raw?: boolean;
  /** string/char: `b`, `c` or '' ; raw strings also have `hashes` (0 for `r"…"`). */
  prefix?: '' | 'b' | 'c';
  hashes?: number;
  /** comment: a block comment (nested ones included), not a line comment. */
  block?: boolean;
  /** comment/string/char: the text ended before the closing delimiter. */
  unterminated?: boolean;
}

const ID_START = /^[\p{XID_Start}_]$/u;
const ID_CONTINUE = /^\p{XID_Continue}$/u;
const IDENT_REST = /\p{XID_Continue}*/uy;

function isIdStart(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f;
  return ID_START.test(String.fromCodePoint(cp));
}

function isIdContinue(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x5f;
  return ID_CONTINUE.test(String.fromCodePoint(cp));
}

function isDigit(cp: number | undefined): boolean {
  return cp !== undefined && cp >= 0x30 && cp <= 0x39;
}

/** Rust's Pattern_White_Space, plus a byte-order mark at offset 0. */
function isWhitespace(cp: number): boolean {
  return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || cp === 0x85 || cp === 0x200e || cp === 0x200f || cp === 0x2028 || cp === 0x2029;
}

/** Code point at `i` (undefined past the end) and its width in UTF-16 code units. */
function cpAt(text: string, i: number): number | undefined {
  return i < text.length ? text.codePointAt(i) : undefined;
}

function cpWidth(cp: number | undefined): number {
  return cp !== undefined && cp > 0xffff ? 2 : 1;
}

/** End of the identifier whose rest starts at `from`: ASCII by hand, `\p{XID_Continue}` past anything else. */
function identEnd(text: string, from: number): number {
  let j = from;
  for (;;) {
    const c = text.charCodeAt(j); // NaN past the end
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f) j++;
    else break;
  }
  if (!(text.charCodeAt(j) >= 0x80)) return j;
  IDENT_REST.lastIndex = j;
  return IDENT_REST.exec(text) ? IDENT_REST.lastIndex : j;
}

/**
 * Splits Rust source into tokens, whitespace dropped. Never throws: an unterminated comment or literal
 * runs to the end of the text (flagged `unterminated`), and any character that starts nothing else is a
 * one-character `punct`. Follows rustc_lexer where it matters for telling code from non-code: nested
 * block comments, escapes, raw strings with any number of `#`, and its char-literal/lifetime rule.
 */
export function lexRust(text: string): RustToken[] {
  const tokens: RustToken[] = [];
  const lexer = new RustLexer(text);
  while (lexer.next()) tokens.push(lexer.token());
  return tokens;
}

// Which optional fields a token carries (each its own object shape, built in `RustLexer.token`).
/** `{ kind, start, end, value }` */
const PLAIN = 0;
/** `{ kind, start, end, block: true, unterminated, value }` */
const BLOCK_COMMENT = 1;
/** `{ kind, start, end, prefix, unterminated, value }` */
const QUOTED = 2;
/** `{ kind, start, end, prefix, hashes, unterminated, value }` */
const RAW_STRING = 3;
/** `{ kind, start, end, value, raw: true }`, the value without `r#` */
const RAW_IDENT = 4;
/** `{ kind, start, end, prefix, value }` (a char literal of several characters) */
const PREFIX_ONLY = 5;

/**
 * The lexer behind lexRust, one token at a time into its own fields, so that a scan that needs few tokens
 * (scanRustMentions) allocates none for the rest.
 */
class RustLexer {
  kind: RustTokenKind = 'punct';
  start = 0;
  end = 0;
  shape = PLAIN;
  prefix: '' | 'b' | 'c' = '';
  hashes = 0;
  unterminated = false;
  private i = 0;
  /** The end of a leading shebang line still to be returned, or -1. */
  private shebangEnd = -1;

  constructor(private readonly text: string) {
    const n = text.length;
    let i = 0;
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    // A shebang line is a comment, unless `#!` starts an inner attribute `#![…]`.
    if (text.startsWith('#!', i)) {
      let j = i + 2;
      while (j < n && isWhitespace(text.charCodeAt(j))) j++;
      if (text[j] !== '[') this.shebangEnd = lineEnd(text, i);
    }
    this.i = i;
  }

  /** The current token as lexRust returns it. */
  token(): RustToken {
    const { kind, start, end, text } = this;
    switch (this.shape) {
      case PLAIN:
        return { kind, start, end, value: text.slice(start, end) };
      case BLOCK_COMMENT:
        return { kind, start, end, block: true, unterminated: this.unterminated, value: text.slice(start, end) };
      case QUOTED:
        return { kind, start, end, prefix: this.prefix, unterminated: this.unterminated, value: text.slice(start, end) };
      case RAW_STRING:
        return { kind, start, end, prefix: this.prefix, hashes: this.hashes, unterminated: this.unterminated, value: text.slice(start, end) };
      case RAW_IDENT:
        return { kind, start, end, value: text.slice(start + 2, end), raw: true };
      default:
        return { kind, start, end, prefix: this.prefix, value: text.slice(start, end) };
    }
  }

  private set(kind: RustTokenKind, start: number, end: number, shape: number): true {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.shape = shape;
    this.i = end;
    return true;
  }

  private quoted(kind: 'string' | 'char', start: number, prefix: '' | 'b' | 'c', end: { end: number; unterminated: boolean }): true {
    this.prefix = prefix;
    this.unterminated = end.unterminated;
    return this.set(kind, start, end.end, QUOTED);
  }

  /** Moves to the next token; false at the end of the text. */
  next(): boolean {
    const text = this.text;
    const n = text.length;
    if (this.shebangEnd >= 0) {
      const end = this.shebangEnd;
      this.shebangEnd = -1;
      return this.set('comment', this.i, end, PLAIN);
    }
    let i = this.i;
    while (i < n && isWhitespace(text.charCodeAt(i))) i++;
    if (i >= n) {
      this.i = i;
      return false;
    }
    const c = text.charCodeAt(i);
    const start = i;
    const next = text.charCodeAt(i + 1); // NaN past the end

    // Comments.
    if (c === 0x2f /* / */ && next === 0x2f) return this.set('comment', start, lineEnd(text, i), PLAIN);
    if (c === 0x2f && next === 0x2a /* * */) {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        const d = text.charCodeAt(j);
        if (d === 0x2f /* / */ && text.charCodeAt(j + 1) === 0x2a /* * */) {
          depth++;
          j += 2;
        } else if (d === 0x2a && text.charCodeAt(j + 1) === 0x2f) {
          depth--;
          j += 2;
        } else j++;
      }
      this.unterminated = depth > 0;
      return this.set('comment', start, j, BLOCK_COMMENT);
    }

    // Literals with a prefix: b"…" b'…' br"…" c"…" cr"…", and raw strings r"…" r#"…"#.
    if (c === 0x62 /* b */ || c === 0x63 /* c */ || c === 0x72 /* r */) {
      const prefix: '' | 'b' | 'c' = c === 0x72 ? '' : c === 0x62 ? 'b' : 'c';
      const j = i + (prefix ? 1 : 0);
      if (prefix && text[j] === '"') return this.quoted('string', start, prefix, quotedEnd(text, j + 1, '"'));
      if (prefix === 'b' && text[j] === "'") return this.quoted('char', start, prefix, singleQuotedEnd(text, j + 1));
      if (text[j] === 'r' && (text[j + 1] === '"' || text[j + 1] === '#')) {
        // `r#ident` is a raw identifier, not a raw string (only without a b/c prefix).
        if (!prefix && text[j + 1] === '#' && isIdStart(cpAt(text, j + 2))) {
          return this.set('ident', start, identEnd(text, j + 2 + cpWidth(cpAt(text, j + 2))), RAW_IDENT);
        }
        let k = j + 1;
        while (text[k] === '#') k++;
        const hashes = k - (j + 1);
        if (text[k] === '"') {
          const closer = '"' + '#'.repeat(hashes);
          const close = text.indexOf(closer, k + 1);
          this.prefix = prefix;
          this.hashes = hashes;
          this.unterminated = close < 0;
          return this.set('string', start, close < 0 ? n : close + closer.length, RAW_STRING);
        }
        // `r#` followed by neither a name nor a quote is invalid Rust; lex `r` as a name and move on.
      }
    }

    if (c < 0x80 ? (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f : isIdStart(cpAt(text, i))) {
      return this.set('ident', start, identEnd(text, i + (c < 0x80 ? 1 : cpWidth(cpAt(text, i)))), PLAIN);
    }

    if (c === 0x22 /* " */) return this.quoted('string', start, '', quotedEnd(text, i + 1, '"'));

    if (c === 0x27 /* ' */) {
      // rustc_lexer's `lifetime_or_char`.
      const first = cpAt(text, i + 1);
      const afterFirst = i + 1 + cpWidth(first);
      const second = cpAt(text, afterFirst);
      const canBeLifetime = second === 0x27 ? false : isIdStart(first) || isDigit(first);
      if (!canBeLifetime) return this.quoted('char', start, '', singleQuotedEnd(text, i + 1));
      let j = afterFirst;
      // Raw lifetime `'r#name`.
      if (first === 0x72 && second === 0x23 && isIdStart(cpAt(text, afterFirst + 1))) j = afterFirst + 1;
      while (j < n && isIdContinue(cpAt(text, j))) j += cpWidth(cpAt(text, j));
      if (text[j] === "'") {
        // `'ab'`: a (malformed) char literal of several characters, as rustc reads it.
        this.prefix = '';
        return this.set('char', start, j + 1, PREFIX_ONLY);
      }
      return this.set('lifetime', start, j, PLAIN);
    }

    if (isDigit(c)) {
      const x = text.charCodeAt(i + 1) | 0x20; // `0x`, `0o`, `0b` in either case
      const radix = c === 0x30 && (x === 0x78 || x === 0x6f || x === 0x62);
      let j = i + 1;
      for (;;) {
        while (j < n && isIdContinue(cpAt(text, j))) j += cpWidth(cpAt(text, j));
        // `1.5` (but not `1..2` or `1.max(2)`), and the exponent sign in `1e-5`.
        const more =
          (text[j] === '.' && isDigit(text.charCodeAt(j + 1))) ||
          (!radix && (text[j] === '+' || text[j] === '-') && (text.charCodeAt(j - 1) | 0x20) === 0x65 /* e, E */ && isDigit(text.charCodeAt(j + 1)));
        if (!more) break;
        j++;
      }
      return this.set('number', start, j, PLAIN);
    }

    if ((c === 0x3a /* : */ && next === 0x3a) || ((c === 0x3d /* = */ || c === 0x2d) /* - */ && next === 0x3e) /* > */) {
      return this.set('punct', start, i + 2, PLAIN);
    }
    return this.set('punct', start, i + (c < 0xd800 || c > 0xdbff ? 1 : cpWidth(cpAt(text, i))), PLAIN);
  }

  /** Whether the current token is the identifier `name` (a raw `r#name` too). */
  isIdent(name: string): boolean {
    if (this.kind !== 'ident') return false;
    const from = this.shape === RAW_IDENT ? this.start + 2 : this.start;
    return this.end - from === name.length && this.text.startsWith(name, from);
  }

  /** Whether the current token is the punctuation `p` of one or two ASCII characters. */
  isPunct(p: string): boolean {
    return this.kind === 'punct' && this.end - this.start === p.length && this.text.startsWith(p, this.start);
  }

  /** The current identifier as a mention: its name (without `r#`) and that name's range. */
  mention(): RustMention {
    const start = this.shape === RAW_IDENT ? this.start + 2 : this.start;
    return { variant: this.text.slice(start, this.end), range: { start, end: this.end } };
  }
}

/** End of the line containing `i`, before its `\n` (and before a `\r` that precedes it). */
function lineEnd(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  if (nl < 0) return text.length;
  return nl > i && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** From just after an opening quote: the offset after the closing one, honouring `\` escapes. */
function quotedEnd(text: string, from: number, quote: string): { end: number; unterminated: boolean } {
  const q = quote.charCodeAt(0);
  for (let j = from; j < text.length; j++) {
    const ch = text.charCodeAt(j);
    if (ch === 0x5c /* \\ */) j++;
    else if (ch === q) return { end: j + 1, unterminated: false };
  }
  return { end: text.length, unterminated: true };
}

/** rustc_lexer's `single_quoted_string`, from just after the opening `'`. */
function singleQuotedEnd(text: string, from: number): { end: number; unterminated: boolean } {
  const first = cpAt(text, from);
  const afterFirst = from + cpWidth(first);
  if (first !== undefined && first !== 0x5c && text[afterFirst] === "'") return { end: afterFirst + 1, unterminated: false };
  let j = from;
  while (j < text.length) {
    const ch = text[j];
    if (ch === "'") return { end: j + 1, unterminated: false };
    if (ch === '/') return { end: j, unterminated: false };
    if (ch === '\n' && text[j + 1] !== "'") return { end: j, unterminated: false };
    if (ch === '\\') j += 1 + cpWidth(cpAt(text, j + 1));
    else j += cpWidth(cpAt(text, j));
  }
  return { end: text.length, unterminated: true };
}

function isCode(token: RustToken): boolean {
  return token.kind !== 'comment';
}

/**
 * Whether `offset` is in code, a comment, or a string/char literal. An offset is inside a comment or
 * literal when strictly between its start and end (so the positions just before an opening `"` or
 * `//`, and just after a closing `"` or block-comment end, are code); a line comment, or anything
 * left unterminated at the end of the text, also owns its end offset, since typing there extends it.
 * Lifetimes and labels (`'a`) are code.
 */
export function rustTokenAt(text: string, offset: number): { kind: 'code' | 'comment' | 'string' } {
  for (const token of lexRust(text)) {
    if (token.start >= offset) break;
    if (token.kind !== 'comment' && token.kind !== 'string' && token.kind !== 'char') continue;
    const ownsEnd = token.unterminated === true || (token.kind === 'comment' && !token.block);
    if (offset < token.end || (offset === token.end && ownsEnd)) {
      return { kind: token.kind === 'comment' ? 'comment' : 'string' };
    }
  }
  return { kind: 'code' };
}

// ---------------------------------------------------------------------------------------------------
// BoundaryId mentions

const BOUNDARY_ID = 'BoundaryId';

function identRange(token: RustToken): TextRange {
  // For `r#Name`, the range is the name alone, so it slices to the variant.
  return { start: token.raw ? token.start + 2 : token.start, end: token.end };
}

function isPunct(token: RustToken | undefined, value: string): boolean {
  return token !== undefined && token.kind === 'punct' && token.value === value;
}

function isIdent(token: RustToken | undefined, value?: string): token is RustToken {
  return token !== undefined && token.kind === 'ident' && (value === undefined || token.value === value);
}

/**
 * Every `BoundaryId::Name` path in code — also `crate::boundary::BoundaryId::Name`, with whitespace
 * or comments around `::`, over several lines — with `variant` = Name and `range` = Name's range.
 * A use-group `BoundaryId::{A, B as C}` mentions A and B. Comments and string/char literals never
 * count. Every name is kept (`BoundaryId::ALL` too); the caller decides which are variants.
 */
export function scanRustMentions(text: string): RustMention[] {
  // Exact shortcut: a mention needs a `BoundaryId` identifier, whose name is always written out in full.
  if (!text.includes(BOUNDARY_ID)) return [];
  // Over the code tokens (comments skipped), one at a time:
  //   `BoundaryId` `::` Name         mentions Name, and Name may itself start the next path
  //                                  (`BoundaryId::BoundaryId::X` in a soup of tokens);
  //   `BoundaryId` `::` `{` … `}`    a use tree: the first name of each top-level element; scanning
  //                                  resumes after its closing brace (or runs to the end).
  const mentions: RustMention[] = [];
  const lexer = new RustLexer(text);
  let state: 'code' | 'id' | 'path' | 'tree' = 'code';
  let depth = 0;
  let elementStart = false;
  while (lexer.next()) {
    if (lexer.kind === 'comment') continue;
    if (state === 'tree') {
      if (lexer.isPunct('{')) depth++;
      else if (lexer.isPunct('}')) {
        if (--depth === 0) state = 'code';
      } else if (depth === 1 && lexer.isPunct(',')) {
        elementStart = true;
        continue;
      } else if (depth === 1 && elementStart && lexer.kind === 'ident') {
        mentions.push(lexer.mention());
      }
      elementStart = false;
      continue;
    }
    if (state === 'id') {
      if (lexer.isPunct('::')) {
        state = 'path';
        continue;
      }
    } else if (state === 'path') {
      if (lexer.kind === 'ident') {
        mentions.push(lexer.mention());
      } else if (lexer.isPunct('{')) {
        state = 'tree';
        depth = 1;
        elementStart = true;
        continue;
      }
    }
    // This token may start a path.
    state = lexer.isIdent(BOUNDARY_ID) ? 'id' : 'code';
  }
  return mentions;
}

// ---------------------------------------------------------------------------------------------------
// The funnel (crates/harn-vm/src/boundary.rs)

/** Index just past the `<…>` starting at `i` (balanced), or `i` when there is none. */
function skipAngles(code: RustToken[], i: number): number {
  if (!isPunct(code[i], '<')) return i;
  let depth = 0;
  for (let j = i; j < code.length; j++) {
    if (isPunct(code[j], '<')) depth++;
    else if (isPunct(code[j], '>')) {
      depth--;
      if (depth === 0) return j + 1;
    } else if (isPunct(code[j], '{') || isPunct(code[j], ';')) return j;
  }
  return code.length;
}

/** Index of the `}` matching the `{` at `open` (or code.length when unmatched). */
function matchingClose(code: RustToken[], open: number): number {
  const openers = '([{';
  const closers = ')]}';
  let depth = 0;
  for (let j = open; j < code.length; j++) {
    const token = code[j];
    if (token?.kind !== 'punct') continue;
    if (openers.includes(token.value)) depth++;
    else if (closers.includes(token.value)) {
      depth--;
      if (depth === 0) return j;
    }
  }
  return code.length;
}

/** From a `where` (or the token after the type), the index of the block's `{`, if reachable. */
function blockOpen(code: RustToken[], i: number): number | undefined {
  if (isPunct(code[i], '{')) return i;
  if (!isIdent(code[i], 'where')) return undefined;
  for (let j = i + 1; j < code.length; j++) {
    if (isPunct(code[j], '{')) return j;
    if (isPunct(code[j], ';') || isPunct(code[j], '}')) return undefined;
  }
  return undefined;
}

/** The bodies (exclusive token index ranges) of every inherent `impl BoundaryId { … }`. */
function implBodies(code: RustToken[]): Array<[number, number]> {
  const bodies: Array<[number, number]> = [];
  for (let i = 0; i < code.length; i++) {
    if (!isIdent(code[i], 'impl')) continue;
    let j = skipAngles(code, i + 1);
    if (isPunct(code[j], '::')) j++;
    let last: RustToken | undefined;
    while (isIdent(code[j])) {
      last = code[j];
      j++;
      if (!isPunct(code[j], '::') || !isIdent(code[j + 1])) break;
      j++;
    }
    // Trait impls (`impl Display for BoundaryId`) fail here: their path ends in the trait.
    if (!last || last.value !== BOUNDARY_ID) continue;
    const open = blockOpen(code, skipAngles(code, j));
    if (open === undefined) continue;
    const close = matchingClose(code, open);
    bodies.push([open + 1, close]);
    i = open;
  }
  return bodies;
}

/** Whether the token before `i` ends a previous arm or opens the match (or closes an arm's `#[…]`). */
function atArmStart(code: RustToken[], i: number, lo: number): boolean {
  let p = i - 1;
  if (p >= lo && isPunct(code[p], '|')) p--; // a leading `|`
  if (p < lo) return true;
  const prev = code[p];
  if (isPunct(prev, '{') || isPunct(prev, ',') || isPunct(prev, '}')) return true;
  if (isPunct(prev, ']')) {
    // `#[attr] Self::X => …`: find the `[` and check for the `#`.
    let depth = 0;
    for (let j = p; j >= lo; j--) {
      if (isPunct(code[j], ']')) depth++;
      else if (isPunct(code[j], '[')) {
        depth--;
        if (depth === 0) return isPunct(code[j - 1], '#');
      }
    }
  }
  return false;
}

/** `Self::X`, `BoundaryId::X` or `…::BoundaryId::X` at `i`, with an optional `(..)`/`{..}` payload. */
function parseVariantPattern(code: RustToken[], i: number, hi: number): { variant: RustToken; next: number } | undefined {
  const segments: RustToken[] = [];
  let j = i;
  while (j < hi) {
    const segment = code[j];
    if (!isIdent(segment)) break;
    segments.push(segment);
    j++;
    if (j < hi && isPunct(code[j], '::') && isIdent(code[j + 1])) j++;
    else break;
  }
  // Both are there exactly when the path has at least two segments.
  const owner = segments.at(-2);
  const variant = segments.at(-1);
  if (owner === undefined || variant === undefined) return undefined;
  if (owner.value !== 'Self' && owner.value !== BOUNDARY_ID) return undefined;
  if (j < hi && (isPunct(code[j], '(') || isPunct(code[j], '{'))) j = matchingClose(code, j) + 1;
  return { variant, next: j };
}

/** A plain `"…"` or raw `r#"…"#` string literal (not byte or C strings), decoded. */
function plainString(token: RustToken | undefined): string | undefined {
  if (!token || token.kind !== 'string' || token.prefix !== '' || token.unterminated) return undefined;
  const body = token.value.replace(/\r\n/g, '\n');
  if (token.hashes !== undefined) return body.slice(2 + token.hashes, body.length - 1 - token.hashes);
  return decodeEscapes(body.slice(1, -1));
}

const RUST_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
  ['\\', '\\'],
  ['0', '\0'],
  ["'", "'"],
  ['"', '"'],
]);

/** Rust string escapes; an invalid escape is kept as written. */
function decodeEscapes(body: string): string {
  return body.replace(/\\(?:u\{([0-9a-fA-F_]{1,8})\}|x([0-7][0-9a-fA-F])|\n[ \t\n\r]*|(.))/gsu, (whole, u?: string, x?: string, c?: string) => {
    if (u !== undefined) {
      const cp = parseInt(u.replace(/_/g, ''), 16);
      return Number.isFinite(cp) && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : whole;
    }
    if (x !== undefined) return String.fromCharCode(parseInt(x, 16));
    if (c === undefined) return ''; // line continuation
    return RUST_ESCAPES.get(c) ?? whole;
  });
}

/**
 * The funnel: the `Self::Variant => "wire"` arms (or `BoundaryId::Variant => …`, and `A | B => …`
 * giving every alternative the wire) inside the brace-matched bodies of every inherent
 * `impl BoundaryId { … }`, where the right-hand side is exactly one plain or raw string literal; and
 * the variants of `enum BoundaryId { … }`. Garbage in, empty lists out.
 */
export function parseFunnel(text: string): Funnel {
  const code = lexRust(text).filter(isCode);
  const arms: FunnelArm[] = [];
  for (const [lo, hi] of implBodies(code)) {
    for (let i = lo; i < hi; i++) {
      if (!isIdent(code[i]) || !atArmStart(code, i, lo)) continue;
      const variants: RustToken[] = [];
      let j = i;
      let ok = false;
      for (;;) {
        const pattern = parseVariantPattern(code, j, hi);
        if (!pattern) break;
        variants.push(pattern.variant);
        j = pattern.next;
        if (isPunct(code[j], '|') && j + 1 < hi) {
          j++;
          continue;
        }
        ok = isPunct(code[j], '=>');
        break;
      }
      if (!ok) continue;
      const literal = j + 1 < hi ? code[j + 1] : undefined;
      const wire = plainString(literal); // undefined when there is no literal
      const following = code[j + 2];
      if (literal === undefined || wire === undefined || !(j + 2 >= hi || isPunct(following, ',') || isPunct(following, '}'))) continue;
      for (const variant of variants) {
        arms.push({ variant: variant.value, wire, variantRange: identRange(variant), wireRange: { start: literal.start, end: literal.end } });
      }
      i = j + 1;
    }
  }
  return { arms, enumVariants: enumVariants(code) };
}

function enumVariants(code: RustToken[]): Funnel['enumVariants'] {
  const out: Funnel['enumVariants'] = [];
  for (let i = 0; i + 1 < code.length; i++) {
    if (!isIdent(code[i], 'enum') || !isIdent(code[i + 1], BOUNDARY_ID)) continue;
    const open = blockOpen(code, skipAngles(code, i + 2));
    if (open === undefined) continue;
    const close = matchingClose(code, open);
    let j = open + 1;
    while (j < close) {
      // Attributes (doc comments are already gone) and a visibility.
      while (isPunct(code[j], '#') && isPunct(code[j + 1], '[')) j = matchingClose(code, j + 1) + 1;
      if (isIdent(code[j], 'pub')) {
        j++;
        if (isPunct(code[j], '(')) j = matchingClose(code, j) + 1;
      }
      const name = code[j];
      if (j < close && isIdent(name)) out.push({ name: name.value, range: identRange(name) });
      // Skip the payload and any discriminant, up to the next top-level comma.
      while (j < close && !isPunct(code[j], ',')) {
        j = isPunct(code[j], '(') || isPunct(code[j], '[') || isPunct(code[j], '{') ? matchingClose(code, j) + 1 : j + 1;
      }
      j++;
    }
    i = close;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Site paths

/**
 * Upstream's `is_exempt_site` without its funnel-path check (the caller compares with the funnel
 * path): a test module or test file. Matches upstream exactly, including that `contains("/tests/")`
 * needs a slash before `tests`, so a root-relative path *starting* with `tests/` is not exempt.
 */
export function isExemptSitePath(path: string): boolean {
  const normalized = path.replace(/\\/g, '/');
  return normalized.includes('/tests/') || normalized.endsWith('/tests.rs') || normalized.endsWith('_tests.rs') || normalized.endsWith('_test.rs');
}

/** Upstream's `is_exempt_site`: the funnel itself, or a Rust test module or test file, is no site the gate checks. */
export function isExemptSite(relative: string, funnelPath: string): boolean {
  return relative.endsWith('.rs') && (relative === funnelPath || isExemptSitePath(relative));
}
