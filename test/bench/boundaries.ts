// Loud-boundary gate benchmarks on a generated, Harn-shaped 3,000-file tree: a full cold gate run
// against upstream's two `git grep`s over the same tree, and the re-check after one saved file.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS } from '../../server/src/boundaries/workspaceGate';
import { KEYWORDS } from '../../server/src/harn/tokens';
import { defined } from '../support/assertions';
import { median, mulberry32, percentile } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// -------------------------------------------------------------------------------------------------
// The tree

const TOTAL_FILES = 3000;
const RUST_FILES = 2400;
const HARN_FILES = 450;

interface Boundary {
  id: string;
  variant: string;
  /** Where it is reported: Rust anchors construct `BoundaryId::X`, Harn anchors emit `boundary: "id"`. */
  language: 'rust' | 'harn';
  anchors: string[];
  test: string;
}

const BOUNDARIES: Boundary[] = [
  {
    id: 'text_tool_parse',
    variant: 'TextToolParse',
    language: 'harn',
    anchors: ['crates/harn-stdlib/src/stdlib/agent/loop_tool_calls.harn'],
    test: 'conformance/tests/scenarios/agent_loud_boundary_events.harn',
  },
  {
    id: 'response_content_extraction',
    variant: 'ResponseContentExtraction',
    language: 'rust',
    anchors: ['crates/harn-vm/src/llm/api/response/boundary.rs', 'crates/harn-vm/src/llm/api/response.rs'],
    test: 'crates/harn-vm/src/llm/api/response/boundary/tests.rs',
  },
  {
    id: 'visible_text_sanitize',
    variant: 'VisibleTextSanitize',
    language: 'rust',
    anchors: ['crates/harn-vm/src/visible_text.rs'],
    test: 'crates/harn-vm/src/visible_text_tests.rs',
  },
  {
    id: 'host_event_ingest',
    variant: 'HostEventIngest',
    language: 'rust',
    anchors: ['crates/harn-vm/src/agent_events/from_host.rs'],
    test: 'crates/harn-vm/src/agent_events/from_host_tests.rs',
  },
  {
    id: 'provider_admission_gate',
    variant: 'ProviderAdmissionGate',
    language: 'rust',
    anchors: ['crates/harn-vm/src/llm/agent_observe/provider_errors.rs'],
    test: 'crates/harn-vm/src/llm/agent_observe/provider_errors_boundary_tests.rs',
  },
  {
    id: 'chat_turn_cap',
    variant: 'ChatTurnCap',
    language: 'harn',
    anchors: ['crates/harn-stdlib/src/stdlib/agent/chat.harn'],
    test: 'conformance/tests/scenarios/agent_loud_boundary_events.harn',
  },
  {
    id: 'stream_chunk_decode',
    variant: 'StreamChunkDecode',
    language: 'rust',
    anchors: ['crates/harn-vm/src/llm/stream/decode.rs', 'crates/harn-vm/src/llm/stream/sse.rs'],
    test: 'crates/harn-vm/tests/stream_decode.rs',
  },
  {
    id: 'mcp_result_truncate',
    variant: 'McpResultTruncate',
    language: 'rust',
    anchors: ['crates/harn-serve/src/mcp/result.rs'],
    test: 'crates/harn-serve/src/mcp/result_tests.rs',
  },
];

const AUDITED = [
  { id: 'agent_loop_budget', anchor: 'crates/harn-stdlib/src/stdlib/agent/loop_turn_options.harn', marker: 'budget_exhausted' },
  { id: 'agent_loop_stall', anchor: 'crates/harn-stdlib/src/stdlib/agent/stall_observation.harn', marker: 'agent_loop_stall_warning' },
  { id: 'streaming_tool_detect', anchor: 'crates/harn-vm/src/llm/tools/parse/streaming.rs', marker: 'ParseAborted' },
  { id: 'llm_transport', anchor: 'crates/harn-vm/src/llm/call.rs', marker: 'build_llm_error_dict' },
  { id: 'acp_prompt_ingest', anchor: 'crates/harn-serve/src/adapters/acp/schema.rs', marker: 'unsupported content block type' },
];

const REGISTRY_PATH = DEFAULT_GATE_SETTINGS.registryPath;
const FUNNEL_PATH = DEFAULT_GATE_SETTINGS.funnelPath;
/** A file that constructs a registered boundary without being its anchor: one expected finding. */
const STRAY_SITE = 'crates/harn-vm/src/llm/retry_policy.rs';
/** The boundary STRAY_SITE constructs (provider_admission_gate). */
const STRAY = defined(BOUNDARIES[4], 'the fifth boundary');
/** A `.harn` file reporting an id nobody registered: one more expected finding. */
const UNKNOWN_SITE = 'crates/harn-stdlib/src/stdlib/agent/compaction.harn';

const WORDS = (
  'agent session turn tool call parse token stream chunk event host vm value frame scope module import ' +
  'registry policy budget limit retry backoff provider model response request message content block text ' +
  'schema field record cache store path config option transcript replay snapshot decode encode buffer ' +
  'window context prompt reply verdict stall governor admission span excerpt sink observer emit report ' +
  'queue worker task future handle state error result status kind detail index offset cursor range'
)
  .split(' ')
  .filter((w) => !KEYWORDS.has(w)); // names in generated .harn must not be Harn keywords
const CRATES = [
  'harn-vm',
  'harn-vm',
  'harn-vm',
  'harn-vm',
  'harn-stdlib',
  'harn-parser',
  'harn-lexer',
  'harn-cli',
  'harn-serve',
  'harn-lsp',
  'harn-fmt',
  'harn-hostlib',
  'harn-runtime',
  'harn-mcp',
  'harn-test-utils',
];
const RUST_TYPES = [
  'String',
  'usize',
  'u64',
  'i64',
  'bool',
  'Vec<String>',
  'Option<String>',
  'Arc<Mutex<State>>',
  'BTreeMap<String, Value>',
  'HashMap<u64, Span>',
  "&'static str",
  'Duration',
];

class Gen {
  constructor(readonly random: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return defined(items[Math.floor(this.random() * items.length)], 'an item picked from an empty list');
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  word(): string {
    return this.pick(WORDS);
  }
  snake(parts = this.int(1, 3)): string {
    return Array.from({ length: parts }, () => this.word()).join('_');
  }
  camel(parts = this.int(1, 3)): string {
    return Array.from({ length: parts }, () => {
      const w = this.word();
      return w.charAt(0).toUpperCase() + w.slice(1);
    }).join('');
  }
  sentence(): string {
    const s = Array.from({ length: this.int(5, 14) }, () => this.word()).join(' ');
    return s.charAt(0).toUpperCase() + s.slice(1) + '.';
  }
  /** A file size in bytes: mostly a few KB, some larger. */
  size(): number {
    const r = this.random();
    if (r < 0.6) return this.int(1000, 3500);
    if (r < 0.9) return this.int(3500, 7000);
    if (r < 0.985) return this.int(7000, 16000);
    return this.int(16000, 40000);
  }
}

// Rust ----------------------------------------------------------------------------------------------

function rustHeader(g: Gen, extraUses: string[]): string {
  const lines = [`//! ${g.sentence()}`, `//! ${g.sentence()}`, '//!', `//! See \`${g.snake()}\` for the ${g.word()} side.`, ''];
  lines.push('use std::collections::{BTreeMap, HashMap};', 'use std::sync::{Arc, Mutex};', 'use std::time::Duration;', '');
  lines.push('use serde::{Deserialize, Serialize};', '');
  lines.push(`use crate::${g.snake(1)}::{${g.camel()}, ${g.camel()}};`);
  for (const u of extraUses) lines.push(u);
  return lines.join('\n') + '\n\n';
}

function rustStruct(g: Gen, name: string): string {
  const fields = Array.from({ length: g.int(2, 7) }, () => `    /// ${g.sentence()}\n    pub ${g.snake(2)}: ${g.pick(RUST_TYPES)},`);
  return `/// ${g.sentence()}\n#[derive(Clone, Debug, Default, Serialize, Deserialize)]\n#[serde(rename_all = "snake_case")]\npub struct ${name} {\n${fields.join('\n')}\n}\n\n`;
}

function rustEnum(g: Gen, name: string): string {
  const variants = Array.from({ length: g.int(3, 8) }, () =>
    g.chance(0.3) ? `    ${g.camel(2)}(${g.pick(RUST_TYPES)}),` : g.chance(0.2) ? `    ${g.camel(2)} { ${g.snake(1)}: usize },` : `    ${g.camel(2)},`,
  );
  return `/// ${g.sentence()}\n#[derive(Clone, Copy, Debug, Eq, PartialEq)]\npub enum ${name} {\n${variants.join('\n')}\n}\n\n`;
}

function rustBody(g: Gen, extra: string[]): string {
  const v = g.snake(1);
  const arg = g.snake(1) + '_name';
  const lines = [
    `        let ${v} = self.${g.snake(2)}.get(${arg}).cloned().unwrap_or_default();`,
    `        if ${v}.is_empty() {`,
    `            return Err(VmError::Runtime(format!("${g.snake()}: missing {} // not a comment", ${arg})));`,
    '        }',
    '        let mut total = 0usize;',
    `        for (index, item) in ${v}.iter().enumerate() {`,
    '            match item {',
    `                Value::String(s) if s.len() > ${g.int(8, 4096)} => total += s.len() / 2,`,
    "                Value::Char('\\'') | Value::Char('{') => continue,",
    '                Value::Int(n) => total += *n as usize + index,',
    `                Value::Dict(map) => total += map.get("${g.word()}").map_or(0, |inner| inner.len()),`,
    '                _ => {}',
    '            }',
    '        }',
    ...extra,
    `        tracing::debug!(target: "harn::${g.word()}", total, "${g.sentence()}");`,
    `        Ok(${g.camel()}::from_parts(${arg}, total, Duration::from_millis(${g.int(1, 5000)})))`,
  ];
  return lines.join('\n');
}

function rustImpl(g: Gen, name: string, extra: () => string[]): string {
  const methods: string[] = [];
  for (let i = 0, n = g.int(1, 3); i < n; i++) {
    const arg = g.snake(1) + '_name';
    methods.push(
      `    /// ${g.sentence()}\n    ///\n    /// ${g.sentence()}\n    pub fn ${g.snake(2)}(&self, ${arg}: &str) -> Result<${g.camel()}, VmError> {\n${rustBody(g, extra())}\n    }`,
    );
  }
  methods.push(
    `    fn ${g.snake(2)}<'a>(&'a self, input: &'a str) -> Option<&'a str> {\n        let raw = r#"{"${g.word()}": "${g.word()}"}"#;\n        input.strip_prefix(raw).or_else(|| input.split_once("::").map(|(head, _)| head))\n    }`,
  );
  return `impl ${name} {\n${methods.join('\n\n')}\n}\n\n`;
}

function rustFreeFn(g: Gen): string {
  return (
    `/* ${g.sentence()}\n * ${g.sentence()} */\npub(crate) fn ${g.snake(2)}(values: &[Value], limit: usize) -> Vec<String> {\n` +
    `    values\n        .iter()\n        .filter_map(|value| value.as_str())\n        .take(limit)\n        .map(|s| s.replace('"', "\\\\\\"").to_string())\n        .collect()\n}\n\n`
  );
}

function rustTests(g: Gen, assertions: string[]): string {
  const tests = Array.from({ length: g.int(1, 3) }, () => {
    const body = [`        let value = ${g.camel()}::default();`, `        assert_eq!(value.${g.snake(2)}(), ${g.int(0, 99)});`, ...assertions];
    return `    #[test]\n    fn ${g.snake(3)}() {\n${body.join('\n')}\n    }`;
  });
  return `#[cfg(test)]\nmod tests {\n    use super::*;\n\n${tests.join('\n\n')}\n}\n`;
}

interface RustOptions {
  /** Statements placed in function bodies (construction sites). */
  sites?: string[];
  uses?: string[];
  /** Extra text that must appear (audited markers). */
  marker?: string;
  /** Comment lines mentioning the boundary vocabulary (not sites). */
  prose?: string[];
  testAssertions?: string[];
}

function rustFile(g: Gen, target: number, options: RustOptions = {}): string {
  let out = rustHeader(g, options.uses ?? []);
  const sites = [...(options.sites ?? [])];
  if (options.prose) out += options.prose.map((p) => `// ${p}\n`).join('') + '\n';
  if (options.marker) out += `const MARKER: &str = "${options.marker}";\n\n`;
  while (out.length < target || sites.length > 0) {
    const name = g.camel(2);
    const r = g.random();
    let block: string;
    if (r < 0.35) block = rustStruct(g, name) + rustImpl(g, name, () => (sites.length && g.chance(0.5) ? sites.splice(0, 1) : []));
    else if (r < 0.55) block = rustEnum(g, name);
    else block = rustFreeFn(g);
    // Stay near the target size: a block that overshoots it ends the file instead, sites permitting.
    if (out.length + block.length > target * 1.25 && out.length > target * 0.6 && !block.includes('BoundaryId::') && sites.length === 0) break;
    out += block;
  }
  out += rustTests(g, options.testAssertions ?? []);
  return out;
}

function funnelSource(): string {
  const variants = BOUNDARIES.map((b) => `    /// The ${b.id.replace(/_/g, ' ')} boundary.\n    ${b.variant},`).join('\n');
  const all = BOUNDARIES.map((b) => `        Self::${b.variant},`).join('\n');
  const arms = BOUNDARIES.map((b) => `            Self::${b.variant} => "${b.id}",`).join('\n');
  return [
    '//! The loud-boundary invariant: the single funnel every boundary that can drop model output reports through.',
    '',
    'use serde::{Deserialize, Serialize};',
    '',
    'use crate::agent_events::AgentEvent;',
    '',
    'const MAX_EXCERPT_CHARS: usize = 240;',
    '',
    '/// Every place in the runtime where model-produced bytes become, or fail to become, executed action.',
    '#[derive(Clone, Copy, Debug, Eq, PartialEq, Hash, Serialize, Deserialize)]',
    '#[serde(rename_all = "snake_case")]',
    'pub enum BoundaryId {',
    variants,
    '}',
    '',
    'impl BoundaryId {',
    `    pub const ALL: [Self; ${BOUNDARIES.length}] = [`,
    all,
    '    ];',
    '',
    "    pub fn as_str(self) -> &'static str {",
    '        match self {',
    arms,
    '        }',
    '    }',
    '}',
    '',
    '#[must_use = "a boundary failure must be reported"]',
    'pub struct BoundaryFailure {',
    '    pub boundary: BoundaryId,',
    '    pub kind: BoundaryKind,',
    '    pub detail: String,',
    '    reported: bool,',
    '}',
    '',
    'impl BoundaryFailure {',
    '    pub fn new(boundary: BoundaryId, kind: BoundaryKind, detail: impl Into<String>) -> Self {',
    '        Self { boundary, kind, detail: detail.into(), reported: false }',
    '    }',
    '',
    '    pub fn report(mut self) {',
    '        self.reported = true;',
    '        crate::agent_events::emit_event(AgentEvent::BoundaryFailure { boundary: self.boundary.as_str().to_string() });',
    '    }',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    #[test]',
    '    fn every_variant_has_a_wire_id() {',
    '        for id in super::BoundaryId::ALL {',
    '            assert!(!id.as_str().is_empty());',
    '        }',
    '    }',
    '}',
    '',
  ].join('\n');
}

const rustSite = (b: Boundary): string =>
  `        BoundaryFailure::new(BoundaryId::${b.variant}, BoundaryKind::Dropped, format!("{} span(s) lost", total)).report();`;
const BOUNDARY_USE = 'use crate::boundary::{BoundaryFailure, BoundaryId, BoundaryKind};';

// Harn ----------------------------------------------------------------------------------------------

function harnFn(g: Gen, extra: string[]): string {
  const name = g.snake(2);
  const a = g.snake(1);
  const lines = [
    `/** ${g.sentence()} */`,
    `${g.chance(0.5) ? 'pub ' : ''}fn ${name}(${a}, options = nil) {`,
    `  const limit = options?.${g.snake(1)} ?? ${g.int(1, 200)}`,
    '  let items = []',
    `  for item in ${a} {`,
    `    if item?.kind == "${g.word()}" && len(to_string(item?.text ?? "")) > 0 {`,
    `      items = items.appending({kind: "${g.word()}", text: trim(to_string(item.text)), index: len(items)})`,
    '    } else {',
    '      continue',
    '    }',
    '  }',
    '  const parsed = try {',
    `    json_parse(to_string(options?.${g.snake(1)} ?? "{}"))`,
    '  } catch (err) {',
    '    nil',
    '  }',
    ...extra,
    `  // ${g.sentence()}`,
    `  return {items: items, count: len(items), label: "${g.word()} \${len(items)} of \${limit}", parsed: parsed}`,
    '}',
    '',
  ];
  return lines.join('\n') + '\n';
}

function harnFile(g: Gen, target: number, options: { sites?: string[]; marker?: string; prose?: boolean; pipeline?: boolean } = {}): string {
  let out = `// ${g.sentence()}\n`;
  if (options.prose) out += `// Reports through the loud-boundary funnel when the ${g.word()} boundary drops output.\n`;
  out += `import { ${g.snake(2)}, ${g.snake(2)} } from "std/${g.word()}"\n\n`;
  if (options.marker) out += `const MARKER_EVENT = "${options.marker}"\n\n`;
  const sites = [...(options.sites ?? [])];
  while (out.length < target || sites.length > 0) {
    const block = harnFn(g, sites.length && g.chance(0.5) ? sites.splice(0, 1) : []);
    if (out.length + block.length > target * 1.25 && out.length > target * 0.6 && !block.includes('boundary: "') && sites.length === 0) break;
    out += block;
  }
  if (options.pipeline) out += `pipeline main(task) {\n  const result = ${g.snake(2)}(["a", "b"], {limit: 2})\n  assert_eq(len(result.items), 0)\n}\n`;
  return out;
}

const harnSite = (id: string): string =>
  [
    '  const _ = try {',
    '    agent_emit_event(',
    '      session_id,',
    '      "boundary_failure",',
    '      {',
    `        boundary: "${id}",`,
    '        kind: "dropped",',
    '        detail: "lost ${to_string(len(items))} item(s)",',
    '      },',
    '    )',
    '  } catch (err) {',
    '    nil',
    '  }',
  ].join('\n');

// Layout ---------------------------------------------------------------------------------------------

function uniquePath(taken: Set<string>, make: () => string): string {
  for (;;) {
    const p = make();
    if (!taken.has(p)) {
      taken.add(p);
      return p;
    }
  }
}

/** `count` folders under `base`, at most three levels deeper, each the child of an earlier one. */
function folderPool(g: Gen, base: string, count: number): string[] {
  const pool = [base];
  const depth = (folder: string): number => folder.split('/').length - base.split('/').length;
  while (pool.length < count) {
    const parent = g.pick(pool);
    const child = `${parent}/${g.snake(1)}`;
    if (depth(parent) < 3 && !pool.includes(child)) pool.push(child);
  }
  return pool;
}

/** Where generated files go: a limited set of folders per crate, as in a real tree (about ten files a folder). */
interface Layout {
  src: Map<string, string[]>;
  stdlib: string[];
  conformance: string[];
  docs: string[];
}

function makeLayout(g: Gen): Layout {
  const src = new Map<string, string[]>();
  for (const crate of new Set(CRATES)) src.set(crate, folderPool(g, `crates/${crate}/src`, crate === 'harn-vm' ? 60 : 14));
  return {
    src,
    stdlib: folderPool(g, 'crates/harn-stdlib/src/stdlib', 20),
    conformance: folderPool(g, 'conformance/tests', 16),
    docs: folderPool(g, 'docs', 8),
  };
}

function randomRustPath(g: Gen, layout: Layout): string {
  const crate = g.pick(CRATES);
  const r = g.random();
  if (r < 0.08) return `crates/${crate}/tests/${g.snake(2)}.rs`;
  const suffix = r < 0.14 ? '_tests' : '';
  return `${g.pick(defined(layout.src.get(crate), `the folders of ${crate}`))}/${g.snake(g.int(1, 2))}${suffix}.rs`;
}

function randomHarnPath(g: Gen, layout: Layout): string {
  const r = g.random();
  if (r < 0.55) return `${g.pick(layout.stdlib)}/${g.snake(2)}.harn`;
  if (r < 0.65) return `crates/${g.pick(CRATES)}/tests/fixtures/${g.snake(2)}.harn`;
  return `${g.pick(layout.conformance)}/${g.snake(2)}.harn`;
}

function randomDocPath(g: Gen, layout: Layout): string {
  const r = g.random();
  if (r < 0.6) return `${g.pick(layout.docs)}/${g.snake(2)}.md`;
  if (r < 0.8) return `crates/${g.pick(CRATES)}/${g.word().toUpperCase()}.md`;
  return `spec/${g.snake(2)}.md`;
}

function docFile(g: Gen, target: number): string {
  let out = `# ${g.camel(3)}\n\n`;
  while (out.length < target) out += `${g.sentence()} ${g.sentence()} ${g.sentence()}\n\n`;
  return out;
}

function registrySource(): string {
  const entries = BOUNDARIES.map((b) =>
    [
      '[[boundary]]',
      `id = "${b.id}"`,
      `title = "The ${b.id.replace(/_/g, ' ')} boundary"`,
      'drops = "Model output the boundary has no handler for."',
      'was_silent = true',
      'event = "agent_event:boundary_failure"',
      b.anchors.length === 1 ? `anchors = ["${b.anchors[0]}"]` : `anchors = [\n${b.anchors.map((a) => `  "${a}",`).join('\n')}\n]`,
      `test = "${b.test}"`,
      'notes = "Reported once per turn, with the count of dropped spans."',
      '',
    ].join('\n'),
  );
  const audited = AUDITED.map((a) =>
    [
      '[[audited]]',
      `id = "${a.id}"`,
      `title = "The ${a.id.replace(/_/g, ' ')} path"`,
      `event = "agent_event:${a.marker}"`,
      `anchors = ["${a.anchor}"]`,
      `marker = "${a.marker}"`,
      '',
    ].join('\n'),
  );
  return [
    '# Loud-boundary registry (generated for the benchmark).',
    '',
    ...entries,
    '# Audited: already loud through their own typed event.',
    '',
    ...audited,
  ].join('\n');
}

interface Tree {
  root: string;
  /** Tracked files, root-relative. */
  files: string[];
  bytes: number;
  ignoredFiles: number;
}

/** Writes the tree into a new temporary folder and indexes it with git. */
function generateTree(seed: number): Tree {
  const g = new Gen(mulberry32(seed));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-gate-bench-'));
  const contents = new Map<string, string>();
  const taken = new Set<string>();
  const put = (rel: string, text: string): void => {
    taken.add(rel);
    contents.set(rel, text);
  };

  put('.gitignore', '/target/\n.cache/\n*.log\n');
  put('crates/harn-lsp/.gitignore', '/generated/\n');
  put(REGISTRY_PATH, registrySource());
  put(FUNNEL_PATH, funnelSource());
  put('Cargo.toml', `[workspace]\nmembers = [${[...new Set(CRATES)].map((c) => `"crates/${c}"`).join(', ')}]\n`);

  // Anchors, tests and audited anchors.
  const sitesByFile = new Map<string, Boundary[]>();
  for (const b of BOUNDARIES) for (const a of b.anchors) sitesByFile.set(a, [...(sitesByFile.get(a) ?? []), b]);
  for (const [file, bs] of sitesByFile) {
    if (file.endsWith('.rs')) put(file, rustFile(g, g.size(), { uses: [BOUNDARY_USE], sites: bs.map(rustSite) }));
    else put(file, harnFile(g, g.size(), { sites: bs.map((b) => harnSite(b.id)), prose: true }));
  }
  for (const b of BOUNDARIES) {
    if (taken.has(b.test)) continue;
    const testsOf = BOUNDARIES.filter((o) => o.test === b.test);
    if (b.test.endsWith('.rs')) {
      put(
        b.test,
        rustFile(g, g.size(), {
          uses: [BOUNDARY_USE],
          testAssertions: testsOf.map((o) => `        assert_eq!(event.boundary, BoundaryId::${o.variant}.as_str()); // "${o.id}"`),
        }),
      );
    } else {
      put(b.test, harnFile(g, g.size(), { marker: testsOf.map((o) => o.id).join(' '), pipeline: true, prose: true }));
    }
  }
  for (const a of AUDITED) {
    if (a.anchor.endsWith('.rs')) put(a.anchor, rustFile(g, g.size(), { marker: a.marker }));
    else put(a.anchor, harnFile(g, g.size(), { marker: a.marker }));
  }
  put(STRAY_SITE, rustFile(g, g.size(), { uses: [BOUNDARY_USE], sites: [rustSite(STRAY)] }));
  put(UNKNOWN_SITE, harnFile(g, g.size(), { sites: [harnSite('compaction_overflow')], prose: true }));

  // The bulk.
  const layout = makeLayout(g);
  const count = (ext: string): number => [...contents.keys()].filter((k) => k.endsWith(ext)).length;
  for (let i = count('.rs'); i < RUST_FILES; i++) {
    const rel = uniquePath(taken, () => randomRustPath(g, layout));
    const isTest = rel.includes('/tests/') || rel.endsWith('_tests.rs');
    const r = g.random();
    const b = g.pick(BOUNDARIES);
    let options: RustOptions = {};
    // Boundary vocabulary without sites: imports, `BoundaryId::ALL`, doc comments naming variants.
    if (r < 0.04) options = { uses: [BOUNDARY_USE], sites: [`        for id in BoundaryId::ALL { tracing::trace!(id = id.as_str()); }`] };
    else if (r < 0.1) options = { prose: [`Losses here are reported as BoundaryId::${b.variant} by the caller.`] };
    else if (r < 0.13) options = { uses: [BOUNDARY_USE] };
    if (isTest && g.chance(0.1)) options = { uses: [BOUNDARY_USE], testAssertions: [`        assert_eq!(failure.boundary, BoundaryId::${b.variant});`] };
    put(rel, rustFile(g, g.size(), options));
  }
  for (let i = count('.harn'); i < HARN_FILES; i++) {
    const rel = uniquePath(taken, () => randomHarnPath(g, layout));
    put(rel, harnFile(g, Math.round(g.size() * 0.7), { prose: g.chance(0.12), pipeline: rel.startsWith('conformance/') }));
  }
  while (contents.size < TOTAL_FILES)
    put(
      uniquePath(taken, () => randomDocPath(g, layout)),
      docFile(g, g.size()),
    );

  // Ignored build output: mentions and sites that must never be scanned.
  const ignored = new Map<string, string>();
  for (let i = 0; i < 400; i++) {
    const hash = (Math.floor(g.random() * 0xffffffff) >>> 0).toString(16);
    const r = g.random();
    if (r < 0.5)
      ignored.set(
        `target/debug/build/harn-vm-${hash}/out/${g.snake(2)}.rs`,
        rustFile(g, g.size(), { uses: [BOUNDARY_USE], sites: [`        let _ = BoundaryId::GhostBoundary;`] }),
      );
    else if (r < 0.8) ignored.set(`target/debug/deps/${g.snake(2)}-${hash}.d`, docFile(g, 2000));
    else ignored.set(`target/debug/incremental/${g.snake(1)}-${hash}/${g.snake(1)}.rs`, rustFile(g, 3000));
  }
  const generatedSite = `        let _ = BoundaryId::${defined(BOUNDARIES[1], 'the second boundary').variant};`;
  for (let i = 0; i < 30; i++)
    ignored.set(`crates/harn-lsp/generated/${g.snake(2)}_${i}.rs`, rustFile(g, 4000, { uses: [BOUNDARY_USE], sites: [generatedSite] }));
  for (let i = 0; i < 20; i++) ignored.set(`crates/harn-stdlib/.cache/${g.snake(2)}_${i}.harn`, harnFile(g, 3000, { sites: [harnSite('ghost_boundary')] }));
  ignored.set('crates/harn-cli/build.log', docFile(g, 5000));

  let bytes = 0;
  for (const [rel, text] of [...contents, ...ignored]) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    if (contents.has(rel)) bytes += Buffer.byteLength(text);
  }
  git(root, ['init', '-q']);
  git(root, ['add', '-A']);
  const files = [...contents.keys()].sort();
  return { root, files, bytes, ignoredFiles: ignored.size };
}

function git(root: string, args: string[]): string {
  const result = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // git grep exits 1 when nothing matches.
  if (result.status !== 0 && !(args[0] === 'grep' && result.status === 1)) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

// -------------------------------------------------------------------------------------------------
// The measurements

/** Upstream's two greps (scripts/check_loud_boundaries.harn `git_grep`), one process each, in turn. */
function upstreamGreps(root: string): { rust: string; harn: string } {
  const grep = (pattern: string, glob: string): string => git(root, ['grep', '-I', '-n', '-F', '--untracked', '-e', pattern, '--', glob]);
  return { rust: grep('BoundaryId::', 'crates/*.rs'), harn: grep('boundary: "', 'crates/*.harn') };
}

function fullRun(root: string): ReturnType<BoundaryGateWorkspace['run']> {
  return new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS).run();
}

function gateVsGitGrep(tree: Tree, metric: Metric): void {
  // Check that the tree and the gate see what git sees before timing anything.
  const firstStart = process.hrtime.bigint();
  const first = fullRun(tree.root);
  const firstMs = msSince(firstStart);
  const greps = upstreamGreps(tree.root);
  const inScope = git(tree.root, ['ls-files', '--', 'crates/*.rs', 'crates/*.harn']).split('\n').filter(Boolean).length;
  if (first.scannedFiles !== inScope) throw new Error(`the gate scanned ${first.scannedFiles} files, git lists ${inScope}`);
  const leaked = first.allSites.filter((s) => s.path.startsWith('target/') || s.path.includes('/generated/') || s.path.includes('/.cache/'));
  const [firstLeak] = leaked;
  if (firstLeak) throw new Error(`ignored files were scanned: ${firstLeak.path}`);
  const kinds = first.result.findings.map((f) => `${f.kind} ${f.id}`);
  const expected = [`unregistered_site ${STRAY.id}`, 'unknown_boundary compaction_overflow'];
  if (kinds.length !== expected.length || !expected.every((k) => kinds.includes(k))) throw new Error(`unexpected findings: ${kinds.join('; ')}`);
  const lines = (s: string): number => s.split('\n').filter(Boolean).length;
  const grepFiles = new Set([...greps.rust.split('\n'), ...greps.harn.split('\n')].filter(Boolean).map((l) => l.slice(0, l.indexOf(':'))));
  console.log(
    `boundaries: tree of ${tree.files.length} tracked files (${(tree.bytes / 1e6).toFixed(1)} MB; ${tree.files.filter((f) => f.endsWith('.rs')).length} .rs, ` +
      `${tree.files.filter((f) => f.endsWith('.harn')).length} .harn) + ${tree.ignoredFiles} ignored build files; gate scanned ${first.scannedFiles} files, ` +
      `found ${first.allSites.length} sites in ${new Set(first.allSites.map((s) => s.path)).size} files, ${first.result.findings.length} findings (${kinds.join('; ')}); ` +
      `git grep: ${lines(greps.rust)} + ${lines(greps.harn)} lines in ${grepFiles.size} files`,
  );

  // Interleaved rounds: git's two greps as child processes (as upstream runs them), then a cold gate
  // run in this process: a new BoundaryGateWorkspace, so nothing is cached but the JIT's code.
  const gitTimes: number[] = [];
  const gateTimes: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < 5; round++) {
    upstreamGreps(tree.root);
    fullRun(tree.root);
  }
  for (let round = 0; round < 15; round++) {
    let start = process.hrtime.bigint();
    upstreamGreps(tree.root);
    const gitMs = msSince(start);
    start = process.hrtime.bigint();
    fullRun(tree.root);
    const gateMs = msSince(start);
    gitTimes.push(gitMs);
    gateTimes.push(gateMs);
    ratios.push(gateMs / gitMs);
  }
  console.log(
    `gate_vs_git_grep: cold gate run in-process (new BoundaryGateWorkspace per round) median ${median(gateTimes).toFixed(1)} ms; ` +
      `upstream's two git greps (two processes, in turn) median ${median(gitTimes).toFixed(1)} ms; median of ${ratios.length} interleaved round ratios ` +
      `after 5 warm-up rounds (the first run in this process, JIT cold, took ${firstMs.toFixed(0)} ms)`,
  );
  metric('gate_vs_git_grep', median(ratios), 'x', '<=3');
}

function incremental(tree: Tree, metric: Metric): void {
  const gate = new BoundaryGateWorkspace(tree.root, DEFAULT_GATE_SETTINGS);
  const baseline = gate.run().result.findings.length;
  const g = new Gen(mulberry32(7));
  const rust = tree.files.filter((f) => f.startsWith('crates/') && f.endsWith('.rs'));
  const harn = tree.files.filter((f) => f.startsWith('crates/') && f.endsWith('.harn'));
  const anchors = BOUNDARIES.flatMap((b) => b.anchors);
  const samples: number[] = [];
  for (let save = 0; save < 320; save++) {
    // Mostly ordinary files; now and then an anchor, whose sites are re-read.
    const r = g.random();
    const file = r < 0.1 ? g.pick(anchors) : r < 0.8 ? g.pick(rust) : g.pick(harn);
    const abs = path.join(tree.root, file);
    const comment = file.endsWith('.rs') ? `// edit ${save}\n` : `// edit ${save}\n`;
    fs.appendFileSync(abs, comment);
    const start = process.hrtime.bigint();
    gate.invalidate(file);
    const run = gate.run();
    const ms = msSince(start);
    if (run.result.findings.length !== baseline) throw new Error(`a comment changed the findings (${file})`);
    if (save >= 20) samples.push(ms);
  }
  console.log(
    `gate_incremental_ms: ${samples.length} saves (after 20 warm-up) of one file appended a comment, invalidate + run: ` +
      `p50 ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms, max ${Math.max(...samples).toFixed(2)} ms; reporting p95`,
  );
  metric('gate_incremental_ms', percentile(samples, 95), 'ms', '<=10');
}

export function runBoundaryBenchmarks(metric: Metric, wanted: (name: string) => boolean): void {
  if (!wanted('gate_vs_git_grep') && !wanted('gate_incremental_ms')) return;
  if (spawnSync('git', ['--version']).status !== 0) {
    console.log('SKIP boundary benchmarks: git is not available');
    return;
  }
  const tree = generateTree(20260501);
  try {
    if (wanted('gate_vs_git_grep')) gateVsGitGrep(tree, metric);
    if (wanted('gate_incremental_ms')) incremental(tree, metric);
  } finally {
    fs.rmSync(tree.root, { recursive: true, force: true });
  }
}
