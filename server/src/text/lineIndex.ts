// Maps UTF-16 offsets to LSP positions and back. Lines end at \n; a \r before it belongs to the line
// break (LSP counts `\r\n` as one break), so it is never part of a position's character count.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export class LineIndex {
  /** Offset of the first character of each line. */
  readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= clamped) low = mid;
      else high = mid - 1;
    }
    let character = clamped - this.lineStarts[low];
    // An offset between \r and \n (or on the \r) maps to the end of the line's content.
    const contentEnd = this.lineContentEnd(low);
    if (clamped > contentEnd) character = contentEnd - this.lineStarts[low];
    return { line: low, character };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line];
    return Math.min(start + Math.max(0, position.character), this.lineContentEnd(position.line));
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  /** Offset just past the line's last character, before its \r\n or \n. */
  lineContentEnd(line: number): number {
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] - 1 : this.text.length;
    if (next > this.lineStarts[line] && this.text.charCodeAt(next - 1) === 13 && line + 1 < this.lineStarts.length) {
      return next - 1;
    }
    return next;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line], this.lineContentEnd(line));
  }
}
