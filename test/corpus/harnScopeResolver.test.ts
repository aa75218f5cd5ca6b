// The scope resolver of semantic tokens and the workspace index (harn/scopeResolver.ts) on every file of the shared
// corpus, whole and cut in half (a broken file: unclosed blocks, a declaration read partly): resolve equals
// scope.ts's resolveName on every name, at its start and its end; resolveNameAt equals the rule it states; with the
// root's bindings grouped by the caller (as semantic tokens do) and, on a file parsed without a diagnostic, keeping the
// last lookup's chain (as the workspace index does). Also pins what its binary search relies on: the children of
// every scope are in source order and overlap at most at an end.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import { resolveName } from '../../server/src/harn/scope';
import { bindingsByName, ScopeResolver } from '../../server/src/harn/scopeResolver';
import { TokenKind } from '../../server/src/harn/tokens';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { resolveNameStartingAt, unorderedChildren } from '../support/scopeRules';

interface Named {
  name: string;
  start: number;
  end: number;
}

/** Every name of the file, in source order: the lexer's identifiers and the tree's (the holes of `${}` included). */
function namesOf(analysis: HarnAnalysis): Named[] {
  const byStart = new Map<number, Named>();
  for (const t of analysis.parsed.tokens) if (t.kind === TokenKind.Identifier) byStart.set(t.start, { name: t.value, start: t.start, end: t.end });
  A.walk(analysis.file, (node) => {
    if (node.kind === 'Identifier') byStart.set(node.start, { name: node.name, start: node.start, end: node.end });
    else if (node.kind === 'Name') byStart.set(node.start, { name: node.text, start: node.start, end: node.end });
  });
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

describe('harn scope resolver on the corpus', { skip: corpusSkip }, () => {
  test('resolve is resolveName, resolveNameAt its rule, on every name; with the root grouped, and keeping the chain', () => {
    let names = 0;
    let kept = 0;
    for (const relative of corpusFiles()) {
      const text = readCorpus(relative);
      for (const [label, source] of [
        [relative, text],
        [`${relative} (first half)`, text.slice(0, text.length >> 1)],
      ] as const) {
        const analysis = new HarnAnalysis(source);
        const scopes = analysis.scopes;
        const unordered = unorderedChildren(scopes);
        if (unordered) assert.fail(`${label}: ${unordered}`);
        const resolver = new ScopeResolver(scopes);
        const shared = new ScopeResolver(scopes, { rootByName: bindingsByName(scopes.root.bindings) });
        const named = namesOf(analysis);
        for (const { name, start, end } of named) {
          names++;
          const startingHere = resolveNameStartingAt(scopes, name, start);
          if (resolver.resolve(name, start) !== resolveName(scopes, name, start)) assert.fail(`${label}: ${name} at ${start}`);
          if (resolver.resolve(name, end) !== resolveName(scopes, name, end)) assert.fail(`${label}: ${name} at its end ${end}`);
          if (resolver.resolveNameAt(name, start) !== startingHere) assert.fail(`${label}: ${name} starting at ${start}`);
          if (shared.resolveNameAt(name, start) !== startingHere) assert.fail(`${label}: ${name} starting at ${start}, the root grouped`);
        }
        if (!analysis.parsed.names) continue;
        // Names in source order, then from the last to the first (every lookup leaves scopes the next does not hold),
        // each through both lookups.
        const keeping = new ScopeResolver(scopes, { keepsChain: true });
        for (const { name, start } of [...named, ...[...named].reverse()]) {
          kept++;
          if (keeping.resolve(name, start) !== resolveName(scopes, name, start)) assert.fail(`${label}: ${name} at ${start}, keeping the chain`);
          if (keeping.resolveNameAt(name, start) !== resolveNameStartingAt(scopes, name, start))
            assert.fail(`${label}: ${name} starting at ${start}, keeping the chain`);
        }
      }
    }
    assert.ok(names > 10_000, `names looked up: ${names}`);
    assert.ok(kept > 10_000, `names looked up keeping the chain: ${kept}`);
  });
});
