// Hostile documents of every kind the language server routes, for the LSP fuzzer (test/support/lspFuzz.ts):
// mutated real files (the shared corpus, examples/demo), deep chains and nesting, binary garbage, huge lines,
// invalid UTF-8, CRLF/CR/BOM, prototype names, Markdown injection, traversal paths, deep JSON and TOML,
// duplicate keys. Everything is derived from one seeded random source, so a document is reproduced by its seed.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { corpusFiles, corpusRoot, readCorpus, repoRoot } from './corpus';
import { FRAGMENTS, mutate } from './fuzz';

/** A seeded random source with the helpers the generators need. */
export class Rand {
  constructor(readonly next: () => number) {}

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** A count from 1 up to `max`, mostly small: 60% under 64, 30% under 4,096, 10% up to `max`. */
  scale(max: number): number {
    const roll = this.next();
    const top = roll < 0.6 ? 63 : roll < 0.9 ? 4095 : max;
    return Math.max(1, Math.min(max, 1 + this.int(Math.max(1, top))));
  }
}

/** The document kinds the fuzzer writes; each maps to one of the server's (registry and funnel are fixed paths). */
export type FuzzKind = 'harn' | 'registry' | 'funnel' | 'rust' | 'transcript' | 'eventLog' | 'jsonl' | 'runRecord';

export const FUZZ_KINDS: readonly FuzzKind[] = ['harn', 'registry', 'funnel', 'rust', 'transcript', 'eventLog', 'jsonl', 'runRecord'];

/** A file written besides the document: a run record's transcript, an imported module, a symbolic link. */
export type Companion = { path: string; content: string | Buffer } | { path: string; symlinkTo: string };

export interface HostileDocument {
  kind: FuzzKind;
  /** Which generator made it, for the report (e.g. `harn/chain`). */
  generator: string;
  /** Relative to the workspace root, with `/`. */
  path: string;
  /** The bytes on disk (a Buffer for invalid UTF-8) or the text; an editor opens a Buffer decoded with U+FFFD. */
  content: string | Buffer;
  languageId: string;
  companions: Companion[];
}

/** The registry and funnel paths of the demo workspace (the server's defaults). */
export const REGISTRY_PATH = 'scripts/loud_boundaries.toml';
export const FUNNEL_PATH = 'crates/harn-vm/src/boundary.rs';

export interface GeneratorLimits {
  /** Largest generated document, in UTF-16 code units (roughly bytes). */
  maxChars: number;
  /** Where an outside-the-workspace file lives (symbolic links and absolute imports point there). */
  outsideDir: string;
}

/** Real files the generators start from. */
export interface Sources {
  harn: Array<readonly [string, string]>;
  registries: string[];
  funnels: string[];
  rust: string[];
  transcriptRows: string[];
  eventRows: string[];
  runRecords: string[];
}

const DEMO = path.join(repoRoot, 'examples', 'demo');

function readIf(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (accept(name)) out.push(full);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The corpus' `.harn` files when the shared corpus is present, and always examples/demo's; the demo's artifacts. */
export function loadSources(): Sources {
  const harn: Array<readonly [string, string]> = corpusFiles().map((f) => [f, readCorpus(f)] as const);
  for (const file of filesUnder(path.join(repoRoot, 'examples'), (n) => n.endsWith('.harn'))) {
    harn.push([path.relative(repoRoot, file), readFileSync(file, 'utf8')]);
  }
  const registries = [readFileSync(path.join(DEMO, REGISTRY_PATH), 'utf8')];
  const funnels = [readFileSync(path.join(DEMO, FUNNEL_PATH), 'utf8')];
  const upstreamRegistry = readIf(path.join(corpusRoot, 'harn-0.10', REGISTRY_PATH));
  const upstreamFunnel = readIf(path.join(corpusRoot, 'harn-0.10', FUNNEL_PATH));
  if (upstreamRegistry !== undefined) registries.push(upstreamRegistry);
  if (upstreamFunnel !== undefined) funnels.push(upstreamFunnel);
  const rust = filesUnder(path.join(DEMO, 'crates'), (n) => n.endsWith('.rs')).map((f) => readFileSync(f, 'utf8'));
  const lines = (accept: (name: string) => boolean): string[] =>
    filesUnder(path.join(DEMO, 'runs'), accept)
      .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
      .filter((l) => l.trim().startsWith('{'));
  return {
    harn,
    registries,
    funnels,
    rust,
    transcriptRows: lines((n) => n.startsWith('llm_transcript') && n.endsWith('.jsonl')),
    eventRows: lines((n) => n.startsWith('event_log') && n.endsWith('.jsonl')),
    runRecords: filesUnder(path.join(DEMO, 'runs'), (n) => n === 'run.json').map((f) => readFileSync(f, 'utf8')),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Vocabulary

/** Names that are properties of every plain object: a lookup table keyed by file text must not find them. */
export const PROTOTYPE_NAMES: readonly string[] = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  '__lookupSetter__',
  'propertyIsEnumerable',
  'toLocaleString',
  'then',
];

/** Text that tries to leave its quoting in Markdown, or that stresses positions and decoding. */
export const HOSTILE_STRINGS: readonly string[] = [
  ...PROTOTYPE_NAMES,
  '![x](https://evil.example/p.png)',
  '[click](command:workbench.action.quit)',
  '](command:workbench.action.quit)',
  '<img src="https://evil.example/i.png">',
  '<script>alert(1)</script>',
  '[a]: https://evil.example/ref',
  'javascript:alert(1)',
  '```',
  '````\n![y](https://evil.example/q.png)\n````',
  '~~~',
  '`',
  '\\',
  '\\`',
  '${',
  '"',
  "'",
  '\u0000',
  '\u0007',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  '\uD83D\uDE00',
  '\u202E',
  '\u2028',
  '\u2029',
  '\r',
  '\r\n',
  '\n\n',
  '../../../../../../etc/passwd',
  '/etc/passwd',
  '..',
  '.',
  '%2e%2e/%2e%2e/etc/passwd',
  'file:///etc/passwd',
  'C:\\Windows\\win.ini',
  '\\\\server\\share\\x',
  'https://evil.example/',
  'e\u0301',
  '中文',
  '',
  ' ',
];

const TOML_FRAGMENTS: readonly string[] = [
  '[[boundary]]\n',
  '[[audited]]\n',
  '[boundary]\n',
  'id = ',
  'title = ',
  'anchors = [',
  'test = ',
  'event = ',
  'marker = ',
  '"',
  "'",
  '"""',
  "'''",
  '[',
  ']',
  '[[',
  ']]',
  '{',
  '}',
  '=',
  '.',
  ',',
  '\n',
  '\r\n',
  '#',
  '\\u0000',
  '\\uD800',
  '\\U0010FFFF',
  '\\',
  'constructor',
  '__proto__',
  'constructor.x = 1\n',
  '__proto__ = { polluted = true }\n',
  '1979-05-27T07:32:00Z',
  'inf',
  'nan',
  '0x',
  '+',
  '1e999',
  '9223372036854775808',
  'true',
  '"crates/harn-vm/src/llm/response.rs"',
  '"../../../etc/passwd"',
  '"/etc/passwd"',
  '"![x](https://evil.example/p.png)"',
  '\uFEFF',
  '😀',
];

const RUST_FRAGMENTS: readonly string[] = [
  'BoundaryId::',
  'BoundaryId::ResponseContentExtraction',
  'BoundaryId::constructor',
  'BoundaryId::__proto__',
  'BoundaryId :: ',
  'BoundaryId::{',
  'impl BoundaryId {',
  'pub enum BoundaryId {',
  'pub const ALL: [BoundaryId; ',
  "pub fn as_str(self) -> &'static str {",
  '=> "',
  '=>',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  '"',
  '\\"',
  'r#"',
  '"#',
  'r##"',
  "'",
  "'\\u{10FFFF}'",
  "'a",
  '/*',
  '*/',
  '//',
  '///',
  '//!',
  '#![',
  '#[derive(Debug)]',
  'b"',
  'br#"',
  '\n',
  '\r\n',
  ';',
  ',',
  '::',
  'match self {',
  'Self::',
  '\uFEFF',
  '\u0000',
  '😀',
];

const JSON_FRAGMENTS: readonly string[] = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  '\\',
  '\\u',
  '\\ud800',
  '\\u0000',
  '"type":',
  '"type":"constructor"',
  '"__proto__":',
  '"constructor":',
  '"boundary_failure"',
  '"message"',
  '"tool_call"',
  '"tool_result"',
  'null',
  'true',
  '1e999',
  '-0',
  '123456789012345678901234567890',
  'NaN',
  '\n',
  '\r\n',
  '\r',
  '\n\n',
  ' ',
  '\uFEFF',
  '\u2028',
  '😀',
  '"../../../etc/passwd"',
  '"![x](https://evil.example/p.png)"',
];

/** Row and event types the schemas know, with prototype names and oddities mixed in. */
const ROW_TYPES: readonly string[] = [
  'system_prompt',
  'tool_schemas',
  'message',
  'provider_call_request',
  'provider_call_response',
  'tool_call',
  'tool_result',
  'agent_session_finalized',
  'agent_session_terminal',
  'transcript_compacted',
  'iteration_start',
  'iteration_end',
  'tool_call_update',
  'boundary_failure',
  'budget_exhausted',
  'loop_stuck',
  'hitl_requested',
  'judge_decision',
  'llm_call_log',
  'worker_update',
  'run_terminal',
  'typed_checkpoint',
  'context_manifest',
  ...PROTOTYPE_NAMES,
  '',
  'TYPE',
];

const BOUNDARY_KINDS: readonly string[] = ['dropped', 'truncated', 'killed', 'capped', ...PROTOTYPE_NAMES, ''];

function hostileString(r: Rand, limits: GeneratorLimits): string {
  if (r.chance(0.08)) return 'x'.repeat(r.scale(Math.min(limits.maxChars, 1 << 20)));
  if (r.chance(0.3)) return r.pick(HOSTILE_STRINGS) + r.pick(HOSTILE_STRINGS);
  return r.pick(HOSTILE_STRINGS);
}

/** Any UTF-16 code units: control characters, lone surrogates, private use, the BOM. */
function randomUnits(r: Rand, length: number): string {
  const parts: string[] = [];
  for (let i = 0; i < length; i++) {
    const roll = r.next();
    parts.push(String.fromCharCode(roll < 0.5 ? r.int(128) : roll < 0.8 ? r.int(0x800) : r.int(0x10000)));
  }
  return parts.join('');
}

function randomBytes(r: Rand, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = r.chance(0.3) ? 0x80 + r.int(0x80) : r.int(256);
  return bytes;
}

function capped(text: string, limits: GeneratorLimits): string {
  return text.length > limits.maxChars ? text.slice(0, limits.maxChars) : text;
}

/** `unit` repeated so that `prefix + unit × n + suffix` stays within the limit. */
function repeatWithin(unit: string, n: number, limits: GeneratorLimits, reserve = 0): string {
  const fit = Math.max(1, Math.floor((limits.maxChars - reserve) / Math.max(1, unit.length)));
  return unit.repeat(Math.min(n, fit));
}

/** Line endings rewritten (CRLF, CR, a mix), and a BOM at the start or in the middle, each at random. */
function lineEndings(r: Rand, text: string): string {
  let out = text;
  const roll = r.int(4);
  if (roll === 0) out = out.replace(/\r?\n/g, '\r\n');
  else if (roll === 1) out = out.replace(/\r?\n/g, '\r');
  else if (roll === 2) out = out.replace(/\r?\n/g, () => r.pick(['\n', '\r\n', '\r', '\n\r']));
  if (r.chance(0.4)) out = '\uFEFF' + out;
  if (r.chance(0.3)) {
    const at = r.int(out.length + 1);
    out = out.slice(0, at) + '\uFEFF' + out.slice(at);
  }
  return out;
}

/** Several rounds of the parser fuzzer's mutator with the given fragments. */
function mutated(r: Rand, text: string, fragments: readonly string[]): string {
  let out = text;
  for (let k = r.between(1, 3); k > 0; k--) out = mutate(out, r.next, r.chance(0.8) ? fragments : HOSTILE_STRINGS).text;
  return out;
}

/** Text encoded as Latin-1 where it can be (a Buffer with bytes that are invalid UTF-8). */
function latin1(text: string): Buffer {
  let out = '';
  for (const ch of text) out += ch.charCodeAt(0) <= 0xff && ch.length === 1 ? ch : '?';
  return Buffer.from(out, 'latin1');
}

/** Garbage: random code units, random bytes (invalid UTF-8), or NULs. */
function garbage(r: Rand, limits: GeneratorLimits): string | Buffer {
  const length = r.scale(Math.min(limits.maxChars, 200_000));
  const roll = r.int(3);
  if (roll === 0) return randomUnits(r, length);
  if (roll === 1) return randomBytes(r, length);
  return '\u0000'.repeat(length);
}

// ---------------------------------------------------------------------------------------------------------
// .harn

function harnChain(r: Rand, limits: GeneratorLimits): string {
  const n = r.scale(20_000);
  const sep = r.chance(0.2) ? '\n' : '';
  const forms: Array<() => string> = [
    () => 'let x = 1' + repeatWithin(`${sep} + 1`, n, limits, 16),
    () => 'let x = a' + repeatWithin(`${sep}.b`, n, limits, 16),
    () => 'let x = f' + repeatWithin('()', n, limits, 16),
    () => 'let x = a' + repeatWithin('[0]', n, limits, 16),
    () => 'let x = a' + repeatWithin('?.b', n, limits, 16),
    () => 'let x = ' + repeatWithin(`a ? b :${sep} `, n, limits, 16) + 'c',
    () => 'let x = 1' + repeatWithin(' |> f', n, limits, 16),
    () => 'let x = a' + repeatWithin(' ?? a', n, limits, 16),
    () => 'let x = a' + repeatWithin(' && b || c', n, limits, 16),
    () => 'let x = ' + repeatWithin('!', n, limits, 16) + 'x',
    () => 'let x = ' + repeatWithin('- ', n, limits, 16) + 'x',
    () => 'if a {}' + repeatWithin(' else if a {}', n, limits, 16),
    () => 'let x = "' + repeatWithin('${a}', n, limits, 16) + '"',
    () => 'f(' + repeatWithin('1, ', n, limits, 16) + ')',
    () => 'let x = [' + repeatWithin('1, ', n, limits, 16) + ']',
    () => 'match x {\n' + repeatWithin('  1 -> 2\n', n, limits, 16) + '}',
    () => repeatWithin('let a = 1\n', n, limits),
    () => 'let s = ' + repeatWithin('"a" + ', n, limits, 16) + '"b"',
  ];
  const body = r.pick(forms)();
  return r.chance(0.5) ? `pipeline main(task) {\n  ${body}\n}\n` : body + '\n';
}

function harnNesting(r: Rand, limits: GeneratorLimits): string {
  const n = r.scale(20_000);
  const pairs: Array<readonly [string, string, string]> = [
    ['let x = ', '(', ')'],
    ['let x = ', '[', ']'],
    ['let x = ', '{a: ', '}'],
    ['', 'fn f() {\n', '}\n'],
    ['', 'if a {\n', '}\n'],
    ['let x = ', '{ x -> ', ' }'],
    ['let x = "', '${"', '"}'],
    ['let t: ', 'list<', '>'],
    ['', '/* ', ' */'],
    ['let x = ', 'f(', ')'],
    ['', '@attr ', ''],
  ];
  const [head, open, close] = r.pick(pairs);
  const opens = repeatWithin(open, n, limits, 32);
  const count = opens.length / open.length;
  const closes = r.chance(0.8) ? close.repeat(r.chance(0.8) ? count : r.int(count + 1)) : '';
  return head + opens + 'x' + closes + '\n';
}

function harnHugeLine(r: Rand, limits: GeneratorLimits): string {
  const n = Math.max(1, r.between(Math.floor(limits.maxChars / 8), limits.maxChars) - 32);
  const forms: Array<() => string> = [
    () => `let s = "${'x'.repeat(n)}"`,
    () => `// ${randomUnits(r, Math.min(n, 1 << 20))}`,
    () => `let ${'a'.repeat(n)} = 1`,
    () => '{'.repeat(n),
    () => `let s = """${'\\'.repeat(n)}`,
    () => `/** ${'*'.repeat(n)}`,
    () => 'let x = 1 ' + '+ 1 '.repeat(Math.floor(n / 4)),
  ];
  return r.pick(forms)() + (r.chance(0.5) ? '\n' : '');
}

function harnHostileNames(r: Rand): string {
  const name = (): string => r.pick(PROTOTYPE_NAMES);
  const lines = [
    `import { ${name()}, ${name()} } from "./${name()}"`,
    `import "./${name()}"`,
    `/** ${r.pick(HOSTILE_STRINGS)} */`,
    `pub fn ${name()}(${name()}: ${name()}) -> ${name()} {`,
    `  let ${name()} = ${name()}.${name()}`,
    `  return ${name()}[${JSON.stringify(name())}]`,
    '}',
    `struct ${name()} { ${name()}: int, ${name()}: string }`,
    `enum ${name()} { ${name()}, ${name()}(int) }`,
    `interface ${name()} { fn ${name()}() -> int }`,
    `type ${name()} = ${name()}`,
    `const ${name()} = "${name()}"`,
    `tool ${name()}(${name()}) { description "${r.pick(HOSTILE_STRINGS).replace(/"/g, '')}" }`,
    `pipeline ${name()}(task) extends ${name()} {`,
    `  ${name()}(${name()}: 1)`,
    `  agent_emit_event("s", "boundary_failure", {boundary: "${name()}", kind: "${r.pick(BOUNDARY_KINDS)}", owner: "${name()}"})`,
    `  let d = {${name()}: 1, "${name()}": 2, boundary: "${name()}"}`,
    `  ${name()}.${name()}.${name()}()`,
    '}',
  ];
  return lines.filter(() => r.chance(0.85)).join('\n') + '\n';
}

function harnMarkdown(r: Rand): string {
  const s = (): string => r.pick(HOSTILE_STRINGS);
  const doc = [
    '/**',
    ` * ${s()} ${s()}`,
    ' * ![remote](https://evil.example/p.png)',
    ' * [run](command:workbench.action.quit) <img src=x onerror=alert(1)>',
    ' * ```',
    ` * ${s()}`,
    ' * ```',
    ' * ````harn',
    ' * [ref]: command:x',
    ' */',
  ];
  const decl = r.pick([
    'struct S {\n  /*\n```\n![x](https://evil.example/s.png)\n*/\n  a: int\n}',
    'enum E {\n  A, /* ``` */ B\n}',
    'interface I {\n  /*\n```\n*/\n  fn f() -> int\n}',
    'pub fn f(a: int) -> string {\n  return "${a}"\n}',
    `pipeline main(task) {\n  let x = "${s().replace(/"/g, '')}"\n}`,
    `import "${s().replace(/"/g, '')}"\nfn g() {}`,
  ]);
  const use = '\nfn use_it() {\n  f(1)\n  let s = S { a: 1 }\n  let e = E.A\n}\n';
  return doc.filter(() => r.chance(0.8)).join('\n') + '\n' + decl + use;
}

function harnImports(r: Rand, step: string, limits: GeneratorLimits): { text: string; companions: Companion[] } {
  const dir = `pipelines/fz${step}`;
  const companions: Companion[] = [];
  const imports: string[] = [];
  const roll = r.int(5);
  if (roll === 0) {
    // A cycle: the document imports a, a imports b, b imports a and the document.
    companions.push({ path: `${dir}/a.harn`, content: `import { b } from "./b"\nimport "./main"\npub fn a() -> int {\n  return b()\n}\n` });
    companions.push({ path: `${dir}/b.harn`, content: `import { a } from "./a"\npub fn b() -> int {\n  return a()\n}\n` });
    imports.push('import { a } from "./a"', 'import "./main"');
  } else if (roll === 1) {
    // A long chain of modules re-exporting each other.
    const n = r.scale(200);
    for (let i = 0; i < n; i++) companions.push({ path: `${dir}/m${i}.harn`, content: `pub import { f } from "./m${i + 1}"\n` });
    companions.push({ path: `${dir}/m${n}.harn`, content: 'pub fn f() -> int {\n  return 1\n}\n' });
    imports.push('import { f } from "./m0"');
  } else if (roll === 2) {
    // A symbolic link that leads out of the workspace, and absolute and `..` paths out of it.
    companions.push({ path: `${dir}/outside.harn`, symlinkTo: path.join(limits.outsideDir, 'secret.harn') });
    imports.push('import { secret } from "./outside"', `import { secret } from "${path.join(limits.outsideDir, 'secret')}"`);
    imports.push(`import "${'../'.repeat(r.between(1, 12))}outside/secret"`);
  } else if (roll === 3) {
    imports.push(
      `import "${hostileString(r, limits).replace(/["\n\r]/g, '')}"`,
      'import "std/agent/chat"',
      'import "std/__proto__"',
      'import "std/../../../../etc"',
    );
  } else {
    companions.push({ path: `${dir}/${r.pick(PROTOTYPE_NAMES)}.harn`, content: 'pub fn constructor() {}\npub fn __proto__() {}\n' });
    imports.push('import { constructor, __proto__ } from "./constructor"', 'import { toString } from "./__proto__"');
  }
  const text = imports.join('\n') + '\n\npipeline main(task) {\n  let x = a()\n  f()\n  secret()\n  constructor()\n}\n';
  return { text, companions };
}

function generateHarn(r: Rand, src: Sources, step: string, limits: GeneratorLimits): HostileDocument {
  const where = r.chance(0.5) ? `crates/harn-stdlib/src/stdlib/fz/f${step}.harn` : `pipelines/fz${step}/main.harn`;
  const base = (generator: string, content: string | Buffer, companions: Companion[] = []): HostileDocument => ({
    kind: 'harn',
    generator,
    path: where,
    content: typeof content === 'string' ? capped(content, limits) : content,
    languageId: 'harn',
    companions,
  });
  const corpus = (): string => r.pick(src.harn)[1];
  const roll = r.int(20);
  if (roll < 7) return base('harn/corpus-mutation', mutated(r, corpus(), FRAGMENTS));
  // The gate parses only `.harn` files that say `boundary`: half the deep ones do.
  const site = (): string => (r.chance(0.5) ? 'let d = {boundary: "chat_turn_cap", kind: "capped"}\n' : '');
  if (roll < 9) return base('harn/chain', site() + harnChain(r, limits));
  if (roll < 10) return base('harn/nesting', site() + harnNesting(r, limits));
  if (roll < 11) return base('harn/binary', garbage(r, limits));
  if (roll < 12) return base('harn/huge-line', harnHugeLine(r, limits));
  if (roll < 13) return base('harn/line-endings', lineEndings(r, r.chance(0.5) ? corpus() : mutated(r, corpus(), FRAGMENTS)));
  if (roll < 14) return base('harn/latin1', latin1(corpus().replace(/e/g, () => (r.chance(0.1) ? 'é' : 'e'))));
  if (roll < 16) return base('harn/prototype-names', harnHostileNames(r));
  if (roll < 17) return base('harn/markdown', harnMarkdown(r));
  if (roll < 19) {
    const { text, companions } = harnImports(r, step, limits);
    return { ...base('harn/imports', text, companions), path: `pipelines/fz${step}/main.harn` };
  }
  return base('harn/corpus', corpus());
}

// ---------------------------------------------------------------------------------------------------------
// The registry (TOML)

function tomlString(r: Rand, limits: GeneratorLimits): string {
  const s = hostileString(r, limits);
  const roll = r.int(4);
  if (roll === 0) return JSON.stringify(s);
  if (roll === 1) return `'${s.replace(/['\n\r]/g, '')}'`;
  if (roll === 2) return `"""${s.replace(/"""/g, '')}"""`;
  return `"${s}"`; // unescaped: often invalid TOML
}

function registryEntry(r: Rand, ids: readonly string[], limits: GeneratorLimits): string {
  const table = r.chance(0.75) ? '[[boundary]]' : r.pick(['[[audited]]', '[[constructor]]', '[[__proto__]]', '[boundary]', '[[boundary.__proto__]]']);
  const anchors = (): string => {
    if (r.chance(0.1)) return `[${repeatWithin('"crates/harn-vm/src/llm/response.rs", ', r.scale(100_000), limits)}]`;
    const list: string[] = [];
    for (let k = r.between(0, 4); k > 0; k--) list.push(r.chance(0.5) ? '"crates/harn-vm/src/llm/response.rs"' : tomlString(r, limits));
    return `[${list.join(', ')}]`;
  };
  const fields: string[] = [
    `id = ${r.chance(0.5) ? JSON.stringify(r.pick(ids)) : tomlString(r, limits)}`,
    `title = ${tomlString(r, limits)}`,
    `drops = ${tomlString(r, limits)}`,
    `was_silent = ${r.pick(['true', 'false', '"yes"', '1', '{}'])}`,
    `event = ${r.pick(['"agent_event:boundary_failure"', '"agent_event:budget_exhausted"', tomlString(r, limits)])}`,
    `anchors = ${anchors()}`,
    `test = ${r.chance(0.5) ? '"crates/harn-vm/src/llm/response_tests.rs"' : tomlString(r, limits)}`,
    `marker = ${tomlString(r, limits)}`,
    `notes = ${tomlString(r, limits)}`,
    `${r.pick(PROTOTYPE_NAMES)} = ${tomlString(r, limits)}`,
    `${r.pick(PROTOTYPE_NAMES)}.${r.pick(PROTOTYPE_NAMES)} = 1`,
    `__proto__ = { polluted = true, id = "x" }`,
  ];
  const chosen = fields.filter((_f, i) => (i < 7 ? r.chance(0.85) : r.chance(0.15)));
  if (r.chance(0.1)) chosen.push(chosen[0] ?? 'id = "dup"'); // a key twice in one table
  return `${table}\n${chosen.join('\n')}\n`;
}

function registryDeep(r: Rand, limits: GeneratorLimits): string {
  const n = r.scale(20_000);
  const roll = r.int(5);
  if (roll === 0) return `x = ${repeatWithin('{ a = ', n, limits, 16)}1${' }'.repeat(Math.min(n, Math.floor(limits.maxChars / 8)))}\n`;
  if (roll === 1) return `x = ${repeatWithin('[', n, limits, 16)}${']'.repeat(Math.min(n, limits.maxChars))}\n`;
  if (roll === 2) return `[${repeatWithin('a.', n, limits, 16)}b]\nx = 1\n`;
  if (roll === 3) return `${repeatWithin('a.', n, limits, 16)}b = 1\n`;
  return `[[boundary]]\nid = "deep"\nanchors = ${repeatWithin('[', n, limits, 16)}\n`;
}

function generateRegistry(r: Rand, src: Sources, limits: GeneratorLimits): HostileDocument {
  const base = (generator: string, content: string | Buffer): HostileDocument => ({
    kind: 'registry',
    generator,
    path: REGISTRY_PATH,
    content: typeof content === 'string' ? capped(content, limits) : content,
    languageId: 'toml',
    companions: [],
  });
  const original = r.pick(src.registries);
  const ids = [...original.matchAll(/^id = "([^"]*)"/gm)].map((m) => m[1] ?? '').concat(PROTOTYPE_NAMES);
  const roll = r.int(10);
  if (roll < 4) return base('registry/mutation', mutated(r, original, TOML_FRAGMENTS));
  if (roll < 7) {
    const entries: string[] = [];
    for (let k = r.scale(r.chance(0.9) ? 50 : 3000); k > 0; k--) entries.push(registryEntry(r, ids, limits));
    return base('registry/generated', (r.chance(0.5) ? original + '\n' : '') + entries.join('\n'));
  }
  if (roll < 8) return base('registry/deep', registryDeep(r, limits));
  if (roll < 9) return base('registry/line-endings', lineEndings(r, original));
  return base('registry/binary', garbage(r, limits));
}

// ---------------------------------------------------------------------------------------------------------
// Rust: the funnel and other sources the gate scans

function rustIdent(r: Rand): string {
  return r.pick(['ResponseContentExtraction', 'ChatTurnCap', 'Unknown', 'A', '_', 'r#match', ...PROTOTYPE_NAMES, 'Ünïcode', '😀']);
}

function generatedFunnel(r: Rand, limits: GeneratorLimits): string {
  const n = r.scale(r.chance(0.9) ? 100 : 5000);
  const variants: string[] = [];
  for (let i = 0; i < n; i++) variants.push(r.chance(0.2) ? rustIdent(r) : `V${i}`);
  const strings = variants.map((v) => (r.chance(0.8) ? v.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase() : hostileString(r, limits)));
  const doc = r.chance(0.5) ? `/// ${hostileString(r, limits)}\n` : '';
  return [
    '#[derive(Clone, Copy, Debug, PartialEq, Eq)]',
    'pub enum BoundaryId {',
    ...variants.map((v) => `    ${doc}${v},`),
    '}',
    '',
    'impl BoundaryId {',
    `    pub const ALL: [BoundaryId; ${r.chance(0.8) ? n : r.pick(['0', '99999999999999999999', '-1', 'N'])}] = [`,
    ...variants.map((v) => `        BoundaryId::${v},`),
    '    ];',
    '',
    "    pub fn as_str(self) -> &'static str {",
    '        match self {',
    ...variants.map((v, i) => `            BoundaryId::${v} => ${JSON.stringify(strings[i] ?? '')},`),
    '        }',
    '    }',
    '}',
    '',
  ].join(r.chance(0.2) ? '\r\n' : '\n');
}

function rustSites(r: Rand, limits: GeneratorLimits): string {
  const lines: string[] = ['use crate::boundary::BoundaryId;', ''];
  for (let k = r.scale(500); k > 0; k--) {
    const id = rustIdent(r);
    lines.push(
      r.pick([
        `report(BoundaryId::${id});`,
        `let b = BoundaryId::${id}.as_str();`,
        `// BoundaryId::${id}`,
        `let s = "BoundaryId::${id}";`,
        `let s = r#"BoundaryId::${id}"#;`,
        `use BoundaryId::{${id}, ${rustIdent(r)}};`,
        `BoundaryId ::\n    ${id}`,
        `OtherBoundaryId::${id},`,
        `match x { BoundaryId::${id} => 1, _ => 2 }`,
        `/* ${hostileString(r, limits)} */ BoundaryId::${id}`,
        `let c = '${r.pick(['a', '\\u{0}', "\\'", '"'])}';`,
        `r${'#'.repeat(r.between(1, 300))}"`,
      ]),
    );
  }
  return lines.join('\n') + '\n';
}

function rustDeep(r: Rand, limits: GeneratorLimits): string {
  const n = r.scale(50_000);
  return r.pick([
    () => repeatWithin('/* ', n, limits) + 'BoundaryId::A',
    () => 'fn f() ' + repeatWithin('{', n, limits) + 'BoundaryId::A' + '}'.repeat(r.int(Math.min(n, limits.maxChars))),
    () => 'impl BoundaryId {' + repeatWithin('{', n, limits) + 'pub fn as_str(self) -> &\'static str { match self { BoundaryId::A => "a" } }',
    () => `let s = "${'x'.repeat(Math.min(limits.maxChars, n * 64))}`,
  ])();
}

function generateRust(r: Rand, src: Sources, step: string, limits: GeneratorLimits, funnel: boolean): HostileDocument {
  const base = (generator: string, content: string | Buffer): HostileDocument => ({
    kind: funnel ? 'funnel' : 'rust',
    generator,
    path: funnel ? FUNNEL_PATH : `crates/harn-vm/src/fz${step}.rs`,
    content: typeof content === 'string' ? capped(content, limits) : content,
    languageId: 'rust',
    companions: [],
  });
  const original = funnel ? r.pick(src.funnels) : r.pick(src.rust);
  const prefix = funnel ? 'funnel' : 'rust';
  const roll = r.int(10);
  if (roll < 4) return base(`${prefix}/mutation`, mutated(r, original, RUST_FRAGMENTS));
  if (roll < 6) return base(`${prefix}/generated`, funnel ? generatedFunnel(r, limits) : rustSites(r, limits));
  if (roll < 7) return base(`${prefix}/sites`, rustSites(r, limits));
  if (roll < 8) return base(`${prefix}/deep`, rustDeep(r, limits));
  if (roll < 9) return base(`${prefix}/line-endings`, lineEndings(r, original));
  return base(`${prefix}/binary`, garbage(r, limits));
}

// ---------------------------------------------------------------------------------------------------------
// JSONL artifacts: transcripts, event logs, other JSONL

/** A JSON value that is hostile: deep, huge, a prototype name, an extreme number, an odd string. */
function hostileValue(r: Rand, limits: GeneratorLimits): string {
  const roll = r.int(10);
  const depth = (): number => r.scale(Math.min(20_000, Math.floor(limits.maxChars / 8)));
  if (roll === 0) {
    const d = depth();
    return '['.repeat(d) + ']'.repeat(d);
  }
  if (roll === 1) {
    const d = depth();
    return '{"a":'.repeat(d) + '1' + '}'.repeat(d);
  }
  if (roll === 2) return JSON.stringify('x'.repeat(r.scale(Math.min(limits.maxChars, 1 << 20))));
  if (roll === 3) return r.pick(['1e999', '-0', '123456789012345678901234567890', '-1', '0.5', '9007199254740993', '1E-400', '-1e308']);
  if (roll === 4) return JSON.stringify(r.pick(PROTOTYPE_NAMES));
  if (roll === 5) return r.pick(['"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"\\u2028"', '"\\uFEFF"']);
  if (roll === 6) return `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}`;
  if (roll === 7) return r.pick(['null', 'true', '[]', '{}', '""', '[null]']);
  return JSON.stringify(hostileString(r, limits));
}

/** Replaces, adds or removes keys of one row, on its text (so duplicate and prototype keys survive). */
function mutateRow(r: Rand, row: string, limits: GeneratorLimits): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row);
  } catch {
    return row;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return row;
  const entries: Array<[string, string]> = Object.entries(parsed).map(([k, v]) => [JSON.stringify(k), JSON.stringify(v)]);
  for (let k = r.between(1, 3); k > 0; k--) {
    const roll = r.int(7);
    const at = r.int(entries.length + 1);
    if (roll === 0 && entries.length > 0) entries.splice(r.int(entries.length), 1);
    else if (roll === 1) entries.splice(at, 0, ['"type"', JSON.stringify(r.pick(ROW_TYPES))]);
    else if (roll === 2) entries.splice(at, 0, [JSON.stringify(r.pick(PROTOTYPE_NAMES)), hostileValue(r, limits)]);
    else {
      const target = entries[r.int(entries.length)];
      if (target) target[1] = hostileValue(r, limits);
    }
  }
  return `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`;
}

function boundaryFailureRow(r: Rand, index: number, limits: GeneratorLimits): string {
  const fields = [
    `"index":${index}`,
    '"type":"boundary_failure"',
    `"session_id":${JSON.stringify(r.pick(['s-1', ...PROTOTYPE_NAMES]))}`,
    `"boundary":${JSON.stringify(r.pick(['response_content_extraction', 'chat_turn_cap', ...PROTOTYPE_NAMES]))}`,
    `"kind":${JSON.stringify(r.pick(BOUNDARY_KINDS))}`,
    `"owner":${JSON.stringify(r.pick(['harness', 'policy', ...PROTOTYPE_NAMES]))}`,
    `"detail":${hostileValue(r, limits)}`,
    `"excerpt":${JSON.stringify(hostileString(r, limits))}`,
    r.chance(0.3) ? '"unreported":true' : '"dropped_count":1',
  ];
  return `{${fields.join(',')}}`;
}

function toolRow(r: Rand): string {
  const id = JSON.stringify(r.pick(['tc_0', ...PROTOTYPE_NAMES]));
  const session = JSON.stringify(r.pick(['s-1', ...PROTOTYPE_NAMES]));
  return r.pick([
    `{"type":"tool_call","session_id":${session},"call_id":${id},"tool_name":"x","arguments":{}}`,
    `{"type":"tool_result","session_id":${session},"call_id":${id},"tool_name":"x","result":"ok"}`,
    `{"index":1,"type":"tool_call","session_id":${session},"tool_call_id":${id},"tool_name":"x","status":"pending"}`,
    `{"index":2,"type":"tool_call_update","session_id":${session},"tool_call_id":${id},"status":"completed"}`,
  ]);
}

function jsonlRows(r: Rand, seeds: readonly string[], limits: GeneratorLimits): string {
  const count = r.scale(r.chance(0.95) ? 300 : 3000);
  const rows: string[] = [];
  let total = 0;
  for (let i = 0; i < count && total < limits.maxChars; i++) {
    const seed = seeds.length > 0 ? r.pick(seeds) : '{}';
    const roll = r.int(20);
    let row: string;
    if (roll < 6) row = seed;
    else if (roll < 11) row = mutateRow(r, seed, limits);
    else if (roll < 12) row = boundaryFailureRow(r, i, limits);
    else if (roll < 13) row = toolRow(r);
    else if (roll < 14) row = `{"type":${JSON.stringify(r.pick(ROW_TYPES))}}`;
    else if (roll < 15) row = `{"type":"message","type":${JSON.stringify(r.pick(ROW_TYPES))},"type":"constructor"}`;
    else if (roll < 16) row = `{"index":${hostileValue(r, limits)},"type":${JSON.stringify(r.pick(ROW_TYPES))},"payload":${hostileValue(r, limits)}}`;
    else if (roll < 17)
      row = r.pick(['', ' ', '\t', '{', '}', '[1,2]', '"s"', 'null', 'NaN', "{'a':1}", '{"a":1,}', '// c', seed.slice(0, r.int(seed.length + 1))]);
    else if (roll < 18) row = randomUnits(r, r.scale(200));
    else if (roll < 19) row = mutate(seed, r.next, JSON_FRAGMENTS).text;
    else row = `{"type":"message","content":${JSON.stringify('y'.repeat(r.scale(Math.min(limits.maxChars, 1 << 20))))}}`;
    total += row.length + 1;
    rows.push(row);
  }
  let text = rows.join('\n') + (r.chance(0.8) ? '\n' : '');
  if (r.chance(0.3)) text = lineEndings(r, text);
  return text;
}

function generateJsonl(r: Rand, src: Sources, step: string, limits: GeneratorLimits, kind: 'transcript' | 'eventLog' | 'jsonl'): HostileDocument {
  const file =
    kind === 'transcript'
      ? `runs/fz${step}/run-llm/llm_transcript${r.chance(0.3) ? '-x' : ''}.jsonl`
      : kind === 'eventLog'
        ? `runs/fz${step}/event_log${r.chance(0.3) ? '-000001' : ''}.jsonl`
        : `runs/fz${step}/rows.jsonl`;
  const seeds = kind === 'transcript' ? src.transcriptRows : kind === 'eventLog' ? src.eventRows : [...src.transcriptRows, ...src.eventRows];
  const base = (generator: string, content: string | Buffer): HostileDocument => ({
    kind,
    generator,
    path: file,
    content: typeof content === 'string' ? capped(content, limits) : content,
    languageId: 'jsonl',
    companions: [],
  });
  const roll = r.int(10);
  if (roll < 6) return base('jsonl/rows', jsonlRows(r, seeds, limits));
  if (roll < 8) return base('jsonl/text-mutation', mutated(r, seeds.join('\n') + '\n', JSON_FRAGMENTS));
  if (roll < 9) {
    const rows = jsonlRows(r, seeds, limits);
    return base('jsonl/latin1', r.chance(0.5) ? latin1(rows.replace(/e/g, 'é')) : Buffer.concat([Buffer.from(rows), randomBytes(r, r.scale(64))]));
  }
  return base('jsonl/binary', garbage(r, limits));
}

// ---------------------------------------------------------------------------------------------------------
// Run records

const TRAVERSAL_PATHS: readonly string[] = [
  '../../../../../../etc/passwd',
  '/etc/passwd',
  'run-llm/../../../../../../etc/hostname',
  '..',
  '.',
  '',
  'run-llm',
  'run-llm/',
  './run-llm/./llm_transcript.jsonl',
  'run-llm\\..\\..\\..\\etc\\passwd',
  '%2e%2e/%2e%2e/etc/passwd',
  'file:///etc/passwd',
  'run-llm/llm_transcript.jsonl\u0000.png',
  '~/.ssh/id_rsa',
  '/dev/zero',
  '/proc/self/environ',
  'run-llm/outside.jsonl',
  '../../scripts/loud_boundaries.toml',
  'constructor',
  '__proto__',
];

function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

function generateRunRecord(r: Rand, src: Sources, step: string, root: string, limits: GeneratorLimits): HostileDocument {
  const dir = `runs/fz${step}`;
  const file = r.chance(0.8) ? `${dir}/run.json` : `${dir}/x.run.json`;
  const base = (generator: string, content: string | Buffer, companions: Companion[] = []): HostileDocument => ({
    kind: 'runRecord',
    generator,
    path: file,
    content: typeof content === 'string' ? capped(content, limits) : content,
    languageId: 'json',
    companions,
  });
  const original = r.pick(src.runRecords);
  const roll = r.int(10);
  if (roll < 2) return base('runRecord/text-mutation', mutated(r, original, JSON_FRAGMENTS));
  if (roll < 3) {
    const d = r.scale(Math.min(20_000, Math.floor(limits.maxChars / 2)));
    return base('runRecord/deep', `{"_type":"run_record","id":"r","stages":${'['.repeat(d)}${']'.repeat(r.chance(0.8) ? d : 0)}}`);
  }
  if (roll < 4) return base('runRecord/binary', garbage(r, limits));

  // Pointers at hostile paths, and a transcript beside the record that some of them describe truly.
  const companions: Companion[] = [];
  const transcriptRows = r.chance(0.5)
    ? src.transcriptRows.slice(0, r.between(0, src.transcriptRows.length)).join('\n') + '\n'
    : jsonlRows(r, src.transcriptRows, limits);
  const transcript = r.chance(0.15) ? latin1(transcriptRows + 'é') : transcriptRows;
  companions.push({ path: `${dir}/run-llm/llm_transcript.jsonl`, content: transcript });
  if (r.chance(0.3)) companions.push({ path: `${dir}/run-llm/outside.jsonl`, symlinkTo: path.join(limits.outsideDir, 'secret.jsonl') });
  const truePath = path.join(root, dir, 'run-llm', 'llm_transcript.jsonl');
  const pointers: string[] = [];
  for (let k = r.between(0, r.chance(0.9) ? 4 : 2000); k > 0; k--) {
    const honest = r.chance(0.4);
    const rel = honest ? 'run-llm/llm_transcript.jsonl' : r.pick(TRAVERSAL_PATHS);
    const abs = honest ? truePath : r.chance(0.5) ? r.pick(TRAVERSAL_PATHS) : path.join(root, rel);
    const field = (name: string, value: string): string => (r.chance(0.1) ? `"${name}":${hostileValue(r, limits)}` : `"${name}":${value}`);
    const descriptor = [
      field('schema_version', JSON.stringify(r.chance(0.9) ? 'harn.llm_transcript_artifact.v1' : r.pick(PROTOTYPE_NAMES))),
      field('artifact_kind', JSON.stringify(r.chance(0.9) ? 'llm_jsonl' : r.pick(PROTOTYPE_NAMES))),
      field('run_id', JSON.stringify(r.chance(0.8) ? 'r9' : r.pick(PROTOTYPE_NAMES))),
      field('path', JSON.stringify(abs)),
      field('relative_path', JSON.stringify(rel)),
      field('sha256', JSON.stringify(`sha256:${r.chance(0.6) ? sha256(transcript) : '0'.repeat(64)}`)),
      field('byte_len', String(r.chance(0.6) ? Buffer.byteLength(transcript) : r.pick([0, -1, 2 ** 53, 1e300]))),
      field('event_count', String(r.chance(0.6) ? transcriptRows.split('\n').filter((l) => l !== '').length : r.int(100))),
      field('complete', r.pick(['true', 'false', 'null', '"constructor"'])),
      field('first_event_type', JSON.stringify(r.pick(ROW_TYPES))),
      field('last_event_type', JSON.stringify(r.pick(ROW_TYPES))),
      field('terminal_status', JSON.stringify(r.pick(['done', ...PROTOTYPE_NAMES]))),
      field('__proto__', '{"polluted":true}'),
    ].filter(() => r.chance(0.9));
    if (r.chance(0.1)) descriptor.push(`"sha256":"sha256:${'f'.repeat(64)}"`); // a duplicate key: the last one counts
    pointers.push(
      `{"id":"run:llm_transcript","kind":${JSON.stringify(r.chance(0.9) ? 'llm_jsonl' : r.pick(PROTOTYPE_NAMES))},"path":${JSON.stringify(abs)},"available":true,` +
        `"descriptor":${r.chance(0.9) ? `{${descriptor.join(',')}}` : hostileValue(r, limits)}}`,
    );
  }
  const header = r.chance(0.9) ? '"_type":"run_record"' : `"_type":${JSON.stringify(r.pick(PROTOTYPE_NAMES))}`;
  const text =
    `{${header},"id":${JSON.stringify(r.chance(0.8) ? 'r9' : hostileString(r, limits))},"status":"completed",` +
    `${r.chance(0.2) ? `"__proto__":{"_type":"run_record"},"constructor":${hostileValue(r, limits)},` : ''}` +
    `"observability":{"schema_version":1,"transcript_pointers":[${pointers.join(',\n')}]}}\n`;
  return base('runRecord/pointers', r.chance(0.2) ? lineEndings(r, text) : text, companions);
}

// ---------------------------------------------------------------------------------------------------------

/** One hostile document of `kind` (or of a kind chosen at random), for step `step` of a run in `root`. */
export function generateDocument(r: Rand, src: Sources, step: number, root: string, limits: GeneratorLimits, kind?: FuzzKind): HostileDocument {
  const chosen =
    kind ??
    r.pick<FuzzKind>([
      'harn',
      'harn',
      'harn',
      'registry',
      'funnel',
      'rust',
      'transcript',
      'transcript',
      'eventLog',
      'eventLog',
      'jsonl',
      'runRecord',
      'runRecord',
    ]);
  const id = String(step);
  switch (chosen) {
    case 'harn':
      return generateHarn(r, src, id, limits);
    case 'registry':
      return generateRegistry(r, src, limits);
    case 'funnel':
      return generateRust(r, src, id, limits, true);
    case 'rust':
      return generateRust(r, src, id, limits, false);
    case 'transcript':
    case 'eventLog':
    case 'jsonl':
      return generateJsonl(r, src, id, limits, chosen);
    case 'runRecord':
      return generateRunRecord(r, src, id, root, limits);
  }
}

/** Fragments for random edits of a document of `kind`. */
export function editFragments(kind: FuzzKind): readonly string[] {
  switch (kind) {
    case 'harn':
      return FRAGMENTS;
    case 'registry':
      return TOML_FRAGMENTS;
    case 'funnel':
    case 'rust':
      return RUST_FRAGMENTS;
    default:
      return JSON_FRAGMENTS;
  }
}

/** A `.gitignore` that hides, re-includes or confuses (the gate reads them on every run). */
export function hostileGitignore(r: Rand): string {
  const lines = [
    '*',
    '!*',
    '**',
    'crates/',
    '!crates/**/*.harn',
    'scripts/',
    '/scripts/loud_boundaries.toml',
    '\\',
    '[',
    '**/**/**/**',
    '!',
    '#',
    ' ',
    '*.rs\r',
    '\uFEFF*',
  ];
  const out: string[] = [];
  for (let k = r.between(1, 6); k > 0; k--) out.push(r.pick(lines));
  return out.join(r.chance(0.3) ? '\r\n' : '\n') + '\n';
}
