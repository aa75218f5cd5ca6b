// The pure gate (evaluateGate) against upstream's rules (scripts/check_loud_boundaries.harn @09227830): one
// test per finding kind — kind, id, the path upstream prints, upstream's exact message, and where the
// finding is shown (the registry string, the `.harn` id, the `BoundaryId::X` token) — the refusals, the
// order of upstream's `evaluate`, closestIds and the text output byte for byte. Inputs are parsed from
// small inline texts with the real readers (parseRegistry, parseFunnel, the .rs and .harn site scanners).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closestIds, compareCodePoints, evaluateGate, Finding, GateResult, renderGateText } from '../../server/src/boundaries/gate';
import { parseRegistry } from '../../server/src/boundaries/registry';
import { isExemptSitePath, parseFunnel, scanRustMentions } from '../../server/src/boundaries/rust';
import type { BoundarySite, TextRange } from '../../server/src/boundaries/types';
import { scanHarn } from '../../server/src/boundaries/workspaceGate';
import { defined } from '../support/assertions';

const REGISTRY = 'scripts/loud_boundaries.toml';
const FUNNEL = 'crates/harn-vm/src/boundary.rs';

const FUNNEL_TEXT = `pub enum BoundaryId {
    ChatTurnCap,
    TextToolParse,
}

impl BoundaryId {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ChatTurnCap => "chat_turn_cap",
            Self::TextToolParse => "text_tool_parse",
        }
    }
}
`;

const CHAT = `pub fn chat(session_id: string) {
  agent_emit_event(session_id, "boundary_failure", {boundary: "chat_turn_cap", kind: "capped", detail: "cap"})
  agent_emit_event(session_id, "budget_exhausted", {})
}
`;

const PARSE = `fn parse(text: &str) {
    BoundaryFailure::new(BoundaryId::TextToolParse, Kind::Dropped, "x").report();
}
`;

const FILES: Record<string, string> = {
  'crates/chat.harn': CHAT,
  'crates/parse.rs': PARSE,
  'crates/parse_tests.rs': 'fn t() { assert_eq!(BoundaryId::TextToolParse.as_str(), "text_tool_parse"); }\n',
  'tests/chat_test.harn': '// checks chat_turn_cap\n',
};

const ENTRY_CHAT = `[[boundary]]
id = "chat_turn_cap"
anchors = ["crates/chat.harn"]
test = "tests/chat_test.harn"
`;

const ENTRY_PARSE = `[[boundary]]
id = "text_tool_parse"
anchors = ["crates/parse.rs"]
test = "crates/parse_tests.rs"
`;

const AUDITED = `[[audited]]
id = "agent_loop_budget"
anchors = ["crates/chat.harn"]
marker = "budget_exhausted"
`;

const CLEAN_REGISTRY = [ENTRY_CHAT, ENTRY_PARSE, AUDITED].join('\n');

interface Scenario {
  registry?: string;
  funnel?: string;
  files?: Record<string, string>;
  refused?: Record<string, string>;
}

interface Run {
  result: GateResult;
  /** The text a finding's location points into. */
  textOf(path: string): string;
}

/** Sites as the workspace gathers them: Rust mentions mapped through the arms, then `.harn` ids; exempt paths dropped. */
function sitesOf(files: Record<string, string>, funnelText: string): BoundarySite[] {
  const wire = new Map(parseFunnel(funnelText).arms.map((a) => [a.variant, a.wire]));
  const paths = Object.keys(files)
    .filter((p) => p.startsWith('crates/'))
    .sort();
  const sites: BoundarySite[] = [];
  for (const p of paths.filter((f) => f.endsWith('.rs'))) {
    if (p === FUNNEL || isExemptSitePath(p)) continue;
    for (const m of scanRustMentions(defined(files[p], p))) {
      const id = wire.get(m.variant);
      if (id !== undefined) sites.push({ path: p, id, range: m.range });
    }
  }
  for (const p of paths.filter((f) => f.endsWith('.harn'))) {
    for (const ref of scanHarn(defined(files[p], p)).references) sites.push({ path: p, id: ref.id, range: ref.range });
  }
  return sites;
}

function gate(scenario: Scenario = {}): Run {
  const registryText = scenario.registry ?? CLEAN_REGISTRY;
  const funnelText = scenario.funnel ?? FUNNEL_TEXT;
  const files = scenario.files ?? FILES;
  const result = evaluateGate({
    registryPath: REGISTRY,
    funnelPath: FUNNEL,
    registry: parseRegistry(registryText),
    funnel: parseFunnel(funnelText),
    sites: sitesOf(files, funnelText),
    existing: new Set(Object.keys(files)),
    contents: new Map(Object.entries(files)),
    refused: new Map(Object.entries(scenario.refused ?? {})),
  });
  return {
    result,
    textOf: (p) => (p === REGISTRY ? registryText : p === FUNNEL ? funnelText : (files[p] ?? assert.fail(`no text for ${p}`))),
  };
}

const slice = (text: string, r: TextRange): string => text.slice(r.start, r.end);

/** The first range of the first finding. */
const firstRange = (run: Run): TextRange => defined(defined(run.result.findings[0], 'the finding').location.ranges[0], 'its first range');

/** The finding's (kind, id, path, message), and the texts its ranges slice to in the file it is shown in. */
function described(run: Run, f: Finding): { kind: string; id: string; path: string; message: string; shownIn: string; slices: string[] } {
  const text = run.textOf(f.location.path);
  return { kind: f.kind, id: f.id, path: f.path, message: f.message, shownIn: f.location.path, slices: f.location.ranges.map((r) => slice(text, r)) };
}

function only(run: Run): ReturnType<typeof described> {
  assert.equal(run.result.findings.length, 1, run.result.findings.map((f) => `${f.kind} ${f.id}`).join('\n'));
  assert.equal(run.result.refused, false);
  return described(run, defined(run.result.findings[0], 'the finding'));
}

const all = (run: Run): ReturnType<typeof described>[] => run.result.findings.map((f) => described(run, f));

/** The range of the `occurrence`-th `needle` in `text`. */
function rangeOf(text: string, needle: string, occurrence = 0): TextRange {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) {
    start = text.indexOf(needle, start + 1);
    assert.ok(start >= 0, `${needle} #${occurrence}`);
  }
  return { start, end: start + needle.length };
}

describe('gate: a clean tree', () => {
  test("no findings, and upstream's OK line", () => {
    const run = gate();
    assert.deepEqual(run.result.findings, []);
    assert.equal(run.result.refused, false);
    assert.equal(renderGateText(run.result, REGISTRY), 'loud-boundary registry OK (2 funnelled boundary(ies), 1 audited)');
  });
});

describe('gate: one test per finding kind', () => {
  test('invalid_entry: a [[boundary]] with no id, or an empty one, on its header', () => {
    const run = gate({ registry: `${CLEAN_REGISTRY}\n[[boundary]]\ntitle = "half-written"\n` });
    assert.deepEqual(only(run), {
      kind: 'invalid_entry',
      id: '',
      path: REGISTRY,
      message: 'a [[boundary]] entry has no `id`',
      shownIn: REGISTRY,
      slices: ['[[boundary]]'],
    });
    const registry = `${CLEAN_REGISTRY}\n[[boundary]]\nid = ""\n`;
    const empty = gate({ registry });
    assert.deepEqual(only(empty).message, 'a [[boundary]] entry has no `id`');
    assert.deepEqual(defined(empty.result.findings[0], 'the finding').location.ranges, [rangeOf(registry, '[[boundary]]', 2)]);
  });

  test('invalid_entry: schema problems come first, on the key or value, with the entry id', () => {
    const registry = CLEAN_REGISTRY.replace('test = "tests/chat_test.harn"', 'test = "tests/chat_test.harn"\ntests = ["x"]');
    assert.deepEqual(only(gate({ registry })), {
      kind: 'invalid_entry',
      id: 'chat_turn_cap',
      path: REGISTRY,
      message: 'unknown key `tests` in a [[boundary]] entry',
      shownIn: REGISTRY,
      slices: ['tests'],
    });
  });

  test('invalid_entry: an [[audited]] entry with no id is reported (the registry reader flags it; upstream has no finding)', () => {
    const registry = CLEAN_REGISTRY.replace('id = "agent_loop_budget"\n', '');
    assert.deepEqual(only(gate({ registry })), {
      kind: 'invalid_entry',
      id: '',
      path: REGISTRY,
      message: 'an [[audited]] entry has no `id`',
      shownIn: REGISTRY,
      slices: ['[[audited]]'],
    });
  });

  test('duplicate_entry: on the second id string', () => {
    const registry = `${CLEAN_REGISTRY}\n${ENTRY_CHAT}`;
    const run = gate({ registry });
    assert.deepEqual(only(run), {
      kind: 'duplicate_entry',
      id: 'chat_turn_cap',
      path: REGISTRY,
      message: 'registered twice',
      shownIn: REGISTRY,
      slices: ['"chat_turn_cap"'],
    });
    assert.deepEqual(defined(run.result.findings[0], 'the finding').location.ranges, [rangeOf(registry, '"chat_turn_cap"', 1)]);
  });

  test('unregistered_boundary: on the enum variant in the funnel (where it is declared)', () => {
    const funnel = FUNNEL_TEXT.replace('    TextToolParse,\n}', '    TextToolParse,\n    StreamTruncate,\n}').replace(
      '            Self::TextToolParse => "text_tool_parse",\n',
      '            Self::TextToolParse => "text_tool_parse",\n            Self::StreamTruncate => "stream_truncate",\n',
    );
    const run = gate({ funnel });
    assert.deepEqual(only(run), {
      kind: 'unregistered_boundary',
      id: 'stream_truncate',
      path: FUNNEL,
      message: 'BoundaryId::StreamTruncate has no [[boundary]] entry',
      shownIn: FUNNEL,
      slices: ['StreamTruncate'],
    });
    const variant = rangeOf(funnel, '    StreamTruncate,\n}');
    assert.equal(firstRange(run).start, variant.start + 4, 'the enum variant, not the arm');
    // Without the variant in the enum (a stray arm), the finding falls back to the arm.
    const armOnly = FUNNEL_TEXT.replace(
      '            Self::TextToolParse => "text_tool_parse",\n',
      '            Self::TextToolParse => "text_tool_parse",\n            Self::StreamTruncate => "stream_truncate",\n',
    );
    const fallback = gate({ funnel: armOnly });
    const arm = rangeOf(armOnly, 'Self::StreamTruncate');
    assert.equal(firstRange(fallback).start, arm.start + 'Self::'.length);
  });

  test('orphan_entry: on the id string', () => {
    const registry = `${CLEAN_REGISTRY}\n[[boundary]]\nid = "legacy_html_strip"\nanchors = ["crates/html.harn"]\ntest = "tests/html.harn"\n`;
    const files = {
      ...FILES,
      'crates/html.harn': 'pub fn f(s) {\n  agent_emit_event(s, "boundary_failure", {boundary: "legacy_html_strip", kind: "dropped", detail: "d"})\n}\n',
      'tests/html.harn': '// legacy_html_strip\n',
    };
    assert.deepEqual(only(gate({ registry, files })), {
      kind: 'orphan_entry',
      id: 'legacy_html_strip',
      path: REGISTRY,
      message: 'no BoundaryId variant maps to this id',
      shownIn: REGISTRY,
      slices: ['"legacy_html_strip"'],
    });
  });

  test('no_anchor: on `anchors = []` (and the live site becomes unregistered)', () => {
    const registry = CLEAN_REGISTRY.replace('anchors = ["crates/chat.harn"]\ntest', 'anchors = []\ntest');
    assert.deepEqual(all(gate({ registry })), [
      { kind: 'no_anchor', id: 'chat_turn_cap', path: REGISTRY, message: 'entry declares no `anchors`', shownIn: REGISTRY, slices: ['anchors = []'] },
      {
        kind: 'unregistered_site',
        id: 'chat_turn_cap',
        path: 'crates/chat.harn',
        message: 'constructs `chat_turn_cap` but is not one of its registered anchors',
        shownIn: 'crates/chat.harn',
        slices: ['"chat_turn_cap"'],
      },
    ]);
    // Without the key at all, the finding sits on the id.
    const noKey = CLEAN_REGISTRY.replace('anchors = ["crates/chat.harn"]\ntest', 'test');
    assert.deepEqual(defined(all(gate({ registry: noKey }))[0], 'the finding').slices, ['"chat_turn_cap"']);
  });

  test('missing_anchor: upstream names the anchor; shown on its string', () => {
    const registry = CLEAN_REGISTRY.replace('anchors = ["crates/chat.harn"]\ntest', 'anchors = ["crates/chat.harn", "crates/gone.harn"]\ntest');
    assert.deepEqual(only(gate({ registry })), {
      kind: 'missing_anchor',
      id: 'chat_turn_cap',
      path: 'crates/gone.harn',
      message: 'anchor file does not exist',
      shownIn: REGISTRY,
      slices: ['"crates/gone.harn"'],
    });
  });

  test('stale_entry: the anchor exists but nothing constructs the boundary; on the id', () => {
    const files = { ...FILES, 'crates/chat.harn': '// the cap is silent now: budget_exhausted\n' };
    assert.deepEqual(only(gate({ files })), {
      kind: 'stale_entry',
      id: 'chat_turn_cap',
      path: REGISTRY,
      message: 'no file constructs this boundary any more',
      shownIn: REGISTRY,
      slices: ['"chat_turn_cap"'],
    });
  });

  test('unregistered_site: a Rust file outside the anchors, on every `BoundaryId::X` token in it', () => {
    const other =
      'fn a() { f(BoundaryId::TextToolParse); }\n// BoundaryId::TextToolParse in a comment\nfn b() { g(crate::boundary::BoundaryId::TextToolParse) }\n';
    assert.deepEqual(only(gate({ files: { ...FILES, 'crates/other.rs': other } })), {
      kind: 'unregistered_site',
      id: 'text_tool_parse',
      path: 'crates/other.rs',
      message: 'constructs `text_tool_parse` but is not one of its registered anchors',
      shownIn: 'crates/other.rs',
      slices: ['TextToolParse', 'TextToolParse'],
    });
  });

  test('unregistered_site: a .harn file outside the anchors, on the id string', () => {
    const text = 'pub fn g(s) {\n  agent_emit_event(s, "boundary_failure", {boundary: "chat_turn_cap", kind: "capped", detail: "d"})\n}\n';
    const run = gate({ files: { ...FILES, 'crates/more_chat.harn': text } });
    assert.deepEqual(only(run).slices, ['"chat_turn_cap"']);
    assert.deepEqual(defined(run.result.findings[0], 'the finding').location, { path: 'crates/more_chat.harn', ranges: [rangeOf(text, '"chat_turn_cap"')] });
  });

  test('no_test: on the id, or on an empty `test` string', () => {
    const registry = CLEAN_REGISTRY.replace('test = "tests/chat_test.harn"\n', '');
    assert.deepEqual(only(gate({ registry })), {
      kind: 'no_test',
      id: 'chat_turn_cap',
      path: REGISTRY,
      message: 'entry declares no `test`',
      shownIn: REGISTRY,
      slices: ['"chat_turn_cap"'],
    });
    const empty = CLEAN_REGISTRY.replace('test = "tests/chat_test.harn"', 'test = ""');
    assert.deepEqual(only(gate({ registry: empty })).slices, ['""']);
  });

  test('missing_test: upstream names the test path; shown on its string', () => {
    const registry = CLEAN_REGISTRY.replace('test = "tests/chat_test.harn"', 'test = "tests/gone.harn"');
    assert.deepEqual(only(gate({ registry })), {
      kind: 'missing_test',
      id: 'chat_turn_cap',
      path: 'tests/gone.harn',
      message: 'test file does not exist',
      shownIn: REGISTRY,
      slices: ['"tests/gone.harn"'],
    });
  });

  test('inert_test: the test never mentions the id', () => {
    const files = { ...FILES, 'tests/chat_test.harn': '// checks the chat cap\n' };
    assert.deepEqual(only(gate({ files })), {
      kind: 'inert_test',
      id: 'chat_turn_cap',
      path: 'tests/chat_test.harn',
      message: 'test file never mentions `chat_turn_cap`',
      shownIn: REGISTRY,
      slices: ['"tests/chat_test.harn"'],
    });
  });

  test('unknown_boundary: a .harn id nobody registered, on the string (or the constant naming it)', () => {
    const text = 'pub fn g(s) {\n  agent_emit_event(s, "boundary_failure", {boundary: "chat_turn_capp", kind: "capped", detail: "d"})\n}\n';
    assert.deepEqual(only(gate({ files: { ...FILES, 'crates/typo.harn': text } })), {
      kind: 'unknown_boundary',
      id: 'chat_turn_capp',
      path: 'crates/typo.harn',
      message: 'reports boundary `chat_turn_capp`, which is not in the registry',
      shownIn: 'crates/typo.harn',
      slices: ['"chat_turn_capp"'],
    });
    const viaConst =
      'const CAP = "chat_turn_capp"\npub fn g(s) {\n  agent_emit_event(s, "boundary_failure", {boundary: CAP, kind: "capped", detail: "d"})\n}\n';
    const run = gate({ files: { ...FILES, 'crates/typo.harn': viaConst } });
    assert.deepEqual(only(run).slices, ['CAP']);
    assert.deepEqual(defined(run.result.findings[0], 'the finding').location.ranges, [rangeOf(viaConst, 'CAP', 1)]);
  });

  test('missing_audited_anchor: upstream names the anchor; shown on its string', () => {
    const registry = CLEAN_REGISTRY.replace('anchors = ["crates/chat.harn"]\nmarker', 'anchors = ["crates/loop.harn"]\nmarker');
    assert.deepEqual(only(gate({ registry })), {
      kind: 'missing_audited_anchor',
      id: 'agent_loop_budget',
      path: 'crates/loop.harn',
      message: 'audited anchor file does not exist',
      shownIn: REGISTRY,
      slices: ['"crates/loop.harn"'],
    });
  });

  test('audited_event_gone: the anchor lost its marker', () => {
    const files = { ...FILES, 'crates/chat.harn': CHAT.replace('budget_exhausted', 'budget_spent') };
    const registry = CLEAN_REGISTRY;
    const run = gate({ registry, files });
    assert.deepEqual(only(run), {
      kind: 'audited_event_gone',
      id: 'agent_loop_budget',
      path: 'crates/chat.harn',
      message: 'no longer contains `budget_exhausted` — the boundary may have gone silent',
      shownIn: REGISTRY,
      slices: ['"crates/chat.harn"'],
    });
    assert.deepEqual(defined(run.result.findings[0], 'the finding').location.ranges, [rangeOf(registry, '"crates/chat.harn"', 1)]);
  });

  test('path_outside_root: a refused anchor, test or audited anchor gets that finding and no other', () => {
    const registry = CLEAN_REGISTRY.replace(
      'anchors = ["crates/chat.harn"]\ntest = "tests/chat_test.harn"',
      'anchors = ["crates/chat.harn", "../out.rs"]\ntest = "/etc/test.harn"',
    ).replace('anchors = ["crates/chat.harn"]\nmarker', 'anchors = ["crates/chat.harn", "link/out.harn"]\nmarker');
    const refused = {
      '../out.rs': 'refused: `../out.rs` leaves the repository root',
      '/etc/test.harn': 'refused: `/etc/test.harn` is absolute; registry paths are relative to the repository root',
      'link/out.harn': 'refused: `link/out.harn` is a symbolic link that leads out of the repository root',
    };
    assert.deepEqual(
      all(gate({ registry, refused })),
      Object.entries(refused).map(([p, reason]) => ({
        kind: 'path_outside_root',
        id: p === 'link/out.harn' ? 'agent_loop_budget' : 'chat_turn_cap',
        path: p,
        message: reason,
        shownIn: REGISTRY,
        slices: [JSON.stringify(p)],
      })),
    );
  });
});

describe('gate: refusals', () => {
  test('a TOML syntax error: toml_syntax and nothing else (even with a vacuous funnel)', () => {
    const registry = `${ENTRY_CHAT}\n[[boundary]\nid = "x"\n`;
    const run = gate({ registry, funnel: 'pub enum BoundaryId { A }\n', files: {} });
    assert.equal(run.result.refused, true);
    assert.equal(run.result.findings.length, 1);
    const f = defined(run.result.findings[0], 'the finding');
    assert.equal(f.kind, 'toml_syntax');
    assert.equal(f.id, '');
    assert.equal(f.path, REGISTRY);
    // The reader's problem, worded as upstream's `::error::failed to parse …: <error>`, at the reader's 1-char range.
    const problem = defined(parseRegistry(registry).problems[0], "the reader's problem");
    assert.equal(f.message, `failed to parse scripts/loud_boundaries.toml: ${problem.message}`);
    assert.match(f.message, /^failed to parse scripts\/loud_boundaries\.toml: TOML syntax error: /);
    assert.deepEqual(f.location, { path: REGISTRY, ranges: [problem.range] });
    assert.equal(problem.range.end - problem.range.start, 1);
    assert.ok(problem.range.start > registry.indexOf('[[boundary]\n'), 'after the broken header');
    assert.equal(renderGateText(run.result, REGISTRY), `::error::${f.message}`);
  });

  test('a funnel with no `Self::X => "wire"` arm: vacuous_funnel, upstream\'s message, nothing else', () => {
    const funnel = "pub enum BoundaryId {\n    ChatTurnCap,\n}\n\nimpl BoundaryId {\n    pub fn as_str(self) -> &'static str {\n        todo!()\n    }\n}\n";
    const run = gate({ funnel, registry: `${CLEAN_REGISTRY}\n[[boundary]]\n` });
    assert.equal(run.result.refused, true);
    assert.deepEqual(all(run), [
      {
        kind: 'vacuous_funnel',
        id: '',
        path: FUNNEL,
        message: `could not read any \`Self::Variant => "wire"\` arms from ${FUNNEL}; the gate would pass vacuously`,
        shownIn: FUNNEL,
        slices: [''],
      },
    ]);
    assert.equal(
      renderGateText(run.result, REGISTRY),
      `::error::could not read any \`Self::Variant => "wire"\` arms from ${FUNNEL}; the gate would pass vacuously`,
    );
  });
});

describe("gate: upstream's order", () => {
  // Every kind at once, with the registry entries, arms and sites written out of alphabetical order.
  const funnel = `impl BoundaryId {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ZetaCap => "zeta_cap",
            Self::ChatTurnCap => "chat_turn_cap",
            Self::TextToolParse => "text_tool_parse",
            Self::AlphaDrop => "alpha_drop",
            Self::HostEventIngest => "host_event_ingest",
        }
    }
}
`;
  const registry = `[[boundary]]
id = "zz_orphan"
anchors = ["crates/chat.harn"]
test = "tests/chat_test.harn"

[[boundary]]
id = "chat_turn_cap"
anchors = ["crates/chat.harn", "crates/gone.harn"]
test = "tests/gone.harn"

[[boundary]]
title = "no id"

[[boundary]]
id = "text_tool_parse"
anchors = []

[[boundary]]
id = "aa_orphan"
anchors = ["crates/chat.harn"]
test = "tests/chat_test.harn"
bogus = 1

[[boundary]]
id = "chat_turn_cap"
anchors = ["crates/chat.harn"]
test = "tests/chat_test.harn"

[[boundary]]
id = "host_event_ingest"
anchors = ["crates/host.rs", "../out.rs"]
test = "tests/chat_test.harn"

[[audited]]
id = "agent_loop_stall"
anchors = ["crates/chat.harn", "crates/stall.harn"]
marker = "stall_warning"
`;
  const files = {
    ...FILES,
    'crates/z_parse.rs': 'f(BoundaryId::TextToolParse);\n',
    'crates/b_parse.rs': 'f(BoundaryId::TextToolParse);\n',
    'crates/typo.harn': 'pub fn g(s) {\n  agent_emit_event(s, "boundary_failure", {boundary: "chat_turn_capp", kind: "capped", detail: "d"})\n}\n',
    'crates/host.rs': '// nothing here any more\n',
    'tests/chat_test.harn': '// chat_turn_cap, zz_orphan, aa_orphan\n',
  } satisfies Record<string, string>;
  const run = gate({ registry, funnel, files, refused: { '../out.rs': 'refused: `../out.rs` leaves the repository root' } });

  test('schema problems, registered_ids, enum correspondence (sorted), per entry (anchors, sites sorted, test), unknown ids, audited', () => {
    assert.deepEqual(
      run.result.findings.map((f) => `${f.kind} ${f.id} @ ${f.path}`),
      [
        'invalid_entry aa_orphan @ scripts/loud_boundaries.toml', // `bogus`: our schema check, first
        'invalid_entry  @ scripts/loud_boundaries.toml',
        'duplicate_entry chat_turn_cap @ scripts/loud_boundaries.toml',
        // Harn dicts iterate in key order: variants sorted, then registered ids sorted.
        'unregistered_boundary alpha_drop @ crates/harn-vm/src/boundary.rs',
        'unregistered_boundary zeta_cap @ crates/harn-vm/src/boundary.rs',
        'orphan_entry aa_orphan @ scripts/loud_boundaries.toml',
        'orphan_entry zz_orphan @ scripts/loud_boundaries.toml',
        // Per entry, in registry order, duplicates included.
        'stale_entry zz_orphan @ scripts/loud_boundaries.toml',
        'missing_anchor chat_turn_cap @ crates/gone.harn',
        'missing_test chat_turn_cap @ tests/gone.harn',
        'no_anchor text_tool_parse @ scripts/loud_boundaries.toml',
        'unregistered_site text_tool_parse @ crates/b_parse.rs',
        'unregistered_site text_tool_parse @ crates/parse.rs',
        'unregistered_site text_tool_parse @ crates/z_parse.rs',
        'no_test text_tool_parse @ scripts/loud_boundaries.toml',
        'stale_entry aa_orphan @ scripts/loud_boundaries.toml',
        'path_outside_root host_event_ingest @ ../out.rs',
        'stale_entry host_event_ingest @ scripts/loud_boundaries.toml',
        'inert_test host_event_ingest @ tests/chat_test.harn',
        'unknown_boundary chat_turn_capp @ crates/typo.harn',
        'audited_event_gone agent_loop_stall @ crates/chat.harn',
        'missing_audited_anchor agent_loop_stall @ crates/stall.harn',
      ],
    );
  });

  test("renderGateText: upstream's failure form, byte for byte", () => {
    const small = gate({
      registry: CLEAN_REGISTRY.replace('test = "tests/chat_test.harn"', 'test = "tests/gone.harn"'),
      files: { ...FILES, 'crates/typo.harn': files['crates/typo.harn'] },
    });
    assert.equal(
      renderGateText(small.result, REGISTRY),
      '::error::loud-boundary registry failed (2 finding(s)):\n' +
        '  [missing_test] chat_turn_cap @ tests/gone.harn: test file does not exist\n' +
        '  [unknown_boundary] chat_turn_capp @ crates/typo.harn: reports boundary `chat_turn_capp`, which is not in the registry\n' +
        'hint: a boundary that can drop model output must report through crate::boundary::BoundaryFailure and be listed in scripts/loud_boundaries.toml. See the header of that file for the checklist.',
    );
    // A blank id prints as upstream does: two spaces between the kind and `@`.
    const lines = renderGateText(run.result, 'custom/registry.toml').split('\n');
    assert.equal(lines[0], '::error::loud-boundary registry failed (22 finding(s)):');
    assert.equal(lines[2], '  [invalid_entry]  @ scripts/loud_boundaries.toml: a [[boundary]] entry has no `id`');
    assert.match(defined(lines.at(-1), 'the last line'), /be listed in custom\/registry\.toml\. See the header/);
    assert.equal(lines.length, 24);
  });

  test('counts come from the registry, findings or not', () => {
    assert.equal(run.result.boundaryCount, 7);
    assert.equal(run.result.auditedCount, 1);
  });
});

describe('closestIds', () => {
  const ids = ['chat_turn_cap', 'text_tool_parse', 'host_event_ingest', 'chat_turn_gap', 'chat_turn_map', 'chat_turn_cape'];

  test('the registered ids within a third of the length, closest first, ties alphabetical, at most 3', () => {
    assert.deepEqual(closestIds('chat_turn_capp', ids), ['chat_turn_cap', 'chat_turn_cape', 'chat_turn_gap']);
    assert.deepEqual(closestIds('chat_turn_capp', ids, 1), ['chat_turn_cap']);
    assert.deepEqual(closestIds('text_tool_prase', ids), ['text_tool_parse']);
  });

  test('an exact match is not a suggestion; nothing close gives nothing; short ids get a budget of 2', () => {
    assert.deepEqual(closestIds('chat_turn_cap', ['chat_turn_cap']), []);
    assert.deepEqual(closestIds('unrelated_thing', ids), []);
    assert.deepEqual(closestIds('ab', ['xy', 'abcd', 'abcde']), ['abcd', 'xy']);
  });
});

describe('compareCodePoints', () => {
  test('orders as Harn (UTF-8 bytes), not as UTF-16 code units', () => {
    // U+FF5E (BMP, above the surrogates) sorts before U+1F600 by code point, after it by UTF-16 unit.
    const items = ['\u{1F600}', '\uFF5E', 'a', 'ab', ''];
    assert.deepEqual([...items].sort(compareCodePoints), ['', 'a', 'ab', '\uFF5E', '\u{1F600}']);
    assert.deepEqual([...items].sort(), ['', 'a', 'ab', '\u{1F600}', '\uFF5E']);
  });
});
