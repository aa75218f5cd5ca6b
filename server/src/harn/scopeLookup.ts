// Name resolution for many lookups in one file (semantic tokens resolve every name): resolveName's answers, with
// each scope's bindings indexed by name and its child scopes found by binary search, so that a file with thousands
// of declarations costs a lookup per name, not a scan of every binding and every sibling scope.

import { Binding, FileScopes, Scope } from './scope';

interface IndexedScope {
  scope: Scope;
  /** Bindings by name, in declaration order. */
  byName: Map<string, Binding[]>;
  /** Child scopes sorted by start (they do not overlap). */
  children: Scope[];
}

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

export class ScopeLookup {
  private readonly indexed = new Map<Scope, IndexedScope>();

  /** `rootByName`: the root's bindings already indexed (bindingsByName), shared by lookups over the same root bindings. */
  constructor(
    private readonly scopes: FileScopes,
    private readonly rootByName?: Map<string, Binding[]>,
  ) {}

  private index(scope: Scope): IndexedScope {
    let entry = this.indexed.get(scope);
    if (!entry) {
      const byName = scope === this.scopes.root && this.rootByName ? this.rootByName : bindingsByName(scope.bindings);
      const children = [...scope.children].sort((a, b) => a.start - b.start);
      entry = { scope, byName, children };
      this.indexed.set(scope, entry);
    }
    return entry;
  }

  /** The child of `entry` holding `offset` (the first in source order, as scopeChainAt picks), if any. */
  private childAt(entry: IndexedScope, offset: number, endInclusive: boolean): Scope | undefined {
    const children = entry.children;
    let low = 0;
    let high = children.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((children[mid]?.start ?? 0) <= offset) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    // Siblings touch at most at an end (`}` then the next start): prefer the earlier one, as scopeChainAt does.
    for (let i = Math.max(0, found - 1); i <= found; i++) {
      const c = children[i];
      if (c && c.start <= offset && (offset < c.end || (endInclusive && offset === c.end))) return c;
    }
    return undefined;
  }

  /** What resolveName(scopes, name, offset) answers. */
  resolve(name: string, offset: number): Binding | undefined {
    return this.resolveFrom(name, offset, true);
  }

  /**
   * What the name starting at `start` refers to: as resolve, but a scope ending right where the name starts does not
   * hold it (`}total`: `total` is after the block, not a cursor at its end), so that a name's meaning does not
   * depend on the statement before it.
   */
  resolveNameAt(name: string, start: number): Binding | undefined {
    return this.resolveFrom(name, start, false);
  }

  private resolveFrom(name: string, offset: number, endInclusive: boolean): Binding | undefined {
    const chain: IndexedScope[] = [];
    for (let scope: Scope | undefined = this.scopes.root; scope;) {
      const entry = this.index(scope);
      chain.push(entry);
      scope = this.childAt(entry, offset, endInclusive);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const list = chain[i]?.byName.get(name);
      if (!list) continue;
      // The latest visible binding wins (a later `let x` shadows an earlier one).
      for (let j = list.length - 1; j >= 0; j--) {
        const b = list[j];
        if (b && b.visibleFrom <= offset) return b;
      }
    }
    return undefined;
  }
}
