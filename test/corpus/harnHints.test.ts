// Inlay hints and completion resolve on every file of the shared corpus: each hint sits at the start of a literal
// argument and names a parameter of the callee signature help shows for that call; the hints of two halves of a
// file are those of the whole; and every completion item offered inside each function body resolves from its
// source to the details it carries.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import { BUILTINS } from '../../server/src/harn/builtins';
import { completionsAt, resolveCompletion } from '../../server/src/harn/completion';
import { parameterHints } from '../../server/src/harn/inlayHints';
import { declaredSignature, signatureHelpAt } from '../../server/src/harn/signatureHelp';
import { resolveName } from '../../server/src/harn/scope';
import { KEYWORDS } from '../../server/src/harn/tokens';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';

const NO_IMPORTS = { resolveImport: () => undefined, load: () => undefined };

describe('inlay hints and completion resolve on the corpus', { skip: corpusSkip }, () => {
  const files = corpusFiles();

  test('each hint is at a literal argument, names a parameter signature help shows there, and ranges add up', () => {
    let hints = 0;
    for (const file of files) {
      const text = readCorpus(file);
      const analysis = new HarnAnalysis(text);
      const path = `/corpus/${file}`;
      // Each positional argument's start, and its call.
      const literalArguments = new Map<number, A.Call>();
      A.walk(analysis.file, (node) => {
        if (node.kind === 'Call') for (const a of node.args) if (a.value && !a.name) literalArguments.set(a.value.start, node);
      });
      const whole = parameterHints(analysis, path, 0, text.length, NO_IMPORTS);
      for (const h of whole) {
        hints++;
        assert.ok(literalArguments.has(h.offset), `${file}: a hint at ${h.offset} is at an argument`);
        const help = signatureHelpAt(analysis, path, h.offset, NO_IMPORTS);
        const call = literalArguments.get(h.offset);
        const callee = call?.callee.kind === 'Identifier' ? call.callee.name : undefined;
        if (!help && call && callee !== undefined && (KEYWORDS.has(callee) || call.typeArgs.length > 0)) {
          // Signature help reads tokens: none for a builtin the lexer reads as a keyword (`ask_user`) or a call with type
          // arguments (`fold<int, int>(…)`); the hint, from the AST, has the callee's own parameters.
          const binding = resolveName(analysis.scopes, callee, call.callee.start);
          const declared = binding ? declaredSignature(binding.declaration, callee, text)?.parameters : undefined;
          const params = (declared ?? BUILTINS.get(callee)?.signatures.flatMap((s) => s.params) ?? []).map((p) => `${p.rest ? '...' : ''}${p.name}:`);
          assert.ok(params.includes(h.label), `${file}: ${h.label} at ${h.offset} among ${JSON.stringify(params)}`);
          continue;
        }
        const names = (help?.signatures ?? []).flatMap((s) => s.parameters.map((p) => `${p.rest ? '...' : ''}${p.name}:`));
        assert.ok(names.includes(h.label), `${file}: ${h.label} at ${h.offset} among ${JSON.stringify(names)}`);
      }
      const middle = text.length >> 1;
      const halves = [...parameterHints(analysis, path, 0, middle, NO_IMPORTS), ...parameterHints(analysis, path, middle + 1, text.length, NO_IMPORTS)];
      assert.deepEqual(
        halves.map((h) => h.offset),
        whole.map((h) => h.offset),
        file,
      );
    }
    assert.ok(hints > 500, `hints checked: ${hints}`);
  });

  test('every item offered in a function body resolves to the details it carries', () => {
    let items = 0;
    for (const file of files) {
      const analysis = new HarnAnalysis(readCorpus(file));
      const path = `/corpus/${file}`;
      const host = { resolveImport: () => undefined, load: (f: string) => (f === path ? analysis : undefined) };
      for (const stmt of analysis.file.statements) {
        if (stmt.kind !== 'FnDecl' || !stmt.body || stmt.body.statements.length === 0) continue;
        const at = stmt.body.statements[0]?.start ?? stmt.body.start + 1;
        for (const c of completionsAt(analysis, path, at, host, '/corpus')) {
          if (c.source.kind !== 'binding') continue;
          items++;
          assert.deepEqual(resolveCompletion(c.source, path, host, '/corpus'), { detail: c.detail, documentation: c.documentation }, `${file}: ${c.label}`);
        }
      }
    }
    assert.ok(items > 1000, `items resolved: ${items}`);
  });
});
