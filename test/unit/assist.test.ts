// boundaries/assist.ts: the live checks of a `.harn` text against the registry, the hover Markdown of an
// id, the completion items, and the fixes offered for each finding kind (titles, which one is preferred,
// and their exact edits).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  entryMarkdown,
  findEntry,
  FixContext,
  fixesFor,
  idCompletions,
  kindCompletions,
  liveHarnProblems,
  registeredIds,
} from '../../server/src/boundaries/assist';
import { scanHarnBoundaries } from '../../server/src/boundaries/harnSites';
import { parseRegistry } from '../../server/src/boundaries/registry';
import { applyEdits } from '../../server/src/boundaries/registryEdits';
import { parseFunnel } from '../../server/src/boundaries/rust';
import type { BoundarySite } from '../../server/src/boundaries/types';
import { HarnAnalysis } from '../../server/src/harn/analysis';

const REGISTRY_PATH = 'scripts/loud_boundaries.toml';
const FUNNEL_PATH = 'crates/harn-vm/src/boundary.rs';

const REGISTRY = `[[boundary]]
id = "chat_turn_cap"
title = "Chat loop turn cap"
drops = "The rest of a *conversation*."
was_silent = true
event = "agent_event:boundary_failure"
anchors = ["lib/chat.harn", "../outside.rs"]
test = "conformance/tests/cap.harn"

[[boundary]]
id = "text_tool_parse"
title = "Text tool-call parse"
anchors = ["lib/tools.harn"]

[[audited]]
id = "llm_transport"
title = "LLM transport"
event = "agent_event:llm_transport_error"
anchors = ["crates/harn-vm/src/llm/call.rs"]
marker = "transport_error"
`;

const FUNNEL = `/// Places where model-produced bytes can be lost.
pub enum BoundaryId {
    /// Provider response blocks with no handler.
    ResponseContentExtraction,
    /// The chat loop's turn cap.
    ChatTurnCap,
}

impl BoundaryId {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ResponseContentExtraction => "response_content_extraction",
            Self::ChatTurnCap => "chat_turn_cap",
        }
    }
}
`;

const SOURCE = `const CAP = "chat_turn_capp"
pub fn f(session_id: string) {
  agent_emit_event(session_id, "boundary_failure", {boundary: "chat_turn_capp", kind: "capped", detail: "x"})
  agent_emit_event(session_id, "boundary_failure", {boundary: CAP, kind: "lost", detail: "x"})
  agent_emit_event(session_id, "boundary_failure", {boundary: r#"text_tool_pars"#, kind: "dropped"})
  agent_emit_event(session_id, "boundary_failure", {boundary: "zzzzzzzzzzzz", kind: "dropped", detail: ""})
  agent_emit_event(session_id, "boundary_failure", {boundary: "chat_turn_cap", kind: "capped", detail: "ok"})
  agent_emit_event(session_id, "boundary_failure", {boundary: "", kind: "capped", detail: "ok"})
}
`;

const registry = parseRegistry(REGISTRY);
const funnel = parseFunnel(FUNNEL);
const scan = scanHarnBoundaries(new HarnAnalysis(SOURCE));

function rangeOf(text: string, needle: string, after = 0): { start: number; end: number } {
  const start = text.indexOf(needle, after);
  assert.ok(start >= 0 && text.indexOf(needle, start + 1) < 0, `${JSON.stringify(needle)} occurs once`);
  return { start, end: start + needle.length };
}

function site(id: string, path: string): BoundarySite {
  return { id, path, range: { start: 0, end: 1 } };
}

const context = (sites: BoundarySite[] = [], withFunnel = true): FixContext => ({
  registryPath: REGISTRY_PATH,
  registryText: REGISTRY,
  registry,
  sites,
  ...(withFunnel ? { funnel: { path: FUNNEL_PATH, text: FUNNEL, parsed: funnel } } : {}),
});

/** What the registry template adds for a new id: after the last [[boundary]], before [[audited]]. */
function newEntry(id: string, anchors: string): { start: number; end: number; newText: string } {
  const at = REGISTRY.indexOf('\n\n[[audited]]');
  return {
    start: at,
    end: at,
    newText:
      `\n\n[[boundary]]\nid = "${id}"\ntitle = "TODO: describe this boundary"\ndrops = "TODO: describe what this boundary drops"\n` +
      `was_silent = true\nevent = "agent_event:boundary_failure"\nanchors = ${anchors}`,
  };
}

/** The funnel edits adding `variant` for `id`: its doc line and enum variant, and its as_str arm. */
function newVariant(variant: string, id: string, doc = 'TODO: describe this boundary'): { start: number; end: number; newText: string }[] {
  const enumEnd = FUNNEL.indexOf('\n}');
  const armsEnd = FUNNEL.indexOf('\n        }');
  return [
    { start: enumEnd, end: enumEnd, newText: `\n    /// ${doc}\n    ${variant},` },
    { start: armsEnd, end: armsEnd, newText: `\n            Self::${variant} => "${id}",` },
  ];
}

describe('registeredIds and findEntry', () => {
  test('the [[boundary]] ids, not the audited ones', () => {
    assert.deepEqual(registry.problems, []);
    assert.deepEqual([...registeredIds(registry)], ['chat_turn_cap', 'text_tool_parse']);
    assert.equal(findEntry(registry, 'text_tool_parse')?.title?.value, 'Text tool-call parse');
    assert.equal(findEntry(registry, 'llm_transport'), undefined);
    assert.equal(findEntry(undefined, 'chat_turn_cap'), undefined);
  });
});

describe('liveHarnProblems', () => {
  const problems = liveHarnProblems(scan, registry);

  test('payload problems (warnings) first, then each unknown id (an error) with its closest registered ids', () => {
    assert.deepEqual(
      problems.map((p) => [p.code, p.severity, SOURCE.slice(p.range.start, p.range.end), p.data]),
      [
        ['invalid_boundary_kind', 'warning', '"lost"', undefined],
        ['boundary_payload_incomplete', 'warning', '{boundary: r#"text_tool_pars"#, kind: "dropped"}', undefined],
        ['unknown_boundary', 'error', '"chat_turn_capp"', { id: 'chat_turn_capp', suggestions: ['chat_turn_cap'] }],
        // Through a constant: on the constant's use.
        ['unknown_boundary', 'error', 'CAP', { id: 'chat_turn_capp', suggestions: ['chat_turn_cap'] }],
        ['unknown_boundary', 'error', 'r#"text_tool_pars"#', { id: 'text_tool_pars', suggestions: ['text_tool_parse'] }],
        ['unknown_boundary', 'error', '"zzzzzzzzzzzz"', { id: 'zzzzzzzzzzzz', suggestions: [] }],
      ],
    );
  });

  test('the messages name the id, the constant, and the first suggestion', () => {
    assert.deepEqual(
      problems.filter((p) => p.code === 'unknown_boundary').map((p) => p.message),
      [
        'reports boundary `chat_turn_capp`, which is not in the registry. Did you mean `chat_turn_cap`?',
        'reports boundary `chat_turn_capp` (through `CAP`), which is not in the registry. Did you mean `chat_turn_cap`?',
        'reports boundary `text_tool_pars`, which is not in the registry. Did you mean `text_tool_parse`?',
        'reports boundary `zzzzzzzzzzzz`, which is not in the registry.',
      ],
    );
  });

  test('without a registry, or with one that does not parse, only the payload problems', () => {
    const payloadOnly = ['invalid_boundary_kind', 'boundary_payload_incomplete'];
    assert.deepEqual(
      liveHarnProblems(scan, undefined).map((p) => p.code),
      payloadOnly,
    );
    const broken = parseRegistry('[[boundary]\n');
    assert.equal(broken.parsed, false);
    assert.deepEqual(
      liveHarnProblems(scan, broken).map((p) => p.code),
      payloadOnly,
    );
  });
});

describe('entryMarkdown', () => {
  const uriOf = (relative: string): string => `file:///root/${relative}`;

  test('a registered entry: title, drops, anchors and test linked (a path leaving the root is not), reporting files, event', () => {
    const sites = [
      site('chat_turn_cap', 'lib/chat.harn'),
      site('chat_turn_cap', 'lib/agent.harn'),
      site('chat_turn_cap', 'lib/chat.harn'),
      site('text_tool_parse', 'lib/tools.harn'),
    ];
    assert.deepEqual(entryMarkdown('chat_turn_cap', registry, sites, uriOf).split('\n\n'), [
      '**chat_turn_cap** — Chat loop turn cap',
      'Drops: The rest of a \\*conversation\\*.',
      'Anchors: [lib/chat.harn](file:///root/lib/chat.harn), `../outside.rs`',
      'Test: [conformance/tests/cap.harn](file:///root/conformance/tests/cap.harn)',
      // Each reporting file once, sorted.
      'Reported in: [lib/agent.harn](file:///root/lib/agent.harn), [lib/chat.harn](file:///root/lib/chat.harn)',
      'Event: `agent_event:boundary_failure` · was silent before it was registered',
    ]);
  });

  test('an entry without drops, test, event or sites', () => {
    assert.deepEqual(entryMarkdown('text_tool_parse', registry, [], uriOf).split('\n\n'), [
      '**text_tool_parse** — Text tool-call parse',
      'Anchors: [lib/tools.harn](file:///root/lib/tools.harn)',
      'Test: none',
    ]);
  });

  test('an audited entry, and an id the registry lacks', () => {
    assert.deepEqual(entryMarkdown('llm_transport', registry, [], uriOf).split('\n\n'), [
      '**llm_transport** — audited boundary: LLM transport',
      'Event: `agent_event:llm_transport_error` · marker `transport_error`',
      'Anchors: [crates/harn-vm/src/llm/call.rs](file:///root/crates/harn-vm/src/llm/call.rs)',
    ]);
    assert.equal(entryMarkdown('nope', registry, [], uriOf), '**nope** is not in the loud-boundary registry.');
    assert.equal(entryMarkdown('nope', undefined, [], uriOf), '**nope** is not in the loud-boundary registry.');
  });
});

describe('completions', () => {
  test('idCompletions: each registered id with its title, and its drops as documentation', () => {
    assert.deepEqual(idCompletions(registry), [
      { label: 'chat_turn_cap', detail: 'Chat loop turn cap', documentation: 'Drops: The rest of a \\*conversation\\*.' },
      { label: 'text_tool_parse', detail: 'Text tool-call parse', documentation: '' },
    ]);
    assert.deepEqual(idCompletions(undefined), []);
  });

  test('kindCompletions: the five kinds with their owners', () => {
    const harness = { detail: 'owner: harness', documentation: 'The harness lost model output (owner "harness").' };
    assert.deepEqual(kindCompletions(), [
      { label: 'dropped', ...harness },
      { label: 'unrecognized', ...harness },
      { label: 'truncated', ...harness },
      { label: 'killed', ...harness },
      { label: 'capped', detail: 'owner: policy', documentation: 'A policy cap ended the output (owner "policy").' },
    ]);
  });
});

describe('fixesFor', () => {
  const unknown = liveHarnProblems(scan, registry).filter((p) => p.code === 'unknown_boundary');
  const fixesOf = (index: number, ctx = context()): ReturnType<typeof fixesFor> => {
    const p = unknown[index];
    assert.ok(p?.data);
    return fixesFor('unknown_boundary', p.data.id, 'lib/x.harn', ctx, { suggestions: p.data.suggestions, idRange: p.range, sourceText: SOURCE });
  };
  const bothTitle = (id: string): string => `Register boundary '${id}' in ${REGISTRY_PATH} and ${FUNNEL_PATH}`;

  test('unknown id with a suggestion: change the string (preferred), register in registry and funnel, or in the registry only', () => {
    assert.deepEqual(fixesOf(0), [
      {
        title: "Change to 'chat_turn_cap'",
        files: [{ path: 'lib/x.harn', edits: [{ ...rangeOf(SOURCE, '"chat_turn_capp"', SOURCE.indexOf('{boundary:')), newText: '"chat_turn_cap"' }] }],
        preferred: true,
      },
      {
        title: bothTitle('chat_turn_capp'),
        files: [
          { path: REGISTRY_PATH, edits: [newEntry('chat_turn_capp', '["lib/x.harn"]')] },
          { path: FUNNEL_PATH, edits: newVariant('ChatTurnCapp', 'chat_turn_capp') },
        ],
        preferred: false,
      },
      {
        title: "Register boundary 'chat_turn_capp' in the registry only",
        files: [{ path: REGISTRY_PATH, edits: [newEntry('chat_turn_capp', '["lib/x.harn"]')] }],
        preferred: false,
      },
    ]);
  });

  test('the registry and funnel edits give the files one expects', () => {
    const [, both] = fixesOf(0);
    const [registryEdits, funnelEdits] = both?.files ?? [];
    assert.ok(registryEdits && funnelEdits);
    assert.equal(
      applyEdits(REGISTRY, registryEdits.edits),
      REGISTRY.replace(
        '\n\n[[audited]]',
        '\n\n[[boundary]]\nid = "chat_turn_capp"\ntitle = "TODO: describe this boundary"\ndrops = "TODO: describe what this boundary drops"\n' +
          'was_silent = true\nevent = "agent_event:boundary_failure"\nanchors = ["lib/x.harn"]\n\n[[audited]]',
      ),
    );
    assert.equal(
      applyEdits(FUNNEL, funnelEdits.edits),
      FUNNEL.replace('    ChatTurnCap,\n}', '    ChatTurnCap,\n    /// TODO: describe this boundary\n    ChatTurnCapp,\n}').replace(
        '"chat_turn_cap",\n        }',
        '"chat_turn_cap",\n            Self::ChatTurnCapp => "chat_turn_capp",\n        }',
      ),
    );
  });

  test('through a constant: no string to change, so only the two registrations, neither preferred', () => {
    assert.deepEqual(
      fixesOf(1).map((f) => [f.title, f.preferred]),
      [
        [bothTitle('chat_turn_capp'), false],
        ["Register boundary 'chat_turn_capp' in the registry only", false],
      ],
    );
  });

  test('a raw string keeps its hashes; a plain one escapes `"`, `\\` and `$`', () => {
    const [change] = fixesOf(2);
    assert.deepEqual(change, {
      title: "Change to 'text_tool_parse'",
      files: [{ path: 'lib/x.harn', edits: [{ ...rangeOf(SOURCE, 'r#"text_tool_pars"#'), newText: 'r#"text_tool_parse"#' }] }],
      preferred: true,
    });
    const p = unknown[0];
    assert.ok(p?.data);
    const [odd] = fixesFor('unknown_boundary', p.data.id, 'lib/x.harn', context(), { suggestions: ['a"b\\c${d}'], idRange: p.range, sourceText: SOURCE });
    assert.deepEqual(odd?.files, [{ path: 'lib/x.harn', edits: [{ ...p.range, newText: '"a\\"b\\\\c\\${d}"' }] }]);
  });

  test('no suggestion: registering in registry and funnel is preferred; without a funnel, the registry only is', () => {
    assert.deepEqual(
      fixesOf(3).map((f) => [f.title, f.preferred]),
      [
        [bothTitle('zzzzzzzzzzzz'), true],
        ["Register boundary 'zzzzzzzzzzzz' in the registry only", false],
      ],
    );
    assert.deepEqual(fixesFor('unknown_boundary', 'new_id', 'lib/x.harn', context([], false)), [
      {
        title: "Register boundary 'new_id' in the registry only",
        files: [{ path: REGISTRY_PATH, edits: [newEntry('new_id', '["lib/x.harn"]')] }],
        preferred: true,
      },
    ]);
  });

  test('an id the funnel already maps needs only the registry entry; an empty id gets nothing', () => {
    assert.deepEqual(fixesFor('unknown_boundary', 'response_content_extraction', 'lib/x.harn', context()), [
      {
        title: `Register boundary 'response_content_extraction' in ${REGISTRY_PATH}`,
        files: [{ path: REGISTRY_PATH, edits: [newEntry('response_content_extraction', '["lib/x.harn"]')] }],
        preferred: true,
      },
    ]);
    assert.deepEqual(fixesFor('unknown_boundary', '', 'lib/x.harn', context()), []);
  });

  test("unregistered_site: add the file to the entry's anchors", () => {
    const at = REGISTRY.indexOf('"../outside.rs"') + '"../outside.rs"'.length;
    assert.deepEqual(fixesFor('unregistered_site', 'chat_turn_cap', 'lib/new.harn', context()), [
      {
        title: "Add lib/new.harn to the anchors of 'chat_turn_cap'",
        files: [{ path: REGISTRY_PATH, edits: [{ start: at, end: at, newText: ', "lib/new.harn"' }] }],
        preferred: true,
      },
    ]);
  });

  test("missing_anchor: remove that anchor (nothing without the anchor's path)", () => {
    const anchor = rangeOf(REGISTRY, '"lib/chat.harn", ');
    assert.deepEqual(fixesFor('missing_anchor', 'chat_turn_cap', REGISTRY_PATH, context(), { anchorPath: 'lib/chat.harn' }), [
      {
        title: "Remove the missing anchor lib/chat.harn from 'chat_turn_cap'",
        files: [{ path: REGISTRY_PATH, edits: [{ ...anchor, newText: '' }] }],
        preferred: true,
      },
    ]);
    assert.deepEqual(fixesFor('missing_anchor', 'chat_turn_cap', REGISTRY_PATH, context()), []);
  });

  test('stale_entry: remove the entry with the blank line after it', () => {
    const entry = rangeOf(REGISTRY, '[[boundary]]\nid = "text_tool_parse"\ntitle = "Text tool-call parse"\nanchors = ["lib/tools.harn"]\n\n');
    assert.deepEqual(fixesFor('stale_entry', 'text_tool_parse', REGISTRY_PATH, context()), [
      {
        title: `Remove the entry 'text_tool_parse' from ${REGISTRY_PATH}`,
        files: [{ path: REGISTRY_PATH, edits: [{ ...entry, newText: '' }] }],
        preferred: true,
      },
    ]);
  });

  test('orphan_entry: add the variant (preferred when something reports the id) or remove the entry (preferred otherwise)', () => {
    const entry = rangeOf(REGISTRY, '[[boundary]]\nid = "text_tool_parse"\ntitle = "Text tool-call parse"\nanchors = ["lib/tools.harn"]\n\n');
    const variant = {
      title: `Add BoundaryId::TextToolParse for 'text_tool_parse' to ${FUNNEL_PATH}`,
      // The entry's title documents the variant.
      files: [{ path: FUNNEL_PATH, edits: newVariant('TextToolParse', 'text_tool_parse', 'Text tool-call parse') }],
    };
    const remove = { title: `Remove the entry 'text_tool_parse' from ${REGISTRY_PATH}`, files: [{ path: REGISTRY_PATH, edits: [{ ...entry, newText: '' }] }] };
    assert.deepEqual(fixesFor('orphan_entry', 'text_tool_parse', REGISTRY_PATH, context([site('text_tool_parse', 'lib/tools.harn')])), [
      { ...variant, preferred: true },
      { ...remove, preferred: false },
    ]);
    assert.deepEqual(fixesFor('orphan_entry', 'text_tool_parse', REGISTRY_PATH, context()), [
      { ...variant, preferred: false },
      { ...remove, preferred: true },
    ]);
    // Without a funnel only the removal.
    assert.deepEqual(fixesFor('orphan_entry', 'text_tool_parse', REGISTRY_PATH, context([], false)), [{ ...remove, preferred: true }]);
  });

  test('unregistered_boundary: a new entry anchored at every reporting file, once each, sorted', () => {
    const sites = [
      site('response_content_extraction', 'b.rs'),
      site('response_content_extraction', 'a.rs'),
      site('response_content_extraction', 'b.rs'),
      site('chat_turn_cap', 'c.rs'),
    ];
    assert.deepEqual(fixesFor('unregistered_boundary', 'response_content_extraction', FUNNEL_PATH, context(sites)), [
      {
        title: "Add a [[boundary]] entry for 'response_content_extraction'",
        files: [{ path: REGISTRY_PATH, edits: [newEntry('response_content_extraction', '[\n  "a.rs",\n  "b.rs",\n]')] }],
        preferred: true,
      },
    ]);
  });

  test('finding kinds without a fix', () => {
    for (const kind of ['no_test', 'missing_test', 'toml_syntax', 'invalid_entry', 'missing_audited_anchor']) {
      assert.deepEqual(fixesFor(kind, 'chat_turn_cap', REGISTRY_PATH, context()), [], kind);
    }
  });
});
