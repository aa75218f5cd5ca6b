// Maps UTF-16 offsets to LSP positions and back. Line breaks are \n, \r\n and a lone \r, as in the LSP
// specification and VS Code; a position's character never counts the break itself.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Line starts, never changed once made: an Int32Array as this file makes them, or the formatter's own list. */
type LineStarts = ArrayLike<number>;

export class LineIndex {
  /** Offset of the first character of each line; found when first read (an index of a file never shown needs none). */
  private starts: LineStarts | undefined;

  constructor(
    readonly text: string,
    lineStarts?: LineStarts,
  ) {
    this.starts = lineStarts;
  }

  get lineStarts(): LineStarts {
    return (this.starts ??= lineStartsOf(this.text));
  }

  /**
   * The index of `text`, which is `previous.text` with [from, oldTo) replaced by text's [from, newTo): the line
   * starts before the edit are kept, those after it shifted, only the edited stretch is scanned again.
   */
  static edited(previous: LineIndex, text: string, from: number, oldTo: number, newTo: number): LineIndex {
    const old = previous.lineStarts;
    const delta = newTo - oldTo;
    // A start at `from` or later may move (a lone \r at from - 1 followed by an inserted \n): kept are those before.
    let kept = 1;
    while (kept < old.length && (old[kept] as number) < from) kept++;
    // Rescanned from the character before the edit (a \r\n pair it may complete) through the first one after it.
    const rescanned = RESCANNED;
    rescanned.length = 0;
    pushLineStarts(text, Math.max(0, from - 1), Math.min(text.length, newTo + 1), rescanned);
    const lastRescanned = rescanned.length > 0 ? (rescanned[rescanned.length - 1] as number) : (old[kept - 1] as number);
    // The old starts whose break ends after the edit (at oldTo + 1 or later) are unchanged but for the shift: from
    // the first of them on (they are sorted, and so is the condition).
    let moved = kept;
    while (moved < old.length && !((old[moved] as number) >= oldTo + 2 && (old[moved] as number) + delta > lastRescanned)) moved++;
    // A typed array: the line starts of a long document, made at every keystroke, are no work for the collector.
    const starts = new Int32Array(kept + rescanned.length + old.length - moved);
    let at = 0;
    for (let i = 0; i < kept; i++) starts[at++] = old[i] as number;
    for (let i = 0; i < rescanned.length; i++) starts[at++] = rescanned[i] as number;
    for (let i = moved; i < old.length; i++) starts[at++] = (old[i] as number) + delta;
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The 0-based line holding `offset`. */
  lineAt(offset: number): number {
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      // mid is in [1, length - 1]; the fallback is never read.
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineAt(clamped);
    // An offset inside a \r\n pair maps to the end of the line's content.
    const character = Math.min(clamped, this.lineContentEnd(line)) - (this.lineStarts[line] ?? 0);
    return { line, character };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line] ?? 0;
    return Math.min(start + Math.max(0, position.character), this.lineContentEnd(position.line));
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  /** Offset just past the line's last character, before its line break. */
  lineContentEnd(line: number): number {
    const next = this.lineStarts[line + 1];
    if (next === undefined) return this.text.length;
    if (this.text.charCodeAt(next - 1) === 10 && this.text.charCodeAt(next - 2) === 13 && next - 2 >= (this.lineStarts[line] ?? 0)) {
      return next - 2;
    }
    return next - 1;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line], this.lineContentEnd(line));
  }
}

/** The stretch LineIndex.edited reads again (one edit at a time). */
const RESCANNED: number[] = [];

function lineStartsOf(text: string): Int32Array {
  const starts = [0];
  pushLineStarts(text, 0, text.length, starts);
  return Int32Array.from(starts);
}

/** Pushes the start of every line whose break begins in text[from, to) (a \r\n pair counts once). */
function pushLineStarts(text: string, from: number, to: number, starts: number[]): void {
  // A short stretch (an edit's) is read character by character: looking for a \r could read the rest of the text.
  const long = to - from >= 256;
  const cr = long ? text.indexOf('\r', from) : -1;
  if (long && (cr === -1 || cr >= to)) {
    // No \r: the breaks found by indexOf, much faster than reading every character (a workspace is read whole).
    for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return;
  }
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
}
