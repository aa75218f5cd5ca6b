// Expression chains (issue 9): each link is one more left-nested AST node, so the tree nests as deep as the chain
// is long although the code nests nothing; and a conditional ladder, which does nest (right-nested `… : …`).
// Generated, never committed as files.

export const CHAINS: Record<string, string> = {
  plus: 'let x = 1' + ' + 1'.repeat(2500),
  member: 'let x = a' + '.b'.repeat(5000),
  call: 'let x = f' + '()'.repeat(5000),
  index: 'let x = a' + '[0]'.repeat(5000),
  optionalMember: 'let x = a' + '?.b'.repeat(5000),
  pipe: 'let x = a' + ' |> f'.repeat(5000),
  coalesce: 'let x = a' + ' ?? a'.repeat(5000),
  comparison: 'let x = a' + ' < b'.repeat(5000),
  notIn: 'let x = a' + ' not in b'.repeat(5000),
  holes: 'let x = ' + '"${a}" + '.repeat(5000) + '"e"',
  elseIf: 'fn g() { if a { 1 }' + ' else if b { 2 }'.repeat(5000) + ' }',
};
export const CONDITIONAL = 'let x = ' + 'a ? b : '.repeat(10_000) + 'c';
