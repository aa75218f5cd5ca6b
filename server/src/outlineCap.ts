// The one cap on outline symbols per document, for every provider (the `.harn` outline, the artifacts
// outline): like VS Code's own JSON language server, an outline lists at most MAX_OUTLINE_SYMBOLS symbols —
// the first ones in document order, a parent before its children — and ends with one more, a top-level
// symbol named "… N more symbols not shown", placed at the first symbol left out. Pure.

export const MAX_OUTLINE_SYMBOLS = 5000;

/** The name of the symbol ending a capped outline, e.g. "… 12,345 more symbols not shown". */
export function omittedSymbolsName(omitted: number): string {
  return `… ${omitted.toLocaleString('en-US')} more ${omitted === 1 ? 'symbol' : 'symbols'} not shown`;
}

/** Its detail. */
export function omittedSymbolsDetail(max = MAX_OUTLINE_SYMBOLS): string {
  return `the outline lists the first ${max.toLocaleString('en-US')}`;
}

/**
 * How many more symbols an outline may hold, and past that, how many were left out and where the first was
 * (a position in whatever unit the outline uses: an offset, a line).
 */
export class SymbolBudget {
  omitted = 0;
  firstOmitted: number | undefined;
  private left: number;

  constructor(readonly max = MAX_OUTLINE_SYMBOLS) {
    this.left = max;
  }

  /** Whether one more symbol (starting at `at`) is kept; if not, it is counted as left out. */
  take(at: number): boolean {
    if (this.left > 0) {
      this.left--;
      return true;
    }
    this.omitted++;
    this.firstOmitted ??= at;
    return false;
  }
}
