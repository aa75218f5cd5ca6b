// Expand Selection for Harn: from the cursor out through the AST nodes around it (name, expression, argument,
// statement, block, declaration, file), each range strictly larger than the one before; inside a comment the
// comment first, inside a string its text before the whole literal. Works on the partial AST of a broken file.

import { HarnAnalysis } from './analysis';
import * as A from './ast';

export interface OffsetRange {
  start: number;
  end: number;
}

/**
 * At most this many steps: the answer is a chain of parents nested as deep as it is long, and an expression chain
 * (`a.b.b.…`) nests as deep as it is long. The innermost ones are kept, then the whole document.
 */
export const MAX_SELECTION_STEPS = 256;

/** The ranges around `offset`, innermost first, each containing the previous one and larger than it. */
export function selectionRangesAt(analysis: HarnAnalysis, offset: number): OffsetRange[] {
  const candidates: OffsetRange[] = [];
  const comment = analysis.parsed.comments.find((c) => c.start <= offset && offset < c.end);
  if (comment) candidates.push(comment);
  const path = A.nodePathAt(analysis.file, offset);
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i];
    if (!node) continue;
    if (node.kind === 'String') {
      const quote = node.triple ? 3 : node.raw ? 0 : 1;
      const inner = { start: node.start + quote, end: node.end - quote };
      if (!node.raw && inner.start <= offset && offset <= inner.end && inner.end > inner.start) candidates.push(inner);
    }
    if (node.kind === 'Block' && node.closed && node.end - node.start > 2) candidates.push(trimmed(analysis.text, node.start + 1, node.end - 1));
    candidates.push({ start: node.start, end: node.end });
  }
  // The whole document last (the file node stops at its last token).
  candidates.push({ start: 0, end: analysis.text.length });
  const out: OffsetRange[] = [];
  for (const range of candidates) {
    const last = out.at(-1);
    if (range.end < range.start) continue;
    if (!last) {
      if (range.start <= offset && offset <= range.end) out.push(range);
      continue;
    }
    // Strictly growing: a node no larger than what is selected already adds no step.
    if (range.start <= last.start && range.end >= last.end && (range.start < last.start || range.end > last.end)) out.push(range);
  }
  if (out.length <= MAX_SELECTION_STEPS) return out;
  const whole = out[out.length - 1];
  return whole ? [...out.slice(0, MAX_SELECTION_STEPS - 1), whole] : out;
}

/** `from`–`to` without the whitespace at either end (a block's contents, between its braces). */
function trimmed(text: string, from: number, to: number): OffsetRange {
  let start = from;
  let end = to;
  while (start < end && /\s/.test(text.charAt(start))) start++;
  while (end > start && /\s/.test(text.charAt(end - 1))) end--;
  return { start, end };
}
