// Training example files (server/src/training/validate.ts, hover.ts, classify.ts): the schema as upstream's serde
// structs accept it, every pairing kind on the message it concerns, JSONL one example per line, BOM and CRLF
// positions, hostile input (deep nesting, huge lines, a 100k-message example), hovers and file recognition.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { declaresTrainingSchema, trainingFileFormat } from '../../server/src/training/classify';
import { trainingHover } from '../../server/src/training/hover';
import { validateTrainingFile, type TrainingValidation } from '../../server/src/training/validate';
import { defined } from '../support/assertions';

type Json = Record<string, unknown>;

const call = (id: string, name = 'open_doc'): Json => ({ id, type: 'function', function: { name, arguments: { uri: 'a.ts' } } });
const user = (content = 'fix a.ts'): Json => ({ role: 'user', content });
const assistant = (...ids: string[]): Json =>
  ids.length === 0
    ? { role: 'assistant', content: 'fixed' }
    : { role: 'assistant', content: '<tool_call>…</tool_call>', tool_calls: ids.map((id) => call(id)) };
const tool = (id?: string): Json =>
  id === undefined ? { role: 'tool', content: 'let x = 1' } : { role: 'tool', content: 'let x = 1', tool_call_id: id, name: 'open_doc' };

/** spec/harn-artifacts.md §5's example, with its messages replaceable. */
function example(messages: Json[] = [user(), assistant('tc_0'), tool('tc_0'), assistant()]): Json {
  return {
    schema_version: 'harn.agent_training_example.v1',
    messages,
    tools: [{ name: 'open_doc', parameters: { type: 'object' } }],
    provenance: {
      run_id: 'r9',
      session_id: 's-42',
      provider: 'ollama',
      model: 'm-small',
      effective_tool_format: 'text',
      tool_catalog_hash: 'cat-7',
      terminal_status: 'done',
      usage: { provider_calls: 2, input_tokens: 120, output_tokens: 20 },
      source: {
        descriptor_schema_version: 'harn.llm_transcript_artifact.v1',
        transcript_path: '/w/r9-llm/llm_transcript.jsonl',
        transcript_sha256: 'sha256:0f0e',
        transcript_byte_len: 2048,
        event_count: 12,
        first_event_index: 1,
        last_event_index: 12,
        first_event_id: 'row:1',
        last_event_id: 'row:12',
      },
    },
  };
}

const pretty = (v: unknown): string => JSON.stringify(v, null, 2) + '\n';
const codes = (v: TrainingValidation): string[] => v.problems.map((p) => `${p.severity} ${p.code}`);

/** The line of each message object of a 2-space pretty-printed example (its `    {` lines inside "messages"). */
function messageLines(text: string): number[] {
  const lines = text.split('\n');
  const start = lines.indexOf('  "messages": [');
  const out: number[] = [];
  for (let i = start + 1; i < lines.length && lines[i] !== '  ],'; i++) if (lines[i] === '    {') out.push(i);
  return out;
}

function withChange(change: (e: Json) => void): Json {
  const e = example();
  change(e);
  return e;
}

const messagesOf = (e: Json): Json[] => e.messages as Json[];
const provenanceOf = (e: Json): Json => e.provenance as Json;

describe('training example schema', () => {
  test('the spec example is valid, compact or pretty-printed, and gives facts for every message', () => {
    for (const text of [JSON.stringify(example()), pretty(example())]) {
      const v = validateTrainingFile(text, 'json');
      assert.deepEqual(v.problems, []);
      const [facts] = v.examples;
      assert.equal(defined(facts).messages.length, 4);
      assert.equal(defined(facts).schemaValid, true);
    }
  });

  const invalid: [string, (e: Json) => void, string, RegExp][] = [
    ['a missing top-level field', (e) => delete e.tools, 'tools', /`tools` is required/],
    ['a missing message role', (e) => delete messagesOf(e)[0]?.role, 'messages[0].role', /`messages\[0\]\.role` is required/],
    ['content not a string', (e) => ((messagesOf(e)[0] ?? {}).content = 3), 'messages[0].content', /must be a string, got the number 3/],
    [
      'tool_calls null (a Vec is never null)',
      (e) => ((messagesOf(e)[0] ?? {}).tool_calls = null),
      'messages[0].tool_calls',
      /must be an array of tool calls, got null/,
    ],
    ['tool_call_id a number', (e) => ((messagesOf(e)[2] ?? {}).tool_call_id = 7), 'messages[2].tool_call_id', /must be a string or null, got the number 7/],
    [
      'a call type other than "function"',
      (e) => (((messagesOf(e)[1]?.tool_calls as Json[])[0] ?? {}).type = 'tool'),
      'messages[1].tool_calls[0].type',
      /must be the string "function", got the string "tool"/,
    ],
    [
      'a call without arguments',
      (e) => delete (((messagesOf(e)[1]?.tool_calls as Json[])[0] ?? {}).function as Json).arguments,
      'messages[1].tool_calls[0].function.arguments',
      /is required/,
    ],
    ['a provenance field missing', (e) => delete provenanceOf(e).model, 'provenance.model', /`provenance\.model` is required/],
    [
      'a negative count',
      (e) => ((provenanceOf(e).usage as Json).input_tokens = -1),
      'provenance.usage.input_tokens',
      /non-negative integer, got the number -1/,
    ],
    [
      'a fractional count',
      (e) => ((provenanceOf(e).source as Json).event_count = 1.5),
      'provenance.source.event_count',
      /non-negative integer.*got the number 1\.5/,
    ],
    [
      'a count as a string',
      (e) => ((provenanceOf(e).source as Json).transcript_byte_len = '2048'),
      'provenance.source.transcript_byte_len',
      /got the string "2048"/,
    ],
    ['an unsafe integer', (e) => ((provenanceOf(e).usage as Json).output_tokens = 2 ** 60), 'provenance.usage.output_tokens', /2\^53/],
    ['messages not an array', (e) => (e.messages = {}), 'messages', /must be an array of messages, got an object/],
  ];
  for (const [name, change, field, message] of invalid) {
    test(`invalid_training_example: ${name}, on the field, naming its path`, () => {
      const text = pretty(withChange(change));
      const v = validateTrainingFile(text, 'json');
      const errors = v.problems.filter((p) => p.severity === 'error');
      assert.equal(errors.length, 1, JSON.stringify(v.problems));
      const p = defined(errors[0]);
      assert.equal(p.code, 'invalid_training_example');
      assert.equal(p.source, 'harn.training');
      assert.equal(p.data?.field, field);
      assert.match(p.message, message);
      // On the field's own line when it is there, else on its (nearest existing) parent.
      const leaf =
        field
          .replace(/\[\d+\]/g, '')
          .split('.')
          .at(-1) ?? '';
      const lines = text.split('\n');
      if (lines[p.line]?.includes(`"${leaf}"`) !== true) assert.ok(p.endLine > p.line, `${field} on a parent spanning lines`);
      // Pairing is not checked on a schema-invalid example.
      assert.equal(v.examples[0]?.pairingError, undefined);
    });
  }

  test('optional fields may be absent or null, and `arguments` may be any JSON value (serde_json::Value)', () => {
    const e = withChange((x) => {
      const tool0 = messagesOf(x)[2] ?? {};
      tool0.name = null;
      const m0 = messagesOf(x)[0] ?? {};
      m0.tool_call_id = null;
      const p = provenanceOf(x);
      p.stage_id = null;
      p.route_policy = 'auto';
      ((messagesOf(x)[1]?.tool_calls as Json[])[0]?.function as Json).arguments = null;
    });
    assert.deepEqual(validateTrainingFile(pretty(e), 'json').problems, []);
  });

  test('counts written as floats are refused as serde_json does (1.0 and 1e3 read as f64), on the number', () => {
    const text = JSON.stringify(example()).replace('"provider_calls":2', '"provider_calls":2.0').replace('"event_count":12', '"event_count":1.2e1');
    const v = validateTrainingFile(text, 'json');
    assert.deepEqual(codes(v), ['error invalid_training_example', 'error invalid_training_example']);
    const [first, second] = v.problems;
    assert.equal(text.slice(defined(first).startCharacter, defined(first).endCharacter), '2.0');
    assert.equal(text.slice(defined(second).startCharacter, defined(second).endCharacter), '1.2e1');
    assert.match(defined(first).message, /`provenance\.usage\.provider_calls` must be an integer written without a fraction or exponent, got 2\.0/);
  });

  test('a known field written twice is refused (serde: duplicate field), on the second key; unknown ones twice are not', () => {
    const text = JSON.stringify(example()).replace('{"role":"user"', '{"role":"user","x":1,"x":2,"role":"user"');
    const v = validateTrainingFile(text, 'json');
    const errors = v.problems.filter((p) => p.severity === 'error');
    assert.equal(errors.length, 1);
    const p = defined(errors[0]);
    assert.match(p.message, /`messages\[0\]\.role` is written twice/);
    assert.equal(p.startCharacter, text.indexOf('"role"', text.indexOf('"x":2')));
  });

  test('schema_mismatch on a schema_version that is not v1, on its value', () => {
    const text = pretty(withChange((e) => (e.schema_version = 'harn.agent_training_example.v2')));
    const v = validateTrainingFile(text, 'json');
    assert.deepEqual(codes(v), ['error schema_mismatch']);
    const p = defined(v.problems[0]);
    assert.equal(text.split('\n')[p.line]?.slice(p.startCharacter, p.endCharacter), '"harn.agent_training_example.v2"');
  });

  test('unknown fields are information (serde ignores them), on the key, wherever they are; the example still pairs', () => {
    const e = withChange((x) => {
      x.weight = 1;
      (messagesOf(x)[0] ?? {}).lang = 'en';
      (provenanceOf(x).usage as Json).cached = 0;
      ((messagesOf(x)[1]?.tool_calls as Json[])[0]?.function as Json).strict = true;
    });
    const text = pretty(e);
    const v = validateTrainingFile(text, 'json');
    assert.deepEqual(codes(v), ['information unknown_field', 'information unknown_field', 'information unknown_field', 'information unknown_field']);
    assert.deepEqual(
      v.problems.map((p) => p.data?.field),
      ['messages[0].lang', 'messages[1].tool_calls[0].function.strict', 'provenance.usage.cached', 'weight'],
    );
    for (const p of v.problems) {
      const key = `"${String(p.data?.field).split('.').at(-1)}"`;
      assert.equal(text.split('\n')[p.line]?.slice(p.startCharacter, p.endCharacter), key.replace(/\[\d+\]/, ''));
    }
    assert.equal(v.examples[0]?.schemaValid, true);
  });

  test('a lone surrogate escape (JSON.parse keeps it, serde_json refuses it) is malformed, on the escape; pairs and escaped backslashes are fine', () => {
    const base = JSON.stringify(example());
    const lone = base.replace('"fix a.ts"', '"fix \\ud83d a.ts"');
    const v = validateTrainingFile(lone, 'jsonl');
    assert.deepEqual(codes(v), ['error malformed_jsonl']);
    assert.equal(lone.slice(defined(v.problems[0]).startCharacter, defined(v.problems[0]).endCharacter), '\\ud83d');
    assert.match(defined(v.problems[0]).message, /serde_json refuses/);
    const lowFirst = base.replace('"fix a.ts"', '"\\uDE00\\ud83d"');
    assert.equal(validateTrainingFile(lowFirst, 'json').problems[0]?.startCharacter, lowFirst.indexOf('\\uDE00'));
    for (const fine of ['"fix \\ud83d\\ude00 a.ts"', '"fix \\\\ud83d a.ts"', '"\\u00e9"']) {
      assert.deepEqual(validateTrainingFile(base.replace('"fix a.ts"', fine), 'json').problems, [], fine);
    }
  });

  test('not an object, not JSON, nested past serde_json’s limit: one error each, at the right place', () => {
    assert.deepEqual(codes(validateTrainingFile('[1, 2]\n', 'json')), ['error invalid_training_example']);
    const broken = validateTrainingFile('{\n  "schema_version": "harn.agent_training_example.v1",\n  "messages": [,\n', 'json');
    assert.deepEqual(codes(broken), ['error malformed_json']);
    assert.deepEqual([broken.problems[0]?.line, broken.problems[0]?.startCharacter], [2, 15]);
    const deep = '{"messages":' + '['.repeat(200) + ']'.repeat(200) + '}';
    const v = validateTrainingFile(deep, 'json');
    assert.deepEqual(codes(v), ['error nesting_too_deep']);
    // The bracket that opens level 128 (the object is level 1).
    assert.equal(v.problems[0]?.startCharacter, '{"messages":'.length + 126);
  });
});

describe('training example pairing as diagnostics', () => {
  const cases: [string, Json[], string, number][] = [
    ['orphaned_tool_result', [user(), assistant('a'), tool()], 'orphaned_tool_result', 2],
    ['out_of_order_tool_result', [user(), assistant('a', 'b'), tool('b'), tool('a'), assistant()], 'out_of_order_tool_result', 2],
    ['duplicate_tool_result', [user(), assistant('a', 'b'), tool('a'), tool('a'), tool('b'), assistant()], 'duplicate_tool_result', 3],
    ['unpaired_tool_call at the next assistant turn', [user(), assistant('a', 'b'), tool('a'), assistant()], 'unpaired_tool_call', 3],
    ['malformed_tool_call (an empty id)', [user(), assistant(''), tool('x'), assistant()], 'malformed_tool_call', 1],
    ['duplicate_tool_call_id within one turn', [user(), assistant('a', 'a'), tool('a'), tool('a'), assistant()], 'duplicate_tool_call_id', 1],
    ['duplicate_tool_call_id across turns', [user(), assistant('a'), tool('a'), assistant('a'), tool('a'), assistant()], 'duplicate_tool_call_id', 3],
    ['missing_terminal_assistant', [user(), assistant('a'), tool('a'), user('more')], 'missing_terminal_assistant', 3],
  ];
  for (const [name, messages, kind, index] of cases) {
    test(`${name}: on message ${index}, upstream's message plus the index`, () => {
      const text = pretty(example(messages));
      const v = validateTrainingFile(text, 'json');
      assert.deepEqual(codes(v), [`error ${kind}`]);
      const p = defined(v.problems[0]);
      assert.equal(p.line, messageLines(text)[index]);
      assert.equal(p.startCharacter, 4);
      assert.match(p.message, new RegExp(`\\(message ${index}\\)$`));
      assert.equal(p.data?.messageIndex, index);
    });
  }

  test('a call left unanswered at the end (message_index = messages.length) is said on the last message', () => {
    const text = pretty(example([user(), assistant('a')]));
    const v = validateTrainingFile(text, 'json');
    assert.deepEqual(codes(v), ['error unpaired_tool_call']);
    assert.equal(v.problems[0]?.line, messageLines(text)[1]);
    assert.match(defined(v.problems[0]).message, /example ends with call a \(open_doc\) unanswered \(message 2\)$/);
  });

  test('no messages: missing_terminal_assistant on the `messages` key', () => {
    const text = pretty(example([]));
    const v = validateTrainingFile(text, 'json');
    assert.deepEqual(codes(v), ['error missing_terminal_assistant']);
    const p = defined(v.problems[0]);
    assert.equal(text.split('\n')[p.line]?.slice(p.startCharacter, p.endCharacter), '"messages"');
  });

  test('null tool_call_id on a non-tool message is None for serde, so it is no orphaned result', () => {
    const m = user();
    m.tool_call_id = null;
    assert.deepEqual(validateTrainingFile(pretty(example([m, assistant()])), 'json').problems, []);
    m.tool_call_id = '';
    assert.deepEqual(codes(validateTrainingFile(pretty(example([m, assistant()])), 'json')), ['error orphaned_tool_result']);
  });
});

describe('training example files: JSONL, BOM, CRLF', () => {
  test('one example per non-blank line, each validated on its own, its problems on its line', () => {
    const lines = [
      JSON.stringify(example()),
      '',
      JSON.stringify(example([user(), assistant('a')])),
      '   ',
      '{"schema_version": "harn.agent_training_example.v1", "messages": [',
      JSON.stringify({ ...example(), extra: true }),
    ];
    const v = validateTrainingFile(lines.join('\n') + '\n', 'jsonl');
    assert.deepEqual(
      v.problems.map((p) => [p.line, p.code]),
      [
        [2, 'unpaired_tool_call'],
        [4, 'malformed_jsonl'],
        [5, 'unknown_field'],
      ],
    );
    assert.equal(v.examples.length, 3, 'the malformed line gives no example');
    // On line 2, the message's own characters.
    const p = defined(v.problems[0]);
    const line2 = defined(lines[2]);
    assert.equal(line2.slice(p.startCharacter, p.endCharacter), JSON.stringify(assistant('a')));
  });

  test('CRLF line breaks and a BOM: positions as VS Code counts them (BOM hidden), with a utf8_bom note', () => {
    const text = pretty(example([user(), assistant('a', 'b'), tool('a'), assistant()])).replace(/\n/g, '\r\n');
    const lf = validateTrainingFile(text.replace(/\r\n/g, '\n'), 'json');
    const crlf = validateTrainingFile(text, 'json');
    const bom = validateTrainingFile('\ufeff' + text, 'json');
    assert.deepEqual(
      crlf.problems.map((p) => [p.line, p.startCharacter, p.endLine, p.endCharacter]),
      lf.problems.map((p) => [p.line, p.startCharacter, p.endLine, p.endCharacter]),
    );
    assert.deepEqual(codes(bom), ['information utf8_bom', 'error unpaired_tool_call']);
    assert.deepEqual(bom.problems[1], crlf.problems[0]);
    // A compact one-line example after a BOM: line 0's characters are counted without it.
    const compact = JSON.stringify(example([user(), assistant('a')]));
    const one = validateTrainingFile('\ufeff' + compact, 'json').problems.find((p) => p.code === 'unpaired_tool_call');
    assert.equal(one?.startCharacter, compact.indexOf('{"role":"assistant"'));
    const jsonl = validateTrainingFile('\ufeff' + compact + '\r\n' + compact + '\r\n', 'jsonl');
    assert.deepEqual(
      jsonl.problems.map((p) => [p.code, p.line, p.startCharacter]),
      [
        ['utf8_bom', 0, 0],
        ['unpaired_tool_call', 0, compact.indexOf('{"role":"assistant"')],
        ['unpaired_tool_call', 1, compact.indexOf('{"role":"assistant"')],
      ],
    );
  });

  test('UTF-16 positions after emoji and CJK in content', () => {
    const text = JSON.stringify(example([user('修正 😀 a.ts'), assistant('a')]));
    const p = defined(validateTrainingFile(text, 'jsonl').problems[0]);
    assert.equal(text.slice(p.startCharacter, p.endCharacter), JSON.stringify(assistant('a')));
  });
});

describe('training example files: hostile input', () => {
  test('a JSONL line over maxLineBytes is measured, not parsed: one line_too_long, the other lines still checked', () => {
    const big = JSON.stringify(example([user('x'.repeat(10_000)), assistant()]));
    const v = validateTrainingFile([big, JSON.stringify(example([user(), assistant('a')]))].join('\n'), 'jsonl', { maxLineBytes: 5000 });
    assert.deepEqual(
      v.problems.map((p) => [p.line, p.code]),
      [
        [0, 'line_too_long'],
        [1, 'unpaired_tool_call'],
      ],
    );
  });

  test('deep nesting inside a tool argument, in a JSONL line: nesting_too_deep on that line only', () => {
    const deep = JSON.stringify(example()).replace('{"uri":"a.ts"}', '['.repeat(300) + ']'.repeat(300));
    const v = validateTrainingFile([JSON.stringify(example()), deep].join('\n'), 'jsonl');
    assert.deepEqual(
      v.problems.map((p) => [p.line, p.code]),
      [[1, 'nesting_too_deep']],
    );
  });

  // Speed is the benchmarks' to measure (never a timed unit test): here the size only has to be handled correctly.
  test('a 100,000-message example validates, and a duplicate result at its very end is found', () => {
    const build = (pairs: number): string => {
      const messages: Json[] = [user()];
      for (let i = 0; i < pairs; i++) messages.push(assistant(`c${i}`), tool(`c${i}`));
      messages.push(assistant());
      return JSON.stringify(example(messages));
    };
    assert.deepEqual(validateTrainingFile(build(50_000), 'json').problems, []);
    const broken = validateTrainingFile(build(50_000).replace('"tool_call_id":"c49999"', '"tool_call_id":"c0"'), 'json');
    assert.deepEqual(codes(broken), ['error duplicate_tool_result']);
  });
});

describe('training example hovers', () => {
  const textOf = (messages: Json[]): string => pretty(example(messages));
  const hoverAt = (text: string, line: number): string => {
    const v = validateTrainingFile(text, 'json');
    return defined(trainingHover(v, { line: line + 1, character: 6 }), `hover on line ${line + 1}`).markdown;
  };

  test('a tool result names the call it answers; the assistant turn each call’s answer, or unanswered', () => {
    const text = textOf([user(), assistant('a', 'b'), tool('a'), assistant()]);
    const lines = messageLines(text);
    const onTool = hoverAt(text, defined(lines[2]));
    assert.match(onTool, /\*\*Training message 2\*\* of 4, role `tool`/);
    assert.match(onTool, /Answers call `a` \(`open_doc`\) of assistant message 1\./);
    assert.match(onTool, /The pairing breaks at message 3: `unpaired_tool_call`/);
    const onAssistant = hoverAt(text, defined(lines[1]));
    assert.match(onAssistant, /- `a` \(`open_doc`\) → answered by message 2/);
    assert.match(onAssistant, /- `b` \(`open_doc`\) → \*\*unanswered\*\*/);
    assert.match(hoverAt(text, defined(lines[3])), /\*\*The pairing breaks here\*\*: `unpaired_tool_call`: call b \(open_doc\) from message 1/);
  });

  test('pairing read on past the first violation: later results still name their calls, duplicates and strays are said', () => {
    const text = textOf([user(), assistant('a'), tool('a'), tool('a'), user('again'), tool('a'), assistant('c'), tool('c'), assistant()]);
    const lines = messageLines(text);
    assert.match(hoverAt(text, defined(lines[3])), /Answers call `a` .* again: message 2 already answered it\./);
    assert.match(hoverAt(text, defined(lines[5])), /Answers no call: a was called by message 1, whose results ended before this message\./);
    assert.match(hoverAt(text, defined(lines[7])), /Answers call `c` \(`open_doc`\) of assistant message 6\./);
    // Upstream's first violation: with no call outstanding, a second answer is an orphan.
    assert.match(hoverAt(text, defined(lines[7])), /The pairing breaks at message 3: `orphaned_tool_result`/);
  });

  test('the provenance block: run, session, model, transcript and digest; a valid example says it pairs', () => {
    const text = textOf([user(), assistant('a'), tool('a'), assistant()]);
    const line = text.split('\n').indexOf('  "provenance": {');
    const v = validateTrainingFile(text, 'json');
    const h = defined(trainingHover(v, { line: line + 2, character: 4 })).markdown;
    for (const s of ['run `r9`', 'session `s-42`', 'model `m-small`', '`/w/r9-llm/llm_transcript.jsonl`', '`sha256:0f0e`'])
      assert.ok(h.includes(s), `${s} in ${h}`);
    assert.match(hoverAt(text, defined(messageLines(text)[0])), /Pairing: every call is answered in order/);
    assert.equal(trainingHover(v, { line: text.split('\n').length + 3, character: 0 }), undefined);
  });

  test('text from the file is escaped: a call id or tool name cannot make a link or a command', () => {
    const evil = assistant('[x](command:evil)');
    ((evil.tool_calls as Json[])[0]?.function as Json).name = '![i](http://e/x.png)';
    const text = textOf([user(), evil, tool('[x](command:evil)'), assistant()]);
    const h = hoverAt(text, defined(messageLines(text)[2]));
    assert.ok(h.includes('`[x](command:evil)`'), h);
    assert.ok(h.includes('`![i](http://e/x.png)`'), h);
    assert.doesNotMatch(h.replace(/`[^`]*`/g, ''), /\]\(/);
  });

  test('a schema-invalid example still shows index and role, and says pairing was not checked', () => {
    const e = example([user(), { role: 'assistant', content: 1 }, assistant()]);
    const text = pretty(e);
    assert.match(hoverAt(text, defined(messageLines(text)[1])), /role `assistant`[\s\S]*Pairing not checked/);
  });
});

describe('training example file recognition', () => {
  test('by name, then by a top-level schema_version of v1 in a .json file', () => {
    const never = (): string[] => assert.fail('the name decides');
    assert.equal(trainingFileFormat('/w/run.training.json', never), 'json');
    assert.equal(trainingFileFormat('/w/llm_transcript.training.jsonl', never), 'jsonl');
    assert.equal(trainingFileFormat('/w/x.TRAINING.JSONL', never), 'jsonl');
    assert.equal(trainingFileFormat('/w/a.jsonl', never), undefined);
    assert.equal(
      trainingFileFormat('/w/any.json', () => pretty(example()).split('\n').slice(0, 5)),
      'json',
    );
    assert.equal(
      trainingFileFormat('/w/run.json', () => ['{"_type":"run_record","id":"r9"}']),
      undefined,
    );
    // Nested, not top-level: no.
    assert.equal(declaresTrainingSchema('{"x": {"schema_version": "harn.agent_training_example.v1"}}'), false);
    assert.equal(declaresTrainingSchema('\ufeff{"schema_version":"harn.agent_training_example.v1"'), true);
    assert.equal(declaresTrainingSchema('{"schema_version":"harn.agent_training_example.v10"}'), false);
  });
});
