// Token kinds and keyword tables for the Harn 0.10 surface (spec/harn-language.md §1.1).

export enum TokenKind {
  EOF,
  Identifier,
  Keyword,
  Int,
  Float,
  Duration,
  /** A plain `"…"` or `"""…"""` string without holes. */
  String,
  /** `r"…"`, `r#"…"#`. */
  RawString,
  /** `"…${` : the start of an interpolated string, up to and including `${`. */
  StringHead,
  /** `}…${` : text between two holes. */
  StringMiddle,
  /** `}…"` : the end of an interpolated string. */
  StringTail,
  Punct,
  /** A character the lexer cannot read; the lexer has already reported it. */
  Invalid,
}

export interface Token {
  kind: TokenKind;
  /** For Keyword and Punct: the text; for Identifier: the name; otherwise the raw source slice is taken on demand. */
  value: string;
  /** UTF-16 offsets into the document text. */
  start: number;
  end: number;
  /** A newline (not joined by `\`) lies between the previous token and this one. */
  nlBefore: boolean;
  /** For string tokens: true when the string is `"""…"""`. */
  triple: boolean;
  /** For string tokens: false when the closing quote is missing (true for every other token). */
  terminated: boolean;
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  'break',
  'catch',
  'continue',
  'deadline',
  'defer',
  'emit',
  'else',
  'enum',
  'eval_pack',
  'exclusive',
  'extends',
  'false',
  'finally',
  'fn',
  'for',
  'from',
  'guard',
  'if',
  'impl',
  'import',
  'in',
  'interface',
  'let',
  'match',
  'mutex',
  'nil',
  'override',
  'parallel',
  'pipeline',
  'pub',
  'require',
  'retry',
  'return',
  'select',
  'skill',
  'spawn',
  'struct',
  'throw',
  'to',
  'tool',
  'true',
  'try',
  'type',
  'var',
  'while',
  'yield',
  // 0.8–0.10
  'const',
  'ask_user',
  'dual_control',
  'escalate_to',
  'request_approval',
]);

/** Keywords that are called like functions (human-in-the-loop primitives). */
export const HITL_KEYWORDS: ReadonlySet<string> = new Set(['ask_user', 'dual_control', 'escalate_to', 'request_approval']);

export function tokenText(source: string, token: Token): string {
  return source.slice(token.start, token.end);
}

export function describeToken(source: string, token: Token): string {
  switch (token.kind) {
    case TokenKind.EOF:
      return 'end of file';
    case TokenKind.Keyword:
      return `'${token.value}'`;
    case TokenKind.Punct:
      return `'${token.value}'`;
    case TokenKind.Identifier:
      return `identifier '${token.value}'`;
    case TokenKind.String:
    case TokenKind.RawString:
    case TokenKind.StringHead:
      return 'string';
    case TokenKind.Int:
    case TokenKind.Float:
      return `number ${tokenText(source, token)}`;
    case TokenKind.Duration:
      return `duration ${tokenText(source, token)}`;
    default:
      return `'${tokenText(source, token).slice(0, 20)}'`;
  }
}
