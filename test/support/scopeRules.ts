// The rules ScopeResolver answers, read plainly (slow scans, for tests): resolveName's own is scope.ts's; this is
// resolveNameAt's, and the shape of the scope tree the resolver's search relies on.

import { Binding, FileScopes, Scope } from '../../server/src/harn/scope';

/**
 * resolveNameAt's rule: resolveName's (the first child holding the offset, the latest visible binding of the innermost
 * scope binding the name), but a scope ending right where the name starts does not hold it.
 */
export function resolveNameStartingAt(scopes: FileScopes, name: string, start: number): Binding | undefined {
  const chain: Scope[] = [];
  for (let scope: Scope | undefined = scopes.root; scope; scope = scope.children.find((c) => c.start <= start && start < c.end)) chain.unshift(scope);
  for (const scope of chain) {
    const found = scope.bindings.filter((b) => b.name === name && b.visibleFrom <= start).at(-1);
    if (found) return found;
  }
  return undefined;
}

/** Where a scope's children are out of source order or overlap by more than an end (`undefined`: nowhere). */
export function unorderedChildren(scopes: FileScopes): string | undefined {
  const stack: Scope[] = [scopes.root];
  for (let scope = stack.pop(); scope; scope = stack.pop()) {
    for (let i = 1; i < scope.children.length; i++) {
      const [before, after] = [scope.children[i - 1] as Scope, scope.children[i] as Scope];
      if (after.start < before.end) return `children of ${scope.start}-${scope.end}: ${before.start}-${before.end} then ${after.start}-${after.end}`;
    }
    stack.push(...scope.children);
  }
  return undefined;
}
