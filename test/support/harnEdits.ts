// Random edits of `.harn` files for the tests of what is reused from one analysis to the next (the index, the
// outline): mostly inside a top-level statement's body, where typing happens, and generated files to edit.

import fc from 'fast-check';
import { HarnAnalysis } from '../../server/src/harn/analysis';

/** One edit: `remove` characters at a place given as a fraction, `insert` put there. */
export interface Edit {
  /** Inside a top-level statement's body (where typing mostly happens), or anywhere. */
  place: 'body' | 'anywhere';
  fraction: number;
  remove: number;
  insert: string;
}

const PIECES = [...'abz_1 (){}[]".,=\n$/*', 'let v = 1\n', 'helper(v)', 'fn g() {}\n', '"${x}"', '// c\n', 'import "./other"\n', 'LIMIT'];

export const edit: fc.Arbitrary<Edit> = fc.record({
  place: fc.constantFrom<Edit['place']>('body', 'body', 'body', 'anywhere'),
  fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 4 })),
  insert: fc.oneof(fc.constantFrom(...PIECES), fc.constant('')),
});

/** The text `e` makes of the analysis's. */
export function applyEdit(analysis: HarnAnalysis, e: Edit): string {
  const text = analysis.text;
  let at = Math.floor(e.fraction * text.length);
  if (e.place === 'body') {
    const bodies = analysis.file.statements.flatMap((s) => ('body' in s && s.body?.kind === 'Block' && s.body.closed ? [s.body] : []));
    const body = bodies[Math.min(bodies.length - 1, Math.floor(e.fraction * bodies.length))];
    if (body) at = body.start + 1 + Math.floor(((e.fraction * 7919) % 1) * Math.max(0, body.end - body.start - 2));
  }
  return text.slice(0, at) + e.insert + text.slice(Math.min(text.length, at + e.remove));
}

/** Functions, pipelines and tools calling each other, a namespace import, a wildcard import, top-level constants. */
export function generatedFile(seed: number, functions: number): string {
  const parts = ['import { helper } from "./lib"\n', 'import * as ui from "./ui"\n', 'import "./all"\n', 'const LIMIT = 10\n'];
  for (let i = 0; i < functions; i++) {
    const n = (seed + i) % 4;
    const header = n === 2 ? `pipeline p${i}(task)` : n === 3 ? `tool t${i}(a: string) -> string` : `pub fn f${i}(a: int, b: string = "x") -> int`;
    parts.push(`/** Step ${i}. */\n${header} {\n`);
    parts.push(`  let v = a + ${i}\n  var total = 0\n`);
    parts.push(`  if v > LIMIT {\n    log("big \${v} of \${b}")\n  } else {\n    helper(v, ui.forms.field(v), f${(i + 1) % functions}(v, b))\n  }\n`);
    parts.push(`  for item in [1, 2, 3] {\n    total = total + item\n  }\n  let { k, j: m } = {k: v, j: total}\n`);
    parts.push(`  return k + m\n}\n\n`);
  }
  parts.push('struct Point {\n  x: int\n  y: int\n}\n\nimpl Point {\n  fn norm(self) -> int {\n    return self.x + LIMIT\n  }\n}\n');
  return parts.join('');
}
