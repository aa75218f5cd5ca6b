// Namespace imports (`import * as ui from "std/ui"`, Harn 0.10) in the pure .harn feature modules:
// scopes, completion after `ui.`, hover and definition on `ui.member` (into the imported module, through
// namespaces re-exported by `pub import * as`), and the outline; and scoped imports (`import
// std::ui::{page}`, 0.10), whose module path is the segments joined by `/`. Parsing is pinned in parser.test.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { completionsAt } from '../../server/src/harn/completion';
import { definitionAt } from '../../server/src/harn/definition';
import { hoverAt } from '../../server/src/harn/hover';
import { exportedBindings, resolveName } from '../../server/src/harn/scope';
import { defined } from '../support/assertions';
import { memoryHost } from '../support/memoryHost';

const STD = '/ws/crates/harn-stdlib/src/stdlib';

const files: Record<string, string> = {
  [`${STD}/ui.harn`]: [
    '/** Renders a page. */',
    'pub fn page(title: string) -> string { return title }',
    'pub enum Tone { Plain, Accent }',
    'pub import * as forms from "./ui/forms"',
    'import * as hidden from "./ui/forms"',
    'pub import { field } from "./ui/forms"',
    'pub import "./ui/theme"',
    'fn private_helper() {}',
    '',
  ].join('\n'),
  [`${STD}/ui/forms.harn`]: '/** A form field. */\npub fn field(name: string) { return name }\n',
  [`${STD}/ui/theme.harn`]: 'pub const DARK = "dark"\n',
  '/ws/main.harn': [
    'import * as ui from "std/ui"',
    'let p = ui.page("t")',
    'let f = ui.forms.field("x")',
    'let t = ui.Tone.Accent',
    'let g = ui.field("y")',
    'let d = ui.DARK',
    '',
  ].join('\n'),
  '/ws/selective.harn': 'import { forms } from "std/ui"\nlet f = forms.field("x")\n',
};
const host = memoryHost(files);
const main = defined(host.load('/ws/main.harn'), 'main.harn');
const text = defined(files['/ws/main.harn'], 'main.harn text');

/** The offset of the `occurrence`-th `needle` in `source`, plus `delta`. */
function at(source: string, needle: string, delta = 0, occurrence = 0): number {
  let index = -1;
  for (let i = 0; i <= occurrence; i++) index = source.indexOf(needle, index + 1);
  assert.ok(index >= 0, `${needle} not found`);
  return index + delta;
}

/** `file:name` of the declaration the definition request lands on, or undefined. */
function definitionName(analysis: HarnAnalysis, file: string, offset: number): string | undefined {
  const def = definitionAt(analysis, file, offset, host);
  if (!def) return undefined;
  const source = defined(files[def.file], def.file);
  return `${def.file.replace(`${STD}/`, 'std:')}:${source.slice(def.start, def.end)}`;
}

describe('namespace imports', () => {
  test('parse without diagnostics; the name is a namespace binding, not a wildcard import', () => {
    assert.deepEqual(main.parsed.diagnostics, []);
    const ui = defined(resolveName(main.scopes, 'ui', at(text, 'ui.page')), 'the ui binding');
    assert.deepEqual([ui.kind, ui.modulePath, ui.nameNode.start, ui.nameNode.end], ['namespace', 'std/ui', 12, 14]);
    assert.deepEqual(main.scopes.wildcardImports, []);
    assert.deepEqual(
      main.scopes.imports.map((i) => i.namespace?.text),
      ['ui'],
    );
  });

  test('a module exports its `pub import * as` namespaces, never a plain one', () => {
    const ui = defined(host.load(`${STD}/ui.harn`), 'ui.harn');
    assert.deepEqual(
      exportedBindings(ui.file, ui.scopes).map((b) => `${b.kind} ${b.name}`),
      ['function page', 'enum Tone', 'namespace forms', 'import field'],
    );
  });

  test('completion after `ui.` offers the module exports, followed through re-exports', () => {
    const source = text + 'ui.';
    const analysis = new HarnAnalysis(source);
    const items = completionsAt(analysis, '/ws/main.harn', source.length, host, '/ws');
    assert.deepEqual(
      items.map((i) => `${i.kind} ${i.label} | ${i.detail ?? ''}`),
      [
        'function page | pub fn page(title: string) -> string',
        'enum Tone | pub enum Tone { Plain, Accent }',
        'module forms | pub import * as forms from "./ui/forms"',
        'function field | pub fn field(name: string)',
        'constant DARK | pub const DARK = "dark"',
      ],
    );
    const page = defined(items[0], 'the page item');
    assert.equal(page.documentation, '```harn\npub fn page(title: string) -> string\n```\n\nRenders a page.\n\n*from `crates/harn-stdlib/src/stdlib/ui.harn`*');
  });

  test('completion after a re-exported namespace and after a namespace enum', () => {
    const nested = new HarnAnalysis(text + 'ui.forms.');
    assert.deepEqual(
      completionsAt(nested, '/ws/main.harn', nested.text.length, host).map((i) => `${i.kind} ${i.label}`),
      ['function field'],
    );
    const variants = new HarnAnalysis(text + 'ui.Tone.');
    assert.deepEqual(
      completionsAt(variants, '/ws/main.harn', variants.text.length, host).map((i) => `${i.kind} ${i.label}`),
      ['enumMember Plain', 'enumMember Accent'],
    );
    // A half-typed member name still completes from the namespace.
    const partial = new HarnAnalysis(text + 'ui.pa');
    assert.ok(completionsAt(partial, '/ws/main.harn', partial.text.length, host).some((i) => i.label === 'page'));
  });

  test('bare completion offers the namespace name, not its members', () => {
    const labels = completionsAt(main, '/ws/main.harn', text.length, host).map((i) => `${i.kind} ${i.label}`);
    assert.ok(labels.includes('module ui'));
    assert.ok(!labels.some((l) => / (page|Tone|forms|DARK)$/.test(l)), labels.join(', '));
  });

  test('hover on `ui.page` shows the declaration in the imported module', () => {
    const hover = defined(hoverAt(main, '/ws/main.harn', at(text, 'page("t")', 1), host, '/ws'), 'the hover');
    assert.deepEqual(
      [hover.markdown, text.slice(hover.start, hover.end)],
      ['```harn\npub fn page(title: string) -> string\n```\n\nRenders a page.\n\n*from `crates/harn-stdlib/src/stdlib/ui.harn`*', 'page'],
    );
    const nested = defined(hoverAt(main, '/ws/main.harn', at(text, 'field("x")'), host, '/ws'), 'the nested hover');
    assert.equal(nested.markdown, '```harn\npub fn field(name: string)\n```\n\nA form field.\n\n*from `crates/harn-stdlib/src/stdlib/ui/forms.harn`*');
    const namespace = defined(hoverAt(main, '/ws/main.harn', at(text, 'ui.page'), host, '/ws'), 'the namespace hover');
    assert.equal(namespace.markdown, '```harn\nimport * as ui from "std/ui"\n```');
  });

  test('definition on a member goes into the module that declares it', () => {
    assert.equal(definitionName(main, '/ws/main.harn', at(text, 'page("t")')), 'std:ui.harn:page');
    assert.equal(definitionName(main, '/ws/main.harn', at(text, 'Tone.Accent')), 'std:ui.harn:Tone');
    assert.equal(definitionName(main, '/ws/main.harn', at(text, 'forms.field')), 'std:ui.harn:forms');
    assert.equal(definitionName(main, '/ws/main.harn', at(text, 'field("x")')), 'std:ui/forms.harn:field');
    // `pub import { field }` and `pub import "./ui/theme"` are followed to the declaration.
    assert.equal(definitionName(main, '/ws/main.harn', at(text, 'field("y")')), 'std:ui/forms.harn:field');
    assert.equal(definitionName(main, '/ws/main.harn', at(text, 'DARK')), 'std:ui/theme.harn:DARK');
    // The namespace name itself goes to the import; the path to the module file.
    assert.equal(definitionName(main, '/ws/main.harn', at(text, 'ui.page')), '/ws/main.harn:ui');
    assert.equal(definitionAt(main, '/ws/main.harn', at(text, '"std/ui"', 1), host)?.file, `${STD}/ui.harn`);
    // An unknown member, or a member of something that is not a namespace, goes nowhere.
    const other = new HarnAnalysis('import * as ui from "std/ui"\nlet x = ui.missing\nlet y = p.page\n');
    assert.equal(definitionAt(other, '/ws/main.harn', at(other.text, 'missing'), host), undefined);
    assert.equal(definitionAt(other, '/ws/main.harn', at(other.text, 'page'), host), undefined);
    // A non-pub namespace of the module is not reachable from outside.
    const hidden = new HarnAnalysis('import * as ui from "std/ui"\nlet x = ui.hidden.field\n');
    assert.equal(definitionAt(hidden, '/ws/main.harn', at(hidden.text, 'field'), host), undefined);
  });

  test('a re-exported namespace imported by name works as a namespace', () => {
    const selective = defined(host.load('/ws/selective.harn'), 'selective.harn');
    assert.equal(definitionName(selective, '/ws/selective.harn', at(selective.text, 'field')), 'std:ui/forms.harn:field');
    assert.equal(definitionName(selective, '/ws/selective.harn', at(selective.text, 'forms.')), 'std:ui.harn:forms');
    // And through a wildcard import of the module that re-exports it.
    const wildcard = new HarnAnalysis('import "std/ui"\nlet f = forms.field("x")\n');
    assert.equal(definitionName(wildcard, '/ws/main.harn', at(wildcard.text, 'field')), 'std:ui/forms.harn:field');
    const labels = completionsAt(wildcard, '/ws/main.harn', wildcard.text.length, host).map((i) => `${i.kind} ${i.label}`);
    assert.ok(labels.includes('module forms') && !labels.includes('module hidden'), labels.join(', '));
  });

  test('the outline lists a namespace import under its name', () => {
    const analysis = new HarnAnalysis(
      'import "std/json"\nimport { a } from "./a"\nimport * as ui from "std/ui"\npub import * as forms from "./forms"\nfn f() {}\n',
    );
    assert.deepEqual(
      analysis.outline.map((s) => [s.kind, s.name, s.detail, analysis.text.slice(s.start, s.end), analysis.text.slice(s.selectionStart, s.selectionEnd)]),
      [
        ['import', 'ui', 'std/ui', 'import * as ui from "std/ui"', 'ui'],
        ['import', 'forms', './forms', 'pub import * as forms from "./forms"', 'forms'],
        ['function', 'f', '()', 'fn f() {}', 'f'],
      ],
    );
  });
});

describe('scoped imports', () => {
  test('`import std::ui::{page}` resolves like `import { page } from "std/ui"`', () => {
    const source = 'import std::ui::{page, Tone}\nlet p = page("t")\n';
    const analysis = new HarnAnalysis(source);
    assert.deepEqual(analysis.parsed.diagnostics, []);
    assert.equal(resolveName(analysis.scopes, 'page', at(source, 'page("t")'))?.modulePath, 'std/ui');
    assert.equal(definitionName(analysis, '/ws/main.harn', at(source, 'page("t")')), 'std:ui.harn:page');
    const hover = defined(hoverAt(analysis, '/ws/main.harn', at(source, 'page("t")'), host, '/ws'), 'the hover');
    assert.match(hover.markdown, /^```harn\npub fn page\(title: string\) -> string\n```/);
    const labels = completionsAt(analysis, '/ws/main.harn', source.length, host).map((i) => `${i.kind} ${i.label}`);
    assert.ok(labels.includes('function page') && labels.includes('enum Tone'), labels.join(', '));
    assert.ok(!labels.includes('module forms'), 'only the selected names are imported');
  });
});
