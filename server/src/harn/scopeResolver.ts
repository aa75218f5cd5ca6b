// scope.ts's resolveName, for the many names of one file (semantic tokens, the workspace index): the scope holding an
// offset found by binary search among its siblings, the bindings of a scope with many grouped by name once, so that
// a file with thousands of declarations costs a lookup per name, not a scan of every binding and every sibling scope.
// Held equal to resolveName (and resolveNameAt to the rule it states) on every name of the corpus by a test, which
// also pins what the search relies on: scope.ts makes the children of a scope in source order, overlapping at most
// at an end.

import { Binding, FileScopes, Scope } from './scope';

export interface ScopeResolverOptions {
  /**
   * The scopes are those of a file parsed without a diagnostic, where sibling scopes share no offset but an end: a
   * lookup then keeps the part of the last one's chain strictly holding its offset (the next name is mostly in the
   * same scope) and searches only below it. Call `scopesChanged` when the scopes do.
   */
  keepsChain?: boolean;
  /** The root's bindings already grouped (bindingsByName), shared by resolvers over the same root bindings. */
  rootByName?: ReadonlyMap<string, readonly Binding[]>;
}

/** Scopes with at most this many bindings are scanned rather than grouped by name (most blocks bind a handful). */
const SCANNED_SCOPE_SIZE = 8;

/** Bindings by name, each name's in declaration order. */
export function bindingsByName(bindings: readonly Binding[]): Map<string, Binding[]> {
  const byName = new Map<string, Binding[]>();
  for (const b of bindings) {
    const list = byName.get(b.name);
    if (list) list.push(b);
    else byName.set(b.name, [b]);
  }
  return byName;
}

export class ScopeResolver {
  /** Bindings by name, for the scopes with many, made when a scope first needs it. */
  private byName: Map<Scope, ReadonlyMap<string, readonly Binding[]>> | undefined;
  /** The chain of the last lookup, kept with keepsChain (a file resolves thousands of names). */
  private readonly chain: Scope[] = [];
  private depth = 0;
  private readonly keepsChain: boolean;
  private readonly rootByName: ReadonlyMap<string, readonly Binding[]> | undefined;

  constructor(
    private readonly scopes: FileScopes,
    options: ScopeResolverOptions = {},
  ) {
    this.keepsChain = options.keepsChain ?? false;
    this.rootByName = options.rootByName;
  }

  scopesChanged(): void {
    this.depth = 0;
  }

  /** What resolveName(scopes, name, offset) answers (a scope holds both its ends: a cursor right after a name is on it). */
  resolve(name: string, offset: number): Binding | undefined {
    return this.lookup(name, offset, true);
  }

  /**
   * What the name starting at `start` refers to: as resolve, but a scope ending right where the name starts does not
   * hold it (`}total`: `total` is after the block, not a cursor at its end), so that a name's meaning does not
   * depend on the statement before it.
   */
  resolveNameAt(name: string, start: number): Binding | undefined {
    return this.lookup(name, start, false);
  }

  private lookup(name: string, offset: number, endInclusive: boolean): Binding | undefined {
    const chain = this.chain;
    let depth = 1;
    chain[0] = this.scopes.root;
    if (this.keepsChain) {
      // A scope strictly holding the offset is the only one of its siblings holding it, either way: childAt would pick it.
      while (depth < this.depth) {
        const kept = chain[depth] as Scope;
        if (!(kept.start < offset && offset < kept.end)) break;
        depth++;
      }
    }
    for (let scope = childAt(chain[depth - 1] as Scope, offset, endInclusive); scope; scope = childAt(scope, offset, endInclusive)) {
      chain[depth++] = scope;
    }
    this.depth = depth;
    for (let i = depth - 1; i >= 0; i--) {
      const scope = chain[i] as Scope;
      const bindings = this.bindingsNamed(scope, name);
      if (!bindings) continue;
      // The latest visible binding wins (a later `let x` shadows an earlier one).
      for (let j = bindings.length - 1; j >= 0; j--) {
        const b = bindings[j] as Binding;
        if (b.name === name && b.visibleFrom <= offset) return b;
      }
    }
    return undefined;
  }

  /** The bindings of `scope` to look through for `name`: all of a small scope's, else those of that name. */
  private bindingsNamed(scope: Scope, name: string): readonly Binding[] | undefined {
    if (this.rootByName && scope === this.scopes.root) return this.rootByName.get(name);
    if (scope.bindings.length <= SCANNED_SCOPE_SIZE) return scope.bindings;
    const byName = (this.byName ??= new Map<Scope, ReadonlyMap<string, readonly Binding[]>>());
    let map = byName.get(scope);
    if (!map) {
      map = bindingsByName(scope.bindings);
      byName.set(scope, map);
    }
    return map.get(name);
  }
}

/**
 * The first child of `scope` holding `offset`, as scopeChainAt picks it (its end too when `endInclusive`). The
 * children are in source order and overlap at most at an end, so only the last starting at or before `offset` and
 * the one before it can hold it.
 */
function childAt(scope: Scope, offset: number, endInclusive: boolean): Scope | undefined {
  const children = scope.children;
  let low = 0;
  let high = children.length - 1;
  let last = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((children[mid] as Scope).start <= offset) {
      last = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  // Siblings may touch (one ends where the next starts): the earlier one wins, as in a scan from the first.
  for (let i = Math.max(0, last - 1); i <= last; i++) {
    const c = children[i] as Scope;
    if (c.start <= offset && (offset < c.end || (endInclusive && offset === c.end))) return c;
  }
  return undefined;
}
