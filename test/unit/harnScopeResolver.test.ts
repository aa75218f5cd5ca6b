// The one fast name resolver (harn/scopeResolver.ts) of semantic tokens and the workspace index: resolve answers what
// scope.ts's resolveName answers, resolveNameAt what its rule says (a scope ending where a name starts does not hold
// it), with the chain kept between lookups or not, the root's bindings grouped by the caller or not.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import { Binding, FileScopes, resolveName, Scope } from '../../server/src/harn/scope';
import { bindingsByName, ScopeResolver } from '../../server/src/harn/scopeResolver';
import { prng } from '../support/random';
import { resolveNameStartingAt, unorderedChildren } from '../support/scopeRules';

/** 300 statements of shadowing, nesting, loops, closures and catch bindings over 20 names; `broken` adds broken declarations. */
function program(seed: number, broken: boolean): string {
  const rng = prng(seed);
  const parts: string[] = [];
  for (let i = 0; i < 300; i++) {
    const n = `n${Math.floor(rng() * 20)}`;
    const pick = Math.floor(rng() * 6);
    if (pick === 0) parts.push(`fn ${n}(${n}, b) { let ${n} = b\n  return ${n} }`);
    else if (pick === 1) parts.push(`let ${n} = ${n}`);
    else if (pick === 2) parts.push(`for ${n} in [${n}] { log(${n}) }`);
    else if (pick === 3) parts.push(`pipeline p${i}(${n}) { let q = fn(x) { return x + ${n} }\n  q(${n}) }`);
    else if (pick === 4) parts.push(broken ? `fn broken${i}() { let bad = ) }` : `fn f${i}() { if ${n} { let ${n} = 1 }\n  ${n} }`);
    else parts.push(`try { ${n}() } catch (${n}) { log(${n}) }`);
  }
  return parts.join('\n');
}

function identifiers(analysis: HarnAnalysis): A.Identifier[] {
  const out: A.Identifier[] = [];
  A.walk(analysis.file, (node) => {
    if (node.kind === 'Identifier') out.push(node);
  });
  return out;
}

const binding = (name: string, visibleFrom: number): Binding => {
  const nameNode: A.Name = { kind: 'Name', start: visibleFrom, end: visibleFrom + name.length, text: name };
  return { name, kind: 'variable', nameNode, declaration: nameNode, visibleFrom };
};

const scope = (start: number, end: number, bindings: Binding[], children: Scope[] = []): Scope => ({ start, end, bindings, children });

const fileScopes = (root: Scope): FileScopes => ({ root, imports: [], wildcardImports: [] });

describe('harn scope resolver', () => {
  test('answers what resolveName answers at every offset of every name, and resolveNameAt what its rule says, on a broken file', () => {
    const analysis = new HarnAnalysis(program(3, true));
    assert.ok(analysis.parsed.diagnostics.length > 0);
    assert.equal(unorderedChildren(analysis.scopes), undefined);
    const resolver = new ScopeResolver(analysis.scopes);
    const shared = new ScopeResolver(analysis.scopes, { rootByName: bindingsByName(analysis.scopes.root.bindings) });
    let checked = 0;
    for (const node of identifiers(analysis)) {
      // Each offset of the name, its end included (a cursor right after it).
      for (let at = node.start; at <= node.end; at++) {
        const expected = resolveName(analysis.scopes, node.name, at);
        assert.equal(resolver.resolve(node.name, at), expected, `${node.name} at ${at}`);
        assert.equal(shared.resolve(node.name, at), expected, `${node.name} at ${at}, the root grouped by the caller`);
        const startingHere = resolveNameStartingAt(analysis.scopes, node.name, at);
        assert.equal(resolver.resolveNameAt(node.name, at), startingHere, `${node.name} starting at ${at}`);
        assert.equal(shared.resolveNameAt(node.name, at), startingHere, `${node.name} starting at ${at}, the root grouped by the caller`);
      }
      checked++;
    }
    assert.ok(checked > 500, `identifiers checked: ${checked}`);
  });

  test('keeping the chain of the last lookup changes no answer of a file parsed without a diagnostic, in any order', () => {
    const analysis = new HarnAnalysis(program(5, false));
    assert.equal(analysis.parsed.diagnostics.length, 0);
    const resolver = new ScopeResolver(analysis.scopes, { keepsChain: true });
    const names = identifiers(analysis);
    const rng = prng(11);
    const shuffled = names
      .map((n) => ({ n, key: rng() }))
      .sort((a, b) => a.key - b.key)
      .map(({ n }) => n);
    let checked = 0;
    for (const node of [...names, ...[...names].reverse(), ...shuffled]) {
      for (const at of [node.start, node.end]) {
        assert.equal(resolver.resolve(node.name, at), resolveName(analysis.scopes, node.name, at), `${node.name} at ${at}`);
        assert.equal(resolver.resolveNameAt(node.name, at), resolveNameStartingAt(analysis.scopes, node.name, at), `${node.name} starting at ${at}`);
        checked++;
      }
    }
    assert.ok(checked > 3000, `lookups checked: ${checked}`);
  });

  test('a scope ending where a name starts holds it for resolve (a cursor at its end), not for resolveNameAt', () => {
    const inner = binding('total', 2);
    const outer = binding('total', 0);
    const scopes = fileScopes(scope(0, 30, [outer], [scope(2, 10, [inner]), scope(10, 20, [])]));
    const resolver = new ScopeResolver(scopes);
    // At 10 the first scope ends and its sibling starts: resolve takes the earlier, as scopeChainAt does.
    assert.equal(resolver.resolve('total', 10), inner);
    assert.equal(resolveName(scopes, 'total', 10), inner);
    assert.equal(resolver.resolveNameAt('total', 10), outer);
    assert.equal(resolver.resolveNameAt('total', 9), inner);
    assert.equal(resolver.resolve('total', 21), outer);
    assert.equal(resolver.resolve('other', 5), undefined);
    // Keeping the chain, a kept scope is left at the offset it shares with a sibling, whichever the last lookup was in.
    const keeping = new ScopeResolver(scopes, { keepsChain: true });
    for (const [before, at, inclusive, expected] of [
      [15, 10, true, inner],
      [5, 10, false, outer],
      [5, 10, true, inner],
      [15, 10, false, outer],
      [5, 2, true, inner],
      [15, 20, false, outer],
    ] as const) {
      keeping.resolve('total', before);
      assert.equal(inclusive ? keeping.resolve('total', at) : keeping.resolveNameAt('total', at), expected, `after ${before}, at ${at}`);
    }
  });

  test('a scope of many bindings (grouped by name) answers as a small one (scanned): the latest visible wins', () => {
    for (const count of [3, 8, 9, 40]) {
      const bindings = Array.from({ length: count }, (_, i) => binding(`v${i % 3}`, i * 10));
      const scopes = fileScopes(scope(0, 1000, bindings));
      const resolver = new ScopeResolver(scopes);
      for (let at = 0; at < count * 10 + 5; at += 5) {
        for (const name of ['v0', 'v1', 'v2', 'v3'])
          assert.equal(resolver.resolve(name, at), resolveName(scopes, name, at), `${count} bindings: ${name} at ${at}`);
      }
    }
  });

  test("given the root's bindings by name, the root is read from them (semantic tokens share one over every statement)", () => {
    const declared = binding('shared', 0);
    const scopes = fileScopes(scope(0, 50, [], [scope(10, 20, [binding('local', 10)])]));
    const resolver = new ScopeResolver(scopes, { rootByName: bindingsByName([declared]) });
    assert.equal(resolver.resolveNameAt('shared', 15), declared);
    assert.equal(resolver.resolve('local', 15)?.name, 'local');
    assert.equal(new ScopeResolver(scopes).resolve('shared', 15), undefined);
  });

  test('scopesChanged: a resolver keeping its chain follows new scopes put under the same root', () => {
    const root = scope(0, 100, []);
    const resolver = new ScopeResolver(fileScopes(root), { keepsChain: true });
    const first = binding('x', 10);
    root.children = [scope(10, 40, [first])];
    assert.equal(resolver.resolve('x', 20), first);
    const second = binding('x', 15);
    root.children = [scope(15, 30, [second])];
    resolver.scopesChanged();
    assert.equal(resolver.resolve('x', 20), second);
    root.children = [];
    resolver.scopesChanged();
    assert.equal(resolver.resolve('x', 20), undefined);
  });
});
