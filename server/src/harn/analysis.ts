// One parsed Harn document and what is derived from it, computed once per text and on demand.

import { LineIndex } from '../text/lineIndex';
import { cappedOutline, Outline, OutlineSymbol } from './outline';
import { changedRange, reparseStatement } from './incremental';
import { parse, ParseResult } from './parser';
import { walk } from './ast';
import { buildScopes, FileScopes, NodeVisitor } from './scope';
import { Token, TokenKind } from './tokens';

/** What `HarnAnalysis.edited` re-parsed: the new offsets of the one top-level statement it re-read, or 'full'. */
export type Reparsed = { from: number; to: number } | 'full';

export class HarnAnalysis {
  readonly lineIndex: LineIndex;
  readonly parsed: ParseResult;
  /** 'full' unless `edited` could re-read a single top-level statement (see incremental.ts). */
  readonly reparsed: Reparsed;
  private scopesCache: FileScopes | undefined;
  private outlineCache: Outline | undefined;

  constructor(
    readonly text: string,
    reuse?: { lineIndex: LineIndex; parsed: ParseResult; reparsed: Reparsed },
  ) {
    this.lineIndex = reuse?.lineIndex ?? new LineIndex(text);
    this.parsed = reuse?.parsed ?? parse(text);
    this.reparsed = reuse?.reparsed ?? 'full';
  }

  /**
   * The analysis of `text`, the next version of `previous.text` (any edit). When the edit falls inside one
   * top-level statement and cannot change the structure around it, only that statement is re-lexed and
   * re-parsed: every other top-level statement object is reused (those after it shifted in place), so a
   * statement object seen in two analyses has the same source text in both. Otherwise a full parse.
   * `previous` is consumed: it must not be used afterwards.
   */
  static edited(previous: HarnAnalysis, text: string): HarnAnalysis {
    const change = changedRange(previous.text, text);
    if (change.from === change.oldTo && change.from === change.newTo) return previous;
    const lineIndex = LineIndex.edited(previous.lineIndex, text, change.from, change.oldTo, change.newTo);
    const reparse = reparseStatement(previous, text, lineIndex, change);
    if (!reparse) return new HarnAnalysis(text, { lineIndex, parsed: parse(text), reparsed: 'full' });
    return new HarnAnalysis(text, { lineIndex, parsed: reparse.parsed, reparsed: { from: reparse.from, to: reparse.to } });
  }

  get file() {
    return this.parsed.file;
  }

  get scopes(): FileScopes {
    return (this.scopesCache ??= buildScopes(this.parsed.file));
  }

  /**
   * The scopes, with every node of the tree handed to `visit` once: in the same pass that builds them when they are
   * not built yet (the workspace index reads the whole tree anyway), else in a walk of its own.
   */
  scopesVisiting(visit: NodeVisitor): FileScopes {
    if (this.scopesCache) {
      walk(this.parsed.file, (node) => void visit(node));
      return this.scopesCache;
    }
    return (this.scopesCache = buildScopes(this.parsed.file, visit));
  }

  /** The outline's first MAX_OUTLINE_SYMBOLS symbols (see cappedOutline; `cappedOutline` says how many more). */
  get outline(): OutlineSymbol[] {
    return this.cappedOutline.symbols;
  }

  get cappedOutline(): Outline {
    return (this.outlineCache ??= cappedOutline(this.parsed.file, this.text));
  }

  /** The token covering `offset`, or the one ending right at it (a cursor just after a word). */
  tokenAt(offset: number): Token | undefined {
    const tokens = this.parsed.tokens;
    let low = 0;
    let high = tokens.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const t = tokens[mid];
      if (!t) break;
      if (t.end < offset) low = mid + 1;
      else if (t.start > offset) high = mid - 1;
      else {
        // A cursor between two tokens takes the word: the search may land on either side of it.
        const next = tokens[mid + 1];
        if (t.end === offset && next && next.start === offset && isWord(next)) return next;
        const previous = tokens[mid - 1];
        if (t.start === offset && !isWord(t) && previous && previous.end === offset && isWord(previous)) return previous;
        if (t.kind === TokenKind.EOF) return undefined;
        return t;
      }
    }
    return undefined;
  }
}

export function isWord(t: Token): boolean {
  return t.kind === TokenKind.Identifier || t.kind === TokenKind.Keyword;
}
