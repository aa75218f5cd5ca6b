// References and document highlights over the workspace index: every occurrence that refers to what the name under
// the cursor refers to (the declaration included when asked), across files for a top-level declaration.

import { Range } from '../../text/lineIndex';
import { Occurrence, occurrencesNamed, rangeOf } from './fileIndex';
import { Resolution, WorkspaceIndex } from './workspaceIndex';

export interface ReferenceLocation {
  file: string;
  range: Range;
  isDeclaration: boolean;
}

export function isDeclarationOccurrence(o: Occurrence): boolean {
  return (o.ref.kind === 'local' && o.ref.declStart === o.start) || (o.ref.kind === 'member' && o.ref.declares);
}

/** Undefined: nothing the index can follow at `offset`, or stopped (cancelled). */
export function referencesAt(
  index: WorkspaceIndex,
  file: string,
  offset: number,
  includeDeclaration: boolean,
  shouldStop: () => boolean = () => false,
): ReferenceLocation[] | undefined {
  const memo = new Resolution();
  const at = index.locate(file, offset, memo);
  if (!at?.id) return undefined;
  const out: ReferenceLocation[] = [];
  const done = index.forEachOccurrenceOf(at.id, at.occurrence.name, memo, shouldStop, (where, occurrence) => {
    const isDeclaration = isDeclarationOccurrence(occurrence);
    if (isDeclaration && !includeDeclaration) return;
    out.push({ file: where.file, range: rangeOf(where, occurrence), isDeclaration });
  });
  return done ? out : undefined;
}

export interface Highlight {
  range: Range;
  write: boolean;
}

/** The occurrences in `file` of what the name at `offset` refers to (a builtin's uses too), writes marked. */
export function highlightsAt(index: WorkspaceIndex, file: string, offset: number): Highlight[] | undefined {
  const memo = new Resolution();
  const at = index.locate(file, offset, memo);
  const fileIndex = index.get(file);
  if (!at || !fileIndex) return undefined;
  const { occurrence, id } = at;
  // A name the index cannot follow (an unresolved import) still highlights its own occurrence.
  if (!id) return [{ range: rangeOf(fileIndex, occurrence), write: occurrence.write }];
  const same = occurrencesNamed(fileIndex, occurrence.name).filter((o) => index.resolve(fileIndex, o, memo) === id);
  return same.map((o) => ({ range: rangeOf(fileIndex, o), write: o.write }));
}
