// Boundary reports in `.harn` files, read from the AST rather than grepped: a `boundary: <id>` field of
// a dict literal whose value is a string literal, or a `const`/`let` bound to one, is a site; comments
// and strings never are. `agent_emit_event(…, "boundary_failure", {…})` payloads (3- and 4-argument
// forms) are checked for the required keys and a valid `kind`.

import { HarnAnalysis } from '../harn/analysis';
import * as A from '../harn/ast';
import { resolveName } from '../harn/scope';
import { TextRange } from './types';

/** The five failure kinds and who owns each (spec §3: "policy" iff capped). */
export const BOUNDARY_KINDS: ReadonlyMap<string, 'policy' | 'harness'> = new Map([
  ['dropped', 'harness'],
  ['unrecognized', 'harness'],
  ['truncated', 'harness'],
  ['killed', 'harness'],
  ['capped', 'policy'],
]);

export const REQUIRED_PAYLOAD_KEYS = ['boundary', 'kind', 'detail'] as const;

export interface HarnBoundaryReference {
  id: string;
  /** The string literal naming the id (quotes included), or the constant's name where it is used. */
  range: TextRange;
  /** The dict literal holding the `boundary:` field. */
  dict: TextRange;
  /** When the id comes through a constant: its name. */
  viaConstant?: string;
}

export interface HarnPayloadProblem {
  code: 'boundary_payload_incomplete' | 'invalid_boundary_kind';
  message: string;
  range: TextRange;
}

export interface HarnBoundaryScan {
  references: HarnBoundaryReference[];
  problems: HarnPayloadProblem[];
}

export function scanHarnBoundaries(analysis: HarnAnalysis): HarnBoundaryScan {
  const references: HarnBoundaryReference[] = [];
  const problems: HarnPayloadProblem[] = [];
  // A.walk, not recursion: an expression chain (`1 + 1 + …`) nests as deep as it is long.
  A.walk(analysis.file, (node) => {
    if (node.kind === 'Dict') {
      for (const entry of node.entries) {
        if (keyName(entry) !== 'boundary' || !entry.value) continue;
        const ref = boundaryReference(analysis, entry.value, node);
        if (ref) references.push(ref);
      }
    } else if (node.kind === 'Call') {
      checkEmission(node, problems);
    }
  });
  return { references, problems };
}

/** The key of a dict entry as text: `name:` or `"name":`. */
export function keyName(entry: A.DictEntry): string | undefined {
  if (entry.spread || entry.computed || !entry.key) return undefined;
  if (entry.key.kind === 'Name') return entry.key.text;
  if (entry.key.kind === 'String') return entry.key.value;
  return undefined;
}

function boundaryReference(analysis: HarnAnalysis, value: A.Expr, dict: A.DictLit): HarnBoundaryReference | undefined {
  const dictRange = { start: dict.start, end: dict.end };
  if (value.kind === 'String' && value.value !== undefined) {
    return { id: value.value, range: { start: value.start, end: value.end }, dict: dictRange };
  }
  if (value.kind === 'Identifier') {
    const binding = resolveName(analysis.scopes, value.name, value.start);
    const decl = binding?.declaration;
    if (decl?.kind === 'LetDecl' && decl.keyword !== 'var' && decl.init?.kind === 'String' && decl.init.value !== undefined) {
      return { id: decl.init.value, range: { start: value.start, end: value.end }, dict: dictRange, viaConstant: value.name };
    }
  }
  return undefined;
}

function isEmitCallee(callee: A.Expr): boolean {
  if (callee.kind === 'Identifier') return callee.name === 'agent_emit_event';
  // `harness.agent.emit_event(…)`, the newer spelling (UNCONFIRMED in the spec; accepted).
  return callee.kind === 'Member' && callee.property?.text === 'emit_event';
}

/** Checks a `boundary_failure` emission's payload when it is written as a dict literal. */
function checkEmission(call: A.Call, problems: HarnPayloadProblem[]): void {
  if (!isEmitCallee(call.callee)) return;
  const args = call.args.filter((a) => !a.name);
  if (args.length !== 3 && args.length !== 4) return;
  const eventType = args.at(-2)?.value;
  const payload = args.at(-1)?.value;
  if (eventType?.kind !== 'String' || eventType.value !== 'boundary_failure') return;
  if (payload?.kind !== 'Dict') return;
  const keys = new Map<string, A.DictEntry>();
  let hasSpread = false;
  for (const entry of payload.entries) {
    if (entry.spread) hasSpread = true;
    const name = keyName(entry);
    if (name) keys.set(name, entry);
  }
  // A spread may supply the missing keys: only report what is certainly absent.
  if (!hasSpread) {
    const missing = REQUIRED_PAYLOAD_KEYS.filter((k) => !keys.has(k));
    if (missing.length > 0) {
      problems.push({
        code: 'boundary_payload_incomplete',
        message: `boundary_failure payload lacks ${missing.map((k) => `\`${k}\``).join(', ')} (required: boundary, kind, detail); the runtime rejects it as a host_event_ingest failure`,
        range: { start: payload.start, end: payload.end },
      });
    }
  }
  const kind = keys.get('kind')?.value;
  if (kind) {
    for (const literal of stringLeaves(kind)) {
      // An empty string is a value still being typed: completion offers the kinds there.
      if (literal.value !== undefined && literal.value !== '' && !BOUNDARY_KINDS.has(literal.value)) {
        problems.push({
          code: 'invalid_boundary_kind',
          message: `\`${literal.value}\` is not a boundary failure kind (dropped, unrecognized, truncated, killed or capped)`,
          range: { start: literal.start, end: literal.end },
        });
      }
    }
  }
}

/**
 * The string literals an expression can evaluate to through `if`/`else`, ternaries and parentheses, in source
 * order. Iterative: an `else if` ladder is a chain as long as it is written, not nesting the parser bounds.
 */
function stringLeaves(expr: A.Expr): A.StringLit[] {
  const out: A.StringLit[] = [];
  const stack: A.Expr[] = [expr];
  for (let e = stack.pop(); e !== undefined; e = stack.pop()) {
    const next: A.Expr[] = [];
    if (e.kind === 'String') {
      if (e.value !== undefined) out.push(e);
    } else if (e.kind === 'Paren') {
      if (e.inner) next.push(e.inner);
    } else if (e.kind === 'Ternary') {
      if (e.then) next.push(e.then);
      if (e.otherwise) next.push(e.otherwise);
    } else if (e.kind === 'StmtExpr' && e.stmt.kind === 'If') {
      // The value of each branch of the ladder: the last expression statement of its block.
      for (let branch: A.IfStmt | undefined = e.stmt; branch;) {
        const value = blockValue(branch.then);
        if (value) next.push(value);
        const otherwise: A.Block | A.IfStmt | undefined = branch.otherwise;
        if (otherwise?.kind === 'If') branch = otherwise;
        else {
          const last = blockValue(otherwise);
          if (last) next.push(last);
          branch = undefined;
        }
      }
    }
    // The first alternative on top, so leaves come out in source order.
    for (const alternative of next.reverse()) stack.push(alternative);
  }
  return out;
}

/** The value a block evaluates to: its last statement when that is an expression. */
function blockValue(block: A.Block | undefined): A.Expr | undefined {
  const last = block?.statements.at(-1);
  return last?.kind === 'ExprStmt' ? last.expr : undefined;
}

/** Where the cursor is inside the string value of a `boundary:` or `kind:` dict field, if it is. */
export function boundaryFieldAt(analysis: HarnAnalysis, offset: number): { field: 'boundary' | 'kind'; literal: A.StringLit } | undefined {
  const path = A.nodePathAt(analysis.file, offset);
  for (let i = path.length - 1; i > 0; i--) {
    const node = path[i];
    if (node?.kind !== 'String') continue;
    const parent = path[i - 1];
    if (parent?.kind !== 'DictEntry' || parent.value !== node) return undefined;
    const name = keyName(parent);
    // Inside the quotes; at the end of the line too while the closing quote is not typed yet.
    const unterminated = node.end - node.start === 1 || analysis.text.charCodeAt(node.end - 1) !== 34;
    if ((name === 'boundary' || name === 'kind') && offset > node.start && (offset < node.end || unterminated)) {
      return { field: name, literal: node };
    }
    return undefined;
  }
  return undefined;
}
