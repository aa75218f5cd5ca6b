// Error-tolerant Harn lexer. Every lexer error is local: it is reported, the offending text becomes
// an Invalid token or ends at its line, and lexing goes on. Offsets are UTF-16 code units.

import { LineIndex } from '../text/lineIndex';
import { KEYWORDS, Token, TokenKind } from './tokens';

export interface OffsetDiagnostic {
  start: number;
  end: number;
  message: string;
  code: string;
}

export type CommentKind = 'line' | 'block' | 'doc' | 'legacyDoc';

export interface Comment {
  kind: CommentKind;
  start: number;
  end: number;
}

export interface LexResult {
  tokens: Token[];
  comments: Comment[];
  diagnostics: OffsetDiagnostic[];
}

const CH_NL = 10;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_TAB = 9;
const CH_QUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_STAR = 42;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_LBRACE = 123;
const CH_RBRACE = 125;
const CH_BACKSLASH = 92;
const CH_UNDERSCORE = 95;
const CH_BOM = 0xfeff;

const MAX_INT = '9223372036854775807';

function isAsciiIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === CH_UNDERSCORE;
}

function isAsciiIdentPart(c: number): boolean {
  return isAsciiIdentStart(c) || (c >= CH_0 && c <= CH_9);
}

const UNICODE_LETTER = /\p{L}/u;
const UNICODE_IDENT_PART = /[\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}]/u;

/** Reads the code point at `i` (surrogate pairs count as one character of length 2). */
function codePointAt(source: string, i: number): { char: string; length: number } {
  const cp = source.codePointAt(i) ?? 0;
  const length = cp > 0xffff ? 2 : 1;
  return { char: source.slice(i, i + length), length };
}

/** The state of one interpolated string whose `${…}` hole is being lexed. */
interface HoleFrame {
  triple: boolean;
  braceDepth: number;
  /** `(` and `[` open in the hole: a line break there continues a single-line string's hole (0.10). */
  brackets: number;
  /** Offset of the opening quote: diagnostics for an unterminated string point here. */
  stringStart: number;
  /** The StringHead or StringMiddle token ending in this hole's `${`; marked unterminated when a line break cuts the hole. */
  opener: Token;
}

/** Words that start a statement: a line starting with one is never the continuation of a string's hole. */
const STATEMENT_WORDS: ReadonlySet<string> = new Set([
  'let',
  'var',
  'const',
  'fn',
  'pub',
  'pipeline',
  'import',
  'return',
  'if',
  'for',
  'while',
  'match',
  'struct',
  'enum',
  'type',
  'tool',
  'skill',
  'impl',
  'interface',
  'throw',
  'guard',
  'require',
  'defer',
]);

/** ASCII identifier characters: 1 = may start an identifier, 2 = may continue one. */
const IDENT_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === CH_UNDERSCORE) IDENT_CLASS[c] = 3;
  else if (c >= CH_0 && c <= CH_9) IDENT_CLASS[c] = 2;
}

/** `keepsComments: false`: no comment is listed (a lean parse reads none, see ParseOptions.lean). */
export function lex(source: string, options: { keepsComments?: boolean } = {}): LexResult {
  const lexer = new Lexer(source);
  lexer.keepsComments = options.keepsComments ?? true;
  return lexer.run();
}

/** What lexRange read: the tokens (no EOF), comments and diagnostics of `source` from `from`, and where it stopped. */
export interface RangeLexResult extends LexResult {
  /** The offset after the last token or comment read: `to` when the range ends at a token boundary, else past it. */
  end: number;
  /** Whether the lexer was back in its ordinary state at `end` (no `${…}` hole of a string open). */
  neutral: boolean;
  /** Whether a line break lies between the last token read (or `from`) and `end`: the next token's nlBefore. */
  nlBeforeEnd: boolean;
}

/**
 * Lexes `source` from `from` (which must be where the lexer of the whole file is in its ordinary state: a token
 * start outside every string hole) until it reaches `to` or passes it. `nlBefore`: whether a line break precedes
 * `from` (the first token's nlBefore). Offsets are absolute. `lineIndex`, when given, is the source's, for messages.
 */
export function lexRange(source: string, from: number, to: number, nlBefore: boolean, lineIndex?: LineIndex): RangeLexResult {
  const lexer = new Lexer(source, lineIndex);
  lexer.nlBefore = nlBefore;
  const end = lexer.scan(from, to);
  return {
    tokens: lexer.tokens,
    comments: lexer.comments,
    diagnostics: lexer.diagnostics,
    end,
    neutral: lexer.holes.length === 0,
    nlBeforeEnd: lexer.nlBefore,
  };
}

/**
 * The scanner. The hot loop keeps its position in a local variable; the rarer scanners (strings,
 * comments, errors) take a position and return the next one.
 */
class Lexer {
  readonly tokens: Token[] = [];
  readonly comments: Comment[] = [];
  readonly diagnostics: OffsetDiagnostic[] = [];
  readonly holes: HoleFrame[] = [];
  private readonly length: number;
  nlBefore = true;
  keepsComments = true;

  constructor(
    private readonly source: string,
    private lineIndex?: LineIndex,
  ) {
    this.length = source.length;
  }

  run(): LexResult {
    const source = this.source;
    const length = this.length;
    let pos = 0;

    if (source.charCodeAt(0) === CH_BOM) pos = 1;
    // A shebang is only allowed at the very start of the file.
    if (source.charCodeAt(pos) === CH_HASH && source.charCodeAt(pos + 1) === 33) {
      while (pos < length && !isLineBreak(source.charCodeAt(pos))) pos++;
      if (this.keepsComments) this.comments.push({ kind: 'line', start: 0, end: pos });
    }

    this.scan(pos, length);

    // A hole still open at the end of the file belongs to an unterminated string.
    for (const hole of this.holes) {
      this.error(hole.stringStart, length, `Unterminated string at ${this.where(hole.stringStart)}`, 'unterminated_string');
    }
    this.tokens.push(makeToken(TokenKind.EOF, '', length, length, true));
    return { tokens: this.tokens, comments: this.comments, diagnostics: this.diagnostics };
  }

  /** Reads tokens from `pos` until `stop` is reached or passed (a token or comment may run past it); returns where it stopped. */
  scan(pos: number, stop: number): number {
    const source = this.source;
    const length = this.length;
    const holes = this.holes;
    while (pos < stop) {
      const c = source.charCodeAt(pos);

      // Whitespace and newlines. Line breaks are \n, \r\n and a lone \r, as in LineIndex and the editor.
      if (c === CH_SPACE || c === CH_TAB || c === 0x0c || c === 0x0b) {
        // Indentation comes in runs.
        do pos++;
        while (source.charCodeAt(pos) === CH_SPACE);
        continue;
      }
      if (c === CH_NL || c === CH_CR) {
        if (c === CH_CR && source.charCodeAt(pos + 1) === CH_NL) pos++;
        // A newline inside a single-line string's hole ends that string, keeping the error on this line;
        // except inside a bracket of the hole (`"${render(⏎ a,⏎ )}"`, valid in 0.10) unless the next line
        // starts a statement (the usual shape of a half-typed hole).
        const hole = holes.length > 0 ? holes[holes.length - 1] : undefined;
        if (hole && !hole.triple && ((hole.braceDepth === 0 && hole.brackets === 0) || startsStatementLine(source, pos + 1))) {
          holes.pop();
          hole.opener.terminated = false;
          this.error(hole.stringStart, pos, `Unterminated string at ${this.where(hole.stringStart)}`, 'unterminated_string');
          continue;
        }
        this.nlBefore = true;
        pos++;
        continue;
      }

      const start = pos;

      // Identifiers and keywords (the most common token): an ASCII fast path.
      if (c < 128 && IDENT_CLASS[c] === 3 && !(c === 114 /* r */ && isRawStringStart(source, pos))) {
        pos++;
        let d = source.charCodeAt(pos);
        while (d < 128 ? IDENT_CLASS[d] !== 0 : false) d = source.charCodeAt(++pos);
        if (d > 127 && pos < length) {
          pos = scanUnicodeIdentifierRest(source, pos, length);
        }
        const keyword = keywordAt(source, start, pos - start, c);
        if (keyword !== undefined) this.push(TokenKind.Keyword, keyword, start, pos);
        else this.push(TokenKind.Identifier, source.slice(start, pos), start, pos);
        continue;
      }

      switch (c) {
        case CH_SLASH: {
          const n = source.charCodeAt(pos + 1);
          if (n === CH_SLASH) {
            pos = this.lineComment(pos);
            continue;
          }
          if (n === CH_STAR) {
            pos = this.blockComment(pos);
            continue;
          }
          break;
        }
        case CH_QUOTE:
          if (source.charCodeAt(pos + 1) === CH_QUOTE && source.charCodeAt(pos + 2) === CH_QUOTE) {
            pos = this.stringBody(start, pos + 3, true, start, false);
          } else {
            pos = this.stringBody(start, pos + 1, false, start, false);
          }
          continue;
        case CH_BACKSLASH: {
          // `\` + newline joins two lines.
          const n = source.charCodeAt(pos + 1);
          if (n === CH_NL || n === CH_CR) {
            pos = n === CH_CR && source.charCodeAt(pos + 2) === CH_NL ? pos + 3 : pos + 2;
            continue;
          }
          break;
        }
        case 114 /* r */:
          pos = this.rawString(pos);
          continue;
      }

      if (c >= CH_0 && c <= CH_9) {
        pos = this.number(pos);
        continue;
      }

      // Braces inside an interpolation hole.
      // Guarded by the length: reading past the end on every character leaves V8's fast path.
      const hole = holes.length > 0 ? holes[holes.length - 1] : undefined;
      if (hole) {
        if (c === 40 /* ( */ || c === 91 /* [ */) hole.brackets++;
        else if (c === 41 /* ) */ || c === 93 /* ] */) hole.brackets = Math.max(0, hole.brackets - 1);
        else if (c === CH_LBRACE) hole.braceDepth++;
        else if (c === CH_RBRACE) {
          if (hole.braceDepth === 0) {
            holes.pop();
            pos = this.stringBody(start, pos + 1, hole.triple, hole.stringStart, true);
            continue;
          }
          hole.braceDepth--;
        } else if (c === CH_BACKSLASH && source.charCodeAt(pos + 1) === CH_QUOTE) {
          // `\"` in a hole: the writer escaped the quotes of a nested string. Report the backslash (as 0.10
          // does) and read the pair as one bad token, so the nested string does not swallow the real closing quote.
          pos += 2;
          this.push(TokenKind.Invalid, '\\"', start, pos);
          this.error(
            start,
            start + 1,
            `Unexpected character '\\' at ${this.where(start)} (a string inside \`\${…}\` uses plain quotes)`,
            'unexpected_character',
          );
          continue;
        }
      }

      const operator = operatorAt(source, pos, c);
      if (operator !== undefined) {
        if (operator === '<<') {
          pos = this.heredoc(pos);
          continue;
        }
        pos += operator.length;
        this.push(TokenKind.Punct, operator, start, pos);
        continue;
      }

      if (c > 127) {
        const cp = codePointAt(source, pos);
        if (UNICODE_LETTER.test(cp.char)) {
          pos = scanUnicodeIdentifierRest(source, pos + cp.length, length);
          const word = source.slice(start, pos);
          this.push(TokenKind.Identifier, word, start, pos);
          continue;
        }
      }
      pos = this.invalid(pos, c);
    }
    return pos;
  }

  private push(kind: TokenKind, value: string, start: number, end: number): Token {
    const token = makeToken(kind, value, start, end, this.nlBefore);
    this.tokens.push(token);
    this.nlBefore = false;
    return token;
  }

  private error(start: number, end: number, message: string, code = 'lex_error'): void {
    this.diagnostics.push({ start, end, message, code });
  }

  /** `line:column` (1-based) for error messages. */
  private where(offset: number): string {
    this.lineIndex ??= new LineIndex(this.source);
    const { line, character } = this.lineIndex.positionAt(offset);
    return `${line + 1}:${character + 1}`;
  }

  private lineComment(start: number): number {
    const source = this.source;
    let pos = start + 2;
    while (pos < this.length && !isLineBreak(source.charCodeAt(pos))) pos++;
    const isLegacyDoc = source.charCodeAt(start + 2) === CH_SLASH && source.charCodeAt(start + 3) !== CH_SLASH;
    if (this.keepsComments) this.comments.push({ kind: isLegacyDoc ? 'legacyDoc' : 'line', start, end: pos });
    return pos;
  }

  /** `/* … *\/`, which nests. */
  private blockComment(start: number): number {
    const source = this.source;
    let pos = start + 2;
    let depth = 1;
    while (pos < this.length && depth > 0) {
      const d = source.charCodeAt(pos);
      if (d === CH_SLASH && source.charCodeAt(pos + 1) === CH_STAR) {
        depth++;
        pos += 2;
      } else if (d === CH_STAR && source.charCodeAt(pos + 1) === CH_SLASH) {
        depth--;
        pos += 2;
      } else {
        if (isLineBreak(d)) this.nlBefore = true;
        pos++;
      }
    }
    if (depth > 0) this.error(start, start + 2, 'Unterminated block comment', 'unterminated_comment');
    // `/** … *\/` is a doc comment; `/**\/` and `/***` are not.
    const isDoc = source.charCodeAt(start + 2) === CH_STAR && source.charCodeAt(start + 3) !== CH_STAR && source.charCodeAt(start + 3) !== CH_SLASH;
    if (this.keepsComments) this.comments.push({ kind: isDoc ? 'doc' : 'block', start, end: pos });
    return pos;
  }

  /**
   * Scans string content from `pos` (just after the opening quote or a hole's `}`) to the closing quote or
   * the next `${`, pushing one token; returns the position after it.
   */
  private stringBody(tokenStart: number, pos: number, triple: boolean, stringStart: number, continuing: boolean): number {
    const source = this.source;
    const length = this.length;
    while (pos < length) {
      const c = source.charCodeAt(pos);
      if (c === CH_QUOTE) {
        if (!triple) {
          pos++;
          this.push(continuing ? TokenKind.StringTail : TokenKind.String, '', tokenStart, pos);
          return pos;
        }
        if (source.charCodeAt(pos + 1) === CH_QUOTE && source.charCodeAt(pos + 2) === CH_QUOTE) {
          pos += 3;
          this.push(continuing ? TokenKind.StringTail : TokenKind.String, '', tokenStart, pos).triple = true;
          return pos;
        }
      } else if (c === CH_DOLLAR) {
        if (source.charCodeAt(pos + 1) === CH_LBRACE) {
          pos += 2;
          const opener = this.push(continuing ? TokenKind.StringMiddle : TokenKind.StringHead, '', tokenStart, pos);
          opener.triple = triple;
          this.holes.push({ triple, braceDepth: 0, brackets: 0, stringStart, opener });
          return pos;
        }
      } else if (triple) {
        // `\${` in a """…""" string is a literal `${` (0.10); no other escape is processed there.
        if (c === CH_BACKSLASH && source.charCodeAt(pos + 1) === CH_DOLLAR && source.charCodeAt(pos + 2) === CH_LBRACE) {
          pos += 3;
          continue;
        }
      } else {
        if (c === CH_NL || c === CH_CR) break;
        if (c === CH_BACKSLASH && pos + 1 < length) {
          const next = source.charCodeAt(pos + 1);
          if (next !== CH_NL && next !== CH_CR) {
            pos += 2;
            continue;
          }
        }
      }
      pos++;
    }
    // Unterminated: a single-line string ends at its line, a triple-quoted one at the end of the file.
    const t = this.push(continuing ? TokenKind.StringTail : TokenKind.String, '', tokenStart, pos);
    t.triple = triple;
    t.terminated = false;
    this.error(stringStart, pos, `Unterminated string at ${this.where(stringStart)}`, 'unterminated_string');
    return pos;
  }

  /** `r"…"`, `r#"…"#`, …, or the identifier `r…` when no raw string starts here. */
  private rawString(start: number): number {
    const source = this.source;
    let p = start + 1;
    let hashes = 0;
    while (source.charCodeAt(p) === CH_HASH) {
      hashes++;
      p++;
    }
    let pos = p + 1;
    while (pos < this.length) {
      const c = source.charCodeAt(pos);
      if (c === CH_QUOTE) {
        let q = pos + 1;
        let closing = 0;
        while (closing < hashes && source.charCodeAt(q) === CH_HASH) {
          closing++;
          q++;
        }
        if (closing === hashes) {
          this.push(TokenKind.RawString, '', start, q);
          return q;
        }
      }
      if (c === CH_NL || c === CH_CR) break;
      pos++;
    }
    this.push(TokenKind.RawString, '', start, pos).terminated = false;
    this.error(start, pos, `Unterminated raw string at ${this.where(start)}`, 'unterminated_string');
    return pos;
  }

  private number(start: number): number {
    const source = this.source;
    const length = this.length;
    let pos = start;
    while (pos < length && isDigit(source.charCodeAt(pos))) pos++;
    let kind = TokenKind.Int;
    if (source.charCodeAt(pos) === CH_DOT && isDigit(source.charCodeAt(pos + 1))) {
      pos++;
      while (pos < length && isDigit(source.charCodeAt(pos))) pos++;
      kind = TokenKind.Float;
    }
    if (kind === TokenKind.Int) {
      if (pos - start >= MAX_INT.length) {
        const digits = source.slice(start, pos).replace(/^0+(?=\d)/, '');
        // 0.10 rejects what does not fit in i64 (v0.7 silently made it a float).
        if (digits.length > MAX_INT.length || (digits.length === MAX_INT.length && digits > MAX_INT)) {
          this.error(start, pos, `Integer literal ${digits} is out of range for int (at most ${MAX_INT})`, 'int_overflow');
        }
      }
      const suffix = durationSuffixLength(source, pos);
      if (suffix > 0) {
        pos += suffix;
        kind = TokenKind.Duration;
      }
    }
    this.push(kind, '', start, pos);
    return pos;
  }

  /** `<<TAG` heredocs do not exist in Harn; say so instead of reporting two `<`. */
  private heredoc(start: number): number {
    let pos = start + 2;
    while (pos < this.length && isAsciiIdentPart(this.source.charCodeAt(pos))) pos++;
    this.push(TokenKind.Invalid, this.source.slice(start, pos), start, pos);
    this.error(start, pos, 'Heredoc (`<<TAG`) strings are not supported in Harn: use a """multi-line""" string', 'heredoc');
    return pos;
  }

  /** Anything else is a local error. A run of unreadable characters (binary data) is one token and one diagnostic. */
  private invalid(start: number, c: number): number {
    const cp = codePointAt(this.source, start);
    const pos = start + cp.length;
    const previous = this.tokens[this.tokens.length - 1];
    const lastDiagnostic = this.diagnostics[this.diagnostics.length - 1];
    if (previous?.kind === TokenKind.Invalid && previous.end === start && lastDiagnostic?.code === 'unexpected_character' && lastDiagnostic.end === start) {
      previous.end = pos;
      lastDiagnostic.end = pos;
      lastDiagnostic.message = `Unexpected characters at ${this.where(lastDiagnostic.start)}`;
      return pos;
    }
    this.push(TokenKind.Invalid, cp.char, start, pos);
    const shown = c === 0 ? '\\0' : cp.char;
    this.error(start, pos, `Unexpected character '${shown}' at ${this.where(start)}`, 'unexpected_character');
    return pos;
  }
}

/** Keywords by first character, so a keyword test needs no substring. */
const KEYWORDS_BY_FIRST_CHAR: string[][] = [];
for (const keyword of KEYWORDS) (KEYWORDS_BY_FIRST_CHAR[keyword.charCodeAt(0)] ??= []).push(keyword);

/** The keyword spelled by the `length` characters at `start` (first character `c`), if any. */
function keywordAt(source: string, start: number, length: number, c: number): string | undefined {
  const candidates = KEYWORDS_BY_FIRST_CHAR[c];
  if (candidates === undefined) return undefined;
  for (let i = 0; i < candidates.length; i++) {
    const keyword = candidates[i];
    if (keyword !== undefined && keyword.length === length && source.startsWith(keyword, start)) return keyword;
  }
  return undefined;
}

function makeToken(kind: TokenKind, value: string, start: number, end: number, nlBefore: boolean): Token {
  // Always the same fields in the same order, so every token has one hidden class.
  return { kind, value, start, end, nlBefore, triple: false, terminated: true };
}

function isRawStringStart(source: string, pos: number): boolean {
  let p = pos + 1;
  while (source.charCodeAt(p) === CH_HASH) p++;
  return source.charCodeAt(p) === CH_QUOTE;
}

/** Continues an identifier into non-ASCII letters, digits and marks (astral characters included). */
function scanUnicodeIdentifierRest(source: string, pos: number, length: number): number {
  while (pos < length) {
    const d = source.charCodeAt(pos);
    if (d < 128) {
      if (IDENT_CLASS[d] === 0) break;
      pos++;
    } else {
      const cp = codePointAt(source, pos);
      if (!UNICODE_IDENT_PART.test(cp.char)) break;
      pos += cp.length;
    }
  }
  return pos;
}

/** The length of a duration suffix (ms s m h d w) at `pos`, 0 when none; it must not run into a word. */
function durationSuffixLength(source: string, pos: number): number {
  const c = source.charCodeAt(pos);
  let length: number;
  if (c === 109 /* m */) length = source.charCodeAt(pos + 1) === 115 /* s */ ? 2 : 1;
  else if (c === 115 || c === 104 || c === 100 || c === 119) length = 1;
  else return 0;
  // `5min` and `5msx` are a number followed by a name.
  const after = source.charCodeAt(pos + length);
  return after < 128 && IDENT_CLASS[after] !== 0 ? 0 : length;
}

/** The operator or punctuation at `pos` (two- and three-character ones first), or undefined. */
function operatorAt(source: string, pos: number, c: number): string | undefined {
  const n = source.charCodeAt(pos + 1);
  switch (c) {
    case 61 /* = */:
      return n === 61 ? '==' : '=';
    case 33 /* ! */:
      return n === 61 ? '!=' : '!';
    case 38 /* & */:
      return n === 38 ? '&&' : '&';
    case 124 /* | */:
      return n === 124 ? '||' : n === 62 ? '|>' : '|';
    case 63 /* ? */:
      return n === 63 ? '??' : n === 46 ? '?.' : '?';
    case 42 /* * */:
      return n === 42 ? '**' : n === 61 ? '*=' : '*';
    case 45 /* - */:
      return n === 62 ? '->' : n === 61 ? '-=' : '-';
    case 60 /* < */:
      if (n === 60 && isAsciiIdentStart(source.charCodeAt(pos + 2))) return '<<';
      return n === 61 ? '<=' : '<';
    case 62 /* > */:
      return n === 61 ? '>=' : '>';
    case 43 /* + */:
      return n === 61 ? '+=' : '+';
    case 47 /* / */:
      return n === 61 ? '/=' : '/';
    case 37 /* % */:
      return n === 61 ? '%=' : '%';
    case 58 /* : */:
      return n === 58 ? '::' : ':';
    case CH_DOT:
      return n === CH_DOT && source.charCodeAt(pos + 2) === CH_DOT ? '...' : '.';
    case 64:
      return '@';
    case 123:
      return '{';
    case 125:
      return '}';
    case 40:
      return '(';
    case 41:
      return ')';
    case 91:
      return '[';
    case 93:
      return ']';
    case 44:
      return ',';
    case 59:
      return ';';
    default:
      return undefined;
  }
}

/** Whether the line starting at `pos` starts with a statement keyword (see STATEMENT_WORDS). */
function startsStatementLine(source: string, pos: number): boolean {
  let start = pos;
  for (let c = source.charCodeAt(start); c === CH_SPACE || c === CH_TAB || c === CH_NL || c === CH_CR; c = source.charCodeAt(++start));
  let end = start;
  while (end < source.length && isAsciiIdentPart(source.charCodeAt(end))) end++;
  return end > start && STATEMENT_WORDS.has(source.slice(start, end));
}

/** \n or \r: where a line's content ends (a \r\n pair is one break). */
function isLineBreak(c: number): boolean {
  return c === CH_NL || c === CH_CR;
}

function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}
