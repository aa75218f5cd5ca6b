// Where a string literal's content lies between its delimiters: `"…"`, `"""…"""`, `r"…"`, `r#"…"#`.

import { StringLit } from './ast';

export interface StringContent {
  start: number;
  /** The end of the content: before the closing delimiter, or the literal's end while it is unterminated. */
  end: number;
  closed: boolean;
}

export function stringContent(text: string, literal: Pick<StringLit, 'start' | 'end' | 'raw' | 'triple'>): StringContent {
  const { start, end, raw, triple } = literal;
  const opening = raw ? (/^r#*"/.exec(text.slice(start, end))?.[0] ?? 'r"') : triple ? '"""' : '"';
  const closing = raw ? '"' + '#'.repeat(opening.length - 2) : opening;
  const contentStart = Math.min(end, start + opening.length);
  const closed = end - contentStart >= closing.length && text.slice(end - closing.length, end) === closing;
  return { start: contentStart, end: Math.max(contentStart, closed ? end - closing.length : end), closed };
}
