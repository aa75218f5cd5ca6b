// Seeded mutation fuzzing for the lexer and parser, shared by test/unit/fuzz.test.ts (a few thousand
// cases) and test/fuzz/long.ts (a long run). Everything is derived from one integer seed per case, so a
// failure is reproduced by its seed alone.

import { Worker } from 'node:worker_threads';
import { AnyNode, forEachChild } from '../../server/src/harn/ast';
import { parse } from '../../server/src/harn/parser';
import { defined } from './assertions';

export { prng } from './random';
import { prng } from './random';

/** Fragments worth inserting: brackets, quotes, string and comment delimiters, keywords, odd characters. */
export const FRAGMENTS: readonly string[] = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  '"',
  '"""',
  'r"',
  'r#"',
  '"#',
  '${',
  '$',
  '/*',
  '*/',
  '/**',
  '//',
  '///',
  '\\\n',
  '\\',
  '\n',
  '\r\n',
  '\r',
  ';',
  ';;',
  ',',
  ':',
  '::',
  '?',
  '?.',
  '?[',
  '?.[',
  '->',
  '|>',
  '<',
  '>',
  '<<EOF',
  '...',
  '..',
  '.',
  '@',
  '@attr ',
  '#',
  '#!',
  '`',
  '\0',
  '\t',
  '\uFEFF',
  '\uD83D',
  '\uDE00',
  '😀',
  '中文',
  'é',
  '**',
  '&',
  '&&',
  '|',
  '||',
  '=',
  '==',
  '!',
  '-',
  '+',
  '%',
  '??',
  'x',
  '_',
  'Foo',
  'Foo {',
  '1',
  '42',
  '1.5',
  '5s',
  '5min',
  '9223372036854775808',
  'let ',
  'var ',
  'const ',
  'fn ',
  'gen fn ',
  'pub ',
  'if ',
  'else ',
  'for ',
  ' in ',
  'while ',
  'match ',
  'retry ',
  'parallel ',
  'each ',
  'settle ',
  'with ',
  'as stream',
  'select ',
  'timeout ',
  'default ',
  'return ',
  'throw ',
  'yield ',
  'emit ',
  'try ',
  'try* ',
  'catch ',
  'finally ',
  'guard ',
  'require ',
  'deadline ',
  'mutex ',
  'defer ',
  'spawn ',
  'block ',
  'scope ',
  'cost_route ',
  'pipeline ',
  'tool ',
  'skill ',
  'eval_pack ',
  'struct ',
  'enum ',
  'type ',
  'interface ',
  'impl ',
  'override ',
  'import ',
  'from ',
  'extends ',
  'where ',
  'throws ',
  ' is ',
  'implies ',
  ' to ',
  'exclusive',
  'not in ',
  'true',
  'nil',
  'ask_user',
  'request_approval',
  'description ',
  'summarize ',
  'break',
  'continue',
  'a < b > (',
  'f<T>(',
  '<T>',
  ' ? ',
  ' : ',
  '{ x -> ',
  'Foo { a: ',
];

export interface FuzzCase {
  seed: number;
  source: string;
  text: string;
  /** What was done, for the failure report. */
  operations: string[];
}

/** Applies 1–4 random edits (deletions, duplications, insertions of `fragments`, truncations, swaps) to `original`. */
export function mutate(original: string, rng: () => number, fragments: readonly string[] = FRAGMENTS): { text: string; operations: string[] } {
  const int = (n: number): number => Math.floor(rng() * n);
  let text = original;
  const operations: string[] = [];
  const count = 1 + int(4);
  for (let k = 0; k < count; k++) {
    const at = int(text.length + 1);
    const span = 1 + int(rng() < 0.8 ? 8 : 400);
    switch (int(8)) {
      case 0:
        text = text.slice(0, at) + text.slice(at + span);
        operations.push(`delete ${span} at ${at}`);
        break;
      case 1:
        text = text.slice(0, at) + text.slice(at, at + span) + text.slice(at);
        operations.push(`duplicate ${span} at ${at}`);
        break;
      case 2:
      case 3: {
        const fragment = fragments[int(fragments.length)];
        text = text.slice(0, at) + fragment + text.slice(at);
        operations.push(`insert ${JSON.stringify(fragment)} at ${at}`);
        break;
      }
      case 4:
        text = text.slice(0, at);
        operations.push(`truncate at ${at}`);
        break;
      case 5:
        if (text.length > 1) {
          const a = int(text.length);
          const b = int(text.length);
          const [i, j] = a < b ? [a, b] : [b, a];
          text = text.slice(0, i) + text[j] + text.slice(i + 1, j) + text[i] + text.slice(j + 1);
          operations.push(`swap ${i} and ${j}`);
        }
        break;
      case 6: {
        // Any UTF-16 code unit, lone surrogates and control characters included.
        const ch = String.fromCharCode(int(rng() < 0.5 ? 128 : 0x10000));
        text = text.slice(0, at) + ch + text.slice(at);
        operations.push(`insert U+${ch.charCodeAt(0).toString(16)} at ${at}`);
        break;
      }
      default: {
        // Move a random line elsewhere: breaks nesting the way careless edits do.
        const lines = text.split('\n');
        const from = int(lines.length);
        const line = defined(lines.splice(from, 1)[0], `line ${from}`);
        const to = int(lines.length + 1);
        lines.splice(to, 0, line);
        text = lines.join('\n');
        operations.push(`move line ${from} to ${to}`);
      }
    }
  }
  return { text, operations };
}

/** The case for `seed`: a mutation of one of `sources` (name → text). */
export function fuzzCase(seed: number, sources: ReadonlyArray<readonly [string, string]>): FuzzCase {
  const rng = prng(seed);
  const [source, original] = defined(sources[Math.floor(rng() * sources.length)], 'a source');
  const { text, operations } = mutate(original, rng);
  return { seed, source, text, operations };
}

/** Longest a single parse of a corpus-sized input (≤ ~100 KB, normally < 50 ms) may take before it counts as a hang. */
export const SLOW_PARSE_MS = 2000;

/**
 * Parses `text` and returns every broken invariant: no throw; diagnostics, tokens and AST nodes inside
 * [0, text.length] with start <= end; each child node inside its parent; statements of a block in order
 * without overlap; string parts inside their string.
 */
export function checkParse(text: string, slowMs = SLOW_PARSE_MS): string[] {
  const problems: string[] = [];
  const length = text.length;
  let result: ReturnType<typeof parse>;
  const began = Date.now();
  try {
    result = parse(text);
  } catch (error) {
    return [`parse threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`];
  }
  const elapsed = Date.now() - began;
  if (elapsed > slowMs) problems.push(`parse took ${elapsed} ms`);
  const inRange = (start: number, end: number): boolean => Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= length;

  for (const d of result.diagnostics) {
    if (!inRange(d.start, d.end)) problems.push(`diagnostic out of range: ${d.start}-${d.end} ${d.message}`);
    if (!d.message) problems.push(`diagnostic without a message at ${d.start}`);
  }
  let previousEnd = 0;
  for (const t of result.tokens) {
    if (!inRange(t.start, t.end)) problems.push(`token out of range: ${t.start}-${t.end}`);
    else if (t.start < previousEnd) problems.push(`token at ${t.start} overlaps the previous one (ends ${previousEnd})`);
    previousEnd = Math.max(previousEnd, t.end);
  }

  // Iterative walk: long operator chains make the tree deeper than the call stack allows.
  const stack: Array<{ node: AnyNode; parent: AnyNode | undefined }> = [{ node: result.file, parent: undefined }];
  let visited = 0;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, parent } = top;
    if (++visited > 10 * length + 1000) {
      problems.push('AST walk does not end (a cycle?)');
      break;
    }
    if (problems.length > 20) break;
    if (!inRange(node.start, node.end)) {
      problems.push(`${node.kind} out of range: ${node.start}-${node.end}`);
    } else if (parent && (node.start < parent.start || node.end > parent.end)) {
      problems.push(`${node.kind} ${node.start}-${node.end} is not inside its parent ${parent.kind} ${parent.start}-${parent.end}`);
    }
    if (node.kind === 'SourceFile' || node.kind === 'Block') {
      // Statements follow each other: outline, folding and recovery rely on it.
      let end = node.start;
      for (const stmt of node.statements) {
        if (stmt.start < end) problems.push(`${stmt.kind} at ${stmt.start} starts before the previous statement ends (${end})`);
        end = Math.max(end, stmt.end);
      }
    }
    if (node.kind === 'String') {
      for (const part of node.parts) {
        if (!inRange(part.start, part.end) || part.start < node.start || part.end > node.end) {
          problems.push(`String part ${part.kind} ${part.start}-${part.end} is not inside its String ${node.start}-${node.end}`);
        }
      }
    }
    forEachChild(node, (child) => stack.push({ node: child, parent: node }));
  }
  return problems;
}

/**
 * A watchdog thread for synchronous loops: if `beat` is not called again within `limitMs`, it prints
 * `describe()`'s last value and kills this process (the blocked main thread cannot do it itself).
 */
export function startWatchdog(limitMs: number): { beat: (label: string) => void; stop: () => void } {
  const shared = new SharedArrayBuffer(8 + 4096);
  const clock = new Float64Array(shared, 0, 1);
  const label = new Uint8Array(shared, 8);
  const code = `
    const { workerData } = require('node:worker_threads');
    const { writeSync } = require('node:fs');
    const clock = new Float64Array(workerData.shared, 0, 1);
    const label = new Uint8Array(workerData.shared, 8);
    setInterval(() => {
      if (clock[0] > 0 && Date.now() - clock[0] > workerData.limitMs) {
        const end = label.indexOf(0);
        const text = Buffer.from(label.slice(0, end < 0 ? label.length : end)).toString('utf8');
        writeSync(2, '\\nFUZZ HANG: no progress for ' + workerData.limitMs + ' ms in ' + text + '\\n');
        process.kill(workerData.pid, 'SIGKILL');
      }
    }, 250);
  `;
  const worker = new Worker(code, { eval: true, workerData: { shared, limitMs, pid: process.pid } });
  worker.unref();
  const encoder = new TextEncoder();
  return {
    beat(text: string): void {
      label.fill(0);
      encoder.encodeInto(text.slice(0, 1000), label.subarray(0, 4095));
      clock[0] = Date.now();
    },
    stop(): void {
      clock[0] = 0;
      void worker.terminate();
    },
  };
}
