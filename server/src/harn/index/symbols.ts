// Workspace symbols: the declarations of every indexed file whose name matches a query fuzzily, ranked as VS Code
// ranks its own quick-open matches: an exact name first, then a prefix, then a match on the name's humps
// (camelCase capitals, snake_case segments), then a contiguous substring, then any subsequence; shorter names first.

import { Range } from '../../text/lineIndex';
import { FileIndex, IndexedSymbol } from './fileIndex';
import { WorkspaceIndex } from './workspaceIndex';

export interface SymbolMatch {
  file: string;
  symbol: IndexedSymbol;
  /** The symbol's name in its file. */
  range: Range;
  score: number;
}

/** At most this many symbols are returned (the editor shows a list, not the whole workspace). */
export const MAX_WORKSPACE_SYMBOLS = 500;

export function workspaceSymbols(
  index: WorkspaceIndex,
  query: string,
  shouldStop: () => boolean = () => false,
  max = MAX_WORKSPACE_SYMBOLS,
): SymbolMatch[] | undefined {
  const matches: { fileIndex: FileIndex; symbol: IndexedSymbol; score: number }[] = [];
  for (const fileIndex of index.allFiles()) {
    if (shouldStop()) return undefined;
    for (const symbol of fileIndex.symbols) {
      const score = fuzzyScore(query, symbol.name);
      if (score !== undefined) matches.push({ fileIndex, symbol, score });
    }
  }
  const byName = (a: (typeof matches)[number], b: (typeof matches)[number]): number =>
    b.score - a.score || a.symbol.name.length - b.symbol.name.length || compare(a.symbol.name, b.symbol.name) || compare(a.fileIndex.file, b.fileIndex.file);
  return matches
    .sort(byName)
    .slice(0, max)
    .map(({ fileIndex, symbol, score }) => ({
      file: fileIndex.file,
      symbol,
      range: fileIndex.lineIndex.rangeOf(symbol.selectionStart, symbol.selectionEnd),
      score,
    }));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Higher is better; undefined when `query`'s characters do not all appear in `name`, in order (case-insensitive). */
export function fuzzyScore(query: string, name: string): number | undefined {
  const q = query.replace(/\s+/g, '').toLowerCase();
  if (q.length === 0) return 0;
  const lower = name.toLowerCase();
  if (lower === q) return name === query ? 1000 : 900;
  if (lower.startsWith(q)) return name.startsWith(query) ? 800 : 750;
  if (matchesHumps(q, name)) return 600;
  if (lower.includes(q)) return 400;
  let from = 0;
  for (const ch of q) {
    const at = lower.indexOf(ch, from);
    if (at < 0) return undefined;
    from = at + 1;
  }
  return 200;
}

/** The starts of the name's humps: its first character, a capital after a lower-case letter or digit, a character after `_`. */
function humpStarts(name: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const ch = name.charAt(i);
    const prev = i > 0 ? name.charAt(i - 1) : '';
    if (ch === '_') continue;
    if (i === 0 || prev === '_' || (/[A-Z]/.test(ch) && /[a-z0-9]/.test(prev)) || (/[0-9]/.test(ch) && !/[0-9]/.test(prev))) starts.push(i);
  }
  return starts;
}

/**
 * Whether the query reads as a run of hump prefixes: `gU` or `gu` matches getUser and get_user, `gus` matches
 * get_user_session (each hump's prefix taken in order, the first hump included).
 */
function matchesHumps(q: string, name: string): boolean {
  const lower = name.toLowerCase();
  const starts = humpStarts(name);
  if (starts[0] !== 0) return false;
  // Dynamic search: at hump h, consume 1..n characters of q that continue the hump's text.
  const memo = new Map<string, boolean>();
  const go = (qi: number, hump: number): boolean => {
    if (qi === q.length) return true;
    if (hump >= starts.length) return false;
    const key = `${qi},${hump}`;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    let result = false;
    const start = starts[hump] ?? 0;
    const end = starts[hump + 1] ?? name.length;
    for (let n = 1; qi + n <= q.length && start + n <= end && !result; n++) {
      if (lower.charAt(start + n - 1) !== q.charAt(qi + n - 1)) break;
      for (let next = hump + 1; next <= starts.length && !result; next++) result = go(qi + n, next);
    }
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}
