// Rename over the workspace index: every occurrence of the declaration under the cursor, in every file (imports and
// `pub import` re-exports included, since they are occurrences that resolve to it). Refused, with a message saying
// why, for keywords, builtins, names the workspace does not declare, names that are not identifiers, and a new name
// already used in a scope the rename touches (it would capture, or be captured by, another binding).

import { HarnAnalysis } from '../analysis';
import { Range } from '../../text/lineIndex';
import { KEYWORDS, TokenKind } from '../tokens';
import { mentions, Occurrence, occurrencesNamed, rangeOf } from './fileIndex';
import { isMemberId, memberId, parseMemberId, unresolvedMemberAt } from './members';
import { isBuiltinId, LocatedOccurrence, parseDeclId, Resolution, WorkspaceIndex } from './workspaceIndex';

export type Refusal = { refused: string };

export interface RenameTarget {
  start: number;
  end: number;
  range: Range;
  placeholder: string;
}

export interface RenameEdit {
  file: string;
  range: Range;
  newText: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a rename at `offset` would rename, or why it cannot. */
export function prepareRenameAt(index: WorkspaceIndex, analysis: HarnAnalysis, file: string, offset: number): RenameTarget | Refusal {
  const located = locateForRename(index, analysis, file, offset, new Resolution());
  if ('refused' in located) return located;
  const { occurrence } = located;
  const fileIndex = index.get(file);
  const range = fileIndex ? rangeOf(fileIndex, occurrence) : analysis.lineIndex.rangeOf(occurrence.start, occurrence.end);
  return { start: occurrence.start, end: occurrence.end, range, placeholder: occurrence.name };
}

function locateForRename(
  index: WorkspaceIndex,
  analysis: HarnAnalysis,
  file: string,
  offset: number,
  memo: Resolution,
): { occurrence: Occurrence; id: string } | Refusal {
  const at = index.locate(file, offset, memo);
  if (!at) {
    const token = analysis.tokenAt(offset);
    if (token?.kind === TokenKind.Keyword) return { refused: `'${token.value}' is a keyword of Harn: it cannot be renamed.` };
    if (token?.kind === TokenKind.String) return { refused: 'A string cannot be renamed; put the cursor on a name.' };
    const member = unresolvedMemberAt(analysis, offset);
    if (member) return { refused: member };
    return { refused: 'There is no name here to rename.' };
  }
  const { occurrence, id } = at;
  if (!id) return { refused: `'${occurrence.name}' is not declared in the workspace (its import cannot be followed), so its references are unknown.` };
  if (isBuiltinId(id)) return { refused: `'${occurrence.name}' is a builtin of Harn: its name belongs to the runtime and cannot be renamed.` };
  const member = parseMemberId(id);
  const ownerKind = member && index.declarationOf(member.ownerId)?.declaration.kind;
  if (member && ownerKind !== 'struct' && ownerKind !== 'enum') {
    return { refused: `'${occurrence.name}' is a member of something that is not a struct or enum declared in the workspace: its references cannot be found.` };
  }
  return { occurrence, id };
}

/** The edits renaming the name at `offset` to `newName` in every file, or why that is refused. */
export function renameAt(
  index: WorkspaceIndex,
  analysis: HarnAnalysis,
  file: string,
  offset: number,
  newName: string,
  shouldStop: () => boolean = () => false,
): RenameEdit[] | Refusal | undefined {
  const memo = new Resolution();
  const located = locateForRename(index, analysis, file, offset, memo);
  if ('refused' in located) return located;
  const { occurrence, id } = located;
  if (!IDENTIFIER.test(newName)) return { refused: `'${newName}' is not a Harn identifier (a letter or _, then letters, digits or _).` };
  if (KEYWORDS.has(newName)) return { refused: `'${newName}' is a keyword of Harn and cannot name a declaration.` };
  const found = index.occurrencesOf(id, occurrence.name, memo, shouldStop);
  if (!found) return undefined;
  if (newName === occurrence.name) return [];
  const collision = isMemberId(id) ? memberCollisionOf(index, id, newName, memo) : collisionOf(index, id, occurrence.name, newName, found, memo);
  if (collision) return { refused: `Cannot rename '${occurrence.name}' to '${newName}': ${collision}` };
  return found.map(({ file: where, range }) => ({ file: where, range, newText: newName }));
}

/**
 * Why `newName` would collide, if it would: in each file the rename touches, the scope it touches (the declaring
 * scope of a local binding, the whole file otherwise) must not mention `newName` already, nor see it through a
 * wildcard import.
 */
function collisionOf(
  index: WorkspaceIndex,
  id: string,
  oldName: string,
  newName: string,
  found: readonly LocatedOccurrence[],
  memo: Resolution,
): string | undefined {
  const declared = index.declarationOf(id);
  const declaringFile = parseDeclId(id)?.file;
  const touched = new Set(found.map((f) => f.file));
  if (declaringFile !== undefined) touched.add(declaringFile);
  for (const file of [...touched].sort()) {
    const fileIndex = index.get(file);
    if (!fileIndex) continue;
    const local = declared && !declared.declaration.topLevel && file === declared.file;
    const from = local ? declared.declaration.scopeStart : 0;
    const to = local ? declared.declaration.scopeEnd : Number.POSITIVE_INFINITY;
    // The first one in the file, to point at.
    // A member of the same name is another namespace (`p.x` does not capture a variable `x`).
    const clash = occurrencesNamed(fileIndex, newName)
      .filter((o) => o.ref.kind !== 'member' && o.start >= from && o.end <= to)
      .reduce<Occurrence | undefined>((first, o) => (first && first.start <= o.start ? first : o), undefined);
    if (clash) {
      return `'${newName}' is already used in ${shortName(file)} at line ${fileIndex.lineIndex.lineAt(clash.start) + 1}, in a scope the rename touches.`;
    }
    if (!local) {
      const seen = index.resolve(fileIndex, { name: newName, start: -1, end: -1, write: false, ref: { kind: 'free' } }, memo);
      const other = seen === undefined ? undefined : parseDeclId(seen);
      if (other) return `${shortName(file)} already sees a '${newName}' from ${shortName(other.file)} through a wildcard import.`;
    }
  }
  // A file the rename does not touch may see the declaration through a wildcard import without naming it, and
  // use another `newName`: there the two would meet.
  if (!declared || declared.declaration.topLevel) {
    for (const fileIndex of index.filesMentioning(newName)) {
      if (touched.has(fileIndex.file) || !mentions(fileIndex, newName)) continue;
      if (index.resolve(fileIndex, { name: oldName, start: -1, end: -1, write: false, ref: { kind: 'free' } }, memo) === id) {
        return `${shortName(fileIndex.file)} sees '${oldName}' through a wildcard import and already uses a '${newName}': after the rename the two would clash there.`;
      }
    }
  }
  return undefined;
}

/** Why renaming the member `id` to `newName` would collide: its type has a member of that name already. */
function memberCollisionOf(index: WorkspaceIndex, id: string, newName: string, memo: Resolution): string | undefined {
  const member = parseMemberId(id);
  if (!member) return undefined;
  const other = memberId(member.ownerId, newName);
  const clash = index.occurrencesOf(other, newName, memo)?.[0];
  if (!clash) return undefined;
  const line = (index.get(clash.file)?.lineIndex.lineAt(clash.occurrence.start) ?? 0) + 1;
  return `its type already has a member '${newName}' (${shortName(clash.file)} at line ${line}).`;
}

function shortName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.slice(-2).join('/');
}
