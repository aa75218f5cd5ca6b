// Hover text for Harn: a declaration's signature and HarnDoc, a builtin's signatures and doc, a keyword's
// meaning, an import's target. Returns Markdown and the hovered range (offsets). Text from .harn files reaches
// the Markdown through text/markdown.ts: code as code blocks and spans, HarnDoc through userMarkdown (so a doc
// comment keeps its formatting but cannot show an image, raw HTML or a link other than http(s)/file).

import * as path from 'node:path';
import { code, codeBlock, userMarkdown } from '../text/markdown';
import { HarnAnalysis } from './analysis';
import * as A from './ast';
import { formatSignature } from './builtins';
import { LocatedBinding, ModuleHost, Target, targetAt } from './resolve';

export interface HoverResult {
  markdown: string;
  start: number;
  end: number;
}

/** By keyword; a Map, as every vocabulary looked up with text from a file. */
const KEYWORD_DOCS: ReadonlyMap<string, string> = new Map([
  ['pipeline', 'Declares a pipeline: a named entry point (`pipeline main(task) { … }`), optionally `extends` another.'],
  ['fn', 'Declares a function (`fn name(params) -> Type { … }`), or a function expression.'],
  ['tool', 'Declares a tool the agent loop can call; its body may start with `description "…"`.'],
  ['skill', 'Declares a skill: named fields such as `on_activate fn() { … }`.'],
  ['eval_pack', 'Declares an evaluation pack.'],
  ['let', 'Declares an immutable binding.'],
  ['var', 'Declares a mutable binding.'],
  ['const', 'Declares a constant (Harn 0.8+).'],
  ['parallel', '`parallel each xs { x -> … }` runs the body for every element concurrently; `settle` keeps failures as results.'],
  ['retry', '`retry n { … }` re-runs the block on error, up to n times.'],
  ['deadline', '`deadline 30s { … }` fails the block when it runs longer than the duration.'],
  ['guard', '`guard cond else { … }`: the else block must leave the scope when the condition is false.'],
  ['require', '`require cond, "message"` throws when the condition is false.'],
  ['defer', '`defer { … }` runs the block when the enclosing scope exits.'],
  ['mutex', '`mutex { … }` (or `mutex(key) { … }`, Harn 0.10) runs the block under mutual exclusion.'],
  ['select', '`select { x from ch { … } timeout 5s { … } default { … } }` waits for the first ready case.'],
  ['emit', '`emit value` emits a value from a stream generator.'],
  ['yield', '`yield value` produces the next value of a generator (`gen fn`).'],
  ['spawn', '`spawn { … }` starts a concurrent task and returns its handle.'],
  ['match', '`match x { pattern -> { … } }` compares against patterns in order; `_` matches anything.'],
  ['to', '`a to b` is an inclusive range; `a to b exclusive` excludes b.'],
  ['try', '`try { … } catch (e) { … } finally { … }`; a bare `try { … }` is a Result; `try* expr` propagates.'],
  [
    'import',
    '`import "path"` imports a module; `import { a, b } from "path"` imports selected names; `import * as ns from "path"` binds the module\'s exports to `ns`.',
  ],
  ['request_approval', 'Human-in-the-loop primitive (reserved keyword): asks a human to approve before continuing.'],
  ['ask_user', 'Human-in-the-loop primitive (reserved keyword): asks the user a question and waits for the answer.'],
  ['dual_control', 'Human-in-the-loop primitive (reserved keyword, Harn 0.10).'],
  ['escalate_to', 'Human-in-the-loop primitive (reserved keyword, Harn 0.10).'],
]);

export function hoverAt(analysis: HarnAnalysis, file: string, offset: number, host: ModuleHost, workspaceRoot?: string): HoverResult | undefined {
  const target = targetAt(analysis, file, offset, host);
  if (!target) return undefined;
  const markdown = renderTarget(target, file, workspaceRoot);
  return markdown ? { markdown, start: target.nameStart, end: target.nameEnd } : undefined;
}

function renderTarget(target: Target, file: string, workspaceRoot: string | undefined): string | undefined {
  switch (target.kind) {
    case 'binding':
      return renderBinding(target.located, file, workspaceRoot);
    case 'builtin': {
      const b = target.builtin;
      const signatures = b.signatures.map((s) => formatSignature(b, s)).join('\n');
      // Builtin docs and categories are ours (builtins.ts), so they are Markdown as written.
      const parts = [codeBlock(signatures, 'harn'), b.doc, `*builtin · ${b.category}*`];
      if (b.unconfirmed) parts.push(`UNCONFIRMED: ${b.unconfirmed}`);
      return parts.join('\n\n');
    }
    case 'keyword': {
      const doc = KEYWORD_DOCS.get(target.keyword);
      return doc ? `**${target.keyword}** (keyword)\n\n${doc}` : undefined;
    }
    case 'import': {
      const where = target.resolved
        ? code(displayPath(target.resolved, workspaceRoot))
        : target.refused
          ? `refused: ${code(displayPath(target.refused.file, workspaceRoot))} ${target.refused.reason}`
          : 'not found in the workspace';
      return `module ${code(target.importDecl.path?.value ?? '')} → ${where}`;
    }
  }
}

function displayPath(file: string, workspaceRoot: string | undefined): string {
  return workspaceRoot ? path.relative(workspaceRoot, file) || path.basename(file) : path.basename(file);
}

export function renderBinding(located: LocatedBinding, fromFile: string, workspaceRoot: string | undefined): string {
  const { analysis, binding } = located;
  const signature = declarationSignature(binding.declaration, binding.nameNode, analysis.text);
  const parts = [codeBlock(signature, 'harn')];
  const doc = docOf(binding.declaration);
  if (doc) parts.push(userMarkdown(doc));
  if (located.file !== fromFile) parts.push(`*from ${code(displayPath(located.file, workspaceRoot))}*`);
  return parts.join('\n\n');
}

function docOf(node: A.AnyNode): string | undefined {
  if ('doc' in node && typeof node.doc === 'string' && node.doc.length > 0) return node.doc;
  return undefined;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

function firstLine(text: string, max = 80): string {
  const [line = ''] = text.split(/\r?\n/); // split always yields at least one part
  const more = line.length < text.length;
  return line.length > max ? line.slice(0, max - 1) + '…' : more ? line + ' …' : line;
}

/** A declaration's header as Harn code: everything before its body, without attributes. */
export function declarationSignature(node: A.AnyNode, name: A.Name, source: string): string {
  const headerStart = (decl: A.DeclBase): number => decl.attributes.at(-1)?.end ?? decl.start;
  const slice = (from: number, to: number): string => collapse(source.slice(from, to));
  switch (node.kind) {
    case 'FnDecl':
    case 'PipelineDecl':
    case 'ToolDecl':
    case 'OverrideDecl':
      return slice(headerStart(node), node.body ? node.body.start : node.end);
    case 'SkillDecl':
      return slice(headerStart(node), node.bodyStart || node.end);
    case 'EvalPackDecl':
      return slice(headerStart(node), node.body ? node.body.start : node.end);
    case 'StructDecl':
    case 'EnumDecl':
    case 'InterfaceDecl':
    case 'ImplDecl':
    case 'TypeAliasDecl': {
      const text = source.slice(headerStart(node), node.end).trim();
      const lines = text.split(/\r?\n/);
      return lines.length <= 20 ? lines.join('\n') : lines.slice(0, 19).join('\n') + '\n  …\n}';
    }
    case 'LetDecl': {
      const head = slice(node.start, node.init ? node.init.start : node.end);
      return node.init ? `${head} ${firstLine(source.slice(node.init.start, node.init.end).trim())}` : head;
    }
    case 'Param':
      return `(parameter) ${slice(node.start, node.end)}`;
    case 'For':
    case 'Parallel':
      return `(loop variable) ${name.text}`;
    case 'Try':
      return `(caught error) ${name.text}`;
    case 'SelectCase':
      return `(received value) ${name.text}`;
    case 'ImportDecl':
      return slice(node.start, node.end);
    default:
      return name.text;
  }
}
