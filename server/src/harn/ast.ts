// The Harn AST. Every node carries UTF-16 `start`/`end` offsets into its document; LineIndex turns them
// into LSP ranges. Nodes that the parser could only partly read are still produced (with `missing` parts
// left undefined), so features keep working on broken files.

export interface NodeBase {
  start: number;
  end: number;
}

export interface Name extends NodeBase {
  kind: 'Name';
  text: string;
}

// ---------------------------------------------------------------------------------------------- types

export type TypeExpr = NamedType | ListType | ShapeType | FnType | UnionType | IntersectionType | OptionalType | LiteralType | ErrorType;

export interface NamedType extends NodeBase {
  kind: 'NamedType';
  name: Name;
  args: TypeExpr[];
}
export interface ListType extends NodeBase {
  kind: 'ListType';
  element: TypeExpr;
}
export interface ShapeField extends NodeBase {
  kind: 'ShapeField';
  name: Name;
  optional: boolean;
  type: TypeExpr | undefined;
}
export interface ShapeType extends NodeBase {
  kind: 'ShapeType';
  fields: ShapeField[];
  rest: TypeExpr | undefined;
}
export interface FnType extends NodeBase {
  kind: 'FnType';
  params: TypeExpr[];
  result: TypeExpr | undefined;
}
export interface UnionType extends NodeBase {
  kind: 'UnionType';
  members: TypeExpr[];
}
export interface IntersectionType extends NodeBase {
  kind: 'IntersectionType';
  members: TypeExpr[];
}
export interface OptionalType extends NodeBase {
  kind: 'OptionalType';
  inner: TypeExpr;
}
export interface LiteralType extends NodeBase {
  kind: 'LiteralType';
  text: string;
}
export interface ErrorType extends NodeBase {
  kind: 'ErrorType';
}

// ------------------------------------------------------------------------------------- declarations

export interface Attribute extends NodeBase {
  kind: 'Attribute';
  name: Name;
  args: Argument[];
}

export interface Param extends NodeBase {
  kind: 'Param';
  name: Name;
  rest: boolean;
  type: TypeExpr | undefined;
  defaultValue: Expr | undefined;
}

export interface TypeParam extends NodeBase {
  kind: 'TypeParam';
  name: Name;
  variance: 'in' | 'out' | undefined;
}

export interface DeclBase extends NodeBase {
  /** The declaration's name; undefined when the parser could not read it. */
  name: Name | undefined;
  isPub: boolean;
  attributes: Attribute[];
  /** The `/** … *\/` (or legacy `///`) comment right above the declaration, without its markers. */
  doc: string | undefined;
}

export interface FnDecl extends DeclBase {
  kind: 'FnDecl';
  isGen: boolean;
  typeParams: TypeParam[];
  params: Param[];
  returnType: TypeExpr | undefined;
  throwsType: TypeExpr | undefined;
  body: Block | undefined;
}

export interface PipelineDecl extends DeclBase {
  kind: 'PipelineDecl';
  params: Param[];
  returnType: TypeExpr | undefined;
  extendsName: Name | undefined;
  body: Block | undefined;
}

export interface ToolDecl extends DeclBase {
  kind: 'ToolDecl';
  params: Param[];
  returnType: TypeExpr | undefined;
  description: StringLit | undefined;
  body: Block | undefined;
}

export interface SkillEntry extends NodeBase {
  kind: 'SkillEntry';
  key: Name;
  value: Expr | undefined;
}

export interface SkillDecl extends DeclBase {
  kind: 'SkillDecl';
  entries: SkillEntry[];
  bodyStart: number;
}

export interface EvalPackDecl extends DeclBase {
  kind: 'EvalPackDecl';
  title: StringLit | undefined;
  body: Block | undefined;
}

export interface StructField extends NodeBase {
  kind: 'StructField';
  name: Name;
  optional: boolean;
  type: TypeExpr | undefined;
  doc: string | undefined;
}

export interface StructDecl extends DeclBase {
  kind: 'StructDecl';
  typeParams: TypeParam[];
  fields: StructField[];
}

export interface EnumVariant extends NodeBase {
  kind: 'EnumVariant';
  name: Name;
  params: Param[];
  doc: string | undefined;
}

export interface EnumDecl extends DeclBase {
  kind: 'EnumDecl';
  typeParams: TypeParam[];
  variants: EnumVariant[];
}

export interface TypeAliasDecl extends DeclBase {
  kind: 'TypeAliasDecl';
  typeParams: TypeParam[];
  type: TypeExpr | undefined;
}

export interface InterfaceDecl extends DeclBase {
  kind: 'InterfaceDecl';
  typeParams: TypeParam[];
  methods: FnDecl[];
  associatedTypes: TypeAliasDecl[];
}

export interface ImplDecl extends DeclBase {
  kind: 'ImplDecl';
  /** `impl Trait for Type`: the trait; undefined for a plain `impl Type`. */
  traitName: Name | undefined;
  methods: FnDecl[];
}

export interface OverrideDecl extends DeclBase {
  kind: 'OverrideDecl';
  params: Param[];
  body: Block | undefined;
}

export interface ImportDecl extends NodeBase {
  kind: 'ImportDecl';
  isPub: boolean;
  /** The module path string; undefined when missing. */
  path: StringLit | undefined;
  /** `import { a, b } from "…"`: the imported names; undefined for `import "…"`. */
  names: Name[] | undefined;
  /** `pkg::mod::{a, b}`: the scoped path segments. */
  scopedPath: Name[] | undefined;
  /** `import * as ui from "…"` (0.10): the namespace name, bound to the module's exports. */
  namespace: Name | undefined;
}

export interface LetDecl extends NodeBase {
  kind: 'LetDecl';
  keyword: 'let' | 'var' | 'const';
  isPub: boolean;
  pattern: BindingPattern | undefined;
  type: TypeExpr | undefined;
  init: Expr | undefined;
  doc: string | undefined;
}

export type BindingPattern = Name | DictPattern | ListPattern;

export interface PatternEntry extends NodeBase {
  kind: 'PatternEntry';
  /** The key in `{key: alias}`, or the bound name. */
  key: Name;
  alias: Name | undefined;
  rest: boolean;
  defaultValue: Expr | undefined;
}

export interface DictPattern extends NodeBase {
  kind: 'DictPattern';
  entries: PatternEntry[];
}

export interface ListPattern extends NodeBase {
  kind: 'ListPattern';
  entries: PatternEntry[];
}

export type Declaration =
  FnDecl | PipelineDecl | ToolDecl | SkillDecl | EvalPackDecl | StructDecl | EnumDecl | TypeAliasDecl | InterfaceDecl | ImplDecl | OverrideDecl;

// --------------------------------------------------------------------------------------- statements

export interface Block extends NodeBase {
  kind: 'Block';
  statements: Stmt[];
  /** False when the closing `}` is missing. */
  closed: boolean;
}

export interface IfStmt extends NodeBase {
  kind: 'If';
  condition: Expr | undefined;
  then: Block | undefined;
  otherwise: Block | IfStmt | undefined;
}

export interface ForStmt extends NodeBase {
  kind: 'For';
  pattern: BindingPattern | undefined;
  iterable: Expr | undefined;
  body: Block | undefined;
}

export interface WhileStmt extends NodeBase {
  kind: 'While';
  condition: Expr | undefined;
  body: Block | undefined;
}

export interface MatchArm extends NodeBase {
  kind: 'MatchArm';
  patterns: Expr[];
  guard: Expr | undefined;
  body: Block | undefined;
}

export interface MatchStmt extends NodeBase {
  kind: 'Match';
  subject: Expr | undefined;
  arms: MatchArm[];
}

export interface RetryStmt extends NodeBase {
  kind: 'Retry';
  count: Expr | undefined;
  body: Block | undefined;
}

export interface ParallelStmt extends NodeBase {
  kind: 'Parallel';
  mode: 'each' | 'settle' | undefined;
  subject: Expr | undefined;
  options: Expr | undefined;
  binding: Name[];
  body: Block | undefined;
  stream: boolean;
}

export interface SimpleStmt extends NodeBase {
  kind: 'Return' | 'Throw' | 'Yield' | 'Emit' | 'Break' | 'Continue';
  value: Expr | undefined;
}

export interface TryStmt extends NodeBase {
  kind: 'Try';
  body: Block | undefined;
  catchName: Name | undefined;
  catchType: TypeExpr | undefined;
  catchBody: Block | undefined;
  finallyBody: Block | undefined;
  /** `try* expr`. */
  starOperand: Expr | undefined;
}

export interface GuardStmt extends NodeBase {
  kind: 'Guard';
  condition: Expr | undefined;
  otherwise: Block | undefined;
}

export interface RequireStmt extends NodeBase {
  kind: 'Require';
  condition: Expr | undefined;
  message: Expr | undefined;
}

/** `deadline x {}`, `mutex {}`, `mutex(key) {}`, `defer {}`, `block {}`, `scope {}`, `spawn {}`, `cost_route {}`. */
export interface BlockStmt extends NodeBase {
  kind: 'BlockStmt';
  keyword: string;
  argument: Expr | undefined;
  body: Block | undefined;
}

export interface SelectCase extends NodeBase {
  kind: 'SelectCase';
  label: 'from' | 'timeout' | 'default';
  name: Name | undefined;
  expr: Expr | undefined;
  body: Block | undefined;
}

export interface SelectStmt extends NodeBase {
  kind: 'Select';
  cases: SelectCase[];
}

export interface AssignStmt extends NodeBase {
  kind: 'Assign';
  operator: string;
  target: Expr;
  value: Expr | undefined;
}

export interface ExprStmt extends NodeBase {
  kind: 'ExprStmt';
  expr: Expr;
}

/** A statement the parser could not read; kept so ranges stay contiguous and recovery is visible. */
export interface ErrorStmt extends NodeBase {
  kind: 'ErrorStmt';
  /** The call being read when the statement failed (`add(1, ⏎}`), with its arguments so far; `closed` is false. */
  partial: Call | undefined;
}

export type Stmt =
  | Declaration
  | ImportDecl
  | LetDecl
  | IfStmt
  | ForStmt
  | WhileStmt
  | MatchStmt
  | RetryStmt
  | ParallelStmt
  | SimpleStmt
  | TryStmt
  | GuardStmt
  | RequireStmt
  | BlockStmt
  | SelectStmt
  | AssignStmt
  | ExprStmt
  | ErrorStmt;

// -------------------------------------------------------------------------------------- expressions

export interface Identifier extends NodeBase {
  kind: 'Identifier';
  name: string;
}

export interface Literal extends NodeBase {
  kind: 'Int' | 'Float' | 'Duration' | 'Bool' | 'Nil';
  raw: string;
}

/** A piece of a string: literal text (raw source, escapes not processed) or an interpolated hole. */
export type StringPart = { kind: 'Text'; start: number; end: number } | { kind: 'Hole'; start: number; end: number; expr: Expr | undefined };

export interface StringLit extends NodeBase {
  kind: 'String';
  raw: boolean;
  triple: boolean;
  /** Empty for a string without holes in a lean parse (ParseOptions.lean) but for a module path. */
  parts: StringPart[];
  /** The decoded value when the string has no holes (escapes processed); undefined otherwise. '' in a lean parse (ParseOptions.lean) but for a module path. */
  value: string | undefined;
}

export interface ListLit extends NodeBase {
  kind: 'List';
  elements: Expr[];
}

export interface DictEntry extends NodeBase {
  kind: 'DictEntry';
  /** Identifier/keyword keys become Name; `"str"` keys StringLit; `[expr]` keys any Expr; undefined for `...spread`. */
  key: Name | StringLit | Expr | undefined;
  computed: boolean;
  spread: boolean;
  value: Expr | undefined;
}

export interface DictLit extends NodeBase {
  kind: 'Dict';
  entries: DictEntry[];
}

export interface StructLit extends NodeBase {
  kind: 'StructLit';
  name: Identifier;
  entries: DictEntry[];
}

export interface Closure extends NodeBase {
  kind: 'Closure';
  params: Param[];
  body: Block;
}

export interface FnExpr extends NodeBase {
  kind: 'FnExpr';
  params: Param[];
  returnType: TypeExpr | undefined;
  body: Block | undefined;
}

export interface Argument extends NodeBase {
  kind: 'Argument';
  name: Name | undefined;
  spread: boolean;
  value: Expr | undefined;
}

export interface Call extends NodeBase {
  kind: 'Call';
  callee: Expr;
  typeArgs: TypeExpr[];
  args: Argument[];
  /** False when the closing `)` is missing. */
  closed: boolean;
}

export interface Member extends NodeBase {
  kind: 'Member';
  object: Expr;
  optional: boolean;
  /** Undefined while the user has typed `a.` and nothing yet. */
  property: Name | undefined;
}

export interface Index extends NodeBase {
  kind: 'Index';
  object: Expr;
  optional: boolean;
  index: Expr | undefined;
}

export interface Slice extends NodeBase {
  kind: 'Slice';
  object: Expr;
  from: Expr | undefined;
  to: Expr | undefined;
}

export interface Unary extends NodeBase {
  kind: 'Unary';
  operator: string;
  operand: Expr | undefined;
}

export interface Binary extends NodeBase {
  kind: 'Binary';
  operator: string;
  left: Expr;
  right: Expr | undefined;
}

export interface Ternary extends NodeBase {
  kind: 'Ternary';
  condition: Expr;
  then: Expr | undefined;
  otherwise: Expr | undefined;
}

export interface RangeExpr extends NodeBase {
  kind: 'Range';
  from: Expr;
  to: Expr | undefined;
  exclusive: boolean;
}

/** Postfix `x?` (propagate an error Result). */
export interface TryPostfix extends NodeBase {
  kind: 'TryPostfix';
  operand: Expr;
}

export interface Paren extends NodeBase {
  kind: 'Paren';
  inner: Expr | undefined;
}

/** A statement used as an expression: `if`, `match`, `try`, `retry`, `parallel`, `deadline`, `spawn`, ... */
export interface StmtExpr extends NodeBase {
  kind: 'StmtExpr';
  stmt: Stmt;
}

export interface ErrorExpr extends NodeBase {
  kind: 'ErrorExpr';
}

export type Expr =
  | Identifier
  | Literal
  | StringLit
  | ListLit
  | DictLit
  | StructLit
  | Closure
  | FnExpr
  | Call
  | Member
  | Index
  | Slice
  | Unary
  | Binary
  | Ternary
  | RangeExpr
  | TryPostfix
  | Paren
  | StmtExpr
  | ErrorExpr;

export interface SourceFile extends NodeBase {
  kind: 'SourceFile';
  statements: Stmt[];
}

export type AnyNode =
  | SourceFile
  | Stmt
  | Expr
  | TypeExpr
  | Name
  | Param
  | TypeParam
  | Attribute
  | Argument
  | DictEntry
  | MatchArm
  | SelectCase
  | SkillEntry
  | StructField
  | EnumVariant
  | ShapeField
  | PatternEntry
  | DictPattern
  | ListPattern
  | Block;

/**
 * Calls `visit` for each direct child node of `node`, in source order. Generic over the node's fields so
 * it cannot fall out of step with the interfaces above. `skippedFields`: fields whose children are left out.
 */
export function forEachChild(node: AnyNode, visit: (child: AnyNode) => void, skippedFields?: readonly string[]): void {
  for (const key in node) {
    if (key === 'kind' || key === 'start' || key === 'end') continue;
    if (skippedFields?.includes(key)) continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === 'object') {
          if (typeof (item as { kind?: unknown }).kind === 'string' && (item as { kind: string }).kind !== 'Text') {
            if ((item as { kind: string }).kind === 'Hole') {
              const hole = item as { expr: Expr | undefined };
              if (hole.expr) visit(hole.expr);
            } else visit(item as AnyNode);
          }
        }
      }
    } else if (typeof (value as { kind?: unknown }).kind === 'string') {
      visit(value as AnyNode);
    }
  }
}

/** Kinds that never have child nodes (their fields are strings and offsets): walk() does not look into them. */
const LEAF_KINDS: ReadonlySet<string> = new Set(['Name', 'Identifier', 'Int', 'Float', 'Duration', 'Bool', 'Nil', 'LiteralType', 'ErrorType', 'ErrorExpr']);

/**
 * Visits `root` and every node below it, each parent before its children and children in source order, with an
 * explicit stack instead of recursion: an expression chain (`1 + 1 + …`, `a.b.b.…`, `f()()…`, an `else if`
 * ladder) nests as deep as it is long, and the parser bounds only real nesting (MAX_NESTING). Every walk over a
 * whole tree goes through here. `visit` returning false skips the node's children.
 */
export function walk(root: AnyNode, visit: (node: AnyNode) => boolean | void): void {
  const stack: AnyNode[] = [root];
  const push = (child: AnyNode): void => {
    stack.push(child);
  };
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (visit(node) === false) continue;
    if (LEAF_KINDS.has(node.kind)) continue;
    const from = stack.length;
    forEachChild(node, push);
    // The children were pushed in source order: reversed in place, so that the first child is popped next.
    for (let low = from, high = stack.length - 1; low < high; low++, high--) {
      const first = stack[low] as AnyNode;
      stack[low] = stack[high] as AnyNode;
      stack[high] = first;
    }
  }
}

/** The innermost chain of nodes containing `offset` (outermost first). End offsets are inclusive so a cursor right after a name still finds it. */
export function nodePathAt(root: AnyNode, offset: number): AnyNode[] {
  const path: AnyNode[] = [root];
  let current: AnyNode = root;
  for (;;) {
    let next: AnyNode | undefined;
    forEachChild(current, (child) => {
      if (!next && child.start <= offset && offset <= child.end && child.end > child.start) next = child;
    });
    if (!next) return path;
    path.push(next);
    current = next;
  }
}
