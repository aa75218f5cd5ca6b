// parseRegistry: the real scripts/loud_boundaries.toml (when the corpus is present), every schema problem on
// synthetic TOML with exact ranges, syntax errors with CRLF / BOM / non-ASCII, and UTF-16 ranges throughout.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { getStaticTOMLValue } from 'toml-eslint-parser';
import { parseRegistry, parseTomlAst } from '../../server/src/boundaries/registry';
import type { LocatedString, Registry, RegistryProblem, TextRange } from '../../server/src/boundaries/types';
import { defined } from '../support/assertions';
import { corpusSkip, readCorpus } from '../support/corpus';

const REGISTRY = 'harn-0.10/scripts/loud_boundaries.toml';
const readRegistry = (): string => readCorpus(REGISTRY);

/** The range of the `occurrence`-th (0-based) `needle` in `text`. */
function at(text: string, needle: string, occurrence = 0): TextRange {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) {
    start = text.indexOf(needle, start + 1);
    assert.ok(start >= 0, `${JSON.stringify(needle)} #${occurrence} not in the text`);
  }
  return { start, end: start + needle.length };
}

const slice = (text: string, r: TextRange): string => text.slice(r.start, r.end);

/** Line (1-based) and UTF-16 column (0-based) of an offset, counting \r\n as one line break. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split(/\r\n|\n/);
  return { line: lines.length, column: defined(lines[lines.length - 1], 'the last line').length };
}

function onlyProblems(text: string): RegistryProblem[] {
  return parseRegistry(text).problems;
}

function problem(message: string, range: TextRange, id?: string): RegistryProblem {
  const p: RegistryProblem = { code: 'invalid_entry', message, range };
  if (id !== undefined) p.id = id;
  return p;
}

/** Every LocatedString of a registry slices to its TOML string, and its value is what the TOML says. */
function assertStringsSliceRight(text: string, registry: Registry): void {
  const strings: LocatedString[] = [];
  for (const e of [...registry.boundaries, ...registry.audited]) {
    for (const s of [e.id, e.title, e.event, ...e.anchors]) if (s) strings.push(s);
  }
  for (const e of registry.boundaries) for (const s of [e.drops, e.test, e.notes]) if (s) strings.push(s);
  for (const e of registry.audited) if (e.marker) strings.push(e.marker);
  for (const s of strings) {
    const source = slice(text, s.range);
    const kv = parseTomlAst(`v = ${source}`).body[0]?.body[0];
    assert.ok(kv?.type === 'TOMLKeyValue');
    assert.equal(getStaticTOMLValue(kv.value), s.value, `range ${JSON.stringify(s.range)} slices to ${source}`);
  }
}

describe('the real registry', { skip: corpusSkip }, () => {
  test('six boundaries, five audited, no problems, in file order', () => {
    const text = readRegistry();
    const registry = parseRegistry(text);
    assert.equal(registry.parsed, true);
    assert.deepEqual(registry.problems, []);
    assert.deepEqual(
      registry.boundaries.map((b) => b.id?.value),
      ['text_tool_parse', 'response_content_extraction', 'visible_text_sanitize', 'host_event_ingest', 'provider_admission_gate', 'chat_turn_cap'],
    );
    assert.deepEqual(
      registry.audited.map((a) => [a.id?.value, a.marker?.value]),
      [
        ['agent_loop_budget', 'budget_exhausted'],
        ['agent_loop_stall', 'agent_loop_stall_warning'],
        ['streaming_tool_detect', 'ParseAborted'],
        ['llm_transport', 'build_llm_error_dict'],
        ['acp_prompt_ingest', 'unsupported content block type'],
      ],
    );
    const byId = new Map(registry.boundaries.map((b) => [b.id?.value, b]));
    assert.deepEqual(
      byId.get('response_content_extraction')?.anchors.map((a) => a.value),
      ['crates/harn-vm/src/llm/api/response/boundary.rs', 'crates/harn-vm/src/llm/api/response.rs'],
    );
    assert.equal(byId.get('visible_text_sanitize')?.test?.value, 'crates/harn-vm/src/visible_text.rs');
    for (const b of registry.boundaries) {
      assert.equal(b.wasSilent, true);
      assert.equal(b.event?.value, 'agent_event:boundary_failure');
      assert.ok(b.title && b.drops && b.test && b.notes);
    }
  });

  test('entries equal the TOML data', () => {
    const text = readRegistry();
    const registry = parseRegistry(text);
    const data = getStaticTOMLValue(parseTomlAst(text)) as { boundary: Record<string, unknown>[]; audited: Record<string, unknown>[] };
    assert.deepEqual(
      registry.boundaries.map((b) => ({
        id: b.id?.value,
        title: b.title?.value,
        drops: b.drops?.value,
        was_silent: b.wasSilent,
        event: b.event?.value,
        anchors: b.anchors.map((a) => a.value),
        test: b.test?.value,
        notes: b.notes?.value,
      })),
      data.boundary,
    );
    assert.deepEqual(
      registry.audited.map((a) => ({
        id: a.id?.value,
        title: a.title?.value,
        event: a.event?.value,
        anchors: a.anchors.map((x) => x.value),
        marker: a.marker?.value,
      })),
      data.audited,
    );
  });

  test('ranges slice to the right source text', () => {
    const text = readRegistry();
    const registry = parseRegistry(text);
    assertStringsSliceRight(text, registry);
    for (const b of registry.boundaries) {
      assert.equal(slice(text, b.headerRange), '[[boundary]]');
      const id = defined(b.id, 'the id');
      assert.equal(slice(text, id.range), `"${id.value}"`);
      const source = slice(text, b.range);
      assert.ok(source.startsWith('[[boundary]]\nid = '), source.slice(0, 40));
      assert.ok(source.endsWith(`notes = ${slice(text, defined(b.notes, 'the notes').range)}`), 'the range ends with the last key/value');
      assert.ok(/^anchors = \[[^]*\]$/.test(slice(text, defined(b.anchorsRange, 'the anchors range'))));
    }
    for (const a of registry.audited) {
      assert.equal(slice(text, a.headerRange), '[[audited]]');
      assert.ok(slice(text, a.range).endsWith(`marker = "${defined(a.marker, 'the marker').value}"`));
    }
    // The last boundary stops at its notes: the comment above [[audited]] is not part of it.
    const last = defined(registry.boundaries[5], 'the sixth boundary');
    assert.ok(slice(text, last.range).endsWith('with the same vocabulary."'));
    assert.ok(text.slice(last.range.end).startsWith('\n\n# Boundaries audited under #5142'));
    const multi = defined(registry.boundaries[1], 'the second boundary');
    assert.equal(
      slice(text, defined(multi.anchorsRange, 'the anchors range')),
      'anchors = [\n  "crates/harn-vm/src/llm/api/response/boundary.rs",\n  "crates/harn-vm/src/llm/api/response.rs",\n]',
    );
  });

  test('the same registry with CRLF line endings and a BOM gives the same data at shifted offsets', () => {
    const lf = readRegistry();
    const crlf = '\uFEFF' + lf.replace(/\n/g, '\r\n');
    const a = parseRegistry(lf);
    const b = parseRegistry(crlf);
    assert.deepEqual(b.problems, []);
    assert.deepEqual(
      b.boundaries.map((e) => e.anchors.map((x) => x.value)),
      a.boundaries.map((e) => e.anchors.map((x) => x.value)),
    );
    assertStringsSliceRight(crlf, b);
    for (const e of b.boundaries) assert.equal(slice(crlf, e.headerRange), '[[boundary]]');
    assert.equal(b.boundaries[0]?.headerRange.start, crlf.indexOf('\r\n[[boundary]]\r\n') + 2);
  });
});

describe('located values', () => {
  test('a full entry: every field, ranges with quotes, anchorsRange and entry range', () => {
    const text = [
      '# header',
      '',
      '[[boundary]]',
      'id = "alpha"',
      "title = 'literal'",
      'drops = """multi',
      'line"""',
      'was_silent = false',
      'event = "agent_event:boundary_failure"',
      'anchors = ["a.rs", "b.rs"]',
      'test = "t.rs"',
      'notes = "n"',
      '# trailing comment, not part of the entry',
      '',
      '[[audited]]',
      'id = "beta"',
      'title = "T"',
      'event = "E"',
      'anchors = [',
      '  "x.harn",',
      ']',
      'marker = "M"',
      '',
    ].join('\n');
    const r = parseRegistry(text);
    assert.deepEqual(r.problems, []);
    const b = defined(r.boundaries[0], 'the [[boundary]] entry');
    assert.deepEqual(b.id, { value: 'alpha', range: at(text, '"alpha"') });
    assert.deepEqual(b.title, { value: 'literal', range: at(text, "'literal'") });
    assert.deepEqual(b.drops, { value: 'multi\nline', range: at(text, '"""multi\nline"""') });
    assert.equal(b.wasSilent, false);
    assert.deepEqual(b.event, { value: 'agent_event:boundary_failure', range: at(text, '"agent_event:boundary_failure"') });
    assert.deepEqual(b.anchors, [
      { value: 'a.rs', range: at(text, '"a.rs"') },
      { value: 'b.rs', range: at(text, '"b.rs"') },
    ]);
    assert.deepEqual(b.anchorsRange, at(text, 'anchors = ["a.rs", "b.rs"]'));
    assert.deepEqual(b.test, { value: 't.rs', range: at(text, '"t.rs"') });
    assert.deepEqual(b.notes, { value: 'n', range: at(text, '"n"') });
    assert.deepEqual(b.headerRange, at(text, '[[boundary]]'));
    assert.deepEqual(b.range, { start: at(text, '[[boundary]]').start, end: at(text, 'notes = "n"').end });

    const a = defined(r.audited[0], 'the [[audited]] entry');
    assert.deepEqual(a.id, { value: 'beta', range: at(text, '"beta"') });
    assert.deepEqual(a.title, { value: 'T', range: at(text, '"T"') });
    assert.deepEqual(a.event, { value: 'E', range: at(text, '"E"') });
    assert.deepEqual(a.anchors, [{ value: 'x.harn', range: at(text, '"x.harn"') }]);
    assert.deepEqual(a.anchorsRange, at(text, 'anchors = [\n  "x.harn",\n]'));
    assert.deepEqual(a.marker, { value: 'M', range: at(text, '"M"') });
    assert.deepEqual(a.headerRange, at(text, '[[audited]]'));
    assert.deepEqual(a.range, { start: at(text, '[[audited]]').start, end: at(text, 'marker = "M"').end });
  });

  test('non-ASCII strings, CRLF and a BOM give UTF-16 ranges', () => {
    const text = '\uFEFF# 注释 😀\r\n[[boundary]]\r\nid = "界😀"\r\ntitle = "🚀 launch ✓"\r\nanchors = ["ü/😀.rs", "b"]\r\n';
    const r = parseRegistry(text);
    assert.deepEqual(r.problems, []);
    const b = defined(r.boundaries[0], 'the [[boundary]] entry');
    assert.deepEqual(b.headerRange, { start: 10, end: 22 });
    assert.equal(slice(text, b.headerRange), '[[boundary]]');
    assert.deepEqual(b.id, { value: '界😀', range: { start: 29, end: 34 } });
    assert.deepEqual(b.title, { value: '🚀 launch ✓', range: at(text, '"🚀 launch ✓"') });
    assert.deepEqual(
      b.anchors.map((a) => [a.value, slice(text, a.range)]),
      [
        ['ü/😀.rs', '"ü/😀.rs"'],
        ['b', '"b"'],
      ],
    );
    assert.equal(b.range.end, text.length - 2);
  });

  test('header forms: spaces inside the brackets, a trailing comment, an entry with no keys', () => {
    const text = '[[ boundary ]] # first\nid = "a"\n\n[[boundary]]\n\n[[boundary]]\nid = "c"\n';
    const r = parseRegistry(text);
    assert.deepEqual(r.boundaries[0]?.headerRange, at(text, '[[ boundary ]]'));
    assert.deepEqual(r.boundaries[1]?.headerRange, at(text, '[[boundary]]'));
    assert.deepEqual(r.boundaries[1]?.range, at(text, '[[boundary]]'));
    assert.deepEqual(r.problems, [problem('a [[boundary]] entry has no `id`', at(text, '[[boundary]]'))]);
    assert.deepEqual(
      r.boundaries.map((b) => b.id?.value),
      ['a', undefined, 'c'],
    );
  });

  test('an empty file and a file without entries', () => {
    assert.deepEqual(parseRegistry(''), { parsed: true, boundaries: [], audited: [], problems: [] });
    assert.deepEqual(parseRegistry('# only a comment\n[other]\nboundaryish = 1\n'), { parsed: true, boundaries: [], audited: [], problems: [] });
  });
});

describe('schema problems, each on the exact key or value', () => {
  test('missing id: on the header, with the upstream message', () => {
    const text = '[[boundary]]\ntitle = "x"\n\n[[audited]]\nmarker = "m"\n';
    assert.deepEqual(onlyProblems(text), [
      problem('a [[boundary]] entry has no `id`', at(text, '[[boundary]]')),
      problem('an [[audited]] entry has no `id`', at(text, '[[audited]]')),
    ]);
  });

  test('empty id: on the value, and the entry has no id', () => {
    const text = '[[boundary]]\nid = ""\n';
    const r = parseRegistry(text);
    assert.deepEqual(r.problems, [problem('a [[boundary]] entry has an empty `id`', at(text, '""'))]);
    assert.equal(defined(r.boundaries[0], 'the [[boundary]] entry').id, undefined);
  });

  test('wrong value types: on the value, left undefined', () => {
    const text = [
      '[[boundary]]',
      'id = 42',
      'title = true',
      'drops = 1.5',
      'was_silent = "yes"',
      'event = ["x"]',
      'anchors = "one.rs"',
      'test = { path = "t" }',
      'notes = 1979-05-27',
      '',
    ].join('\n');
    const r = parseRegistry(text);
    assert.deepEqual(r.problems, [
      problem('`id` must be a string, not an integer', at(text, '42')),
      problem('`title` must be a string, not a boolean', at(text, 'true')),
      problem('`drops` must be a string, not a float', at(text, '1.5')),
      problem('`was_silent` must be a boolean, not a string', at(text, '"yes"')),
      problem('`event` must be a string, not an array', at(text, '["x"]')),
      problem('`anchors` must be an array of strings, not a string', at(text, '"one.rs"')),
      problem('`test` must be a string, not an inline table', at(text, '{ path = "t" }')),
      problem('`notes` must be a string, not a date/time', at(text, '1979-05-27')),
    ]);
    const b = defined(r.boundaries[0], 'the [[boundary]] entry');
    assert.deepEqual(
      [b.id, b.title, b.drops, b.wasSilent, b.event, b.test, b.notes],
      [undefined, undefined, undefined, undefined, undefined, undefined, undefined],
    );
    assert.deepEqual(b.anchors, []);
    assert.deepEqual(b.anchorsRange, at(text, 'anchors = "one.rs"'), 'the key is present, so its range is kept');
  });

  test('bad anchors elements: each on its element, the good ones kept; problems carry the entry id', () => {
    const text = '[[boundary]]\nid = "x"\nanchors = ["ok.rs", 7, "", ["n.rs"], { a = 1 }, "also.rs"]\n';
    const r = parseRegistry(text);
    assert.deepEqual(r.problems, [
      problem('each element of `anchors` must be a string, not an integer', at(text, '7'), 'x'),
      problem('an anchor must not be empty', at(text, '""'), 'x'),
      problem('each element of `anchors` must be a string, not an array', at(text, '["n.rs"]'), 'x'),
      problem('each element of `anchors` must be a string, not an inline table', at(text, '{ a = 1 }'), 'x'),
    ]);
    assert.deepEqual(
      r.boundaries[0]?.anchors.map((a) => a.value),
      ['ok.rs', 'also.rs'],
    );
  });

  test('unknown keys: on the key (bare, quoted, dotted), including keys of the other table kind', () => {
    const text = [
      '[[boundary]]',
      'id = "x"',
      'marker = "m"',
      '"quoted key" = 1',
      'extra.deep = 2',
      'anchors.first = "a"',
      '',
      '[[audited]]',
      'id = "y"',
      'drops = "d"',
      'was_silent = true',
      '',
    ].join('\n');
    assert.deepEqual(onlyProblems(text), [
      problem('unknown key `marker` in a [[boundary]] entry', at(text, 'marker'), 'x'),
      problem('unknown key `quoted key` in a [[boundary]] entry', at(text, '"quoted key"'), 'x'),
      problem('unknown key `extra.deep` in a [[boundary]] entry', at(text, 'extra.deep'), 'x'),
      problem('`anchors.first` makes `anchors` a table; write `anchors = …`', at(text, 'anchors.first'), 'x'),
      problem('unknown key `drops` in an [[audited]] entry', at(text, 'drops'), 'y'),
      problem('unknown key `was_silent` in an [[audited]] entry', at(text, 'was_silent'), 'y'),
    ]);
  });

  test('a dotted id is reported on its key, and the entry then has no id', () => {
    const text = '[[boundary]]\nid.name = "x"\n';
    assert.deepEqual(onlyProblems(text), [
      problem('a [[boundary]] entry has no `id`', at(text, '[[boundary]]')),
      problem('`id.name` makes `id` a table; write `id = …`', at(text, 'id.name')),
    ]);
  });

  test('boundary / audited not written as arrays of tables', () => {
    const cases: [string, string, string][] = [
      ['[boundary]\nid = "x"\n', 'boundary', '`[boundary]` is not read: write each entry as a [[boundary]] table'],
      ['boundary = 1\n', 'boundary', '`boundary` is not read: write each entry as a [[boundary]] table'],
      ['boundary = [{ id = "x" }]\n', 'boundary', '`boundary` is not read: write each entry as a [[boundary]] table'],
      ['boundary.id = "x"\n', 'boundary.id', '`boundary.id` is not read: write each entry as a [[boundary]] table'],
      ['audited = "no"\n', 'audited', '`audited` is not read: write each entry as a [[audited]] table'],
      ['[audited]\nid = "y"\n', 'audited', '`[audited]` is not read: write each entry as a [[audited]] table'],
    ];
    for (const [text, key, message] of cases) {
      const r = parseRegistry(text);
      assert.deepEqual(r.problems, [problem(message, at(text, key))], text);
      assert.deepEqual([r.boundaries, r.audited], [[], []], 'not misread as entries');
    }
  });

  test('sub-tables of an entry are reported on their key, with the owning entry id', () => {
    const text = '[[boundary]]\nid = "x"\n[boundary.sub]\nk = 1\n[[boundary.list]]\n\n[[audited]]\nid = "y"\n[audited.more]\n';
    const r = parseRegistry(text);
    assert.deepEqual(r.problems, [
      problem('`boundary.sub` makes a table inside a [[boundary]] entry; entries hold only plain keys', at(text, 'boundary.sub'), 'x'),
      problem('`boundary.list` makes a table inside a [[boundary]] entry; entries hold only plain keys', at(text, 'boundary.list'), 'x'),
      problem('`audited.more` makes a table inside an [[audited]] entry; entries hold only plain keys', at(text, 'audited.more'), 'y'),
    ]);
    assert.deepEqual(r.boundaries[0]?.range, { start: 0, end: at(text, 'id = "x"').end });
  });

  test('entries with problems are still listed, in file order, with their good values', () => {
    const text = '[[boundary]]\nid = "a"\ntitle = 3\n\n[[boundary]]\nid = 5\ntest = "t.rs"\n\n[[boundary]]\nid = "c"\n';
    const r = parseRegistry(text);
    assert.deepEqual(
      r.boundaries.map((b) => [b.id?.value, b.title?.value, b.test?.value]),
      [
        ['a', undefined, undefined],
        [undefined, undefined, 't.rs'],
        ['c', undefined, undefined],
      ],
    );
    assert.deepEqual(
      r.problems.map((p) => [p.id, slice(text, p.range)]),
      [
        ['a', '3'],
        [undefined, '5'],
      ],
    );
  });

  test('problem ranges are exact after CRLF, a BOM and non-ASCII text', () => {
    const text = '\uFEFF# 😀😀\r\n[[boundary]]\r\nid = "日本"\r\ntitle = 12\r\n"未知" = 1\r\n';
    assert.deepEqual(onlyProblems(text), [
      problem('`title` must be a string, not an integer', at(text, '12'), '日本'),
      problem('unknown key `未知` in a [[boundary]] entry', at(text, '"未知"'), '日本'),
    ]);
    assert.deepEqual(at(text, '12'), { start: 42, end: 44 });
  });
});

describe('syntax errors', () => {
  function syntax(text: string): { registry: Registry; problem: RegistryProblem; line: number; column: number } {
    const registry = parseRegistry(text);
    assert.equal(registry.parsed, false);
    assert.deepEqual([registry.boundaries, registry.audited], [[], []]);
    assert.equal(registry.problems.length, 1);
    const p = defined(registry.problems[0], 'the problem');
    assert.equal(p.code, 'toml_syntax');
    assert.ok(p.message.startsWith('TOML syntax error: '), p.message);
    return { registry, problem: p, ...lineColumn(text, p.range.start) };
  }

  test('a missing value: readable message, 1-char range at the error', () => {
    const text = '[[boundary]]\nid = \ntitle = "t"\n';
    const { problem: p, line, column } = syntax(text);
    assert.equal(p.message, 'TOML syntax error: Unexpected character');
    assert.deepEqual(p.range, { start: 19, end: 20 });
    assert.deepEqual({ line, column }, { line: 3, column: 0 });
  });

  test('an error reported at the end of the text marks its last character', () => {
    const lf = syntax('[[boundary]]\nid = \n');
    assert.equal(lf.problem.message, 'TOML syntax error: Unspecified values are invalid');
    assert.deepEqual(lf.problem.range, { start: 18, end: 19 });
    assert.deepEqual([lf.line, lf.column], [2, 5]);
    const crlf = syntax('[[boundary]]\r\nid = \r\n');
    assert.deepEqual(crlf.problem.range, { start: 19, end: 20 }, 'the \\r of the final \\r\\n');
    assert.deepEqual([crlf.line, crlf.column], [2, 5]);
  });

  test('CRLF: the right line and column', () => {
    const text = '[[boundary]]\r\nid = "x"\r\ntitle = "t" junk\r\n';
    const { problem: p, line, column } = syntax(text);
    assert.deepEqual({ line, column }, { line: 3, column: 12 });
    assert.equal(slice(text, p.range), 'j');
  });

  test('a BOM and emoji before the error keep UTF-16 positions', () => {
    const text = '\uFEFF[[boundary]]\nid = "😀😀" = 2\n';
    const { problem: p, line, column } = syntax(text);
    assert.equal(p.message, 'TOML syntax error: Must be a newline');
    assert.deepEqual(p.range, at(text, '=', 1));
    assert.deepEqual({ line, column }, { line: 2, column: 12 });
  });

  test('CJK, emoji and CRLF together', () => {
    const text = '# 日本語 😀\r\n[[boundary]]\r\nid = "界"\r\nbad line\r\n';
    const { problem: p, line, column } = syntax(text);
    assert.equal(p.message, 'TOML syntax error: Expected equal (=) token');
    assert.deepEqual({ line, column }, { line: 4, column: 4 });
    assert.equal(slice(text, p.range), 'l');
  });

  test('an error at the end of the text is clamped to it', () => {
    const text = 'x = "unterminated';
    const { problem: p } = syntax(text);
    assert.equal(p.message, 'TOML syntax error: Unterminated string constant');
    assert.ok(p.range.start <= text.length && p.range.end <= text.length && p.range.start <= p.range.end);
  });

  test('a duplicate key and TOML 1.1-only syntax are syntax errors (TOML 1.0)', () => {
    assert.equal(syntax('[[boundary]]\nid = "a"\nid = "b"\n').problem.message, 'TOML syntax error: Defining a key multiple times is invalid');
    syntax('x = {\n  a = 1 }\n');
    syntax('x = "\\e"\n');
    assert.equal(syntax('boundary = 1\n[[boundary]]\nid = "x"\n').line, 2);
  });

  test('a syntax error range never splits a surrogate pair', () => {
    const text = 'x = 1 😀\n';
    const { problem: p } = syntax(text);
    assert.equal(slice(text, p.range), '😀');
  });
});

describe('robustness', () => {
  function assertSane(text: string): void {
    const r = parseRegistry(text);
    for (const p of r.problems) {
      assert.ok(0 <= p.range.start && p.range.start <= p.range.end && p.range.end <= text.length, JSON.stringify(p));
    }
    for (const e of [...r.boundaries, ...r.audited]) {
      assert.ok(e.headerRange.start <= e.headerRange.end && e.headerRange.end <= e.range.end && e.range.end <= text.length);
    }
    if (r.parsed) assertStringsSliceRight(text, r);
  }

  test('never throws on arbitrary text; every range lies inside it', () => {
    const pieces = fc.constantFrom(
      '[[boundary]]',
      '[[audited]]',
      '[boundary]',
      'id = ',
      'anchors = [',
      ']',
      '"x"',
      "'y'",
      ',',
      '\n',
      '\r\n',
      '#',
      ' ',
      '=',
      '😀',
      '\uFEFF',
      '"""',
      '1',
      'true',
      '{',
      '}',
      '.',
      'marker',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 30 }).map((p) => p.join('')),
        (text) => assertSane(text),
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => assertSane(text)),
      { numRuns: 300 },
    );
  });

  test('truncations of the real registry never throw', { skip: corpusSkip }, () => {
    const text = readRegistry();
    for (let end = 0; end <= text.length; end += 37) assertSane(text.slice(0, end));
  });
});
