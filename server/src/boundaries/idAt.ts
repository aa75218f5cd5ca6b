// The boundary id named at a cursor, in the three kinds of files that name one: a `.harn` source (a
// `boundary:` field), a Rust source (`BoundaryId::X`, and in the funnel its `as_str` arms and enum
// variants) and the registry (an entry's `id`). Offsets in, the id and its range out.

import { HarnBoundaryScan } from './harnSites';
import { scanRustMentions } from './rust';
import { Funnel, Registry, TextRange } from './types';

export interface IdAtCursor {
  id: string;
  range: TextRange;
}

const covers = (r: TextRange, offset: number): boolean => r.start <= offset && offset <= r.end;

export function harnIdAt(scan: HarnBoundaryScan, offset: number): IdAtCursor | undefined {
  const ref = scan.references.find((r) => covers(r.range, offset));
  return ref && { id: ref.id, range: ref.range };
}

/**
 * In a Rust file, a `BoundaryId::X` mention mapped to its wire id by the funnel; when the file is the
 * funnel itself (`isFunnel`, with `funnel` parsed from this very text), its arms and variants too.
 */
export function rustIdAt(text: string, funnel: Funnel, isFunnel: boolean, offset: number): IdAtCursor | undefined {
  const wire = new Map(funnel.arms.map((a) => [a.variant, a.wire]));
  for (const mention of scanRustMentions(text)) {
    const id = wire.get(mention.variant);
    if (id !== undefined && covers(mention.range, offset)) return { id, range: mention.range };
  }
  if (!isFunnel) return undefined;
  for (const arm of funnel.arms) {
    if (covers(arm.wireRange, offset)) return { id: arm.wire, range: arm.wireRange };
    if (covers(arm.variantRange, offset)) return { id: arm.wire, range: arm.variantRange };
  }
  for (const variant of funnel.enumVariants) {
    const id = wire.get(variant.name);
    if (id !== undefined && covers(variant.range, offset)) return { id, range: variant.range };
  }
  return undefined;
}

export function registryIdAt(registry: Registry, offset: number): IdAtCursor | undefined {
  for (const entry of [...registry.boundaries, ...registry.audited]) {
    if (entry.id && covers(entry.id.range, offset)) return { id: entry.id.value, range: entry.id.range };
  }
  return undefined;
}
