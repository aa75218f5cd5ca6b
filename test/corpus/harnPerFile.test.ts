// The per-file .harn features on every file of the shared corpus (the name lookup: harnScopeResolver.test.ts): the
// semantic tokens are sorted, disjoint, inside their line and cover a name each; every Expand Selection chain grows
// strictly; signature help answers after every `(` and `,` without throwing, and for each call of a function
// declared in the same file names that function.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import { resolveName } from '../../server/src/harn/scope';
import { selectionRangesAt } from '../../server/src/harn/selectionRanges';
import { encodeTokens, semanticTokens } from '../../server/src/harn/semanticTokens';
import { signatureHelpAt } from '../../server/src/harn/signatureHelp';
import { TokenKind } from '../../server/src/harn/tokens';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';

const NO_IMPORTS = { resolveImport: () => undefined, load: () => undefined };

describe('per-file .harn features on the corpus', { skip: corpusSkip }, () => {
  const files = corpusFiles();

  test('semantic tokens are sorted, disjoint, on one line each and cover a name', () => {
    for (const file of files) {
      const text = readCorpus(file);
      const analysis = new HarnAnalysis(text);
      const tokens = semanticTokens(analysis, `/corpus/${file}`, NO_IMPORTS);
      let end = 0;
      for (const t of tokens) {
        assert.ok(t.start >= end && t.end > t.start, `${file}: token at ${t.start} overlaps the one before`);
        assert.match(text.slice(t.start, t.end), /^[\p{L}_][\p{L}\p{N}_]*$/u, `${file}: a name at ${t.start}`);
        end = t.end;
      }
      assert.equal(encodeTokens(tokens, analysis.lineIndex).length, tokens.length * 5, `${file}: every token encoded`);
    }
  });

  test('Expand Selection grows strictly at every name; signature help after every ( and , ', () => {
    let named = 0;
    for (const file of files) {
      const text = readCorpus(file);
      const analysis = new HarnAnalysis(text);
      const calls = new Map<number, string>();
      A.walk(analysis.file, (node) => {
        if (node.kind === 'Call' && node.callee.kind === 'Identifier') {
          const binding = resolveName(analysis.scopes, node.callee.name, node.callee.start);
          if (binding?.declaration.kind === 'FnDecl') calls.set(node.callee.end, node.callee.name);
        }
      });
      for (const token of analysis.parsed.tokens) {
        if (token.kind === TokenKind.Identifier) {
          const ranges = selectionRangesAt(analysis, token.start);
          for (let i = 1; i < ranges.length; i++) {
            const [inner, outer] = [ranges[i - 1], ranges[i]];
            assert.ok(
              inner && outer && outer.start <= inner.start && inner.end <= outer.end && outer.end - outer.start > inner.end - inner.start,
              `${file} at ${token.start}`,
            );
          }
        }
        if (token.kind !== TokenKind.Punct || (token.value !== '(' && token.value !== ',')) continue;
        const help = signatureHelpAt(analysis, `/corpus/${file}`, token.end, NO_IMPORTS);
        const name = token.value === '(' ? calls.get(token.start) : undefined;
        if (name === undefined) continue;
        named++;
        assert.match(help?.signatures[0]?.label ?? '', new RegExp(`^fn ${name}\\(`), `${file}: the call of ${name} at ${token.start}`);
        assert.equal(help?.activeParameter, 0);
      }
    }
    assert.ok(named > 100, `calls of local functions checked: ${named}`);
  });
});
