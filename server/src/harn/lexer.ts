// Error-tolerant Harn lexer. Every lexer error is local: it is reported, the offending text becomes
// an Invalid token or ends at its line, and lexing goes on. Offsets are UTF-16 code units.

import { LineIndex } from '../text/lineIndex';
import { KEYWORDS, SINGLE_CHAR_OPERATORS, TWO_CHAR_OPERATORS, Token, TokenKind } from './tokens';

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

const DURATION_SUFFIXES = ['ms', 's', 'm', 'h', 'd', 'w'];
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
  /** Offset of the opening quote: diagnostics for an unterminated string point here. */
  stringStart: number;
}

export function lex(source: string): LexResult {
  const tokens: Token[] = [];
  const comments: Comment[] = [];
  const diagnostics: OffsetDiagnostic[] = [];
  const holes: HoleFrame[] = [];
  const length = source.length;
  let pos = 0;
  let nlBefore = true;

  if (source.charCodeAt(0) === CH_BOM) pos = 1;
  // A shebang is only allowed at the very start of the file.
  if (source.charCodeAt(pos) === CH_HASH && source.charCodeAt(pos + 1) === 33) {
    while (pos < length && !isLineBreak(source.charCodeAt(pos))) pos++;
    comments.push({ kind: 'line', start: 0, end: pos });
  }

  let lineIndex: LineIndex | undefined;
  const where = (offset: number): string => {
    lineIndex ??= new LineIndex(source);
    const { line, character } = lineIndex.positionAt(offset);
    return `${line + 1}:${character + 1}`;
  };

  const push = (kind: TokenKind, value: string, start: number, end: number): Token => {
    const token: Token = { kind, value, start, end, nlBefore };
    tokens.push(token);
    nlBefore = false;
    return token;
  };

  const error = (start: number, end: number, message: string, code = 'lex_error'): void => {
    diagnostics.push({ start, end, message, code });
  };

  /**
   * Scans string content from `pos` (just after the opening quote or a hole's `}`) to the closing quote or
   * the next `${`, pushing one token. `headKind` is the kind to use when the string continues into a hole.
   */
  const scanStringBody = (tokenStart: number, triple: boolean, stringStart: number, continuing: boolean): void => {
    while (pos < length) {
      const c = source.charCodeAt(pos);
      if (triple) {
        if (c === CH_QUOTE && source.charCodeAt(pos + 1) === CH_QUOTE && source.charCodeAt(pos + 2) === CH_QUOTE) {
          pos += 3;
          const t = push(continuing ? TokenKind.StringTail : TokenKind.String, '', tokenStart, pos);
          t.triple = true;
          t.terminated = true;
          return;
        }
      } else {
        if (c === CH_QUOTE) {
          pos++;
          const t = push(continuing ? TokenKind.StringTail : TokenKind.String, '', tokenStart, pos);
          t.terminated = true;
          return;
        }
        if (c === CH_NL || c === CH_CR) break;
        if (c === CH_BACKSLASH && pos + 1 < length) {
          const next = source.charCodeAt(pos + 1);
          if (next !== CH_NL && next !== CH_CR) {
            pos += 2;
            continue;
          }
        }
      }
      if (c === CH_DOLLAR && source.charCodeAt(pos + 1) === CH_LBRACE) {
        pos += 2;
        const t = push(continuing ? TokenKind.StringMiddle : TokenKind.StringHead, '', tokenStart, pos);
        t.triple = triple;
        t.terminated = true;
        holes.push({ triple, braceDepth: 0, stringStart });
        return;
      }
      pos++;
    }
    // Unterminated: a single-line string ends at its line, a triple-quoted one at the end of the file.
    const t = push(continuing ? TokenKind.StringTail : TokenKind.String, '', tokenStart, pos);
    t.triple = triple;
    t.terminated = false;
    error(stringStart, pos, `Unterminated string at ${where(stringStart)}`, 'unterminated_string');
  };

  while (pos < length) {
    const c = source.charCodeAt(pos);

    // Whitespace and newlines. Line breaks are \n, \r\n and a lone \r, as in LineIndex and the editor.
    if (c === CH_SPACE || c === CH_TAB || c === 0x0c || c === 0x0b || (c === CH_CR && source.charCodeAt(pos + 1) === CH_NL)) {
      pos++;
      continue;
    }
    if (c === CH_NL || c === CH_CR) {
      // A newline inside a single-line string's hole ends that string: keep the error on this line.
      const hole = holes[holes.length - 1];
      if (hole && !hole.triple) {
        holes.pop();
        error(hole.stringStart, pos, `Unterminated string at ${where(hole.stringStart)}`, 'unterminated_string');
        continue;
      }
      nlBefore = true;
      pos++;
      continue;
    }
    if (c === CH_BACKSLASH) {
      // `\` + newline joins two lines.
      const p = pos + 1;
      const n = source.charCodeAt(p);
      if (n === CH_NL || n === CH_CR) {
        pos = n === CH_CR && source.charCodeAt(p + 1) === CH_NL ? p + 2 : p + 1;
        continue;
      }
    }

    // Comments.
    if (c === CH_SLASH) {
      const n = source.charCodeAt(pos + 1);
      if (n === CH_SLASH) {
        const start = pos;
        while (pos < length && !isLineBreak(source.charCodeAt(pos))) pos++;
        const text3 = source.charCodeAt(start + 2);
        const isLegacyDoc = text3 === CH_SLASH && source.charCodeAt(start + 3) !== CH_SLASH;
        comments.push({ kind: isLegacyDoc ? 'legacyDoc' : 'line', start, end: pos });
        continue;
      }
      if (n === CH_STAR) {
        const start = pos;
        pos += 2;
        let depth = 1;
        while (pos < length && depth > 0) {
          const d = source.charCodeAt(pos);
          if (d === CH_SLASH && source.charCodeAt(pos + 1) === CH_STAR) {
            depth++;
            pos += 2;
          } else if (d === CH_STAR && source.charCodeAt(pos + 1) === CH_SLASH) {
            depth--;
            pos += 2;
          } else {
            if (isLineBreak(d)) nlBefore = true;
            pos++;
          }
        }
        if (depth > 0) error(start, start + 2, 'Unterminated block comment', 'unterminated_comment');
        // `/** … */` is a doc comment; `/**/` and `/***` are not.
        const isDoc =
          source.charCodeAt(start + 2) === CH_STAR &&
          source.charCodeAt(start + 3) !== CH_STAR &&
          source.charCodeAt(start + 3) !== CH_SLASH;
        comments.push({ kind: isDoc ? 'doc' : 'block', start, end: pos });
        continue;
      }
    }

    const start = pos;

    // Identifiers, keywords, raw strings.
    if (isAsciiIdentStart(c) || (c > 127 && UNICODE_LETTER.test(codePointAt(source, pos).char))) {
      if (c === 114 /* r */) {
        const n = source.charCodeAt(pos + 1);
        if (n === CH_QUOTE || n === CH_HASH) {
          let hashes = 0;
          let p = pos + 1;
          while (source.charCodeAt(p) === CH_HASH) {
            hashes++;
            p++;
          }
          if (source.charCodeAt(p) === CH_QUOTE) {
            pos = p + 1;
            scanRawString(start, hashes);
            continue;
          }
        }
      }
      // The first character may be astral (a surrogate pair).
      pos += c > 127 ? codePointAt(source, pos).length : 1;
      while (pos < length) {
        const d = source.charCodeAt(pos);
        if (isAsciiIdentPart(d)) pos++;
        else if (d > 127) {
          const cp = codePointAt(source, pos);
          if (UNICODE_IDENT_PART.test(cp.char)) pos += cp.length;
          else break;
        } else break;
      }
      const word = source.slice(start, pos);
      push(KEYWORDS.has(word) ? TokenKind.Keyword : TokenKind.Identifier, word, start, pos);
      continue;
    }

    // Numbers and durations.
    if (c >= CH_0 && c <= CH_9) {
      while (pos < length && isDigit(source.charCodeAt(pos))) pos++;
      let kind = TokenKind.Int;
      if (source.charCodeAt(pos) === CH_DOT && isDigit(source.charCodeAt(pos + 1))) {
        pos++;
        while (pos < length && isDigit(source.charCodeAt(pos))) pos++;
        kind = TokenKind.Float;
      }
      if (kind === TokenKind.Int) {
        const digits = source.slice(start, pos).replace(/^0+(?=\d)/, '');
        // 0.10 rejects what does not fit in i64 (v0.7 silently made it a float).
        if (digits.length > MAX_INT.length || (digits.length === MAX_INT.length && digits > MAX_INT)) {
          error(start, pos, `Integer literal ${digits} is out of range for int (at most ${MAX_INT})`, 'int_overflow');
        }
        for (const suffix of DURATION_SUFFIXES) {
          if (source.startsWith(suffix, pos)) {
            const after = source.charCodeAt(pos + suffix.length);
            if (!isAsciiIdentPart(after)) {
              pos += suffix.length;
              kind = TokenKind.Duration;
            }
            break;
          }
        }
      }
      push(kind, '', start, pos);
      continue;
    }

    // Strings.
    if (c === CH_QUOTE) {
      if (source.charCodeAt(pos + 1) === CH_QUOTE && source.charCodeAt(pos + 2) === CH_QUOTE) {
        pos += 3;
        scanStringBody(start, true, start, false);
      } else {
        pos++;
        scanStringBody(start, false, start, false);
      }
      continue;
    }

    // Braces inside an interpolation hole.
    const hole = holes[holes.length - 1];
    if (hole) {
      if (c === CH_LBRACE) hole.braceDepth++;
      else if (c === CH_RBRACE) {
        if (hole.braceDepth === 0) {
          holes.pop();
          pos++;
          scanStringBody(start, hole.triple, hole.stringStart, true);
          continue;
        }
        hole.braceDepth--;
      }
    }

    // `\"` in a hole: the writer escaped the quotes of a nested string. Report the backslash (as 0.10
    // does) and read the pair as one bad token, so the nested string does not swallow the real closing quote.
    if (hole && c === CH_BACKSLASH && source.charCodeAt(pos + 1) === CH_QUOTE) {
      pos += 2;
      push(TokenKind.Invalid, '\\"', start, pos);
      error(start, start + 1, `Unexpected character '\\' at ${where(start)} (a string inside \`\${…}\` uses plain quotes)`, 'unexpected_character');
      continue;
    }

    // `<<TAG` heredocs do not exist in Harn; say so instead of reporting two `<`.
    if (c === 60 && source.charCodeAt(pos + 1) === 60 && isAsciiIdentStart(source.charCodeAt(pos + 2))) {
      pos += 2;
      while (pos < length && isAsciiIdentPart(source.charCodeAt(pos))) pos++;
      push(TokenKind.Invalid, source.slice(start, pos), start, pos);
      error(start, pos, 'Heredoc (`<<TAG`) strings are not supported in Harn: use a """multi-line""" string', 'heredoc');
      continue;
    }

    // Operators and punctuation.
    if (c === CH_DOT && source.charCodeAt(pos + 1) === CH_DOT && source.charCodeAt(pos + 2) === CH_DOT) {
      pos += 3;
      push(TokenKind.Punct, '...', start, pos);
      continue;
    }
    const two = source.substr(pos, 2);
    if (TWO_CHAR_OPERATORS.has(two)) {
      pos += 2;
      push(TokenKind.Punct, two, start, pos);
      continue;
    }
    const ch = source[pos];
    if (SINGLE_CHAR_OPERATORS.includes(ch)) {
      pos++;
      push(TokenKind.Punct, ch, start, pos);
      continue;
    }

    // Anything else is a local error. A run of unreadable characters (binary data) is one token and one diagnostic.
    const cp = codePointAt(source, pos);
    pos += cp.length;
    const previous = tokens[tokens.length - 1];
    const lastDiagnostic = diagnostics[diagnostics.length - 1];
    if (
      previous?.kind === TokenKind.Invalid &&
      previous.end === start &&
      lastDiagnostic?.code === 'unexpected_character' &&
      lastDiagnostic.end === start
    ) {
      previous.end = pos;
      lastDiagnostic.end = pos;
      lastDiagnostic.message = `Unexpected characters at ${where(lastDiagnostic.start)}`;
      continue;
    }
    push(TokenKind.Invalid, cp.char, start, pos);
    {
      const shown = c === 0 ? '\\0' : cp.char;
      error(start, pos, `Unexpected character '${shown}' at ${where(start)}`, 'unexpected_character');
    }
  }

  // A hole still open at the end of the file belongs to an unterminated string.
  for (const hole of holes) {
    error(hole.stringStart, length, `Unterminated string at ${where(hole.stringStart)}`, 'unterminated_string');
  }
  tokens.push({ kind: TokenKind.EOF, value: '', start: length, end: length, nlBefore: true });
  return { tokens, comments, diagnostics };

  function scanRawString(start: number, hashes: number): void {
    // `pos` is just after the opening quote.
    while (pos < length) {
      const c = source.charCodeAt(pos);
      if (c === CH_QUOTE) {
        let p = pos + 1;
        let closing = 0;
        while (closing < hashes && source.charCodeAt(p) === CH_HASH) {
          closing++;
          p++;
        }
        if (closing === hashes) {
          pos = p;
          const t = push(TokenKind.RawString, '', start, pos);
          t.terminated = true;
          return;
        }
      }
      if (c === CH_NL || c === CH_CR) break;
      pos++;
    }
    const t = push(TokenKind.RawString, '', start, pos);
    t.terminated = false;
    error(start, pos, `Unterminated raw string at ${where(start)}`, 'unterminated_string');
  }
}

/** \n or \r: where a line's content ends (a \r\n pair is one break). */
function isLineBreak(c: number): boolean {
  return c === CH_NL || c === CH_CR;
}

function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}

