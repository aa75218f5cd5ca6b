// boundaries/harnSites.ts: boundary reports in `.harn` files read from the AST (string literals and
// constants, never comments or strings), the checks of `boundary_failure` payloads, and the field under
// the cursor for completion.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BOUNDARY_KINDS, boundaryFieldAt, REQUIRED_PAYLOAD_KEYS, scanHarnBoundaries } from '../../server/src/boundaries/harnSites';
import { HarnAnalysis } from '../../server/src/harn/analysis';

/** The range of the only occurrence of `needle` in `text` (after `after`, when given). */
function rangeOf(text: string, needle: string, after = 0): { start: number; end: number } {
  const start = text.indexOf(needle, after);
  assert.ok(start >= 0 && text.indexOf(needle, start + 1) < 0, `${JSON.stringify(needle)} occurs once`);
  return { start, end: start + needle.length };
}

const SOURCE = `// comment boundary: "in_comment"
const CAP = "chat_turn_cap"
var MUT = "mutable_id"
let s = "boundary: \\"in_string\\""
pub fn f(session_id: string, ok: bool) {
  agent_emit_event(session_id, "boundary_failure", {boundary: "text_tool_parse", kind: "dropped", detail: "x"})
  agent_emit_event(session_id, "boundary_failure", {boundary: CAP, kind: if ok { "capped" } else { "exploded" }, detail: "y"})
  agent_emit_event(session_id, "boundary_failure", {"boundary": r"raw_id", kind: ok ? "truncated" : "lost"})
  agent_emit_event(session_id, "boundary_failure", {boundary: MUT, ...rest})
  harness.agent.emit_event(session_id, "boundary_failure", {detail: "z", kind: ""})
  agent_emit_event(session_id, "progress", {boundary: "not_checked_payload"})
  let d = {boundary: "", other: "x"}
}
`;

describe('BOUNDARY_KINDS and REQUIRED_PAYLOAD_KEYS', () => {
  test('five kinds; only capped is owned by policy', () => {
    assert.deepEqual(
      [...BOUNDARY_KINDS],
      [
        ['dropped', 'harness'],
        ['unrecognized', 'harness'],
        ['truncated', 'harness'],
        ['killed', 'harness'],
        ['capped', 'policy'],
      ],
    );
    assert.deepEqual(REQUIRED_PAYLOAD_KEYS, ['boundary', 'kind', 'detail']);
  });
});

describe('scanHarnBoundaries', () => {
  const analysis = new HarnAnalysis(SOURCE);
  const scan = scanHarnBoundaries(analysis);

  test('the source parses cleanly', () => {
    assert.deepEqual(analysis.parsed.diagnostics, []);
  });

  test('references: string literals (plain or raw, `boundary:` or `"boundary":`) and constants; not `var`, comments or strings', () => {
    const dictOf = (needle: string): { start: number; end: number } => rangeOf(SOURCE, needle);
    assert.deepEqual(scan.references, [
      {
        id: 'text_tool_parse',
        range: rangeOf(SOURCE, '"text_tool_parse"'),
        dict: dictOf('{boundary: "text_tool_parse", kind: "dropped", detail: "x"}'),
      },
      {
        id: 'chat_turn_cap',
        // Where the constant is used, not where it is declared.
        range: rangeOf(SOURCE, 'CAP', SOURCE.indexOf('{boundary: CAP')),
        dict: dictOf('{boundary: CAP, kind: if ok { "capped" } else { "exploded" }, detail: "y"}'),
        viaConstant: 'CAP',
      },
      { id: 'raw_id', range: rangeOf(SOURCE, 'r"raw_id"'), dict: dictOf('{"boundary": r"raw_id", kind: ok ? "truncated" : "lost"}') },
      // Any dict's `boundary:` field is a site, whatever the event (only the payload checks need boundary_failure).
      { id: 'not_checked_payload', range: rangeOf(SOURCE, '"not_checked_payload"'), dict: dictOf('{boundary: "not_checked_payload"}') },
      // An empty id is still a reference (liveHarnProblems leaves it to completion).
      { id: '', range: rangeOf(SOURCE, '""', SOURCE.indexOf('let d')), dict: dictOf('{boundary: "", other: "x"}') },
    ]);
  });

  test('payload problems: every kind leaf through if/else and ternaries, missing keys unless a spread may supply them', () => {
    const kindMessage = (kind: string): string => `\`${kind}\` is not a boundary failure kind (dropped, unrecognized, truncated, killed or capped)`;
    const lacks = (keys: string): string =>
      `boundary_failure payload lacks ${keys} (required: boundary, kind, detail); the runtime rejects it as a host_event_ingest failure`;
    assert.deepEqual(scan.problems, [
      { code: 'invalid_boundary_kind', message: kindMessage('exploded'), range: rangeOf(SOURCE, '"exploded"') },
      { code: 'boundary_payload_incomplete', message: lacks('`detail`'), range: rangeOf(SOURCE, '{"boundary": r"raw_id", kind: ok ? "truncated" : "lost"}') },
      { code: 'invalid_boundary_kind', message: kindMessage('lost'), range: rangeOf(SOURCE, '"lost"') },
      // The newer `harness.agent.emit_event` spelling is checked too; `kind: ""` is being typed, not wrong.
      { code: 'boundary_payload_incomplete', message: lacks('`boundary`'), range: rangeOf(SOURCE, '{detail: "z", kind: ""}') },
    ]);
  });

  test('several missing keys are named in order; the 4-argument form is checked; other arities are not', () => {
    const text = [
      'agent_emit_event(sid, "r1", "boundary_failure", {other: 1})',
      'agent_emit_event("boundary_failure", {other: 2})',
      'agent_emit_event(sid, "boundary_failure", payload)',
      'agent_emit_event(sid, "a", "b", "boundary_failure", {other: 3})',
    ].join('\n');
    const { references, problems } = scanHarnBoundaries(new HarnAnalysis(text));
    assert.deepEqual(references, []);
    assert.deepEqual(problems, [
      {
        code: 'boundary_payload_incomplete',
        message:
          'boundary_failure payload lacks `boundary`, `kind`, `detail` (required: boundary, kind, detail); the runtime rejects it as a host_event_ingest failure',
        range: rangeOf(text, '{other: 1}'),
      },
    ]);
  });
});

describe('boundaryFieldAt', () => {
  const analysis = new HarnAnalysis(SOURCE);
  const at = (offset: number): [string, string] | undefined => {
    const found = boundaryFieldAt(analysis, offset);
    return found && [found.field, SOURCE.slice(found.literal.start, found.literal.end)];
  };

  test('inside the quotes of a `boundary:` or `kind:` value, from after the opening quote to before the closing one', () => {
    const id = rangeOf(SOURCE, '"text_tool_parse"');
    assert.equal(at(id.start), undefined, 'before the opening quote');
    assert.deepEqual(at(id.start + 1), ['boundary', '"text_tool_parse"']);
    assert.deepEqual(at(id.end - 1), ['boundary', '"text_tool_parse"']);
    assert.equal(at(id.end), undefined, 'after the closing quote');
    const kind = rangeOf(SOURCE, '"dropped"');
    assert.deepEqual(at(kind.start + 1), ['kind', '"dropped"']);
    assert.deepEqual(at(kind.end - 1), ['kind', '"dropped"']);
    // A raw string's value (after `r"`) and the `"boundary":` key form.
    const raw = rangeOf(SOURCE, 'r"raw_id"');
    assert.deepEqual(at(raw.start + 2), ['boundary', 'r"raw_id"']);
  });

  test('not in other fields, constants, comments or strings', () => {
    assert.equal(at(rangeOf(SOURCE, 'detail: "x"').start + 'detail: "'.length), undefined, 'detail');
    assert.equal(at(SOURCE.indexOf('{boundary: CAP') + '{boundary: C'.length), undefined, 'a constant');
    assert.equal(at(rangeOf(SOURCE, '"in_comment"').start + 1), undefined, 'a comment');
    assert.equal(at(rangeOf(SOURCE, 'in_string').start), undefined, 'a string');
    assert.equal(at(rangeOf(SOURCE, 'other: "x"').start + 'other: "'.length), undefined, 'other:');
  });

  test('an empty value and an unterminated one (the closing quote not typed yet): the cursor at its end counts', () => {
    const empty = 'f({boundary: ""})';
    const emptyField = boundaryFieldAt(new HarnAnalysis(empty), 14);
    assert.deepEqual(emptyField && [emptyField.field, emptyField.literal.start, emptyField.literal.end], ['boundary', 13, 15]);
    const open = 'f({boundary: "chat_t\n})';
    const openField = boundaryFieldAt(new HarnAnalysis(open), 20);
    assert.deepEqual(openField && [openField.field, openField.literal.start, openField.literal.end], ['boundary', 13, 20]);
    const dict = 'let d = {boundary: "chat_t\n}\n';
    const dictField = boundaryFieldAt(new HarnAnalysis(dict), 26);
    assert.deepEqual(dictField && [dictField.field, dictField.literal.start, dictField.literal.end], ['boundary', 19, 26]);
  });
});
