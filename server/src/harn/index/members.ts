// Members in the workspace index: enum variants, struct fields and the methods of `impl` blocks. Harn has no type
// checker here, so a member is indexed only where its type is known statically: `Type.member` (a variant, or a
// method called on the type), a struct literal's fields (`Point { x: 1 }`), and `value.member` where `value` is a
// parameter or `let` whose declared type names the struct or enum (as signature help finds methods), or the `self`
// of an `impl` block's method. Everything else (`f().x`, `value.x` without a declared type) is not indexed, and
// rename refuses it rather than guess.
//
// A member's identity is its type's declaration and its name: `Color.Red` in one file and the variant `Red` in the
// enum `Color` of another are the same member when `Color` resolves to that enum.

import { HarnAnalysis } from '../analysis';
import * as A from '../ast';
import { Binding } from '../scope';
import { declaredNamedType } from '../signatureHelp';

/** A member name one statement mentions, and the binding of the type it belongs to. */
export interface MemberMention {
  name: A.Name;
  owner: Binding;
  /** The name of the type as this file writes it (an imported name is resolved by it). */
  typeName: string;
  /** The variant, field or method declaration itself. */
  declares: boolean;
  write: boolean;
}

export type NameResolver = (name: string, offset: number) => Binding | undefined;

/** The `self` parameters of the methods of `impl` blocks met so far, and their type (memberMentions fills it). */
export type SelfTypes = WeakMap<A.AnyNode, Binding>;

/** The bindings a member can belong to: a struct or enum declared here, or an imported name (checked when asked). */
function mayOwnMembers(b: Binding): boolean {
  return b.kind === 'struct' || b.kind === 'enum' || b.kind === 'import';
}

/**
 * The type a member access's object stands for, given what the object's name resolves to (the caller has resolved
 * it already): the type itself (`Color.Red`), or a value's declared type (`p.x` with `p: Point`).
 */
function memberOwner(named: Binding | undefined, resolve: NameResolver, selfTypes: SelfTypes): Binding | undefined {
  if (!named) return undefined;
  if (mayOwnMembers(named)) return named;
  const self = selfTypes.get(named.declaration);
  if (self) return self;
  const annotation = declaredNamedType(named.declaration);
  if (!annotation || annotation.name.text.length === 0) return undefined;
  // The annotation's name is resolved where it is written.
  const type = resolve(annotation.name.text, annotation.name.start);
  return type && mayOwnMembers(type) ? type : undefined;
}

/**
 * `object.name` where `object` is a name resolving to `named` (undefined: not a name, or not declared), when its
 * type is known. `write`: the access is an assignment target.
 */
export function memberAccess(
  node: A.Member,
  named: Binding | undefined,
  resolve: NameResolver,
  selfTypes: SelfTypes,
  write: boolean,
): MemberMention | undefined {
  const name = node.property;
  const owner = name && name.text.length > 0 ? memberOwner(named, resolve, selfTypes) : undefined;
  return name && owner ? { name, owner, typeName: owner.name, declares: false, write } : undefined;
}

/**
 * The member names a struct literal's keys, and the variants, fields and methods a struct, enum or `impl` declares;
 * an `impl` block's methods' `self` parameters go to `selfTypes` (an `impl` is met before the accesses inside it).
 */
export function memberMentions(node: A.AnyNode, resolve: NameResolver, selfTypes: SelfTypes): MemberMention[] {
  switch (node.kind) {
    case 'StructLit': {
      const owner = resolve(node.name.name, node.name.start);
      if (!owner || (owner.kind !== 'struct' && owner.kind !== 'import')) return [];
      const out: MemberMention[] = [];
      for (const entry of node.entries) {
        if (entry.spread || entry.computed || entry.key?.kind !== 'Name') continue;
        out.push({ name: entry.key, owner, typeName: owner.name, declares: false, write: false });
      }
      return out;
    }
    case 'StructDecl':
      return declared(node, node.fields, resolve);
    case 'EnumDecl':
      return declared(node, node.variants, resolve);
    case 'ImplDecl': {
      const owner = node.name ? resolve(node.name.text, node.name.start) : undefined;
      if (!owner || !mayOwnMembers(owner)) return [];
      const out: MemberMention[] = [];
      for (const method of node.methods) {
        const self = method.params[0];
        if (self?.name.text === 'self' && self.type === undefined) selfTypes.set(self, owner);
        if (method.name) out.push({ name: method.name, owner, typeName: owner.name, declares: true, write: true });
      }
      return out;
    }
    default:
      return [];
  }
}

/** The members a struct or enum declares, owned by its own binding (none when its name is another's: a duplicate). */
function declared(decl: A.StructDecl | A.EnumDecl, members: readonly (A.StructField | A.EnumVariant)[], resolve: NameResolver): MemberMention[] {
  const name = decl.name;
  const owner = name ? resolve(name.text, name.start) : undefined;
  if (!owner || owner.nameNode !== name) return [];
  return members.filter((m) => m.name.text.length > 0).map((m) => ({ name: m.name, owner, typeName: owner.name, declares: true, write: true }));
}

const MEMBER_PREFIX = '\0member\n';

/** The id of the member `name` of the type whose declaration is `ownerId`. */
export function memberId(ownerId: string, name: string): string {
  return `${MEMBER_PREFIX}${name}\n${ownerId}`;
}

export function isMemberId(id: string): boolean {
  return id.startsWith(MEMBER_PREFIX);
}

/** The type declaration and member name of a member id. */
export function parseMemberId(id: string): { ownerId: string; name: string } | undefined {
  if (!isMemberId(id)) return undefined;
  const rest = id.slice(MEMBER_PREFIX.length);
  const cut = rest.indexOf('\n');
  return { name: rest.slice(0, cut), ownerId: rest.slice(cut + 1) };
}

/**
 * Why the member name at `offset` cannot be followed, when the cursor is on one the index holds no occurrence for:
 * `f().x`, `value.x` where `value`'s type is not declared, a literal of a struct the file cannot resolve.
 */
export function unresolvedMemberAt(analysis: HarnAnalysis, offset: number): string | undefined {
  const path = A.nodePathAt(analysis.file, offset);
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i];
    if (node?.kind === 'Member' && node.property && node.property.start <= offset && offset <= node.property.end) {
      return `'${node.property.text}' is a member of a value whose type is not declared here: its references cannot be found.`;
    }
    if (node?.kind === 'StructLit') {
      const key = node.entries.find((e) => e.key?.kind === 'Name' && e.key.start <= offset && offset <= e.key.end)?.key;
      if (key?.kind === 'Name')
        return `'${key.text}' is a field of '${node.name.name}', which is not a struct declared in the workspace: its references cannot be found.`;
    }
  }
  return undefined;
}
