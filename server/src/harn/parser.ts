// Error-tolerant recursive-descent parser for Harn 0.10 (spec/harn-language.md §1). Unlike upstream's
// parser, an error inside a block is recovered at the next statement of that same block, partial
// declarations are kept, and every missing statement separator is reported (upstream silently stops
// at a top-level one). Expression precedence follows §1.4 with the 0.10 changes of §1.8.

import * as A from './ast';
import { Comment, lex, OffsetDiagnostic } from './lexer';
import { describeToken, HITL_KEYWORDS, Token, TokenKind } from './tokens';

export interface ParseResult {
  file: A.SourceFile;
  tokens: Token[];
  comments: Comment[];
  /** Lexer and parser diagnostics, in source order. All are errors. */
  diagnostics: OffsetDiagnostic[];
  /** What the parser noted of the names, when it read the file without a diagnostic (see ParsedNames). */
  names?: ParsedNames;
}

/**
 * Nodes the parser notes as it makes them (an array push each), so that the workspace index need not walk every
 * node to find them. Given only for a file read without a diagnostic: error recovery drops nodes it made, and
 * these lists would hold them too. The nodes of a speculation that failed are taken off again.
 */
export interface ParsedNames {
  /**
   * The Identifier, NamedType, Member, StructLit and Assign nodes, and the PipelineDecl, StructDecl, EnumDecl and
   * ImplDecl ones, in the order they were made (a declaration before what it holds, an expression after its parts).
   */
  nodes: A.AnyNode[];
  /** How many of `nodes` were made by the end of each top-level statement. */
  statementEnds: number[];
  /**
   * How many Assign nodes were made by the end of each top-level statement, a speculation's that failed included:
   * a statement whose count did not grow holds none (most do not), and its nodes need not be searched for them.
   */
  assignmentCounts: number[];
  /** The start of every node that may open a scope (a block, a function, a closure, a declaration with parameters), as made. */
  scopeStarts: number[];
}

/**
 * Thrown to abandon the current statement; not an Error, so throwing it captures no stack trace. A recovery point
 * catches it (see Parser.recover); no expression-level frame in between runs a `finally` or catches and rethrows,
 * since each such handler costs V8 about a microsecond as the error passes (`a < b > (` nested 40 deep paid 160 of
 * them), and unwinding itself costs per frame: inside nested call arguments the error is carried by returns
 * instead (see Parser.abandoned).
 */
class ParseError {
  constructor(readonly what: string) {}
}

/** Thrown when nesting exceeds MAX_NESTING; never backtracked over, so its diagnostic survives. */
class NestingError extends ParseError {}

/**
 * A call (or an attribute) whose arguments are being read. When a ParseError abandons them, the recovery point
 * rebuilds the half-read call from these (see Parser.recover), so the recovered statement can keep it and
 * features still see a half-typed `add(1, ⏎}`.
 */
interface OpenCall {
  /** Undefined for an attribute's arguments: they hold a half-read call but are none. */
  callee: A.Expr | undefined;
  typeArgs: A.TypeExpr[];
  args: A.Argument[];
  /** The argument whose value is being read: where it starts (its `...` or name included), its name and spread. */
  argStart: number;
  argName: A.Name | undefined;
  argSpread: boolean;
}

/** What a recovery point saves before it tries, and puts back when a ParseError reaches it (see Parser.recover). */
interface RecoveryMark {
  depth: number;
  newlines: number;
  openCalls: number;
}

/**
 * Deepest nesting of expressions, statements and types the parser follows. Each level costs a dozen
 * stack frames; past ~450 parenthesised levels Node's default stack overflows, and real code stays far below 100.
 */
const MAX_NESTING = 128;

/** Keywords that may begin a declaration at column 0; seeing one inside a block means a `}` is missing. */
const TOP_LEVEL_DECLARATION_WORDS = new Set(['pub', 'fn', 'pipeline', 'import', 'tool', 'struct', 'enum', 'interface', 'impl', 'skill', 'eval_pack', 'type']);

/**
 * Tokens after `?` that may start a ternary branch (upstream 0.10's list). With one, `?` is a ternary
 * only when a `:` follows at the same nesting (see Parser.ternaryColonAhead); otherwise it is an
 * optional subscript (`x?[i]`) or the postfix try operator (`x?`).
 */
function startsTernaryBranch(t: Token): boolean {
  switch (t.kind) {
    case TokenKind.Identifier:
    case TokenKind.Int:
    case TokenKind.Float:
    case TokenKind.Duration:
    case TokenKind.String:
    case TokenKind.RawString:
    case TokenKind.StringHead:
      return true;
    case TokenKind.Keyword:
      return TERNARY_BRANCH_KEYWORDS.has(t.value);
    case TokenKind.Punct:
      return t.value === '(' || t.value === '[' || t.value === '{' || t.value === '!' || t.value === '-';
    default:
      return false;
  }
}

const TERNARY_BRANCH_KEYWORDS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'nil',
  'fn',
  'if',
  'match',
  'try',
  'spawn',
  'parallel',
  'retry',
  'deadline',
  'ask_user',
  'dual_control',
  'escalate_to',
  'request_approval',
]);

/** Tokens that, at the start of a line inside a ternary, continue it (upstream's list): the `:` and binary and member operators. */
const TERNARY_CONTINUATION = new Set([':', '+', '*', '/', '%', '**', '&&', '||', '==', '!=', '<', '>', '<=', '>=', '??', '|>', '.', '?.']);

/** Keywords that start a statement: a line starting with one ends error recovery even inside brackets. */
const RECOVERY_KEYWORDS = new Set([
  'let',
  'var',
  'const',
  'return',
  'if',
  'for',
  'while',
  'match',
  'fn',
  'pub',
  'pipeline',
  'import',
  'throw',
  'guard',
  'require',
  'defer',
  'tool',
  'struct',
  'enum',
  'type',
  'impl',
  'interface',
]);

const ASSIGNMENT_OPERATORS = new Set(['=', '+=', '-=', '*=', '/=', '%=']);

/** Binary operators and their precedence, from `||` (1) to `*` (7); all left-associative (`**` is apart). */
const BINARY_PRECEDENCE: ReadonlyMap<string, number> = new Map([
  ['||', 1],
  ['&&', 2],
  ['==', 3],
  ['!=', 3],
  ['<', 4],
  ['>', 4],
  ['<=', 4],
  ['>=', 4],
  ['in', 4],
  ['not in', 4],
  ['+', 5],
  ['-', 5],
  ['??', 6],
  ['*', 7],
  ['/', 7],
  ['%', 7],
]);

/** Operators that may not start a continuation line: a leading one starts a new statement (§1.4). */
const NO_LEADING_CONTINUATION = new Set(['-', 'in', 'not in', 'to']);

/** The parts of a lean tree's plain string literals (see ParseOptions.lean). */
const NO_PARTS: A.StringPart[] = Object.freeze([]) as unknown as A.StringPart[];

export interface ParseOptions {
  /**
   * For the workspace index, which reads names and import paths only: no doc comment is read (every `doc` is
   * undefined) and no comment is listed, and the value of a string literal is left empty ('') but for a module path,
   * a plain one's parts too. Nothing else differs (a
   * test holds the index of every corpus file to be the same). Such a tree must not be shown or kept.
   */
  lean?: boolean;
}

export function parse(source: string, options: ParseOptions = {}): ParseResult {
  const lean = options.lean === true;
  const { tokens, comments, diagnostics: lexDiagnostics } = lex(source, { keepsComments: !lean });
  const parser = new Parser(source, tokens, comments, lean);
  const file = parser.parseFile();
  const diagnostics = capDiagnostics(mergeSorted(lexDiagnostics, parser.diagnostics));
  if (diagnostics.length > 0) return { file, tokens, comments, diagnostics };
  return { file, tokens, comments, diagnostics, names: parser.names };
}

/** What parseStatementAt read: the statement, where it stopped, and its own parser diagnostics. */
export interface StatementParse {
  stmt: A.Stmt;
  /** The index of the first token after the statement. */
  next: number;
  diagnostics: OffsetDiagnostic[];
  /** Whether the statement hit the nesting limit (which the parser reports only once per file). */
  nestingReported: boolean;
}

/**
 * Parses the one top-level statement that starts at token `first`, as parseFile would at that point. `tokens` and
 * `comments` are the whole file's. Bracket matching starts at `first` and goes past `windowEnd` (the statement's
 * end) only while brackets it opened are still open: the caller makes sure no bracket before `first` is left open
 * there, or that the window is balanced, so that this gives the whole file's answer for the statement's tokens.
 * `commentIndex`: the index of the first comment ending after the previous statement (where docBefore starts).
 */
export function parseStatementAt(source: string, tokens: Token[], comments: Comment[], first: number, windowEnd: number, commentIndex: number): StatementParse {
  const parser = new Parser(source, tokens, comments);
  const stmt = parser.parseStatementFrom(first, windowEnd, commentIndex);
  return { stmt, next: parser.position, diagnostics: parser.diagnostics, nestingReported: parser.nestingWasReported };
}

/** The doc comment that ends right before `start`, as the parser gives a declaration there (comments[commentIndex] is the first that may be it or after it). */
export function docCommentBefore(source: string, comments: Comment[], start: number, commentIndex: number): string | undefined {
  return new Parser(source, [], comments).docAt(start, commentIndex);
}

/** Lexer and parser diagnostics of one region, in source order, as parse() merges those of the whole file. */
export function mergeDiagnostics(lexer: OffsetDiagnostic[], parser: OffsetDiagnostic[]): OffsetDiagnostic[] {
  return mergeSorted(lexer, parser);
}

/**
 * Lexer and parser diagnostics in source order. A parser complaint about a token the lexer already
 * reported (an unterminated string read as a stray operand) says nothing more: it is dropped.
 */
function mergeSorted(lexer: OffsetDiagnostic[], parser: OffsetDiagnostic[]): OffsetDiagnostic[] {
  const lexed = new Set(lexer.map((d) => `${d.start}:${d.end}`));
  return lexer.concat(parser.filter((d) => !lexed.has(`${d.start}:${d.end}`))).sort((x, y) => x.start - y.start);
}

/** More diagnostics than this help nobody (binary data opened as Harn yields one per few bytes). */
export const MAX_DIAGNOSTICS = 1000;

/** Keeps the first MAX_DIAGNOSTICS and says how many more there were. */
function capDiagnostics(diagnostics: OffsetDiagnostic[]): OffsetDiagnostic[] {
  if (diagnostics.length <= MAX_DIAGNOSTICS) return diagnostics;
  const firstDropped = diagnostics[MAX_DIAGNOSTICS]?.start ?? 0;
  const kept = diagnostics.slice(0, MAX_DIAGNOSTICS);
  kept.push({
    start: firstDropped,
    end: firstDropped,
    message: `Too many syntax errors: ${diagnostics.length - MAX_DIAGNOSTICS} more are not shown`,
    code: 'too_many_errors',
  });
  return kept;
}

class Parser {
  readonly diagnostics: OffsetDiagnostic[] = [];
  private pos = 0;
  /** Whether newlines separate statements here (true in blocks, false inside (), [] and dict braces). */
  private newlineStack: boolean[] = [true];
  /** The declaration being parsed by the current statement, kept if the statement fails part-way. */
  private partial: A.Stmt | undefined;
  /** Index into `comments` for doc lookups (declarations are met in source order). */
  private commentCursor = 0;
  /** Current nesting of parseExpression/parseStatement/parseType/prefix operators (see MAX_NESTING). */
  private depth = 0;
  private nestingReported = false;
  /** Lazily computed bracket matching (see `brackets()`). */
  private bracketInfo: { close: Int32Array; arrow: Uint8Array } | undefined;
  /** The tokens brackets() matches: all of them, or a balanced window of them (parseStatementFrom). */
  private bracketWindow: { from: number; to: number } | undefined;
  /**
   * Token indexes of `<` where a generic call was tried and failed. The attempt depends only on the
   * tokens, so it would fail again; without this, `a < b > (` nested n deep is re-read 2^n times.
   */
  private failedGenericCalls = new Set<number>();
  /** Token indexes of `?` whose ternaryColonAhead answer is known. */
  private ternaryColonCache = new Map<number, boolean>();
  /** See ParsedNames (`noted` and `scoped` push to it). */
  readonly names: ParsedNames = { nodes: [], statementEnds: [], assignmentCounts: [], scopeStarts: [] };
  /** The Assign nodes made so far (see ParsedNames.assignmentCounts). */
  private assignments = 0;
  /**
   * A ParseError being carried out of nested calls by returns instead of unwinding (see parseArgumentList): set,
   * each function of the chain returns at once, doing nothing more, and the first caller outside it throws it.
   */
  private abandoned: ParseError | undefined;
  /** The calls whose arguments are being read, outermost first: the first `openCallCount` (the rest are kept for reuse). */
  private readonly openCalls: OpenCall[] = [];
  private openCallCount = 0;

  private readonly eof: Token;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
    private readonly comments: Comment[],
    /** See ParseOptions.lean. */
    private readonly lean = false,
  ) {
    this.eof = tokens[tokens.length - 1] ?? {
      kind: TokenKind.EOF,
      value: '',
      start: source.length,
      end: source.length,
      nlBefore: true,
      triple: false,
      terminated: true,
    };
  }

  // ------------------------------------------------------------------------------------ token access

  /** The token at an index; past the end, the final EOF token (the lexer always ends with one). */
  private tokenAt(i: number): Token {
    return this.tokens[i] ?? this.eof;
  }

  private get tok(): Token {
    // pos never passes the final EOF token (next() stops there), so this read is in bounds; the hottest
    // accessor skips tokenAt's fallback.
    return this.tokens[this.pos] as Token;
  }

  private peek(n = 1): Token {
    return this.tokenAt(Math.min(this.pos + n, this.tokens.length - 1));
  }

  private get prevEnd(): number {
    return this.pos > 0 ? this.tokenAt(this.pos - 1).end : 0;
  }

  private next(): Token {
    const t = this.tokenAt(this.pos);
    if (t.kind !== TokenKind.EOF) this.pos++;
    return t;
  }

  private is(t: Token, value: string): boolean {
    return (t.kind === TokenKind.Punct || t.kind === TokenKind.Keyword) && t.value === value;
  }

  private at(value: string): boolean {
    return this.is(this.tok, value);
  }

  private atWord(word: string): boolean {
    return this.tok.kind === TokenKind.Identifier && this.tok.value === word;
  }

  private atEOF(): boolean {
    return this.tok.kind === TokenKind.EOF;
  }

  /** A newline before the current token that separates statements in this context. */
  private get newlineHere(): boolean {
    return this.tok.nlBefore && this.newlineStack[this.newlineStack.length - 1] === true;
  }

  private eat(value: string): boolean {
    if (this.at(value)) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** A node for ParsedNames.nodes, returned as it is. */
  private noted<T extends A.AnyNode>(node: T): T {
    this.names.nodes.push(node);
    return node;
  }

  /** A node that may open a scope, for ParsedNames.scopeStarts, returned as it is. */
  private scoped<T extends A.AnyNode>(node: T): T {
    this.names.scopeStarts.push(node.start);
    return node;
  }

  private report(start: number, end: number, message: string, code = 'syntax_error'): void {
    // One mistake, one diagnostic: a failed separator check and the statement that then fails on the
    // same token would otherwise both report it.
    const last = this.diagnostics[this.diagnostics.length - 1];
    if (last && last.start === start && last.end === end) return;
    this.diagnostics.push({ start, end, message, code });
  }

  private fail(what: string, token: Token = this.tok): never {
    this.reportExpected(what, token);
    throw new ParseError(what);
  }

  private reportExpected(what: string, token: Token = this.tok): void {
    const message = token.kind === TokenKind.EOF ? `Unexpected end of file, expected ${what}` : `Expected ${what}, got ${describeToken(this.source, token)}`;
    // Invalid tokens were already reported by the lexer; one diagnostic per mistake is enough.
    if (token.kind === TokenKind.Invalid) return;
    this.report(token.start, Math.max(token.end, token.start), message);
  }

  private expect(value: string, what = `'${value}'`): Token {
    if (this.at(value)) return this.next();
    return this.fail(what);
  }

  private withNewlines<T>(significant: boolean, body: () => T): T {
    this.newlineStack.push(significant);
    try {
      return body();
    } finally {
      this.newlineStack.pop();
    }
  }

  /** The state a recovery point restores when a ParseError reaches it: take it just before the `try`. */
  private mark(): RecoveryMark {
    return { depth: this.depth, newlines: this.newlineStack.length, openCalls: this.openCallCount };
  }

  /**
   * At a recovery point, for a ParseError caught there: puts back the nesting depth, the newline stack and the
   * open calls as they were at `mark` (the frames the error left did not, see ParseError), and gives the outermost
   * call left open since then with the arguments read so far (`closed: false`; undefined after a NestingError).
   * An argument being read holds the half-read call inside it as its value, when that call started in it.
   */
  private recover(error: ParseError, mark: RecoveryMark): A.Call | undefined {
    this.depth = mark.depth;
    this.newlineStack.length = mark.newlines;
    let partial: A.Call | undefined;
    if (!(error instanceof NestingError)) {
      const end = this.prevEnd;
      for (let i = this.openCallCount - 1; i >= mark.openCalls; i--) {
        const open = this.openCalls[i] as OpenCall;
        if (partial && partial.start >= open.argStart) {
          open.args.push({ kind: 'Argument', name: open.argName, spread: open.argSpread, value: partial, start: open.argStart, end: partial.end });
        }
        const callee = open.callee;
        if (callee)
          partial = { kind: 'Call', callee, typeArgs: open.typeArgs, args: open.args, closed: false, start: callee.start, end: Math.max(callee.end, end) };
      }
    }
    this.openCallCount = mark.openCalls;
    return partial;
  }

  /** Notes a call whose arguments are about to be read (see OpenCall); closeCall forgets it once they are. */
  private openCall(callee: A.Expr | undefined, typeArgs: A.TypeExpr[], args: A.Argument[]): void {
    const open = this.openCalls[this.openCallCount];
    if (open) {
      open.callee = callee;
      open.typeArgs = typeArgs;
      open.args = args;
      open.argStart = -1;
      open.argName = undefined;
      open.argSpread = false;
    } else {
      this.openCalls.push({ callee, typeArgs, args, argStart: -1, argName: undefined, argSpread: false });
    }
    this.openCallCount++;
  }

  private closeCall(): void {
    this.openCallCount--;
  }

  /** Counts one level of nesting; past MAX_NESTING reports once and abandons the statement. */
  private enter(): void {
    if (this.depth >= MAX_NESTING) {
      if (!this.nestingReported) {
        this.nestingReported = true;
        const t = this.tok;
        this.report(t.start, t.end, `Nesting too deep (more than ${MAX_NESTING} levels): the rest of this statement is skipped`, 'nesting_too_deep');
      }
      throw new NestingError('nesting');
    }
    this.depth++;
  }

  private expectName(what: string): A.Name {
    const t = this.tok;
    if (t.kind === TokenKind.Identifier) {
      this.pos++;
      return { kind: 'Name', text: t.value, start: t.start, end: t.end };
    }
    if (t.kind === TokenKind.Keyword && HITL_KEYWORDS.has(t.value)) {
      this.report(t.start, t.end, `Expected ${what}, got '${t.value}' (reserved keyword)`);
      throw new ParseError(what);
    }
    return this.fail(what);
  }

  /** An identifier or any keyword (member names, dict keys, shape fields: spec §1.7 trap 5). */
  private expectMemberName(what: string): A.Name {
    const t = this.tok;
    if (t.kind === TokenKind.Identifier || t.kind === TokenKind.Keyword) {
      this.pos++;
      return { kind: 'Name', text: t.value, start: t.start, end: t.end };
    }
    return this.fail(what);
  }

  private nameFrom(t: Token): A.Name {
    return { kind: 'Name', text: t.value, start: t.start, end: t.end };
  }

  private atLineStartColumn0(t: Token): boolean {
    return t.start === 0 || this.source.charCodeAt(t.start - 1) === 10;
  }

  // ---------------------------------------------------------------------------------------- doc comments

  /** The doc comment (`/** *\/` or consecutive `///` lines) that ends right before `start`. */
  private docBefore(start: number): string | undefined {
    const comments = this.comments;
    if (comments.length === 0 || this.lean) return undefined;
    // Advance the cursor to the last comment that ends at or before `start`.
    while ((comments[this.commentCursor]?.end ?? Infinity) <= start) this.commentCursor++;
    while (this.commentCursor > 0 && (comments[this.commentCursor - 1]?.end ?? 0) > start) this.commentCursor--;
    let i = this.commentCursor - 1;
    const last = comments[i];
    if (!last) return undefined;
    // Only whitespace may lie between the comment and the declaration.
    if (this.source.slice(last.end, start).trim() !== '') return undefined;
    if (last.kind === 'doc') return cleanDocBlock(this.source.slice(last.start, last.end));
    if (last.kind !== 'legacyDoc') return undefined;
    const lines: string[] = [];
    let expectedEnd = start;
    for (let c = comments[i]; c?.kind === 'legacyDoc' && this.source.slice(c.end, expectedEnd).trim() === ''; c = comments[--i]) {
      lines.unshift(
        this.source
          .slice(c.start + 3, c.end)
          .replace(/^ /, '')
          .trimEnd(),
      );
      expectedEnd = c.start;
    }
    return lines.join('\n');
  }

  // ------------------------------------------------------------------------------------------- file

  get position(): number {
    return this.pos;
  }

  get nestingWasReported(): boolean {
    return this.nestingReported;
  }

  /** See docCommentBefore. */
  docAt(start: number, commentIndex: number): string | undefined {
    this.commentCursor = commentIndex;
    return this.docBefore(start);
  }

  /** See parseStatementAt. */
  parseStatementFrom(first: number, windowEnd: number, commentIndex: number): A.Stmt {
    this.pos = first;
    this.bracketWindow = { from: first, to: windowEnd };
    this.commentCursor = commentIndex;
    return this.parseStatementRecovering();
  }

  parseFile(): A.SourceFile {
    const statements = this.parseStatementList(undefined);
    return { kind: 'SourceFile', statements, start: 0, end: this.source.length };
  }

  /**
   * Parses statements until `}` (in a block, `open` is its `{` token) or the end of the file (top level).
   * Recovers from errors at the next statement, and reports missing separators.
   */
  private parseStatementList(open: Token | undefined): A.Stmt[] {
    const statements: A.Stmt[] = [];
    let afterSemicolon = false;
    for (;;) {
      const t = this.tok;
      if (t.kind === TokenKind.EOF) return statements;
      if (this.is(t, '}')) {
        if (open) return statements;
        this.report(t.start, t.end, `Unexpected '}' with no block to close`);
        this.pos++;
        continue;
      }
      if (this.is(t, ';')) {
        if (afterSemicolon || statements.length === 0) {
          this.report(t.start, t.end, `Unexpected empty statement: got ;`);
        }
        this.pos++;
        afterSemicolon = true;
        continue;
      }
      if (open && this.atLineStartColumn0(t) && this.looksLikeTopLevelDeclaration(t) && this.neverClosed(open)) {
        // A declaration at column 0 inside a block whose `}` is missing: close the block here so the
        // declarations that follow stay top-level (and in the outline). A block that is closed later
        // may hold a declaration at column 0: declarations are ordinary statements (§1.2).
        return statements;
      }
      if (statements.length > 0 && !afterSemicolon && !t.nlBefore) {
        this.reportExpected('statement separator (`;` or newline)', t);
      }
      afterSemicolon = false;
      statements.push(this.parseStatementRecovering());
      if (!open) {
        this.names.statementEnds.push(this.names.nodes.length);
        this.names.assignmentCounts.push(this.assignments);
      }
    }
  }

  /** True when no bracket later in the file closes `open`. */
  private neverClosed(open: Token): boolean {
    // Tokens are sorted by offset: find `open`'s index by bisection.
    let low = 0;
    let high = this.tokens.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.tokenAt(mid).start < open.start) low = mid + 1;
      else high = mid;
    }
    return this.tokenAt(low) !== open || (this.brackets().close[low] ?? -1) < 0;
  }

  private looksLikeTopLevelDeclaration(t: Token): boolean {
    if (this.is(t, '@')) return true;
    if (t.kind === TokenKind.Keyword && TOP_LEVEL_DECLARATION_WORDS.has(t.value)) {
      if (t.value === 'fn' || t.value === 'type') return this.peek().kind === TokenKind.Identifier;
      return true;
    }
    return false;
  }

  private parseStatementRecovering(): A.Stmt {
    const startPos = this.pos;
    const start = this.tok.start;
    const savedPartial = this.partial;
    const mark = this.mark();
    this.partial = undefined;
    try {
      return this.parseStatement();
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      const call = this.recover(error, mark);
      this.synchronize(startPos);
      const partial = this.partial as A.Stmt | undefined;
      if (partial) {
        // `let x = f(1, ⏎…`: the binding's value is the half-read call, when the call is all of it so far (the
        // partial's end is still the `=`'s; `let x = a + f(1, ⏎` keeps no value rather than a wrong one).
        if (partial.kind === 'LetDecl' && !partial.init && call && /^\s*$/.test(this.source.slice(partial.end, call.start))) partial.init = call;
        partial.end = Math.max(partial.end, this.prevEnd);
        return partial;
      }
      return { kind: 'ErrorStmt', partial: call && call.start >= start ? call : undefined, start, end: Math.max(start, this.prevEnd) };
    } finally {
      this.partial = savedPartial;
    }
  }

  /**
   * Skips to where the next statement of the current block can start: a token at the start of a line,
   * or a `;`, back at the bracket depth where the statement started; or the `}` that closes the block.
   * Inside an unclosed bracket, a line starting with a statement keyword also ends the skip (the usual
   * shape of a half-typed call or list).
   */
  private synchronize(startPos: number): void {
    let depth = 0;
    for (let i = startPos; i < this.pos; i++) depth += this.bracketDelta(this.tokenAt(i));
    if (depth < 0) depth = 0;
    if (this.pos === startPos && !this.atEOF() && !this.at('}')) {
      depth = Math.max(0, depth + this.bracketDelta(this.tok));
      this.pos++;
    }
    for (;;) {
      const t = this.tok;
      if (t.kind === TokenKind.EOF) return;
      if (t.nlBefore && this.pos > startPos) {
        if (depth === 0) return;
        if (t.kind === TokenKind.Keyword && RECOVERY_KEYWORDS.has(t.value) && !this.is(this.peek(), ':')) return;
      }
      if (depth === 0 && (this.is(t, ';') || this.is(t, '}'))) return;
      depth = Math.max(0, depth + this.bracketDelta(t));
      this.pos++;
    }
  }

  private bracketDelta(t: Token): number {
    if (t.kind !== TokenKind.Punct) return 0;
    switch (t.value) {
      case '{':
      case '(':
      case '[':
        return 1;
      case '}':
      case ')':
      case ']':
        return -1;
      default:
        return 0;
    }
  }

  // -------------------------------------------------------------------------------------- statements

  private parseStatement(): A.Stmt {
    this.enter();
    try {
      return this.parseStatementInner();
    } finally {
      this.depth--;
    }
  }

  private parseStatementInner(): A.Stmt {
    const t = this.tok;
    if (t.kind === TokenKind.Keyword) {
      switch (t.value) {
        case 'let':
        case 'var':
        case 'const':
          return this.parseLet(t.start, false);
        case 'pub':
          return this.parsePub();
        case 'import':
          return this.parseImport(t.start, false);
        case 'fn':
          if (this.peek().kind === TokenKind.Identifier || this.peek().kind === TokenKind.Keyword) {
            return this.parseFnDecl(t.start, false, false, []);
          }
          break;
        case 'pipeline':
        case 'tool':
        case 'skill':
        case 'eval_pack':
        case 'struct':
        case 'enum':
        case 'interface':
        case 'impl':
        case 'override':
          return this.parseDeclaration(t.start, false, []);
        case 'type':
          if (this.peek().kind === TokenKind.Identifier) return this.parseDeclaration(t.start, false, []);
          break;
        case 'if':
          return this.parseIf();
        case 'for':
          return this.parseFor();
        case 'while':
          return this.parseWhile();
        case 'match':
          return this.parseMatch();
        case 'retry':
          return this.parseRetry();
        case 'parallel':
          return this.parseParallel();
        case 'return':
        case 'yield':
          return this.parseValueStatement(t.value === 'return' ? 'Return' : 'Yield', true);
        case 'throw':
        case 'emit':
          return this.parseValueStatement(t.value === 'throw' ? 'Throw' : 'Emit', false);
        case 'break':
        case 'continue':
          this.pos++;
          return { kind: t.value === 'break' ? 'Break' : 'Continue', value: undefined, start: t.start, end: t.end };
        case 'try':
          if (!this.is(this.peek(), '*')) return this.parseTry();
          break;
        case 'guard':
          return this.parseGuard();
        case 'require':
          return this.parseRequire();
        case 'deadline':
        case 'mutex':
        case 'defer':
        case 'spawn':
          return this.parseBlockStatement();
        case 'select':
          return this.parseSelect();
        case 'else':
        case 'catch':
        case 'finally':
          this.fail('statement');
          break;
        default:
          break;
      }
    } else if (this.is(t, '@')) {
      return this.parseAttributed();
    } else if (t.kind === TokenKind.Identifier) {
      const n = this.peek();
      if (t.value === 'gen' && this.is(n, 'fn')) return this.parseFnDecl(t.start, false, false, []);
      if ((t.value === 'block' || t.value === 'scope' || t.value === 'cost_route') && this.is(n, '{') && !n.nlBefore) {
        return this.parseBlockStatement();
      }
    }
    return this.parseExpressionStatement();
  }

  private parseExpressionStatement(): A.Stmt {
    const expr = this.parseExpression();
    if (this.tok.kind === TokenKind.Punct && ASSIGNMENT_OPERATORS.has(this.tok.value)) {
      const op = this.next();
      if (expr.kind !== 'Identifier' && expr.kind !== 'Member' && expr.kind !== 'Index') {
        this.report(expr.start, expr.end, 'Invalid assignment target: only a name, a field (a.b) or an element (a[i]) can be assigned');
      }
      const value = this.parseExpression();
      this.assignments++;
      return this.noted({ kind: 'Assign', operator: op.value, target: expr, value, start: expr.start, end: value.end });
    }
    return { kind: 'ExprStmt', expr, start: expr.start, end: expr.end };
  }

  private parsePub(): A.Stmt {
    const start = this.next().start;
    const t = this.tok;
    if (this.is(t, 'import')) return this.parseImport(start, true);
    if (this.is(t, 'let') || this.is(t, 'const') || this.is(t, 'var')) return this.parseLet(start, true);
    if (this.is(t, 'fn') || (t.kind === TokenKind.Identifier && t.value === 'gen')) return this.parseFnDecl(start, true, false, []);
    if (this.is(t, '@')) return this.fail("a declaration ('@attributes' go before 'pub')");
    return this.parseDeclaration(start, true, []);
  }

  private parseAttributed(): A.Stmt {
    const start = this.tok.start;
    const attributes: A.Attribute[] = [];
    while (this.at('@')) {
      attributes.push(this.parseAttribute());
    }
    let isPub = false;
    if (this.at('pub')) {
      this.pos++;
      isPub = true;
    }
    const t = this.tok;
    if (this.is(t, 'fn') || (t.kind === TokenKind.Identifier && t.value === 'gen')) return this.parseFnDecl(start, isPub, false, attributes);
    if (this.is(t, 'let') || this.is(t, 'var') || this.is(t, 'const')) {
      return this.fail('a declaration after attributes (attributes cannot annotate bindings)');
    }
    return this.parseDeclaration(start, isPub, attributes);
  }

  private parseAttribute(): A.Attribute {
    const at = this.expect('@');
    const name = this.expectMemberName('attribute name');
    const args: A.Argument[] = [];
    let end = name.end;
    if (this.at('(') && !this.tok.nlBefore) {
      this.openCall(undefined, [], args);
      this.parseArgumentList(args, false);
      this.closeCall();
      end = this.prevEnd;
    }
    return { kind: 'Attribute', name, args, start: at.start, end };
  }

  /** pipeline, tool, skill, eval_pack, struct, enum, type, interface, impl, override (after `pub`/attributes). */
  private parseDeclaration(start: number, isPub: boolean, attributes: A.Attribute[]): A.Stmt {
    const t = this.tok;
    if (t.kind === TokenKind.Keyword) {
      switch (t.value) {
        case 'fn':
          return this.parseFnDecl(start, isPub, false, attributes);
        case 'pipeline':
          return this.parsePipeline(start, isPub, attributes);
        case 'tool':
          return this.parseTool(start, isPub, attributes);
        case 'skill':
          return this.parseSkill(start, isPub, attributes);
        case 'eval_pack':
          return this.parseEvalPack(start, isPub, attributes);
        case 'struct':
          return this.parseStruct(start, isPub, attributes);
        case 'enum':
          return this.parseEnum(start, isPub, attributes);
        case 'type':
          return this.parseTypeAlias(start, isPub, attributes);
        case 'interface':
          return this.parseInterface(start, isPub, attributes);
        case 'impl':
          return this.parseImpl(start, isPub, attributes);
        case 'override':
          return this.parseOverride(start, isPub, attributes);
      }
    }
    return this.fail('a declaration (fn, pipeline, tool, skill, eval_pack, struct, enum, type, interface or impl)');
  }

  private declBase(start: number, isPub: boolean, attributes: A.Attribute[]) {
    return { name: undefined as A.Name | undefined, isPub, attributes, doc: this.docBefore(start), start, end: start };
  }

  private parseFnDecl(start: number, isPub: boolean, inInterface: boolean, attributes: A.Attribute[]): A.FnDecl {
    let isGen = false;
    if (this.atWord('gen')) {
      this.pos++;
      isGen = true;
    }
    this.expect('fn');
    const node: A.FnDecl = this.scoped({
      kind: 'FnDecl',
      ...this.declBase(start, isPub, attributes),
      isGen,
      typeParams: [],
      params: [],
      returnType: undefined,
      throwsType: undefined,
      body: undefined,
    });
    node.name = this.expectMemberName('function name');
    node.end = node.name.end;
    this.partial = node;
    node.typeParams = this.parseTypeParamsOpt();
    node.params = this.parseParamList(true);
    node.end = this.prevEnd;
    this.parseReturnClause(node);
    node.end = this.prevEnd;
    this.parseWhereClauseOpt();
    if (inInterface && !this.at('{')) return node;
    node.body = this.parseBlock();
    node.end = node.body.end;
    return node;
  }

  /** `-> T`, `-> value is T`, `-> implies value is T`, then `throws E`. */
  private parseReturnClause(node: { returnType: A.TypeExpr | undefined; throwsType?: A.TypeExpr | undefined }): void {
    if (this.eat('->')) {
      if (this.atWord('implies')) this.pos++;
      let type = this.parseType();
      if (this.atWord('is')) {
        this.pos++;
        type = this.parseType();
      }
      node.returnType = type;
    }
    if (this.atWord('throws')) {
      this.pos++;
      const type = this.parseType();
      if ('throwsType' in node) node.throwsType = type;
    }
  }

  private parseWhereClauseOpt(): void {
    if (!this.atWord('where')) return;
    this.pos++;
    const noted = this.names.nodes.length;
    do {
      this.expectName('type parameter name');
      this.expect(':');
      this.parseType();
      while (this.eat('+')) this.parseType();
    } while (this.eat(','));
    // The tree keeps no bound: nor do the noted names.
    this.names.nodes.length = noted;
  }

  private parseTypeParamsOpt(): A.TypeParam[] {
    const params: A.TypeParam[] = [];
    if (!this.at('<')) return params;
    this.pos++;
    while (!this.at('>') && !this.atEOF()) {
      const start = this.tok.start;
      let variance: 'in' | 'out' | undefined;
      if (this.at('in')) {
        this.pos++;
        variance = 'in';
      } else if (this.atWord('out') && this.peek().kind === TokenKind.Identifier) {
        this.pos++;
        variance = 'out';
      }
      const name = this.expectName('type parameter name');
      if (this.eat(':')) {
        // The tree keeps no bound: nor do the noted names.
        const noted = this.names.nodes.length;
        this.parseType();
        while (this.eat('+')) this.parseType();
        this.names.nodes.length = noted;
      }
      params.push({ kind: 'TypeParam', name, variance, start, end: name.end });
      if (!this.eat(',')) break;
    }
    this.expect('>', "'>' to close the type parameters");
    return params;
  }

  /** `(a, b: int = 1, ...rest)`; commas are optional (spec §1.6). */
  private parseParamList(allowTypes: boolean): A.Param[] {
    this.expect('(', "'(' to start the parameter list");
    this.newlineStack.push(false);
    try {
      const params: A.Param[] = [];
      let sawDefault = false;
      while (!this.at(')')) {
        if (this.atEOF()) this.fail("')' to close the parameter list");
        const param = this.parseParam(allowTypes);
        if (param.defaultValue) sawDefault = true;
        else if (sawDefault && !param.rest) {
          this.report(param.start, param.end, 'Required parameter cannot follow a parameter with a default value');
        }
        const previous = params[params.length - 1];
        if (previous?.rest) this.report(previous.start, previous.end, 'A rest parameter (`...name`) must be the last parameter');
        params.push(param);
        this.eat(',');
      }
      this.pos++;
      return params;
    } finally {
      this.newlineStack.pop();
    }
  }

  private parseParam(allowTypes: boolean): A.Param {
    const start = this.tok.start;
    const rest = this.eat('...');
    const name = this.expectName('parameter name');
    let type: A.TypeExpr | undefined;
    let defaultValue: A.Expr | undefined;
    if (allowTypes && this.eat(':')) type = this.parseType();
    if (this.eat('=')) defaultValue = this.parseExpression();
    return { kind: 'Param', name, rest, type, defaultValue, start, end: this.prevEnd };
  }

  private parsePipeline(start: number, isPub: boolean, attributes: A.Attribute[]): A.PipelineDecl {
    this.expect('pipeline');
    const node: A.PipelineDecl = this.scoped(
      this.noted({
        kind: 'PipelineDecl',
        ...this.declBase(start, isPub, attributes),
        params: [],
        returnType: undefined,
        extendsName: undefined,
        body: undefined,
      }),
    );
    node.name = this.expectName('pipeline name');
    node.end = node.name.end;
    this.partial = node;
    node.params = this.parseParamList(true);
    this.parseReturnClause(node);
    if (this.eat('extends')) node.extendsName = this.expectName('pipeline name after extends');
    node.end = this.prevEnd;
    node.body = this.parseBlock();
    node.end = node.body.end;
    return node;
  }

  private parseTool(start: number, isPub: boolean, attributes: A.Attribute[]): A.ToolDecl {
    this.expect('tool');
    const node: A.ToolDecl = this.scoped({
      kind: 'ToolDecl',
      ...this.declBase(start, isPub, attributes),
      params: [],
      returnType: undefined,
      description: undefined,
      body: undefined,
    });
    node.name = this.expectName('tool name');
    node.end = node.name.end;
    this.partial = node;
    node.params = this.parseParamList(true);
    this.parseReturnClause(node);
    node.end = this.prevEnd;
    // `description "…"` is the first line of the body.
    const afterBrace = this.peek();
    if (this.at('{') && afterBrace.kind === TokenKind.Identifier && afterBrace.value === 'description') {
      const t2 = this.peek(2);
      if (t2.kind === TokenKind.String || t2.kind === TokenKind.RawString || t2.kind === TokenKind.StringHead) {
        const open = this.next();
        this.pos++;
        node.description = this.parseStringLiteral();
        const statements = this.withNewlines(true, () => {
          const list = this.parseStatementList(open);
          return list;
        });
        const closed = this.closeBlock(open);
        node.body = this.scoped({ kind: 'Block', statements, closed, start: open.start, end: this.prevEnd });
        node.end = node.body.end;
        return node;
      }
    }
    node.body = this.parseBlock();
    node.end = node.body.end;
    return node;
  }

  private parseSkill(start: number, isPub: boolean, attributes: A.Attribute[]): A.SkillDecl {
    this.expect('skill');
    const node: A.SkillDecl = { kind: 'SkillDecl', ...this.declBase(start, isPub, attributes), entries: [], bodyStart: 0 };
    node.name = this.expectName('skill name');
    node.end = node.name.end;
    this.partial = node;
    const open = this.expect('{', "'{' to start the skill body");
    node.bodyStart = open.start;
    this.newlineStack.push(true);
    try {
      while (!this.at('}') && !this.atEOF()) {
        if (this.eat(';')) continue;
        const entryStart = this.tok.start;
        const key = this.expectMemberName('skill field name');
        let value: A.Expr | undefined;
        const mark = this.mark();
        try {
          value = this.parseExpression();
        } catch (error) {
          if (!(error instanceof ParseError)) throw error;
          this.recover(error, mark);
          this.synchronize(this.pos);
        }
        node.entries.push({ kind: 'SkillEntry', key, value, start: entryStart, end: this.prevEnd });
        node.end = this.prevEnd;
        if (!this.at('}') && !this.at(';') && !this.tok.nlBefore && !this.atEOF()) {
          this.reportExpected('statement separator (`;` or newline)');
        }
      }
    } finally {
      this.newlineStack.pop();
    }
    this.closeBlock(open);
    node.end = this.prevEnd;
    return node;
  }

  private parseEvalPack(start: number, isPub: boolean, attributes: A.Attribute[]): A.EvalPackDecl {
    this.expect('eval_pack');
    const node: A.EvalPackDecl = { kind: 'EvalPackDecl', ...this.declBase(start, isPub, attributes), title: undefined, body: undefined };
    if (this.tok.kind === TokenKind.Identifier) node.name = this.expectName('eval pack name');
    if (this.tok.kind === TokenKind.String || this.tok.kind === TokenKind.RawString) node.title = this.parseStringLiteral();
    if (!node.name && !node.title) this.fail('eval pack name or title');
    node.end = this.prevEnd;
    this.partial = node;
    // Entries are `key: expr`, `summarize { … }` or statements: parse them all as statements, reading
    // `key: expr` lines as labelled expressions.
    node.body = this.parseBlock('eval_pack');
    node.end = node.body.end;
    return node;
  }

  private parseStruct(start: number, isPub: boolean, attributes: A.Attribute[]): A.StructDecl {
    this.expect('struct');
    const node: A.StructDecl = this.noted({ kind: 'StructDecl', ...this.declBase(start, isPub, attributes), typeParams: [], fields: [] });
    node.name = this.expectName('struct name');
    node.end = node.name.end;
    this.partial = node;
    node.typeParams = this.parseTypeParamsOpt();
    const open = this.expect('{', "'{' to start the struct fields");
    this.newlineStack.push(false);
    try {
      while (!this.at('}') && !this.atEOF()) {
        const fieldStart = this.tok.start;
        const doc = this.docBefore(fieldStart);
        const name = this.expectMemberName('field name');
        const optional = this.eat('?');
        let type: A.TypeExpr | undefined;
        if (this.eat(':')) type = this.parseType();
        node.fields.push({ kind: 'StructField', name, optional, type, doc, start: fieldStart, end: this.prevEnd });
        node.end = this.prevEnd;
        this.eat(',');
      }
    } finally {
      this.newlineStack.pop();
    }
    this.closeBlock(open);
    node.end = this.prevEnd;
    return node;
  }

  private parseEnum(start: number, isPub: boolean, attributes: A.Attribute[]): A.EnumDecl {
    this.expect('enum');
    const node: A.EnumDecl = this.noted({ kind: 'EnumDecl', ...this.declBase(start, isPub, attributes), typeParams: [], variants: [] });
    node.name = this.expectName('enum name');
    node.end = node.name.end;
    this.partial = node;
    node.typeParams = this.parseTypeParamsOpt();
    const open = this.expect('{', "'{' to start the enum variants");
    this.newlineStack.push(false);
    try {
      while (!this.at('}') && !this.atEOF()) {
        const variantStart = this.tok.start;
        const doc = this.docBefore(variantStart);
        const name = this.expectName('variant name');
        let params: A.Param[] = [];
        if (this.at('(')) params = this.parseParamList(true);
        node.variants.push({ kind: 'EnumVariant', name, params, doc, start: variantStart, end: this.prevEnd });
        node.end = this.prevEnd;
        this.eat(',');
      }
    } finally {
      this.newlineStack.pop();
    }
    this.closeBlock(open);
    node.end = this.prevEnd;
    return node;
  }

  private parseTypeAlias(start: number, isPub: boolean, attributes: A.Attribute[]): A.TypeAliasDecl {
    this.expect('type');
    const node: A.TypeAliasDecl = { kind: 'TypeAliasDecl', ...this.declBase(start, isPub, attributes), typeParams: [], type: undefined };
    node.name = this.expectName('type name');
    node.end = node.name.end;
    this.partial = node;
    node.typeParams = this.parseTypeParamsOpt();
    this.expect('=', "'=' after the type name");
    node.type = this.parseType();
    node.end = node.type.end;
    return node;
  }

  private parseInterface(start: number, isPub: boolean, attributes: A.Attribute[]): A.InterfaceDecl {
    this.expect('interface');
    const node: A.InterfaceDecl = {
      kind: 'InterfaceDecl',
      ...this.declBase(start, isPub, attributes),
      typeParams: [],
      methods: [],
      associatedTypes: [],
    };
    node.name = this.expectName('interface name');
    node.end = node.name.end;
    this.partial = node;
    node.typeParams = this.parseTypeParamsOpt();
    const open = this.expect('{', "'{' to start the interface body");
    this.newlineStack.push(true);
    try {
      while (!this.at('}') && !this.atEOF()) {
        if (this.eat(';') || this.eat(',')) continue;
        const memberStart = this.tok.start;
        if (this.at('type')) {
          this.pos++;
          const alias: A.TypeAliasDecl = {
            kind: 'TypeAliasDecl',
            ...this.declBase(memberStart, false, []),
            typeParams: [],
            type: undefined,
          };
          alias.name = this.expectName('associated type name');
          if (this.eat('=')) alias.type = this.parseType();
          alias.end = this.prevEnd;
          node.associatedTypes.push(alias);
        } else if (this.at('fn')) {
          node.methods.push(this.parseFnDecl(memberStart, false, true, []));
        } else {
          this.fail("'fn' or 'type' in an interface");
        }
        node.end = this.prevEnd;
      }
    } finally {
      this.newlineStack.pop();
    }
    this.closeBlock(open);
    node.end = this.prevEnd;
    return node;
  }

  private parseImpl(start: number, isPub: boolean, attributes: A.Attribute[]): A.ImplDecl {
    this.expect('impl');
    const node: A.ImplDecl = this.noted({ kind: 'ImplDecl', ...this.declBase(start, isPub, attributes), traitName: undefined, methods: [] });
    node.name = this.expectName('type name');
    if (this.eat('for')) {
      node.traitName = node.name;
      node.name = this.expectName('type name after for');
    }
    node.end = this.prevEnd;
    this.partial = node;
    const open = this.expect('{', "'{' to start the impl body");
    this.newlineStack.push(true);
    try {
      while (!this.at('}') && !this.atEOF()) {
        if (this.eat(';')) continue;
        const memberStart = this.tok.start;
        const memberAttributes: A.Attribute[] = [];
        while (this.at('@')) memberAttributes.push(this.parseAttribute());
        const memberPub = this.eat('pub');
        if (!this.at('fn') && !this.atWord('gen')) this.fail("'fn' in an impl block");
        const mark = this.mark();
        try {
          node.methods.push(this.parseFnDecl(memberStart, memberPub, false, memberAttributes));
        } catch (error) {
          if (!(error instanceof ParseError)) throw error;
          this.recover(error, mark);
          // Keep the method read so far; resume at the next line.
          const method = this.partial as A.Stmt | undefined; // set by parseFnDecl, which TS cannot see
          this.partial = node;
          this.synchronize(this.pos);
          if (method?.kind === 'FnDecl') {
            // Cover everything read for it, so its parts (type parameters, …) stay inside its range.
            method.end = Math.max(method.end, this.prevEnd);
            node.methods.push(method);
          }
        }
        this.partial = node;
        node.end = this.prevEnd;
      }
    } finally {
      this.newlineStack.pop();
    }
    this.closeBlock(open);
    node.end = this.prevEnd;
    return node;
  }

  private parseOverride(start: number, isPub: boolean, attributes: A.Attribute[]): A.OverrideDecl {
    this.expect('override');
    const node: A.OverrideDecl = this.scoped({ kind: 'OverrideDecl', ...this.declBase(start, isPub, attributes), params: [], body: undefined });
    node.name = this.expectName('name of the overridden function');
    node.end = node.name.end;
    this.partial = node;
    node.params = this.parseParamList(true);
    node.body = this.parseBlock();
    node.end = node.body.end;
    return node;
  }

  private parseImport(start: number, isPub: boolean): A.ImportDecl {
    this.expect('import');
    const node: A.ImportDecl = {
      kind: 'ImportDecl',
      isPub,
      path: undefined,
      names: undefined,
      scopedPath: undefined,
      namespace: undefined,
      start,
      end: this.prevEnd,
    };
    this.partial = node;
    if (this.eat('*')) {
      // 0.10 namespace import: `import * as ui from "std/ui"`.
      if (!this.atWord('as')) this.fail("'as' after 'import *'");
      this.pos++;
      node.namespace = this.expectName('namespace name');
      node.end = this.prevEnd;
      this.expect('from', "'from' after the namespace name");
      node.path = this.expectStringLiteral('module path');
    } else if (this.at('{')) {
      const names: A.Name[] = [];
      node.names = names;
      this.pos++;
      this.newlineStack.push(false);
      try {
        while (!this.at('}')) {
          if (this.atEOF()) this.fail("'}' to close the import list");
          names.push(this.expectName('imported name'));
          this.eat(',');
        }
        this.pos++;
      } finally {
        this.newlineStack.pop();
      }
      node.end = this.prevEnd;
      this.expect('from', "'from' after the import list");
      node.path = this.expectStringLiteral('module path');
    } else if (this.tok.kind === TokenKind.Identifier) {
      // 0.10 scoped import: `pkg::mod::{a, b}` or `pkg::mod::name`.
      node.scopedPath = [this.expectName('module name')];
      while (this.eat('::')) {
        if (this.at('{')) {
          const names: A.Name[] = [];
          node.names = names;
          this.pos++;
          this.newlineStack.push(false);
          try {
            while (!this.at('}')) {
              if (this.atEOF()) this.fail("'}' to close the import list");
              names.push(this.expectName('imported name'));
              this.eat(',');
            }
            this.pos++;
          } finally {
            this.newlineStack.pop();
          }
          break;
        }
        node.scopedPath.push(this.expectName('module name'));
      }
    } else {
      node.path = this.expectStringLiteral('module path');
    }
    node.end = this.prevEnd;
    return node;
  }

  private expectStringLiteral(what: string): A.StringLit {
    const t = this.tok;
    if (t.kind === TokenKind.String || t.kind === TokenKind.RawString || t.kind === TokenKind.StringHead) {
      return this.parseStringLiteral(true);
    }
    return this.fail(what);
  }

  private parseLet(start: number, isPub: boolean): A.LetDecl {
    const keyword = this.next().value as 'let' | 'var' | 'const';
    const node: A.LetDecl = {
      kind: 'LetDecl',
      keyword,
      isPub,
      pattern: undefined,
      type: undefined,
      init: undefined,
      doc: this.docBefore(start),
      start,
      end: this.prevEnd,
    };
    node.pattern = this.parseBindingPattern();
    node.end = node.pattern.end;
    this.partial = node;
    if (this.eat(':')) {
      if (node.pattern.kind !== 'Name') {
        this.report(this.prevEnd - 1, this.prevEnd, 'A type annotation is only allowed on a simple binding, not a destructuring pattern');
      }
      node.type = this.parseType();
      node.end = node.type.end;
    }
    this.expect('=', "'=' in the binding");
    node.end = this.prevEnd;
    node.init = this.parseExpression();
    node.end = node.init.end;
    return node;
  }

  private parseBindingPattern(): A.BindingPattern {
    const t = this.tok;
    if (this.is(t, '{') || this.is(t, '[')) {
      const isDict = t.value === '{';
      const close = isDict ? '}' : ']';
      this.pos++;
      const entries: A.PatternEntry[] = [];
      this.newlineStack.push(false);
      try {
        while (!this.at(close)) {
          if (this.atEOF()) this.fail(`'${close}' to close the pattern`);
          const entryStart = this.tok.start;
          const rest = this.eat('...');
          const key = isDict && !rest ? this.expectMemberName('field name') : this.expectName('binding name');
          let alias: A.Name | undefined;
          let defaultValue: A.Expr | undefined;
          if (isDict && !rest && this.eat(':')) alias = this.expectName('binding name');
          if (!rest && this.eat('=')) defaultValue = this.parseExpression();
          entries.push({ kind: 'PatternEntry', key, alias, rest, defaultValue, start: entryStart, end: this.prevEnd });
          this.eat(',');
        }
        this.pos++;
      } finally {
        this.newlineStack.pop();
      }
      return { kind: isDict ? 'DictPattern' : 'ListPattern', entries, start: t.start, end: this.prevEnd };
    }
    if (t.kind === TokenKind.Keyword && HITL_KEYWORDS.has(t.value)) {
      this.report(t.start, t.end, `Expected variable name or destructuring pattern, got '${t.value}' (reserved keyword)`);
      throw new ParseError('binding');
    }
    return this.expectName('variable name or destructuring pattern');
  }

  /** A `{ … }` block of statements, or of eval_pack / cost_route entries mixed with statements. */
  private parseBlock(entries?: 'eval_pack' | 'cost_route'): A.Block {
    const open = this.expect('{', "'{' to start a block");
    let statements: A.Stmt[];
    this.newlineStack.push(true);
    try {
      statements = entries ? this.parseEvalPackEntries(open, entries === 'cost_route') : this.parseStatementList(open);
    } finally {
      this.newlineStack.pop();
    }
    const closed = this.closeBlock(open);
    return this.scoped({ kind: 'Block', statements, closed, start: open.start, end: this.prevEnd });
  }

  /** Consumes the `}` closing `open`, or reports it missing. */
  private closeBlock(open: Token): boolean {
    if (this.eat('}')) return true;
    const t = this.tok;
    if (t.kind === TokenKind.EOF) {
      this.report(t.start, t.end, 'Unexpected end of file, expected }');
      // Point at the opening brace too, where the fix usually goes.
      this.report(open.start, open.end, "This '{' is never closed");
    } else {
      this.report(open.start, open.end, `This '{' is not closed before the declaration at ${describeToken(this.source, t)}`);
    }
    return false;
  }

  /**
   * eval_pack and cost_route bodies mix `key: expr` entries, `summarize { … }` and statements. In a
   * cost_route a `,` may also separate the `key: expr` options (upstream 0.10).
   */
  private parseEvalPackEntries(open: Token, commaAfterEntries: boolean): A.Stmt[] {
    const statements: A.Stmt[] = [];
    let afterSemicolon = false;
    while (!this.at('}') && !this.atEOF()) {
      if (this.eat(';')) {
        afterSemicolon = true;
        continue;
      }
      const t = this.tok;
      const n = this.peek();
      if (statements.length > 0 && !afterSemicolon && !t.nlBefore) {
        this.reportExpected('statement separator (`;` or newline)', t);
      }
      afterSemicolon = false;
      if ((t.kind === TokenKind.Identifier || t.kind === TokenKind.Keyword) && this.is(n, ':')) {
        const startPos = this.pos;
        const mark = this.mark();
        try {
          const key = this.nameFrom(this.next());
          this.pos++;
          const value = this.parseExpression();
          const target: A.Identifier = this.noted({ kind: 'Identifier', name: key.text, start: key.start, end: key.end });
          this.assignments++;
          statements.push(this.noted({ kind: 'Assign', operator: ':', target, value, start: key.start, end: value.end }));
          if (commaAfterEntries && this.eat(',')) afterSemicolon = true;
        } catch (error) {
          if (!(error instanceof ParseError)) throw error;
          this.recover(error, mark);
          this.synchronize(startPos);
        }
        continue;
      }
      if (t.kind === TokenKind.Identifier && t.value === 'summarize' && this.is(n, '{')) {
        this.pos++;
        const body = this.parseBlock();
        statements.push({ kind: 'BlockStmt', keyword: 'summarize', argument: undefined, body, start: t.start, end: body.end });
        continue;
      }
      const before = this.pos;
      statements.push(this.parseStatementRecovering());
      if (this.pos === before) this.pos++;
    }
    void open;
    return statements;
  }

  /** `if … else if … else …`; the chain is read in a loop so a long `else if` ladder cannot overflow the stack. */
  private parseIf(): A.IfStmt {
    const head = this.parseIfHead();
    const chain = [head];
    // Newlines are allowed before `else` (but `; else` is an error).
    for (let last = head; this.at('else');) {
      this.pos++;
      if (!this.at('if')) {
        last.otherwise = this.parseBlock();
        break;
      }
      const next = this.parseIfHead();
      last.otherwise = next;
      chain.push(next);
      last = next;
    }
    // Every `if` of the chain ends where the whole chain ends, as when each `else if` nests.
    for (const node of chain) node.end = this.prevEnd;
    return head;
  }

  private parseIfHead(): A.IfStmt {
    const start = this.expect('if').start;
    const condition = this.parseConditionExpression();
    const then = this.parseBlock();
    return { kind: 'If', condition, then, otherwise: undefined, start, end: this.prevEnd };
  }

  /** An expression followed by a block: `{` ends the expression (no struct literal on a lowercase name). */
  private parseConditionExpression(): A.Expr {
    return this.parseExpression();
  }

  private parseFor(): A.ForStmt {
    const start = this.expect('for').start;
    let pattern: A.BindingPattern;
    if (this.at('(')) {
      // `for (k, v) in dict`
      const open = this.next();
      const entries: A.PatternEntry[] = [];
      this.newlineStack.push(false);
      try {
        while (!this.at(')')) {
          if (this.atEOF()) this.fail("')' to close the loop variables");
          const key = this.expectName('loop variable');
          entries.push({ kind: 'PatternEntry', key, alias: undefined, rest: false, defaultValue: undefined, start: key.start, end: key.end });
          this.eat(',');
        }
        this.pos++;
      } finally {
        this.newlineStack.pop();
      }
      pattern = { kind: 'ListPattern', entries, start: open.start, end: this.prevEnd };
    } else {
      pattern = this.parseBindingPattern();
    }
    this.expect('in', "'in' after the loop variable");
    const iterable = this.parseConditionExpression();
    const body = this.parseBlock();
    return { kind: 'For', pattern, iterable, body, start, end: this.prevEnd };
  }

  private parseWhile(): A.WhileStmt {
    const start = this.expect('while').start;
    const condition = this.parseConditionExpression();
    const body = this.parseBlock();
    return { kind: 'While', condition, body, start, end: this.prevEnd };
  }

  private parseMatch(): A.MatchStmt {
    const start = this.expect('match').start;
    const subject = this.parseConditionExpression();
    const open = this.expect('{', "'{' to start the match arms");
    const arms: A.MatchArm[] = [];
    this.newlineStack.push(true);
    try {
      while (!this.at('}') && !this.atEOF()) {
        if (this.eat(',') || this.eat(';')) continue;
        const armStart = this.tok.start;
        const startPos = this.pos;
        const mark = this.mark();
        try {
          const patterns = [this.parseExpression()];
          while (this.eat('|')) patterns.push(this.parseExpression());
          let guard: A.Expr | undefined;
          if (this.eat('if')) guard = this.parseExpression();
          this.expect('->', "'->' after the match pattern");
          let body: A.Block;
          if (this.at('{')) body = this.parseBlock();
          else {
            const expr = this.parseExpression();
            body = this.scoped({
              kind: 'Block',
              statements: [{ kind: 'ExprStmt', expr, start: expr.start, end: expr.end }],
              closed: true,
              start: expr.start,
              end: expr.end,
            });
          }
          arms.push({ kind: 'MatchArm', patterns, guard, body, start: armStart, end: this.prevEnd });
        } catch (error) {
          if (!(error instanceof ParseError)) throw error;
          this.recover(error, mark);
          this.synchronize(startPos);
        }
      }
    } finally {
      this.newlineStack.pop();
    }
    this.closeBlock(open);
    return { kind: 'Match', subject, arms, start, end: this.prevEnd };
  }

  private parseRetry(): A.RetryStmt {
    const start = this.expect('retry').start;
    let count: A.Expr | undefined;
    if (!this.at('{')) count = this.at('(') ? this.parsePrimary() : this.parsePostfix(this.parsePrimary());
    const body = this.parseBlock();
    return { kind: 'Retry', count, body, start, end: this.prevEnd };
  }

  private parseParallel(): A.ParallelStmt {
    const start = this.expect('parallel').start;
    let mode: 'each' | 'settle' | undefined;
    if (this.atWord('each') || this.atWord('settle')) mode = this.next().value as 'each' | 'settle';
    let subject: A.Expr | undefined;
    if (!this.at('{')) subject = this.parseExpression();
    let options: A.Expr | undefined;
    if (this.atWord('with')) {
      this.pos++;
      options = this.parsePrimary();
    }
    const open = this.expect('{', "'{' to start the parallel body");
    const binding: A.Name[] = [];
    // `{ item -> … }` or `{ (i, item) -> … }`
    if (this.tok.kind === TokenKind.Identifier && this.is(this.peek(), '->')) {
      binding.push(this.expectName('binding'));
      this.pos++;
    } else if (this.at('(') && this.scanForArrowAfterParens()) {
      this.pos++;
      this.newlineStack.push(false);
      try {
        while (!this.at(')') && !this.atEOF()) {
          binding.push(this.expectName('binding'));
          this.eat(',');
        }
        this.pos++;
      } finally {
        this.newlineStack.pop();
      }
      this.expect('->');
    }
    const statements = this.withNewlines(true, () => this.parseStatementList(open));
    const closed = this.closeBlock(open);
    const body: A.Block = this.scoped({ kind: 'Block', statements, closed, start: open.start, end: this.prevEnd });
    let stream = false;
    if (this.atWord('as') && !this.tok.nlBefore && this.peek().kind === TokenKind.Identifier && this.peek().value === 'stream') {
      if (mode !== 'each') this.report(this.tok.start, this.peek().end, "'as stream' is only allowed after 'parallel each'");
      this.pos += 2;
      stream = true;
    }
    return { kind: 'Parallel', mode, subject, options, binding, body, stream, start, end: this.prevEnd };
  }

  /** `( … ) ->`: the parenthesised loop bindings of a parallel body. */
  private scanForArrowAfterParens(): boolean {
    const close = this.brackets().close[this.pos] ?? -1;
    return close >= 0 && this.is(this.tokenAt(close + 1), '->');
  }

  /**
   * For every opening bracket, the index of the token closing it (any closing bracket counts, as in
   * synchronize) or -1; and for `{`, whether a `->` lies directly inside it. Computed once, so the
   * dict-vs-closure test stays linear even when many braces are never closed.
   */
  private brackets(): { close: Int32Array; arrow: Uint8Array } {
    if (this.bracketInfo) return this.bracketInfo;
    const close = new Int32Array(this.tokens.length).fill(-1);
    const arrow = new Uint8Array(this.tokens.length);
    const open: number[] = [];
    const window = this.bracketWindow;
    for (let i = window?.from ?? 0; i < this.tokens.length; i++) {
      // Past the window, only brackets it left open are still to be matched (see parseStatementAt).
      if (window && i >= window.to && open.length === 0) break;
      const t = this.tokenAt(i);
      if (t.kind !== TokenKind.Punct) continue;
      const delta = this.bracketDelta(t);
      if (delta > 0) open.push(i);
      else if (delta < 0) {
        const o = open.pop();
        if (o !== undefined) close[o] = i;
      } else if (t.value === '->') {
        const innermost = open[open.length - 1];
        if (innermost !== undefined) arrow[innermost] = 1;
      }
    }

    this.bracketInfo = { close, arrow };
    return this.bracketInfo;
  }

  private parseValueStatement(kind: 'Return' | 'Yield' | 'Throw' | 'Emit', optional: boolean): A.SimpleStmt {
    const t = this.next();
    let value: A.Expr | undefined;
    const endsHere = this.newlineHere || this.at(';') || this.at('}') || this.atEOF();
    if (!optional || !endsHere) value = this.parseExpression();
    return { kind, value, start: t.start, end: this.prevEnd };
  }

  private parseTry(): A.TryStmt {
    const start = this.expect('try').start;
    const body = this.parseBlock();
    const node: A.TryStmt = {
      kind: 'Try',
      body,
      catchName: undefined,
      catchType: undefined,
      catchBody: undefined,
      finallyBody: undefined,
      starOperand: undefined,
      start,
      end: this.prevEnd,
    };
    if (this.at('catch')) {
      this.pos++;
      if (this.at('(')) {
        this.pos++;
        this.newlineStack.push(false);
        try {
          node.catchName = this.expectName('error variable');
          if (this.eat(':')) node.catchType = this.parseType();
          this.expect(')');
        } finally {
          this.newlineStack.pop();
        }
      } else if (this.tok.kind === TokenKind.Identifier) {
        node.catchName = this.expectName('error variable');
      }
      node.catchBody = this.parseBlock();
    }
    if (this.at('finally')) {
      this.pos++;
      node.finallyBody = this.parseBlock();
    }
    node.end = this.prevEnd;
    return node;
  }

  private parseGuard(): A.GuardStmt {
    const start = this.expect('guard').start;
    const condition = this.parseExpression();
    this.expect('else', "'else' after the guard condition");
    const otherwise = this.parseBlock();
    return { kind: 'Guard', condition, otherwise, start, end: this.prevEnd };
  }

  private parseRequire(): A.RequireStmt {
    const start = this.expect('require').start;
    const condition = this.parseExpression();
    let message: A.Expr | undefined;
    if (this.eat(',')) message = this.parseExpression();
    return { kind: 'Require', condition, message, start, end: this.prevEnd };
  }

  /** deadline, mutex, defer, spawn, block, scope, cost_route. */
  private parseBlockStatement(): A.BlockStmt {
    const t = this.next();
    let argument: A.Expr | undefined;
    if (t.value === 'deadline') {
      argument = this.parsePrimaryForBlockArgument();
    } else if (t.value === 'mutex' && this.at('(')) {
      argument = this.parsePrimary();
    }
    // `cost_route { name: expr … stmts }` mixes `key: value` entries with statements, like eval_pack.
    const body = this.parseBlock(t.value === 'cost_route' ? 'cost_route' : undefined);
    return { kind: 'BlockStmt', keyword: t.value, argument, body, start: t.start, end: this.prevEnd };
  }

  /** `deadline primary {`: a literal, a name or a parenthesised expression (`deadline seconds(5) {` fails upstream). */
  private parsePrimaryForBlockArgument(): A.Expr {
    const expr = this.parsePrimary();
    if (expr.kind === 'Identifier' && this.at('(') && !this.tok.nlBefore) {
      this.fail("'{' after the deadline (wrap a call in parentheses: deadline (f(x)) { … })");
    }
    return expr;
  }

  private parseSelect(): A.SelectStmt {
    const start = this.expect('select').start;
    const open = this.expect('{', "'{' to start the select cases");
    const cases: A.SelectCase[] = [];
    let sawTimeout = false;
    let sawDefault = false;
    this.newlineStack.push(true);
    try {
      while (!this.at('}') && !this.atEOF()) {
        if (this.eat(';')) continue;
        const t = this.tok;
        if (t.kind === TokenKind.Identifier && t.value === 'timeout') {
          this.pos++;
          const expr = this.parseExpression();
          const body = this.parseBlock();
          if (sawDefault) this.report(t.start, t.end, "A select cannot have both 'timeout' and 'default'");
          sawTimeout = true;
          cases.push({ kind: 'SelectCase', label: 'timeout', name: undefined, expr, body, start: t.start, end: this.prevEnd });
        } else if (t.kind === TokenKind.Identifier && t.value === 'default' && this.is(this.peek(), '{')) {
          this.pos++;
          const body = this.parseBlock();
          if (sawTimeout) this.report(t.start, t.end, "A select cannot have both 'timeout' and 'default'");
          sawDefault = true;
          cases.push({ kind: 'SelectCase', label: 'default', name: undefined, expr: undefined, body, start: t.start, end: this.prevEnd });
        } else {
          const name = this.expectName('select case (name from channel, timeout or default)');
          this.expect('from', "'from' in the select case");
          const expr = this.parseExpression();
          const body = this.parseBlock();
          cases.push({ kind: 'SelectCase', label: 'from', name, expr, body, start: t.start, end: this.prevEnd });
        }
      }
    } finally {
      this.newlineStack.pop();
    }
    this.closeBlock(open);
    return { kind: 'Select', cases, start, end: this.prevEnd };
  }

  // ------------------------------------------------------------------------------------- expressions

  /**
   * `inArguments`: called by an argument list, which takes an abandoned statement (see `abandoned`) back as a
   * return; any other caller gets it thrown.
   */
  parseExpression(inArguments = false): A.Expr {
    // Fast path for the most common expression, a lone name or literal before `,` `)` `]` `}` (call
    // arguments, list elements, dict values): no operator can follow, so the precedence chain would
    // return the primary unchanged.
    const t = this.tok;
    if (t.kind === TokenKind.Identifier || t.kind === TokenKind.Int || t.kind === TokenKind.String) {
      const n = this.tokenAt(this.pos + 1);
      if (n.kind === TokenKind.Punct && (n.value === ',' || n.value === ')' || n.value === ']' || n.value === '}')) {
        return this.parsePrimary();
      }
    }
    // No `finally` here or below: a recovery point restores the depth (see ParseError).
    this.enter();
    // The first operand is read before the precedence levels are entered, and each level is given the operand it
    // starts with: the levels are not on the stack while the operand nests (a call's arguments, a list), so a
    // ParseError unwinds fewer frames (V8 charges for each) and each nesting level costs fewer calls.
    // The unary and power levels' frames are skipped too when no prefix operator starts the operand.
    let first: A.Expr;
    if (this.startsPrefixOperator(this.tok)) {
      first = this.parseUnary();
    } else {
      first = this.parsePostfix(this.parsePrimary(), true);
      if (this.abandoned) {
        if (inArguments) return first;
        const error = this.abandoned;
        this.abandoned = undefined;
        throw error;
      }
      first = this.parsePowerFrom(first);
    }
    const expr = this.parsePipe(first);
    this.depth--;
    return expr;
  }

  /** Whether parseUnary has more to do at `t` than parsePower: `!`, `-`, or `try` (`try* …`). */
  private startsPrefixOperator(t: Token): boolean {
    return t.kind === TokenKind.Punct ? t.value === '!' || t.value === '-' : t.kind === TokenKind.Keyword && t.value === 'try';
  }

  /** The pipe level (and those below it) of an expression whose first operand, `first`, has been read. */
  private parsePipe(first: A.Expr): A.Expr {
    let left = this.parseRange(first);
    while (this.at('|>')) {
      this.pos++;
      const right = this.parseRange(this.parseUnary());
      left = { kind: 'Binary', operator: '|>', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseRange(first: A.Expr): A.Expr {
    const left = this.parseTernary(first);
    if (this.at('to') && !this.newlineHere) {
      this.pos++;
      const right = this.parseTernary(this.parseUnary());
      let exclusive = false;
      if (this.at('exclusive') && !this.newlineHere) {
        this.pos++;
        exclusive = true;
      }
      return { kind: 'Range', from: left, to: right, exclusive, start: left.start, end: this.prevEnd };
    }
    return left;
  }

  private parseTernary(first: A.Expr): A.Expr {
    const condition = this.parseBinary(1, first);
    if (this.at('?')) {
      this.pos++;
      // Both branches may hold a ternary (upstream 0.10; v0.7 wanted parentheses). Each one nests
      // (`a ? b : c ? d : …` is right-nested), so it counts against MAX_NESTING.
      this.enter();
      const then = this.parseTernary(this.parseUnary());
      this.expect(':', "':' in the conditional expression");
      const otherwise = this.parseTernary(this.parseUnary());
      this.depth--;
      return { kind: 'Ternary', condition, then, otherwise, start: condition.start, end: otherwise.end };
    }
    return condition;
  }

  /** The binary operator at the current token, if it may continue the expression here. */
  private binaryOperatorHere(): string | undefined {
    const t = this.tok;
    let op: string | undefined;
    if (t.kind === TokenKind.Punct) op = t.value;
    else if (t.kind === TokenKind.Keyword && t.value === 'in') op = 'in';
    else if (t.kind === TokenKind.Identifier && t.value === 'not' && this.is(this.peek(), 'in')) op = 'not in';
    if (!op) return undefined;
    if (this.newlineHere && NO_LEADING_CONTINUATION.has(op)) return undefined;
    return op;
  }

  /** Precedence climbing over BINARY_PRECEDENCE from the operand `first`: operands bind tighter than `minPrecedence`. */
  private parseBinary(minPrecedence: number, first: A.Expr): A.Expr {
    let left = first;
    for (;;) {
      const op = this.binaryOperatorHere();
      if (op === undefined) return left;
      const precedence = BINARY_PRECEDENCE.get(op);
      if (precedence === undefined || precedence < minPrecedence) return left;
      this.pos += op === 'not in' ? 2 : 1;
      const right = this.parseBinary(precedence + 1, this.parseUnary());
      left = { kind: 'Binary', operator: op, left, right, start: left.start, end: right.end };
    }
  }

  private parseUnary(): A.Expr {
    const t = this.tok;
    if (this.is(t, '!') || this.is(t, '-')) {
      this.pos++;
      this.enter();
      const operand = this.parseUnary();
      this.depth--;
      return { kind: 'Unary', operator: t.value, operand, start: t.start, end: operand.end };
    }
    if (this.is(t, 'try') && this.is(this.peek(), '*')) {
      this.pos += 2;
      const operand = this.parseExpressionOperand();
      const node: A.TryStmt = {
        kind: 'Try',
        body: undefined,
        catchName: undefined,
        catchType: undefined,
        catchBody: undefined,
        finallyBody: undefined,
        starOperand: operand,
        start: t.start,
        end: operand.end,
      };
      return { kind: 'StmtExpr', stmt: node, start: t.start, end: operand.end };
    }
    return this.parsePower();
  }

  /** A unary-level operand that nests (`try* …`, the exponent of `**`): counted against MAX_NESTING. */
  private parseExpressionOperand(): A.Expr {
    this.enter();
    const operand = this.parseUnary();
    this.depth--;
    return operand;
  }

  private parsePower(): A.Expr {
    return this.parsePowerFrom(this.parsePostfix(this.parsePrimary()));
  }

  /** The power level from its base, already read. */
  private parsePowerFrom(base: A.Expr): A.Expr {
    if (this.at('**')) {
      this.pos++;
      // Right-associative; the exponent may itself be negated (`2 ** -1`).
      const exponent = this.parseExpressionOperand();
      return { kind: 'Binary', operator: '**', left: base, right: exponent, start: base.start, end: exponent.end };
    }
    return base;
  }

  /** `chained`: the caller is parseExpression, which takes an abandoned statement back as a return (see `abandoned`). */
  private parsePostfix(expr: A.Expr, chained = false): A.Expr {
    for (;;) {
      const t = this.tok;
      if (t.kind !== TokenKind.Punct) return expr;
      switch (t.value) {
        case '.':
        case '?.': {
          this.pos++;
          const optional = t.value === '?.';
          if (optional && this.at('[')) {
            expr = this.parseIndexOrSlice(expr, true);
            continue;
          }
          if (optional && this.at('(')) {
            expr = this.parseCall(expr, [], chained);
            if (this.abandoned) return expr;
            continue;
          }
          const pt = this.tok;
          // A name on the next line is not this member's: `a.` is being typed above another statement.
          const sameLine = !pt.nlBefore;
          if (sameLine && (pt.kind === TokenKind.Identifier || pt.kind === TokenKind.Keyword)) {
            this.pos++;
            expr = this.noted({ kind: 'Member', object: expr, optional, property: this.nameFrom(pt), start: expr.start, end: pt.end });
          } else if (sameLine && pt.kind === TokenKind.Int) {
            // Tuple-style element access `x.0` reads as a member too.
            this.pos++;
            expr = this.noted({
              kind: 'Member',
              object: expr,
              optional,
              property: { kind: 'Name', text: this.source.slice(pt.start, pt.end), start: pt.start, end: pt.end },
              start: expr.start,
              end: pt.end,
            });
          } else {
            // `a.` while typing: keep the member with no name so completion knows where it is.
            this.reportExpected('member name after ' + `'${t.value}'`);
            return this.noted({ kind: 'Member', object: expr, optional, property: undefined, start: expr.start, end: t.end });
          }
          continue;
        }
        case '(':
          if (this.newlineHere) return expr;
          expr = this.parseCall(expr, [], chained);
          if (this.abandoned) return expr;
          continue;
        case '[':
          if (this.newlineHere) return expr;
          expr = this.parseIndexOrSlice(expr, false);
          continue;
        case '?': {
          // A ternary when a branch can start here and a `:` follows at this nesting (upstream 0.10):
          // so `c ? [1] : [2]` is a ternary and `a?[0] ?? b` an optional subscript.
          if (startsTernaryBranch(this.peek()) && this.ternaryColonAhead()) return expr;
          const n = this.peek();
          if (this.is(n, '[') && !n.nlBefore) {
            this.pos++;
            expr = this.parseIndexOrSlice(expr, true);
            continue;
          }
          this.pos++;
          expr = { kind: 'TryPostfix', operand: expr, start: expr.start, end: t.end };
          continue;
        }
        case '<': {
          if (expr.kind !== 'Identifier' && expr.kind !== 'Member') return expr;
          const typeArgs = this.tryGenericCallTypeArguments();
          if (!typeArgs) return expr;
          expr = this.parseCall(expr, typeArgs, chained);
          if (this.abandoned) return expr;
          continue;
        }
        case '{':
          if (expr.kind === 'Identifier' && this.isStructConstruction(expr)) {
            expr = this.parseStructLiteral(expr);
            continue;
          }
          return expr;
        default:
          return expr;
      }
    }
  }

  /**
   * From the `?` at the current token: whether a `:` follows at the same bracket depth before the
   * expression can have ended: before a closing bracket, a `,` or `;`, the end of the file, or a line
   * break that no `:` or binary/member operator continues (a line break right after the `?` is allowed).
   * Upstream 0.10 reads the same way but also scans past `,` and `;` (so there `f(a?[0], b: 1)` reads
   * `?` as a ternary and fails); stopping there keeps such optional subscripts valid.
   * Linear over a chain of `?`: a scan that passes another `?` at its own depth settles that one's answer too.
   */
  private ternaryColonAhead(): boolean {
    const known = this.ternaryColonCache.get(this.pos);
    if (known !== undefined) return known;
    const passed: number[] = [];
    let depth = 0;
    let atBranchStart = true;
    let answer = false;
    for (let i = this.pos + 1; ; i++) {
      const t = this.tokenAt(i);
      if (t.kind === TokenKind.EOF) break;
      if (depth === 0) {
        if (t.nlBefore && !atBranchStart && !(t.kind === TokenKind.Punct && TERNARY_CONTINUATION.has(t.value))) break;
        atBranchStart = false;
        if (t.kind === TokenKind.Punct) {
          const v = t.value;
          if (v === ':') {
            answer = true;
            break;
          }
          if (v === ')' || v === ']' || v === '}' || v === ',' || v === ';') break;
          if (v === '?' && !this.tokenAt(i + 1).nlBefore) passed.push(i);
        }
      }
      if (t.kind === TokenKind.StringHead) depth++;
      else if (t.kind === TokenKind.StringTail) depth = Math.max(0, depth - 1);
      else depth = Math.max(0, depth + this.bracketDelta(t));
    }
    this.ternaryColonCache.set(this.pos, answer);
    for (const i of passed) this.ternaryColonCache.set(i, answer);
    return answer;
  }

  /** Spec §1.7 trap 1: `Upper {` followed by `}` or `name:`/`"str":` is a struct construction. */
  private isStructConstruction(name: A.Identifier): boolean {
    const first = name.name.charCodeAt(0);
    if (!(first >= 65 && first <= 90)) return false;
    const n1 = this.peek();
    if (this.is(n1, '}')) return true;
    const n2 = this.peek(2);
    const keyLike = n1.kind === TokenKind.Identifier || n1.kind === TokenKind.Keyword || n1.kind === TokenKind.String;
    return keyLike && this.is(n2, ':');
  }

  private parseStructLiteral(name: A.Identifier): A.StructLit {
    const open = this.next();
    const entries = this.parseDictEntries(open);
    return this.noted({ kind: 'StructLit', name, entries, start: name.start, end: this.prevEnd });
  }

  /**
   * The `<T, U>` of a generic call `f<T, U>(…)`, tried speculatively (undefined when they fail, and the tokens
   * are read again as a comparison); the caller reads the call's arguments, so that this frame is not on the
   * stack while they nest. Once `<…>(` has been read it is a call: its arguments are what a parenthesised operand
   * would hold, so reading them again as one could only fail again — and did, once per nesting level
   * (quadratic on `a < b > (` nested n deep).
   */
  private tryGenericCallTypeArguments(): A.TypeExpr[] | undefined {
    if (this.failedGenericCalls.has(this.pos) || !this.mayBeTypeArguments()) return undefined;
    const savedPos = this.pos;
    const savedDiagnostics = this.diagnostics.length;
    const savedNodes = this.names.nodes.length;
    const savedScopes = this.names.scopeStarts.length;
    const mark = this.mark();
    let typeArgs: A.TypeExpr[];
    try {
      this.pos++;
      typeArgs = [];
      this.newlineStack.push(false);
      while (!this.at('>')) {
        typeArgs.push(this.parseType());
        if (!this.eat(',')) break;
      }
      this.newlineStack.pop();
      this.expect('>');
      if (!this.at('(') || this.tok.nlBefore) throw new ParseError('not a generic call');
    } catch (error) {
      // A nesting error is not a reason to read the tokens again (that would nest just as deep).
      if (!(error instanceof ParseError) || error instanceof NestingError) throw error;
      this.recover(error, mark);
      this.pos = savedPos;
      this.diagnostics.length = savedDiagnostics;
      // The type arguments' nodes are dropped with them.
      this.names.nodes.length = savedNodes;
      this.names.scopeStarts.length = savedScopes;
      this.failedGenericCalls.add(savedPos);
      return undefined;
    }
    return typeArgs;
  }

  /**
   * A cheap look-ahead before speculating: from the `<` at the current token, only type-like tokens up
   * to a balancing `>` that is directly followed by `(` on the same line. Rules out `i < n {` and the
   * like without the cost of a failed parse.
   */
  private mayBeTypeArguments(): boolean {
    let depth = 0;
    for (let i = this.pos; i < this.pos + 64 && i < this.tokens.length; i++) {
      const t = this.tokenAt(i);
      if (i > this.pos && t.nlBefore) return false;
      switch (t.kind) {
        case TokenKind.Identifier:
        case TokenKind.String:
        case TokenKind.RawString:
        case TokenKind.Int:
        case TokenKind.Float:
          continue;
        case TokenKind.Keyword:
          if (t.value === 'fn' || t.value === 'nil' || t.value === 'true' || t.value === 'false') continue;
          return false;
        case TokenKind.Punct:
          switch (t.value) {
            case '<':
              depth++;
              continue;
            case '>':
              depth--;
              if (depth === 0) return this.is(this.tokenAt(i + 1), '(') && !this.tokenAt(i + 1).nlBefore;
              continue;
            case ',':
            case '[':
            case ']':
            case '{':
            case '}':
            case '(':
            case ')':
            case ':':
            case '?':
            case '|':
            case '&':
            case '->':
            case '.':
            case '...':
            case '-':
              continue;
            default:
              return false;
          }
        default:
          return false;
      }
    }
    return false;
  }

  /** `chained`: see parseArgumentList. When the call is abandoned it stays open (for recover) and the node is not used. */
  private parseCall(callee: A.Expr, typeArgs: A.TypeExpr[], chained: boolean): A.Call {
    const args: A.Argument[] = [];
    this.openCall(callee, typeArgs, args);
    const closed = this.parseArgumentList(args, chained);
    if (!this.abandoned) this.closeCall();
    return { kind: 'Call', callee, typeArgs, args, closed, start: callee.start, end: this.prevEnd };
  }

  /**
   * `( args )` with optional commas, named `name: value` and spread `...xs` arguments, into `args` (the innermost
   * open call's, see openCall); whether the `)` was there (else it ends at the end of the file).
   * `chained`: the callers up to parseExpression take an abandoned statement back as a return.
   * Then a ParseError in the arguments is caught here and handed up by returns (see `abandoned`) instead of
   * unwinding every level of nested calls, which V8 charges per frame and which keeps those functions from being
   * optimized (a frame left by an exception never reaches the return where V8 counts it as hot).
   */
  private parseArgumentList(args: A.Argument[], chained: boolean): boolean {
    try {
      const open = this.expect('(');
      const call = this.openCalls[this.openCallCount - 1] as OpenCall;
      this.newlineStack.push(false);
      while (!this.at(')')) {
        if (this.atEOF()) {
          this.reportExpected("')' to close the argument list");
          this.report(open.start, open.end, "This '(' is never closed");
          this.newlineStack.pop();
          return false;
        }
        // Commas are optional, so a stray closer would otherwise read as a missing argument.
        if (this.at(']') || this.at('}')) this.fail("')' to close the argument list");
        const start = this.tok.start;
        const spread = this.eat('...');
        let name: A.Name | undefined;
        const t = this.tok;
        if (!spread && (t.kind === TokenKind.Identifier || t.kind === TokenKind.Keyword) && this.is(this.peek(), ':') && !this.is(this.peek(2), ':')) {
          this.pos += 2;
          name = this.nameFrom(t);
        }
        // Should the value fail, a half-read call in it (`f(1, g(2, ⏎…`) becomes its value (see recover).
        call.argStart = start;
        call.argName = name;
        call.argSpread = spread;
        const value = this.parseExpression(true);
        if (this.abandoned) {
          if (chained) return false;
          const error = this.abandoned;
          this.abandoned = undefined;
          throw error;
        }
        args.push({ kind: 'Argument', name, spread, value, start, end: value.end });
        this.eat(',');
      }
      this.pos++;
      this.newlineStack.pop();
      return true;
    } catch (error) {
      // Not chained: the error goes on as thrown (a rethrow, as when every level had its handlers).
      if (!chained || !(error instanceof ParseError)) throw error;
      this.abandoned = error;
      return false;
    }
  }

  private parseIndexOrSlice(object: A.Expr, optional: boolean): A.Expr {
    this.expect('[');
    this.newlineStack.push(false);
    let from: A.Expr | undefined;
    if (!this.at(':')) from = this.parseExpression();
    if (this.eat(':')) {
      let to: A.Expr | undefined;
      if (!this.at(']')) to = this.parseExpression();
      this.expect(']', "']' to close the slice");
      this.newlineStack.pop();
      return { kind: 'Slice', object, from, to, start: object.start, end: this.prevEnd };
    }
    this.expect(']', "']' to close the index");
    this.newlineStack.pop();
    return { kind: 'Index', object, optional, index: from, start: object.start, end: this.prevEnd };
  }

  private parsePrimary(): A.Expr {
    const t = this.tok;
    switch (t.kind) {
      case TokenKind.Int:
      case TokenKind.Float:
      case TokenKind.Duration: {
        this.pos++;
        const kind = t.kind === TokenKind.Int ? 'Int' : t.kind === TokenKind.Float ? 'Float' : 'Duration';
        return { kind, raw: this.source.slice(t.start, t.end), start: t.start, end: t.end };
      }
      case TokenKind.String:
      case TokenKind.RawString:
      case TokenKind.StringHead:
        return this.parseStringLiteral();
      case TokenKind.Identifier:
        this.pos++;
        return this.noted({ kind: 'Identifier', name: t.value, start: t.start, end: t.end });
      case TokenKind.Keyword:
        switch (t.value) {
          case 'true':
          case 'false':
            this.pos++;
            return { kind: 'Bool', raw: t.value, start: t.start, end: t.end };
          case 'nil':
            this.pos++;
            return { kind: 'Nil', raw: 'nil', start: t.start, end: t.end };
          case 'fn':
            return this.parseFnExpression();
          case 'if':
          case 'match':
          case 'retry':
          case 'parallel':
          case 'deadline':
          case 'spawn':
          case 'try':
          case 'select':
          case 'mutex': {
            const stmt = this.parseStatement();
            return { kind: 'StmtExpr', stmt, start: stmt.start, end: stmt.end };
          }
          default:
            if (HITL_KEYWORDS.has(t.value)) {
              this.pos++;
              return this.noted({ kind: 'Identifier', name: t.value, start: t.start, end: t.end });
            }
        }
        break;
      case TokenKind.Punct:
        switch (t.value) {
          case '(': {
            this.pos++;
            this.newlineStack.push(false);
            const inner = this.parseExpression();
            this.newlineStack.pop();
            this.expect(')', "')' to close the parenthesised expression");
            return { kind: 'Paren', inner, start: t.start, end: this.prevEnd };
          }
          case '[':
            return this.parseListLiteral();
          case '{':
            return this.parseBraceExpression();
        }
        break;
    }
    return this.fail('expression');
  }

  private parseFnExpression(): A.FnExpr {
    const start = this.expect('fn').start;
    const params = this.parseParamList(true);
    const node: A.FnExpr = this.scoped({ kind: 'FnExpr', params, returnType: undefined, body: undefined, start, end: this.prevEnd });
    this.parseReturnClause(node);
    node.body = this.parseBlock();
    node.end = node.body.end;
    return node;
  }

  private parseListLiteral(): A.ListLit {
    const open = this.expect('[');
    const elements: A.Expr[] = [];
    this.newlineStack.push(false);
    while (!this.at(']')) {
      if (this.atEOF()) this.fail("']' to close the list");
      if (this.at('...')) {
        const s = this.next();
        const operand = this.parseExpression();
        elements.push({ kind: 'Unary', operator: '...', operand, start: s.start, end: operand.end });
      } else {
        elements.push(this.parseExpression());
      }
      this.eat(',');
    }
    this.pos++;
    this.newlineStack.pop();
    return { kind: 'List', elements, start: open.start, end: this.prevEnd };
  }

  /** `{}` is a dict; otherwise a `->` at depth 0 before the matching `}` makes it a closure (§1.4). */
  private parseBraceExpression(): A.Expr {
    const open = this.tok;
    if (this.is(this.peek(), '}')) {
      this.pos += 2;
      return { kind: 'Dict', entries: [], start: open.start, end: this.prevEnd };
    }
    if (this.braceHoldsArrow()) return this.parseClosure();
    this.pos++;
    const entries = this.parseDictEntries(open);
    return { kind: 'Dict', entries, start: open.start, end: this.prevEnd };
  }

  private braceHoldsArrow(): boolean {
    return this.brackets().arrow[this.pos] === 1;
  }

  private parseClosure(): A.Closure {
    const open = this.expect('{');
    const params: A.Param[] = [];
    this.newlineStack.push(false);
    try {
      while (!this.at('->')) {
        if (this.atEOF()) this.fail("'->' in the closure");
        params.push(this.parseParam(true));
        this.eat(',');
      }
      this.pos++;
    } finally {
      this.newlineStack.pop();
    }
    const statements = this.withNewlines(true, () => this.parseStatementList(open));
    const closed = this.closeBlock(open);
    const body: A.Block = this.scoped({ kind: 'Block', statements, closed, start: open.start, end: this.prevEnd });
    return this.scoped({ kind: 'Closure', params, body, start: open.start, end: this.prevEnd });
  }

  /** Entries after an already consumed `{`, through the closing `}`. */
  private parseDictEntries(open: Token): A.DictEntry[] {
    const entries: A.DictEntry[] = [];
    this.newlineStack.push(false);
    while (!this.at('}')) {
      if (this.atEOF()) {
        this.reportExpected("'}' to close the dict");
        this.report(open.start, open.end, "This '{' is never closed");
        throw new ParseError('dict');
      }
      const start = this.tok.start;
      if (this.eat('...')) {
        const value = this.parseExpression();
        entries.push({ kind: 'DictEntry', key: undefined, computed: false, spread: true, value, start, end: value.end });
        this.eat(',');
        continue;
      }
      let key: A.Name | A.StringLit | A.Expr;
      let computed = false;
      const t = this.tok;
      if (t.kind === TokenKind.Identifier || t.kind === TokenKind.Keyword) {
        this.pos++;
        key = this.nameFrom(t);
      } else if (t.kind === TokenKind.String || t.kind === TokenKind.RawString || t.kind === TokenKind.StringHead) {
        key = this.parseStringLiteral();
      } else if (t.kind === TokenKind.Int) {
        this.pos++;
        key = { kind: 'Int', raw: this.source.slice(t.start, t.end), start: t.start, end: t.end };
      } else if (this.is(t, '[')) {
        this.pos++;
        key = this.parseExpression();
        this.expect(']', "']' after the computed key");
        computed = true;
      } else {
        this.fail('dict key (a name, a string or [expression])');
      }
      this.expect(':', "':' after the dict key");
      const value = this.parseExpression();
      entries.push({ kind: 'DictEntry', key, computed, spread: false, value, start, end: value.end });
      this.eat(',');
    }
    this.pos++;
    this.newlineStack.pop();
    return entries;
  }

  /** A string token, or an interpolated string (head, holes, middles, tail) with each hole parsed. */
  /** `needsValue`: the literal's value is wanted even in a lean parse (a module path). */
  private parseStringLiteral(needsValue = !this.lean): A.StringLit {
    const t = this.next();
    if (t.kind === TokenKind.RawString) {
      const hashes = countHashes(this.source, t.start + 1);
      const contentStart = t.start + 2 + hashes;
      const contentEnd = t.terminated ? t.end - 1 - hashes : t.end;
      return {
        kind: 'String',
        raw: true,
        triple: false,
        parts: [{ kind: 'Text', start: contentStart, end: Math.max(contentStart, contentEnd) }],
        value: this.source.slice(contentStart, Math.max(contentStart, contentEnd)),
        start: t.start,
        end: t.end,
      };
    }
    const quote = t.triple ? 3 : 1;
    if (t.kind === TokenKind.String) {
      const contentStart = t.start + quote;
      const contentEnd = Math.max(contentStart, t.terminated ? t.end - quote : t.end);
      return {
        kind: 'String',
        raw: false,
        triple: !!t.triple,
        // A lean tree's plain strings share one empty list: their text holds no name.
        parts: needsValue ? [{ kind: 'Text', start: contentStart, end: contentEnd }] : NO_PARTS,
        value: needsValue ? stringValue(this.source.slice(contentStart, contentEnd), !!t.triple) : '',
        start: t.start,
        end: t.end,
      };
    }
    if (t.kind !== TokenKind.StringHead) return this.fail('string');
    const parts: A.StringPart[] = [{ kind: 'Text', start: t.start + quote, end: t.end - 2 }];
    let end: number;
    // The token ending in the current hole's `${`: the lexer marks it unterminated when a line break cut the hole.
    let opener = t;
    for (;;) {
      const holeStart = this.prevEnd;
      let expr: A.Expr | undefined;
      const close = this.tok;
      if (close.kind === TokenKind.StringMiddle || close.kind === TokenKind.StringTail) {
        this.report(holeStart - 2, close.start + 1, 'Empty interpolation `${}`');
      } else if (close.kind !== TokenKind.EOF) {
        const mark = this.mark();
        try {
          expr = this.withNewlines(false, () => this.parseExpression());
        } catch (error) {
          if (!(error instanceof ParseError)) throw error;
          this.recover(error, mark);
        }
        // Skip anything left in the hole up to its closing part.
        const endsHole = (): boolean =>
          this.tok.kind === TokenKind.StringMiddle ||
          this.tok.kind === TokenKind.StringTail ||
          this.tok.kind === TokenKind.EOF ||
          (this.tok.nlBefore && !opener.terminated);
        if (expr && !endsHole()) this.reportExpected("'}' to close the interpolation");
        while (!endsHole()) this.pos++;
      }
      const part = this.tok;
      // A hole cut short by the end of its line ends at its last token, not at the next line.
      const holeEnd = part.kind === TokenKind.StringMiddle || part.kind === TokenKind.StringTail ? part.start : Math.max(holeStart, this.prevEnd);
      parts.push({ kind: 'Hole', start: holeStart, end: holeEnd, expr });
      if (part.kind === TokenKind.StringMiddle) {
        this.pos++;
        parts.push({ kind: 'Text', start: part.start + 1, end: part.end - 2 });
        opener = part;
        continue;
      }
      if (part.kind === TokenKind.StringTail) {
        this.pos++;
        const tailEnd = part.terminated ? part.end - quote : part.end;
        parts.push({ kind: 'Text', start: part.start + 1, end: Math.max(part.start + 1, tailEnd) });
        end = part.end;
      } else {
        end = this.prevEnd;
      }
      break;
    }
    return { kind: 'String', raw: false, triple: !!t.triple, parts, value: undefined, start: t.start, end };
  }

  // ------------------------------------------------------------------------------------------- types

  parseType(): A.TypeExpr {
    this.enter();
    const type = this.parseUnionType();
    this.depth--;
    return type;
  }

  private parseUnionType(): A.TypeExpr {
    const start = this.tok.start;
    this.eat('|');
    const first = this.parseIntersectionType();
    if (!this.at('|')) return first;
    const members = [first];
    while (this.eat('|')) members.push(this.parseIntersectionType());
    return { kind: 'UnionType', members, start, end: this.prevEnd };
  }

  private parseIntersectionType(): A.TypeExpr {
    const first = this.parsePostfixType();
    if (!this.at('&')) return first;
    const members = [first];
    while (this.eat('&')) members.push(this.parsePostfixType());
    return { kind: 'IntersectionType', members, start: first.start, end: this.prevEnd };
  }

  private parsePostfixType(): A.TypeExpr {
    let type = this.parsePrimaryType();
    while (this.at('?') && !this.newlineHere) {
      this.pos++;
      type = { kind: 'OptionalType', inner: type, start: type.start, end: this.prevEnd };
    }
    return type;
  }

  private parsePrimaryType(): A.TypeExpr {
    const t = this.tok;
    switch (t.kind) {
      case TokenKind.Identifier: {
        this.pos++;
        const name = this.nameFrom(t);
        const args: A.TypeExpr[] = [];
        let qualified = name;
        // `module.Type` qualified names.
        while (this.at('.') && this.peek().kind === TokenKind.Identifier) {
          this.pos++;
          const part = this.next();
          qualified = { kind: 'Name', text: `${qualified.text}.${part.value}`, start: name.start, end: part.end };
        }
        if (this.at('<') && !this.tok.nlBefore) {
          this.pos++;
          this.newlineStack.push(false);
          try {
            while (!this.at('>')) {
              args.push(this.parseType());
              if (!this.eat(',')) break;
            }
            this.expect('>', "'>' to close the type arguments");
          } finally {
            this.newlineStack.pop();
          }
        }
        return this.noted({ kind: 'NamedType', name: qualified, args, start: t.start, end: this.prevEnd });
      }
      case TokenKind.Keyword:
        if (t.value === 'nil' || t.value === 'true' || t.value === 'false') {
          this.pos++;
          return { kind: 'LiteralType', text: t.value, start: t.start, end: t.end };
        }
        if (t.value === 'fn') return this.parseFnType();
        break;
      case TokenKind.String:
      case TokenKind.RawString:
      case TokenKind.Int:
      case TokenKind.Float:
        this.pos++;
        return { kind: 'LiteralType', text: this.source.slice(t.start, t.end), start: t.start, end: t.end };
      case TokenKind.Punct:
        if (t.value === '-' && (this.peek().kind === TokenKind.Int || this.peek().kind === TokenKind.Float)) {
          this.pos += 2;
          return { kind: 'LiteralType', text: this.source.slice(t.start, this.prevEnd), start: t.start, end: this.prevEnd };
        }
        if (t.value === '[') {
          this.pos++;
          const element = this.withNewlines(false, () => this.parseType());
          this.expect(']', "']' to close the list type");
          return { kind: 'ListType', element, start: t.start, end: this.prevEnd };
        }
        if (t.value === '{') return this.parseShapeType();
        if (t.value === '(') {
          this.pos++;
          const inner = this.withNewlines(false, () => this.parseType());
          this.expect(')', "')' to close the parenthesised type");
          return { ...inner, start: t.start, end: this.prevEnd };
        }
        break;
    }
    return this.fail('type');
  }

  private parseFnType(): A.FnType {
    const start = this.expect('fn').start;
    this.expect('(', "'(' in the function type");
    const params: A.TypeExpr[] = [];
    this.newlineStack.push(false);
    try {
      while (!this.at(')')) {
        if (this.atEOF()) this.fail("')' to close the function type");
        // Parameter names are allowed in function types: `fn(x: int) -> int`.
        if (this.tok.kind === TokenKind.Identifier && this.is(this.peek(), ':')) this.pos += 2;
        params.push(this.parseType());
        this.eat(',');
      }
      this.pos++;
    } finally {
      this.newlineStack.pop();
    }
    let result: A.TypeExpr | undefined;
    if (this.eat('->')) result = this.parseType();
    return { kind: 'FnType', params, result, start, end: this.prevEnd };
  }

  private parseShapeType(): A.ShapeType {
    const open = this.expect('{');
    const fields: A.ShapeField[] = [];
    let rest: A.TypeExpr | undefined;
    this.newlineStack.push(false);
    try {
      while (!this.at('}')) {
        if (this.atEOF()) this.fail("'}' to close the shape type");
        if (this.eat('...')) {
          rest = this.parseType();
          this.eat(',');
          continue;
        }
        const start = this.tok.start;
        let name: A.Name;
        if (this.tok.kind === TokenKind.String) {
          const s = this.next();
          name = { kind: 'Name', text: this.source.slice(s.start + 1, s.end - 1), start: s.start, end: s.end };
        } else {
          name = this.expectMemberName('field name');
        }
        const optional = this.eat('?');
        let type: A.TypeExpr | undefined;
        if (this.eat(':')) type = this.parseType();
        fields.push({ kind: 'ShapeField', name, optional, type, start, end: this.prevEnd });
        this.eat(',');
      }
      this.pos++;
    } finally {
      this.newlineStack.pop();
    }
    return { kind: 'ShapeType', fields, rest, start: open.start, end: this.prevEnd };
  }
}

function countHashes(source: string, from: number): number {
  let n = 0;
  while (source.charCodeAt(from + n) === 35) n++;
  return n;
}

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['0', '\0'],
  ['\\', '\\'],
  ['"', '"'],
  ['$', '$'],
]);

/** A plain `"…"` or `"""…"""` literal's value, from the text between its quotes. */
function stringValue(text: string, triple: boolean): string {
  return triple ? dedentTriple(text).replace(/\\\$\{/g, '${') : unescape(text);
}

/** Decodes `"…"` escapes; an unknown `\x` stays as written (spec §1.1). */
export function unescape(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(.)/g, (whole, c: string) => ESCAPES.get(c) ?? whole);
}

/** `"""…"""`: the leading newline is dropped and the common indentation stripped. */
export function dedentTriple(text: string): string {
  let body = text.replace(/\r\n/g, '\n');
  if (body.startsWith('\n')) body = body.slice(1);
  const lines = body.split('\n');
  let indent = Infinity;
  for (const line of lines) {
    if (line.trim() === '') continue;
    indent = Math.min(indent, line.length - line.trimStart().length);
  }
  if (!Number.isFinite(indent) || indent === 0) return body;
  return lines.map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length))).join('\n');
}

function cleanDocBlock(text: string): string {
  const inner = text.replace(/^\/\*\*/, '').replace(/\*\/$/, '');
  const [firstLine = '', ...others] = inner.split(/\r?\n/).map((line) => line.trimEnd());
  const rest = others.filter((line) => line.trim() !== '');
  let body: string[];
  if (rest.length > 0 && rest.every((line) => /^\s*\*/.test(line))) {
    // The usual ` * ` margin.
    body = others.map((line) => line.replace(/^\s*\* ?/, ''));
  } else {
    // No stars: strip the common indentation, keeping relative indentation (code samples).
    // A loop, not Math.min(...): a comment can have a million lines.
    let indent = Infinity;
    for (const line of rest) indent = Math.min(indent, line.length - line.trimStart().length);
    body = others.map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)));
  }
  // Text on the `/**` line itself (`/** One line. */`) has no margin to keep.
  const lines = [firstLine.trimStart(), ...body];
  while (lines[0]?.trim() === '') lines.shift();
  while (lines[lines.length - 1]?.trim() === '') lines.pop();
  return lines.join('\n');
}
