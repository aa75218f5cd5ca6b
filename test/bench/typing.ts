// The keystrokes of someone typing Harn in VS Code, for the per-keystroke benchmarks: a new line opened at the end
// of a statement in a function body (Enter, with its indentation), then a statement of the same file typed into it
// character by character as the editor sends them with the language configuration's auto-closing pairs (an
// opener brings its closer; typing that closer steps over it and sends nothing), and now and then a few
// backspaces (one right after an auto-closed opener takes its closer too) and the characters typed again.

import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';

/** One change as the editor sends it: replace [start, end) of the current text by `text`. */
export interface Keystroke {
  start: number;
  end: number;
  text: string;
}

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}', '"': '"' };
/** language-configuration.json's autoCloseBefore: a pair is inserted only before one of these (or the end). */
const AUTO_CLOSE_BEFORE = ';:.,=}])>` \n\t';

/** Whether `typed` (a statement's prefix) ends inside a string literal, following `${…}` holes. */
function insideString(typed: string): boolean {
  const stack: ('string' | 'hole')[] = [];
  for (let i = 0; i < typed.length; i++) {
    const c = typed.charAt(i);
    const top = stack[stack.length - 1];
    if (top === 'string') {
      if (c === '\\') i++;
      else if (c === '"') stack.pop();
      else if (c === '$' && typed.charAt(i + 1) === '{') {
        stack.push('hole');
        i++;
      }
    } else if (c === '"') stack.push('string');
    else if (c === '{') stack.push('hole');
    else if (c === '}' && top === 'hole') stack.pop();
  }
  return stack[stack.length - 1] === 'string';
}

/** Single-line statements inside top-level function bodies: where lines are opened, and what is typed into them. */
function bodyStatements(analysis: HarnAnalysis): A.Stmt[] {
  const found: A.Stmt[] = [];
  for (const top of analysis.file.statements) {
    if (top.kind !== 'FnDecl' && top.kind !== 'PipelineDecl' && top.kind !== 'ToolDecl') continue;
    for (const s of top.body?.statements ?? []) {
      if (s.end > s.start && !analysis.text.slice(s.start, s.end).includes('\n')) found.push(s);
    }
  }
  return found;
}

export class TypingSession {
  /** The keystrokes still to send for the line being typed (computed lazily against the live text). */
  private line: string | undefined;
  private typed = 0;
  private cursor = 0;
  /** Offsets of closers the editor inserted itself (typing them steps over them). */
  private autoClosed = new Set<number>();
  private backspacesLeft = 0;

  constructor(private readonly random: () => number) {}

  /** The next keystroke that changes the text (steps over an auto-inserted closer send nothing and are skipped). */
  next(analysis: HarnAnalysis): Keystroke {
    const text = analysis.text;
    for (;;) {
      if (this.line === undefined || this.typed >= this.line.length) {
        const open = this.openLine(analysis);
        if (open) return open;
        continue;
      }
      if (this.backspacesLeft > 0) {
        this.backspacesLeft--;
        return this.backspace(text);
      }
      if (this.typed > 3 && this.random() < 0.04) {
        // A typo noticed: up to five backspaces, then the characters typed again.
        this.backspacesLeft = 1 + Math.floor(this.random() * Math.min(5, this.typed));
        continue;
      }
      const c = this.line.charAt(this.typed);
      const prefix = this.line.slice(0, this.typed);
      this.typed++;
      if (text.charAt(this.cursor) === c && this.autoClosed.has(this.cursor)) {
        this.autoClosed.delete(this.cursor);
        this.cursor++;
        continue;
      }
      const closer = CLOSER[c];
      const following = text.charAt(this.cursor);
      const pairs = closer !== undefined && (following === '' || AUTO_CLOSE_BEFORE.includes(following)) && !(c === '"' && insideString(prefix));
      const at = this.cursor;
      this.shiftAutoClosed(at, pairs ? 2 : 1);
      this.cursor++;
      if (pairs) {
        this.autoClosed.add(at + 1);
        return { start: at, end: at, text: c + closer };
      }
      return { start: at, end: at, text: c };
    }
  }

  /** Enter at the end of a random body statement's line, with its indentation; picks the statement to type there. */
  private openLine(analysis: HarnAnalysis): Keystroke | undefined {
    const candidates = bodyStatements(analysis);
    const where = candidates[Math.floor(this.random() * candidates.length)];
    const what = candidates[Math.floor(this.random() * candidates.length)];
    if (!where || !what) throw new Error('typing: no single-line statement in a function body');
    const text = analysis.text;
    const lineStart = text.lastIndexOf('\n', where.start - 1) + 1;
    let lineEnd = text.indexOf('\n', where.end);
    if (lineEnd < 0) lineEnd = text.length;
    if (text.charAt(lineEnd - 1) === '\r') lineEnd--;
    const indentation = /^[ \t]*/.exec(text.slice(lineStart, where.start))?.[0] ?? '';
    this.line = text.slice(what.start, what.end);
    this.typed = 0;
    this.autoClosed.clear();
    this.backspacesLeft = 0;
    const inserted = '\n' + indentation;
    this.cursor = lineEnd + inserted.length;
    return { start: lineEnd, end: lineEnd, text: inserted };
  }

  /** One backspace over the last character typed; an auto-closed opener right before its closer goes with it. */
  private backspace(text: string): Keystroke {
    const at = this.cursor - 1;
    const c = text.charAt(at);
    const withCloser = CLOSER[c] !== undefined && this.autoClosed.has(this.cursor) && text.charAt(this.cursor) === CLOSER[c];
    const removed = withCloser ? 2 : 1;
    if (withCloser) this.autoClosed.delete(this.cursor);
    this.shiftAutoClosed(this.cursor, -removed);
    this.cursor = at;
    this.typed = Math.max(0, this.typed - 1);
    return { start: at, end: at + removed, text: '' };
  }

  /** The auto-inserted closers at or after `from` move by `delta`. */
  private shiftAutoClosed(from: number, delta: number): void {
    if (this.autoClosed.size === 0) return;
    const moved = [...this.autoClosed].map((o) => (o >= from ? o + delta : o));
    this.autoClosed = new Set(moved.filter((o) => o >= 0));
  }
}

/** `text` with the keystroke applied. */
export function applyKeystroke(text: string, k: Keystroke): string {
  return text.slice(0, k.start) + k.text + text.slice(k.end);
}
