// Inputs shared by the parser's unit tests (what it must produce) and its benchmarks (how fast):
// test/unit/badInput.test.ts, test/unit/parser.test.ts and test/bench/parserEdges.ts.

/** About 1 MB of `let vN = f(N, "sN") + [N, N+1]` statements joined by `; ` on one line: valid Harn and valid TypeScript. */
export function megabyteLine(): string {
  const parts: string[] = [];
  for (let i = 0, length = 0; length < 1 << 20; i++) {
    const part = `let v${i} = f(${i}, "s${i}") + [${i}, ${i + 1}]`;
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('; ');
}

/** `levels` nested `a < b > (` with a stray `]` inside: each level is a generic call that does not close. */
export function nestedGenericCalls(levels: number): string {
  return 'let v = ' + 'a < b > ('.repeat(levels) + 'x ]' + ')'.repeat(levels);
}

/** `lines` lines of `let x = {`, none closed. */
export function unclosedBraces(lines: number): string {
  return 'let x = {\n'.repeat(lines);
}
