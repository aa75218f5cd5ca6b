// The builtin table (server/src/harn/builtins.ts): it is well formed, every rendered signature is valid
// Harn, agent_emit_event has both of its forms, and it covers the builtins the Harn corpus calls most.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BUILTIN_LIST, BUILTINS, formatSignature } from '../../server/src/harn/builtins';
import type { Builtin, BuiltinSignature } from '../../server/src/harn/builtins';
import { parse } from '../../server/src/harn/parser';
import { forEachChild } from '../../server/src/harn/ast';
import type { AnyNode, BindingPattern, FnDecl } from '../../server/src/harn/ast';
import { defined } from '../support/assertions';
import { corpusFiles, corpusRoot, corpusSkip, readCorpus } from '../support/corpus';

function forms(b: Builtin): string[] {
  return b.signatures.map((s) => formatSignature(b, s));
}

/** Parses `<signature> {}` and returns the declaration, failing on any diagnostic. */
function parseSignature(b: Builtin, s: BuiltinSignature): FnDecl {
  const source = `${formatSignature(b, s)} {}`;
  const result = parse(source);
  assert.deepEqual(
    result.diagnostics.map((d) => d.message),
    [],
    `${source} is not valid Harn`,
  );
  assert.equal(result.file.statements.length, 1, source);
  const decl = defined(result.file.statements[0], source);
  assert.equal(decl.kind, 'FnDecl', source);
  return decl;
}

describe('builtin table', () => {
  test('names are unique and equal to their keys', () => {
    const seen = new Set<string>();
    for (const b of BUILTIN_LIST) {
      assert.ok(!seen.has(b.name), `duplicate builtin ${b.name}`);
      seen.add(b.name);
    }
    assert.equal(BUILTINS.size, BUILTIN_LIST.length);
    for (const [key, b] of BUILTINS) assert.equal(key, b.name);
    for (const b of BUILTIN_LIST) assert.equal(BUILTINS.get(b.name), b);
  });

  test('names, categories, docs and notes are well formed', () => {
    for (const b of BUILTIN_LIST) {
      assert.match(b.name, /^[A-Za-z_][A-Za-z0-9_]*$/, `bad name ${b.name}`);
      assert.match(b.category, /^[a-z][a-z-]*$/, `${b.name}: bad category ${b.category}`);
      assert.ok(b.doc.trim().length > 0, `${b.name}: empty doc`);
      assert.equal(b.doc, b.doc.trim(), `${b.name}: doc has surrounding whitespace`);
      assert.ok(!/[\r\n]/.test(b.doc), `${b.name}: doc is not a single line`);
      assert.ok(!b.doc.includes('`'), `${b.name}: doc is not plain text`);
      if (b.unconfirmed !== undefined) {
        assert.ok(b.unconfirmed.trim().length > 0, `${b.name}: empty unconfirmed note`);
        assert.ok(!/[\r\n]/.test(b.unconfirmed), `${b.name}: unconfirmed note is not a single line`);
      }
    }
  });

  test('every signature has ordered, well-typed parameters', () => {
    for (const b of BUILTIN_LIST) {
      assert.ok(b.signatures.length > 0, `${b.name}: no signature`);
      const rendered = new Set<string>();
      for (const s of b.signatures) {
        const text = formatSignature(b, s);
        assert.ok(!rendered.has(text), `${b.name}: the same form twice (${text})`);
        rendered.add(text);
        let sawOptional = false;
        const names = new Set<string>();
        s.params.forEach((p, i) => {
          assert.ok(!names.has(p.name), `${text}: parameter ${p.name} twice`);
          names.add(p.name);
          assert.ok(p.type !== undefined && p.type.trim().length > 0, `${text}: ${p.name} has no type`);
          if (p.rest) {
            assert.equal(i, s.params.length - 1, `${text}: rest parameter ${p.name} is not last`);
            assert.ok(!p.optional, `${text}: rest parameter ${p.name} is also optional`);
          } else if (p.optional) {
            sawOptional = true;
          } else {
            assert.ok(!sawOptional, `${text}: required ${p.name} follows an optional parameter`);
          }
        });
        assert.ok(s.returns !== undefined && s.returns.trim().length > 0, `${text}: no return type`);
      }
    }
  });

  test('formatSignature output re-parses as a Harn declaration with the same shape', () => {
    for (const b of BUILTIN_LIST) {
      for (const s of b.signatures) {
        const decl = parseSignature(b, s);
        const text = formatSignature(b, s);
        assert.equal(decl.name?.text, b.name, text);
        assert.equal(decl.params.length, s.params.length, text);
        decl.params.forEach((p, i) => {
          const want = defined(s.params[i], `${text}: parameter ${i}`);
          assert.equal(p.name.text, want.name, text);
          assert.equal(p.rest, want.rest === true, `${text}: rest flag of ${want.name}`);
          assert.equal(p.defaultValue !== undefined, want.optional === true && want.rest !== true, `${text}: default of ${want.name}`);
          assert.ok(p.type !== undefined && p.type.kind !== 'ErrorType', `${text}: type of ${want.name}`);
        });
        assert.ok(decl.returnType !== undefined && decl.returnType.kind !== 'ErrorType', `${text}: return type`);
      }
    }
  });

  test('formatSignature renders optional and rest parameters in Harn syntax', () => {
    const llmCall = BUILTINS.get('llm_call');
    assert.ok(llmCall);
    assert.deepEqual(forms(llmCall), ['fn llm_call(prompt: string, system: string | nil = nil, options: dict = nil) -> dict']);
    const pathJoin = BUILTINS.get('path_join');
    assert.ok(pathJoin);
    assert.deepEqual(forms(pathJoin), ['fn path_join(...parts: string) -> string']);
    const uuid = BUILTINS.get('uuid');
    assert.ok(uuid);
    assert.deepEqual(forms(uuid), ['fn uuid() -> string']);
  });
});

describe('agent_emit_event', () => {
  test('has the 3-argument and the handle-first 4-argument forms', () => {
    const b = BUILTINS.get('agent_emit_event');
    assert.ok(b, 'agent_emit_event is missing');
    assert.equal(b.signatures.length, 2);
    const byArity = new Map(b.signatures.map((s) => [s.params.length, s]));
    const three = byArity.get(3);
    const four = byArity.get(4);
    assert.ok(three, 'no 3-argument form');
    assert.ok(four, 'no 4-argument form');
    assert.deepEqual(
      three.params.map((p) => p.name),
      ['session_id', 'event_type', 'payload'],
    );
    // The newer stdlib passes an agent handle first; the other three arguments are unchanged.
    assert.deepEqual(
      four.params.map((p) => p.name),
      ['agent', 'session_id', 'event_type', 'payload'],
    );
    assert.ok(three.params.every((p) => !p.optional && !p.rest));
    assert.ok(four.params.every((p) => !p.optional && !p.rest));
    assert.deepEqual(forms(b), [
      'fn agent_emit_event(session_id: string, event_type: string, payload: dict) -> nil',
      'fn agent_emit_event(agent: HarnessAgent, session_id: string, event_type: string, payload: dict) -> nil',
    ]);
    for (const s of b.signatures) parseSignature(b, s);
    assert.equal(b.category, 'agent-event');
    assert.match(b.unconfirmed ?? '', /UNCONFIRMED/, 'the uncertain parts must be stated');
  });
});

// ------------------------------------------------------------------------------------ corpus coverage

/**
 * Names the corpus calls often that are not host builtins: functions of `std/...` modules the calling
 * files import wholesale (`import "std/x"`), which the count below cannot resolve. Each stays out of the
 * builtin table.
 */
const NOT_BUILTINS: ReadonlyMap<string, string> = new Map([
  // std/project
  ['project_deep_scan', 'std/project'],
  ['project_scan', 'std/project'],
  ['project_enrich', 'std/project'],
  ['project_deep_scan_status', 'std/project'],
  ['project_scan_tree', 'std/project'],
  // std/agent_state (wrappers over runtime-internal __agent_state_* builtins)
  ['agent_state_write', 'std/agent_state'],
  ['agent_state_read', 'std/agent_state'],
  // std/math
  ['normal_quantile', 'std/math'],
  ['clamp', 'std/math'],
  ['kmeans', 'std/math'],
  ['top_k', 'std/math'],
  // std/agents
  ['worker_request', 'std/agents'],
  ['worker_result', 'std/agents'],
  // std/context
  ['context', 'std/context'],
  ['section', 'std/context'],
  // std/text
  ['detect_compile_error', 'std/text'],
  ['has_got_want', 'std/text'],
  // the 0.10 agent stdlib (std/agent/loop_* modules imported by loop_tool_calls.harn)
  ['agent_tool_call_paradigm', 'std/agent/loop_*'],
  ['agent_tool_format', 'std/agent/loop_*'],
]);

interface FileFacts {
  /** Every name the file declares anywhere: functions, tools, pipelines, types, bindings, parameters, imports. */
  declared: Set<string>;
  /** Names declared at the top level, which an importing file can see. */
  topLevel: Set<string>;
  /** Wildcard imports of other corpus files (`import "lib/x"`), unresolved. */
  relativeImports: string[];
  /** Calls whose callee is a bare identifier, by name. */
  calls: Map<string, number>;
}

function bindingNames(pattern: BindingPattern | undefined, add: (name: string) => void): void {
  if (!pattern) return;
  if (pattern.kind === 'Name') add(pattern.text);
  else for (const entry of pattern.entries) add((entry.alias ?? entry.key).text);
}

function factsOf(source: string): FileFacts {
  const { file } = parse(source);
  const facts: FileFacts = { declared: new Set(), topLevel: new Set(), relativeImports: [], calls: new Map() };
  const declare = (name: string): void => {
    facts.declared.add(name);
  };
  for (const stmt of file.statements) {
    if (stmt.kind === 'LetDecl') bindingNames(stmt.pattern, (n) => facts.topLevel.add(n));
    else if (stmt.kind === 'ImportDecl') {
      const target = stmt.path?.value;
      if (stmt.names) for (const n of stmt.names) facts.topLevel.add(n.text);
      else if (target !== undefined && !target.startsWith('std/')) facts.relativeImports.push(target);
    } else if ('name' in stmt && stmt.name && typeof stmt.name === 'object' && 'text' in stmt.name) {
      facts.topLevel.add(stmt.name.text);
    }
  }
  const visit = (node: AnyNode): void => {
    switch (node.kind) {
      case 'FnDecl':
      case 'ToolDecl':
      case 'PipelineDecl':
      case 'StructDecl':
      case 'EnumDecl':
      case 'InterfaceDecl':
      case 'SkillDecl':
      case 'TypeAliasDecl':
      case 'EvalPackDecl':
        if (node.name) declare(node.name.text);
        break;
      case 'LetDecl':
      case 'For':
        bindingNames(node.pattern, declare);
        break;
      case 'Param':
        declare(node.name.text);
        break;
      case 'ImportDecl':
        for (const n of node.names ?? []) declare(n.text);
        for (const n of node.scopedPath ?? []) declare(n.text);
        if (node.namespace) declare(node.namespace.text);
        break;
      case 'Try':
        if (node.catchName) declare(node.catchName.text);
        break;
      case 'Parallel':
        for (const n of node.binding) declare(n.text);
        break;
      case 'SelectCase':
        if (node.name) declare(node.name.text);
        break;
      case 'Call':
        if (node.callee.kind === 'Identifier') {
          facts.calls.set(node.callee.name, (facts.calls.get(node.callee.name) ?? 0) + 1);
        }
        break;
      default:
        break;
    }
    forEachChild(node, visit);
  };
  visit(file);
  return facts;
}

/**
 * How often each bare name is called in the corpus from a file that neither declares it nor imports it
 * from another corpus file. Those are the host builtins (plus functions of wholesale-imported std modules).
 */
function undeclaredCallCounts(): Map<string, number> {
  const facts = new Map<string, FileFacts>();
  for (const relative of corpusFiles()) facts.set(relative, factsOf(readCorpus(relative)));
  const resolveImport = (from: string, target: string): string | undefined => {
    for (const candidate of [target, `${target}.harn`]) {
      const full = path.resolve(corpusRoot, path.dirname(from), candidate);
      if (existsSync(full) && statSync(full).isFile()) return path.relative(corpusRoot, full).split(path.sep).join('/');
    }
    return undefined;
  };
  const exported = (file: string, seen: Set<string>): Set<string> => {
    const out = new Set<string>();
    const f = facts.get(file);
    if (!f || seen.has(file)) return out;
    seen.add(file);
    for (const n of f.topLevel) out.add(n);
    for (const target of f.relativeImports) {
      const resolved = resolveImport(file, target);
      if (resolved) for (const n of exported(resolved, seen)) out.add(n);
    }
    return out;
  };
  const counts = new Map<string, number>();
  for (const [file, f] of facts) {
    const imported = exported(file, new Set());
    for (const [name, count] of f.calls) {
      if (f.declared.has(name) || imported.has(name)) continue;
      counts.set(name, (counts.get(name) ?? 0) + count);
    }
  }
  return counts;
}

describe('corpus coverage', () => {
  test('the 100 most-called undeclared names in the corpus are in the table', { skip: corpusSkip }, () => {
    const counts = undeclaredCallCounts();
    const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    assert.equal(ranked.length, 848, 'undeclared names called in the corpus');
    // Everything tied with the 100th name counts too, so the set does not depend on tie order.
    const threshold = defined(ranked[99], 'the 100th name')[1];
    const top = ranked.filter(([, count]) => count >= threshold);
    const missing = top.filter(([name]) => !BUILTINS.has(name) && !NOT_BUILTINS.has(name)).map(([name, count]) => `${name} (${count} calls)`);
    assert.deepEqual(missing, [], `frequently called names missing from the builtin table`);
    // Sanity: the count still finds the builtins it is meant to find.
    for (const name of ['println', 'log', 'len', 'llm_call', 'agent_loop', 'json_parse']) {
      assert.ok(
        top.some(([n]) => n === name),
        `${name} is no longer among the most-called names`,
      );
    }
  });

  test('names excluded as std-module functions are not in the table', () => {
    for (const name of NOT_BUILTINS.keys()) assert.ok(!BUILTINS.has(name), `${name} is both excluded and a builtin`);
  });
});
