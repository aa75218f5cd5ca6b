// Go to type definition and go to declaration for `.harn` files.
// Type definition: a variable's or parameter's declared type (each struct, enum, interface or type alias its
// annotation names: `list<Point>` leads to Point), or the type itself when the name is one. Declaration: where the
// name enters this file, the `import { x }` for an imported name, else its definition.

import { HarnAnalysis, isWord } from './analysis';
import * as A from './ast';
import { DefinitionLocation, definitionAt } from './definition';
import { LocatedBinding, ModuleHost, targetAt } from './resolve';
import { BindingKind, resolveName } from './scope';

const TYPE_KINDS: ReadonlySet<BindingKind> = new Set(['struct', 'enum', 'interface', 'type']);

export function typeDefinitionAt(analysis: HarnAnalysis, file: string, offset: number, host: ModuleHost): DefinitionLocation[] {
  const target = targetAt(analysis, file, offset, host);
  if (target?.kind !== 'binding') return [];
  const origin = { originStart: target.nameStart, originEnd: target.nameEnd };
  const { located } = target;
  if (TYPE_KINDS.has(located.binding.kind)) return [locationOf(located, origin)];
  const annotation = declaredType(located.binding.declaration);
  if (!annotation) return [];
  const out: DefinitionLocation[] = [];
  const seen = new Set<string>();
  A.walk(annotation, (node) => {
    if (node.kind !== 'NamedType') return;
    // The annotation's names are resolved where it is written (the declaring file).
    const type = targetAt(located.analysis, located.file, node.name.start, host);
    if (type?.kind !== 'binding' || !TYPE_KINDS.has(type.located.binding.kind)) return;
    const key = `${type.located.file}\n${type.located.binding.nameNode.start}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(locationOf(type.located, origin));
  });
  return out;
}

/** The type annotation of a variable, constant or parameter declaration. */
function declaredType(declaration: A.AnyNode): A.TypeExpr | undefined {
  if (declaration.kind === 'LetDecl' || declaration.kind === 'Param') return declaration.type;
  return undefined;
}

export function declarationAt(analysis: HarnAnalysis, file: string, offset: number, host: ModuleHost): DefinitionLocation | undefined {
  const token = analysis.tokenAt(offset);
  if (token && isWord(token)) {
    const local = resolveName(analysis.scopes, token.value, token.start);
    // Only the name itself: `ns.name`'s `name` is no local binding even when one of that name exists.
    const path = A.nodePathAt(analysis.file, token.start);
    const parent = path[path.length - 2];
    const isMember = parent?.kind === 'Member' && parent.property?.start === token.start;
    if (local && !isMember && (local.kind === 'import' || local.kind === 'namespace')) {
      const { nameNode, declaration } = local;
      return {
        file,
        analysis,
        start: nameNode.start,
        end: nameNode.end,
        fullStart: declaration.start,
        fullEnd: declaration.end,
        originStart: token.start,
        originEnd: token.end,
      };
    }
  }
  return definitionAt(analysis, file, offset, host);
}

function locationOf(located: LocatedBinding, origin: { originStart: number; originEnd: number }): DefinitionLocation {
  const { binding } = located;
  return {
    file: located.file,
    analysis: located.analysis,
    start: binding.nameNode.start,
    end: binding.nameNode.end,
    fullStart: binding.declaration.start,
    fullEnd: binding.declaration.end,
    ...origin,
  };
}
