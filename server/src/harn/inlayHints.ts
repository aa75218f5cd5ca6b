// Inlay hints for Harn: the parameter's name before each positional argument that is a literal (`add(a: 1,
// b: 2)` reads better than `add(1, 2)`; a variable's own name usually says enough). The callee is resolved like a
// hover (a declaration in the file, an imported one, a namespace member, a builtin) and its parameters are the
// signature help's. Named and spread arguments get none, nor any after a spread (a named one takes its parameter out of the positional ones); a rest parameter names only the first argument it takes.
// Works on a broken file: whatever calls the partial AST holds.

import { HarnAnalysis } from './analysis';
import * as A from './ast';
import { ModuleHost } from './resolve';
import { calleeNameStart, calleeSignatures, fittingSignature } from './signatureHelp';

export interface ParameterHint {
  /** Where the hint goes: the argument's start. */
  offset: number;
  /** `name:`, or `...name:` for a rest parameter. */
  label: string;
}

interface HintedParam {
  name: string;
  rest: boolean;
}

const LITERALS = new Set(['Int', 'Float', 'Duration', 'Bool', 'Nil', 'String']);

/** A literal argument: a number, duration, bool, nil, string (holes or not), or a negated number. */
function isLiteral(expr: A.Expr | undefined): boolean {
  if (!expr) return false;
  if (LITERALS.has(expr.kind)) return true;
  return expr.kind === 'Unary' && (expr.operator === '-' || expr.operator === '+') && isLiteral(expr.operand);
}

/** The parameters of the form the call's positional arguments fit (the callee and forms as signature help finds them). */
function parametersOf(analysis: HarnAnalysis, file: string, call: A.Call, host: ModuleHost): HintedParam[] | undefined {
  const at = calleeNameStart(call.callee);
  const signatures = at === undefined ? undefined : calleeSignatures(analysis, file, at, host);
  if (!signatures) return undefined;
  const positional = call.args.filter((a) => !a.name && !a.spread).length;
  return signatures[fittingSignature(signatures, positional - 1)]?.parameters;
}

/** The hints of the calls that overlap [start, end), in source order. */
export function parameterHints(analysis: HarnAnalysis, file: string, start: number, end: number, host: ModuleHost): ParameterHint[] {
  const hints: ParameterHint[] = [];
  A.walk(analysis.file, (node) => {
    // Nodes wholly outside the range hold no call inside it.
    if (node.end < start || node.start > end) return false;
    if (node.kind !== 'Call' || !node.args.some((a) => !a.name && !a.spread && isLiteral(a.value))) return;
    const declared = parametersOf(analysis, file, node, host);
    if (!declared) return;
    // A parameter given by name is not one the positional arguments fill.
    const named = new Set(node.args.flatMap((a) => (a.name ? [a.name.text] : [])));
    const params = declared.filter((p) => !named.has(p.name));
    let index = 0;
    let restNamed = false;
    for (const arg of node.args) {
      // A spread fills an unknown number of positions: the arguments after it cannot be matched.
      if (arg.spread) break;
      if (arg.name) continue;
      const param = params[Math.min(index, params.length - 1)];
      const fits = param !== undefined && (index < params.length || param.rest);
      index++;
      if (!fits || !param.name || param.name === '_') continue;
      if (param.rest) {
        if (restNamed) continue;
        restNamed = true;
      }
      if (!arg.value || !isLiteral(arg.value) || arg.value.start < start || arg.value.start > end) continue;
      hints.push({ offset: arg.value.start, label: `${param.rest ? '...' : ''}${param.name}:` });
    }
  });
  // The walk meets an outer call before the calls in its arguments.
  return hints.sort((a, b) => a.offset - b.offset);
}
