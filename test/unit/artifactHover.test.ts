// rowHover and artifactOutline (server/src/artifacts/{hover,outline}.ts): one hover per transcript row type and
// agent event, exact renderings of the provider_call_response and boundary_failure hovers, Markdown injection
// rendered through markdown-it (HTML and linkify on), partner links and registry titles present/absent, and the
// outline of transcripts (2 sessions × 3 iterations), event logs, session-less rows and 100k rows.
// Rows are synthetic: the spec's examples (spec/harn-artifacts.md §1, §3) and our own.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { formatInt, formatMs, formatUsd, msIso, rowHover, shortJson, timestampIso, type RowHoverContext } from '../../server/src/artifacts/hover';
import { artifactOutline, type OutlineNode, type OutlineRow } from '../../server/src/artifacts/outline';
import { code, codeBlock, escapeText } from '../../server/src/text/markdown';
import { defined } from '../support/assertions';
import { md } from '../support/markdownRender';

// markdown-it is what VS Code's own Markdown preview uses (hovers use marked, with the same CommonMark rules for
// code spans, fences and escapes); it comes with @vscode/vsce.

const LINK = (line: number): string => `file:///w/r9-llm/llm_transcript.jsonl#L${line + 1}`;

function ctx(over: Partial<RowHoverContext> = {}): RowHoverContext {
  return {
    line: 0,
    kind: 'transcript',
    partner: () => undefined,
    lineLink: LINK,
    ...over,
  };
}

function hover(row: unknown, over: Partial<RowHoverContext> = {}): string {
  const out = rowHover(row, ctx(over));
  assert.ok(out !== undefined, 'a hover');
  return out;
}

function includesAll(text: string, parts: string[]): void {
  for (const p of parts) assert.ok(text.includes(p), `expected ${JSON.stringify(p)} in:\n${text}`);
}

/** HTML of the hover with every <a> that is not one of our row links, and every raw tag, reported. */
function unsafeHtml(markdown: string): string[] {
  const html = md.render(markdown);
  const bad: string[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    const tag = defined(m[1], 'tag name').toLowerCase();
    const allowed = ['p', 'ul', 'ol', 'li', 'code', 'pre', 'strong', 'em', 'br', 'hr'];
    if (tag === 'a') {
      if (!/^<a href="file:\/\/\/w\/r9-llm\/llm_transcript\.jsonl#L\d+">$/.test(m[0])) bad.push(m[0]);
    } else if (!allowed.includes(tag)) bad.push(m[0]);
  }
  return bad;
}

// ---------------------------------------------------------------------------------------------------------------
// Spec rows (§1, §3 examples), verbatim

const SPEC_MESSAGE = {
  type: 'message',
  timestamp: '1767225600.003',
  span_id: null,
  session_id: 's-42',
  message_index: 0,
  role: 'user',
  content: 'fix a.ts',
  message: { role: 'user', content: 'fix a.ts' },
};
const SPEC_RESPONSE = {
  type: 'provider_call_response',
  timestamp: '1767225601.200',
  span_id: 7,
  iteration: 0,
  call_id: 'c-01',
  provider: 'ollama',
  model: 'm-small',
  text: '<tool_call>{"name":"open_doc","arguments":{"uri":"a.ts"}}</tool_call>',
  tool_calls: [],
  parsed_tool_calls: [{ id: 'tc_0', name: 'open_doc', arguments: { uri: 'a.ts' } }],
  input_tokens: 50,
  output_tokens: 12,
};
const SPEC_TOOL_RESULT = {
  type: 'tool_result',
  timestamp: '1767225601.400',
  span_id: null,
  schema_version: 'harn.llm_tool_result_receipt.v1',
  session_id: 's-42',
  message_index: 2,
  call_id: 'tc_0',
  tool_name: 'open_doc',
  ok: true,
  tool_format: 'text',
};
const SPEC_FINALIZED = {
  type: 'agent_session_finalized',
  timestamp: '1767225603.000',
  span_id: null,
  session_id: 's-42',
  final_status: 'done',
  stop_reason: 'natural',
  iterations: 2,
  terminal: true,
};
const SPEC_BOUNDARY = {
  index: 4,
  emitted_at_ms: 1767225601500,
  frame_depth: null,
  execution_id: 'x-1',
  type: 'boundary_failure',
  session_id: 's-42',
  boundary: 'text_tool_parse',
  kind: 'unrecognized',
  owner: 'harness',
  detail: '<invoke> dialect salvaged as prose',
  excerpt: '<invoke>open_doc(a.ts)</invoke>',
  dropped_count: 1,
  dropped_bytes: 31,
};
const SPEC_UPDATE = {
  index: 5,
  emitted_at_ms: 1767225601510,
  frame_depth: null,
  execution_id: 'x-1',
  type: 'tool_call_update',
  session_id: 's-42',
  tool_call_id: 'cand-3',
  tool_name: 'open_doc',
  status: 'failed',
  raw_output: null,
  error: 'stream ended mid-call',
  error_category: 'parse_aborted',
  mutation_status: 'unknown',
  parsing: false,
};

// ---------------------------------------------------------------------------------------------------------------

describe('formatting helpers', () => {
  test('thousands separators, USD with 4 decimals, latency in ms and s', () => {
    assert.equal(formatInt(0), '0');
    assert.equal(formatInt(999), '999');
    assert.equal(formatInt(1000), '1,000');
    assert.equal(formatInt(1234567), '1,234,567');
    assert.equal(formatInt(-45678), '-45,678');
    assert.equal(formatInt(1234.5), '1,234.5');
    assert.equal(formatUsd(0.012345), '$0.0123');
    assert.equal(formatUsd(0), '$0.0000');
    assert.equal(formatUsd(1234.5), '$1,234.5000');
    assert.equal(formatMs(850), '850 ms');
    assert.equal(formatMs(1834), '1,834 ms (1.83 s)');
    assert.equal(formatMs(125000), '125,000 ms (125.0 s)');
  });

  test('timestamps as ISO UTC: "<unix_secs>.<ms3>" and emitted_at_ms; junk gives nothing, never a throw', () => {
    assert.equal(timestampIso('1767225601.200'), '2026-01-01T00:00:01.200Z');
    assert.equal(timestampIso('1767225601'), '2026-01-01T00:00:01.000Z');
    assert.equal(timestampIso('1767225601.2'), '2026-01-01T00:00:01.200Z');
    assert.equal(timestampIso(1767225601.25), '2026-01-01T00:00:01.250Z');
    assert.equal(msIso(1767225601500), '2026-01-01T00:00:01.500Z');
    for (const bad of ['', 'yesterday', '1e9', '999999999999999.1', null, {}, Number.NaN]) assert.equal(timestampIso(bad), undefined);
    assert.equal(msIso(1e300), undefined);
    assert.equal(msIso('1767225601500'), undefined);
  });

  test('shortJson is compact and bounded, even for huge or deep values', () => {
    assert.equal(shortJson({ uri: 'a.ts', n: [1, true, null] }), '{"uri":"a.ts","n":[1,true,null]}');
    const huge = shortJson({ text: 'x'.repeat(5_000_000) }, 50);
    assert.ok(huge.length <= 51 && huge.endsWith('…'), huge);
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    assert.ok(shortJson(deep, 80).endsWith('…'));
  });

  test('code spans survive any text: one <code> element holding exactly the text (line breaks as ⏎)', () => {
    const samples = ['a`b', '`x`', '``', 'a ``` b', ' padded ', '  ', '<img src=x>', '[l](javascript:1)', 'line\nbreak', '\\`'];
    // A span of spaces only is written as it is (CommonMark keeps it whole), whatever its length.
    assert.equal(code('   '), '`   `');
    for (const s of samples) {
      const html = md.renderInline(code(s));
      const m = /^<code>([\s\S]*)<\/code>$/.exec(html);
      assert.ok(m, `one code element for ${JSON.stringify(s)}: ${html}`);
      assert.equal(unescapeHtml(defined(m[1], 'code content')), s.replace(/\n/g, '⏎'));
    }
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', ' ', 'a', '<', '>', '[', ']', '(', ')', '\n', '*', '\\', '&', '|', '#') }), (s) => {
        const rendered = md.renderInline(code(s));
        if (s === '') return rendered === '<em>(empty)</em>';
        const m = /^<code>([\s\S]*)<\/code>$/.exec(rendered);
        const shown = s.replace(/\r\n|\r|\n/g, '⏎');
        // CommonMark (and VS Code's renderer, marked) keep a span of spaces only as it is; markdown-it strips one
        // space from each end of any span of three characters or more that starts and ends with one (its
        // `^ (.+) $`), spaces-only spans too: for those it shows two spaces fewer.
        const expected = /^ {3,}$/.test(shown) ? shown.slice(1, -1) : shown;
        return m !== null && unescapeHtml(defined(m[1], 'code content')) === expected;
      }),
      { numRuns: 500 },
    );
  });

  test('code blocks and escaped prose survive any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', '~', ' ', 'a', '<', '>', '\n', '#', '-', '*', '[', ']', '(', ')') }), (s) => {
        const html = md.render(codeBlock(s));
        const m = /^<pre><code class="language-text">([\s\S]*)<\/code><\/pre>\n$/.exec(html);
        return m !== null && unescapeHtml(defined(m[1], 'code content')) === s + '\n';
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', '*', '_', '<', '>', '[', ']', '(', ')', '!', 'a', ' ', '&', ':', '.', '/', 'w') }), (s) => {
        const html = md.renderInline(escapeText(s));
        return !/<(?!\/?(?:p)\b)/.test(html) && unescapeHtml(html) === s;
      }),
      { numRuns: 500 },
    );
    assert.equal(md.renderInline(escapeText('see www.evil.com or https://evil.com')), 'see www.evil.com or https://evil.com');
  });
});

function unescapeHtml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

// ---------------------------------------------------------------------------------------------------------------

describe('rowHover: transcript rows', () => {
  test('provider_call_request: model, provider, iteration, message count, tool format, thinking', () => {
    const out = hover({
      type: 'provider_call_request',
      timestamp: '1767225601.000',
      span_id: 6,
      call_id: 'c-01',
      iteration: 0,
      model: 'm-small',
      provider: 'ollama',
      call_role: 'agent',
      max_tokens: 4096,
      temperature: 0.2,
      thinking: { mode: 'adaptive', enabled: true, budget_tokens: 2048, level: null },
      tool_choice: 'auto',
      tool_format: 'text',
      native_tool_count: 0,
      message_count: 1,
      route_policy: 'quality',
    });
    includesAll(out, [
      '**provider_call_request** · call `c-01` · iteration 0',
      '- Model: `m-small` · provider `ollama`',
      '- Messages: 1',
      '- Tool format: `text` · 0 native tools',
      '- Thinking: `adaptive` · budget 2,048 tokens',
      '- Max tokens: 4,096',
      '- Temperature: 0.2',
      'Request snapshot: not stored (only with `HARN_LLM_TRANSCRIPT_VERBOSE=1`)',
      '*Line 1 · 2026-01-01T00:00:01.000Z (`1767225601.000`) · span 6*',
    ]);
    const verbose = hover({
      type: 'provider_call_request',
      call_id: 'c-2',
      model: 'm',
      thinking: { mode: 'disabled', enabled: false },
      request_snapshot: { messages: [{}, {}, {}] },
    });
    includesAll(verbose, ['Thinking: `disabled`', 'Request snapshot: stored (`HARN_LLM_TRANSCRIPT_VERBOSE=1`), 3 messages']);
  });

  test('provider_call_response (spec row): tokens, parsed text-channel tool call with arguments', () => {
    const out = hover(SPEC_RESPONSE, { line: 1 });
    includesAll(out, [
      '**provider_call_response** · call `c-01` · iteration 0',
      '- Tokens: 50 in · 12 out',
      '**Tool calls** (1, parsed from `<tool_call>` text):',
      '1. `open_doc` `tc_0` — `{"uri":"a.ts"}`',
      '*Line 2 · 2026-01-01T00:00:01.200Z (`1767225601.200`) · span 7*',
    ]);
    assert.deepEqual(unsafeHtml(out), []);
  });

  test('provider_call_response: full rendering', () => {
    const row = {
      ...SPEC_RESPONSE,
      input_tokens: 12345,
      output_tokens: 1234,
      cost_usd: 0.012345,
      cache_read_tokens: 8192,
      cache_write_tokens: 0,
      cache_hit_ratio: 0.66,
      cache_savings_usd: 0.0041,
      cache_hit: true,
      thinking: null,
      thinking_summary: null,
      stop_reason: 'tool_use',
      response_ms: 1834,
    };
    assert.equal(
      hover(row, { line: 1 }),
      [
        '**provider_call_response** · call `c-01` · iteration 0',
        '',
        '- Model: `m-small` · provider `ollama`',
        '- Tokens: 12,345 in · 1,234 out',
        '- Cost: $0.0123',
        '- Cache: **hit** · read 8,192 · write 0 · ratio 66.0% · saved $0.0041',
        '- Stop reason: `tool_use`',
        '- Latency: 1,834 ms (1.83 s)',
        '- Text: `<tool_call>{"name":"open_doc","arguments":{"uri":"a.ts"}}</tool_call>` (69 chars)',
        '',
        '**Tool calls** (1, parsed from `<tool_call>` text):',
        '',
        '1. `open_doc` `tc_0` — `{"uri":"a.ts"}`',
        '',
        '*Line 2 · 2026-01-01T00:00:01.200Z (`1767225601.200`) · span 7*',
      ].join('\n'),
    );
  });

  test('provider_call_response: native tool calls with JSON-string arguments, no calls, long text truncated', () => {
    const native = hover({
      type: 'provider_call_response',
      call_id: 'c-9',
      iteration: 3,
      model: 'm',
      text: '',
      tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'edit', arguments: '{"path":"a.ts","line":3}' } }],
      parsed_tool_calls: [{ id: 'call_a', name: 'edit', arguments: { path: 'a.ts', line: 3 } }],
      cache_hit: false,
    });
    includesAll(native, ['**Tool calls** (1, native):', '1. `edit` `call_a` — `{"path":"a.ts","line":3}`', 'Cache: miss', 'Text: *(empty)*']);
    const onlyNative = hover({ type: 'provider_call_response', tool_calls: [{ id: 'k', function: { name: 'f', arguments: '{"a":1}' } }] });
    includesAll(onlyNative, ['1. `f` `k` — `{"a":1}`']);
    const none = hover({ type: 'provider_call_response', call_id: 'c', text: 'done'.repeat(100), tool_calls: [], parsed_tool_calls: [] });
    includesAll(none, ['**Tool calls:** none', '(400 chars, first 120 shown)', '- Tokens: — in · — out']);
  });

  test('message (spec row): role, index, session, content preview', () => {
    const out = hover(SPEC_MESSAGE);
    includesAll(out, [
      '**message** · `user` · #0 · session `s-42`',
      'Content (8 chars):',
      '```text\nfix a.ts\n```',
      '*Line 1 · 2026-01-01T00:00:00.003Z (`1767225600.003`)*',
    ]);
  });

  test('message: long content truncated to 200 chars with the full length; tool call id with both receipts linked', () => {
    const long = 'é'.repeat(150) + '😀'.repeat(100);
    const out = hover(
      {
        type: 'message',
        session_id: 's-42',
        message_index: 3,
        role: 'tool',
        content: long,
        message: { role: 'tool', content: long, tool_call_id: 'call_a', name: 'edit' },
      },
      { partner: (kind, sid, id) => (sid === 's-42' && id === 'call_a' ? { line: kind === 'tool_call' ? 10 : 12 } : undefined) },
    );
    includesAll(out, [
      '**message** · `tool` · #3',
      '- Name: `edit`',
      '- Tool call id: `call_a`',
      '- Call: [tool_call receipt, line 11](file:///w/r9-llm/llm_transcript.jsonl#L11)',
      '- Result: [tool_result receipt, line 13](file:///w/r9-llm/llm_transcript.jsonl#L13)',
      `Content (350 chars, first 200 shown):`,
    ]);
    const block = /```text\n([\s\S]*)\n```/.exec(out);
    assert.ok(block);
    assert.equal(block[1], 'é'.repeat(150) + '😀'.repeat(25) + '…', 'cut at 200 UTF-16 units, never inside a surrogate pair');
  });

  test('message: content blocks, native tool calls, directive envelope notes (key name UNCONFIRMED)', () => {
    const out = hover({
      type: 'message',
      session_id: 's',
      message_index: 4,
      role: 'assistant',
      content: [
        { type: 'text', text: 'Opening the file.' },
        { type: 'tool_use', id: 'tu_1', name: 'open_doc', input: { uri: 'a.ts' } },
      ],
      message: { role: 'assistant', content: '', tool_calls: [{ id: 'tu_1', type: 'function', function: { name: 'open_doc', arguments: '{"uri":"a.ts"}' } }] },
    });
    includesAll(out, ['Content blocks: `text`, `tool_use`', 'Opening the file.', '**Tool calls** (1, native):', '1. `open_doc` `tu_1` — `{"uri":"a.ts"}`']);
    const envelope =
      '<context-directives speaker="harness">\nFollow each directive according to its authority and lifetime.\n<directive authority="corrective" ttl_turns="1">\nRun the tests before closing.\n</directive>\n</context-directives>';
    const directive = hover({
      type: 'message',
      session_id: 's',
      message_index: 5,
      role: 'user',
      content: envelope,
      message: { role: 'user', content: envelope, _harn_directive_ids: ['r-7'] },
    });
    includesAll(directive, [
      'Directive ids: `["r-7"]` (*UNCONFIRMED:* the key name `_harn_directive_ids`)',
      'Context-directive envelope: 1 directive · speaker `harness`',
    ]);
    const bookkeeping = hover({ type: 'message', role: 'assistant', content: 'x', message: { role: 'assistant', harn_bookkeeping_turn: true } });
    includesAll(bookkeeping, ['Bookkeeping turn']);
  });

  test('tool_call receipt: arguments, partner tool_result link present and absent', () => {
    const row = {
      type: 'tool_call',
      timestamp: '1767225601.300',
      span_id: null,
      schema_version: 'harn.llm_tool_call_receipt.v1',
      session_id: 's-42',
      assistant_message_index: 1,
      call_id: 'tc_0',
      tool_name: 'open_doc',
      arguments: { uri: 'a.ts' },
    };
    const linked = hover(row, { line: 2, partner: (kind, sid, id) => (kind === 'tool_result' && sid === 's-42' && id === 'tc_0' ? { line: 4 } : undefined) });
    includesAll(linked, [
      '**tool_call** · receipt · `open_doc` · call `tc_0`',
      '- Arguments: `{"uri":"a.ts"}`',
      '- Session: `s-42`',
      '- Assistant message: #1',
      '- Result: [tool_result receipt, line 5](file:///w/r9-llm/llm_transcript.jsonl#L5)',
      '- Schema: `harn.llm_tool_call_receipt.v1`',
    ]);
    const alone = hover(row, { line: 2 });
    includesAll(alone, ['- Result: no `tool_result` receipt for this call in the file']);
    assert.ok(!alone.includes('](file:'), 'no link without a partner');
  });

  test('tool_result receipt (spec row): outcome, partner tool_call link present and absent, schema mismatch', () => {
    const linked = hover(SPEC_TOOL_RESULT, {
      line: 4,
      partner: (kind, sid, id) => (kind === 'tool_call' && sid === 's-42' && id === 'tc_0' ? { line: 2 } : undefined),
    });
    includesAll(linked, [
      '**tool_result** · receipt · `open_doc` · call `tc_0` · **ok**',
      '- Tool format: `text`',
      '- Result message: #2',
      '- Call: [tool_call receipt, line 3](file:///w/r9-llm/llm_transcript.jsonl#L3)',
      '- Schema: `harn.llm_tool_result_receipt.v1`',
    ]);
    const alone = hover({ ...SPEC_TOOL_RESULT, ok: false, schema_version: 'harn.llm_tool_result_receipt.v2' });
    includesAll(alone, [
      '**failed**',
      '- Call: no `tool_call` receipt for this call in the file',
      '⚠ Schema: `harn.llm_tool_result_receipt.v2`, expected `harn.llm_tool_result_receipt.v1`',
    ]);
    assert.ok(!alone.includes('](file:'));
  });

  test('agent_session_finalized (spec row) and other terminal rows: status, iterations', () => {
    const out = hover(SPEC_FINALIZED);
    includesAll(out, ['**agent_session_finalized** · `done` · session `s-42`', '- Stop reason: `natural`', '- Iterations: 2', 'Terminal row']);
    const viaStop = hover({ type: 'agent_session_finalized', session_id: 's', stop_reason: 'budget', iterations: 12000, terminal: true });
    includesAll(viaStop, ['· `budget` ·', '(no `final_status`: from `stop_reason`)', 'Iterations: 12,000']);
    const runTerminal = hover({ type: 'run_terminal', status: 'failed' });
    includesAll(runTerminal, ['**run_terminal** · `failed`', '(from `status`)']);
    const flagged = hover({ type: 'custom_end', terminal: true });
    includesAll(flagged, ['**`custom_end`** · `custom_end`', '(no status field: the row type)']);
  });

  test('system_prompt, context_manifest, tool_schemas, routing_decision, interpreted_response', () => {
    includesAll(hover({ type: 'system_prompt', content: 'You are a careful agent.', hash: 1234567, content_hash: 'blake3:ab' }), [
      '**system_prompt**',
      '- Hash: 1,234,567',
      '- Content hash: `blake3:ab`',
      'You are a careful agent.',
    ]);
    includesAll(hover({ type: 'context_manifest', hash: 'h', content_hash: 'blake3:cd', manifest: { files: ['a.ts'] } }), [
      '**context_manifest**',
      '- Manifest: `{"files":["a.ts"]}`',
    ]);
    includesAll(hover({ type: 'tool_schemas', schemas: [{ name: 'open_doc' }, { function: { name: 'edit' } }], hash: 'cat-7', content_hash: 'blake3:ef' }), [
      '**tool_schemas** · 2 tools',
      '- Tools: `open_doc`, `edit`',
      '- Hash: `cat-7`',
    ]);
    includesAll(
      hover({
        type: 'routing_decision',
        call_id: 'c-01',
        iteration: 0,
        policy: 'cheapest',
        requested_quality: 'high',
        selected_provider: 'ollama',
        selected_model: 'm-small',
        fallback_chain: ['m-big'],
        alternatives: [{}, {}],
      }),
      ['**routing_decision** · call `c-01` · iteration 0', '- Selected: `m-small` · provider `ollama`', '- Policy: `cheapest`', '- Alternatives: 2'],
    );
    includesAll(
      hover({
        type: 'interpreted_response',
        call_id: 'c-01',
        iteration: 0,
        tool_format: 'text',
        prose: '',
        tool_calls: [{ id: 'tc_0', name: 'open_doc', arguments: { uri: 'a.ts' } }],
        tool_parse_errors: ['bad json'],
      }),
      ['**interpreted_response** · call `c-01`', '- Tool parse errors: **1** — first `bad json`', '1. `open_doc` `tc_0` — `{"uri":"a.ts"}`'],
    );
  });

  test('generic fallback: seen-but-unmodelled types are UNCONFIRMED, unknown types tolerated, non-rows explained', () => {
    const seen = hover({ type: 'provider_raw_capture', call_id: 'c-01', iteration: 0, path: 'raw-provider/1.json' });
    includesAll(seen, ['**`provider_raw_capture`** · id `c-01` · iteration 0', 'Seen in transcripts; *UNCONFIRMED:*', '- `path`: `raw-provider/1.json`']);
    const unknown = hover({ type: 'future_row', session_id: 's', a: 1, b: { c: 2 } }, { rowNumber: 7, line: 8 });
    includesAll(unknown, ['**`future_row`** · id `row:7` · session `s`', 'Unknown row type: tolerated', '- `a`: 1', '- `b`: `{"c":2}`', '*Line 9*']);
    const many: Record<string, unknown> = { type: 'wide' };
    for (let i = 0; i < 20; i++) many[`f${i}`] = i;
    includesAll(hover(many), ['- `f11`: 11', '…and 8 more fields']);
    assert.ok(!hover(many).includes('`f12`'));
    includesAll(hover({ role: 'user' }), ['**Row without a type**: no `type`. Transcript rows without a `type` are rejected.']);
    includesAll(hover({ type: 3 }), ['`type` is 3, not a string']);
    includesAll(hover([1, 2]), ['**Not a row**: the line is an array']);
    includesAll(hover(null), ['the line is null']);
    assert.equal(rowHover(undefined, ctx()), undefined);
  });
});

describe('rowHover: agent events', () => {
  test('boundary_failure (spec row) with a registry entry: full rendering', () => {
    const out = hover(SPEC_BOUNDARY, {
      kind: 'eventLog',
      line: 4,
      registryEntry: (id) =>
        id === 'text_tool_parse' ? { title: 'Text-channel tool-call parsing', drops: 'tool calls in a dialect the parser does not recognise' } : undefined,
    });
    assert.equal(
      out,
      [
        '**boundary_failure** · `text_tool_parse` · `unrecognized`',
        '',
        'Registry: **Text\\-channel tool\\-call parsing**  ',
        'Drops: tool calls in a dialect the parser does not recognise',
        '',
        '- Kind: `unrecognized` — model output was not recognised',
        '- Owner: `harness`',
        '- Detail: `<invoke> dialect salvaged as prose`',
        '- Dropped: 1 item · 31 bytes (untruncated length)',
        '- Session: `s-42`',
        '',
        'Excerpt (31 chars):',
        '',
        '```text',
        '<invoke>open_doc(a.ts)</invoke>',
        '```',
        '',
        '*Line 5 · event #4 · emitted 2026-01-01T00:00:01.500Z · execution `x-1`*',
      ].join('\n'),
    );
    assert.deepEqual(unsafeHtml(out), []);
  });

  test('boundary_failure: no registry, id not in the registry, owner/kind mismatch, unreported, counts omitted', () => {
    const noRegistry = hover(SPEC_BOUNDARY, { kind: 'eventLog' });
    assert.ok(!noRegistry.includes('Registry:'), 'no registry line without a registry');
    assert.ok(!noRegistry.includes('⚠'), 'a known boundary without a registry is fine');
    const notInRegistry = hover({ ...SPEC_BOUNDARY, boundary: 'brand_new' }, { kind: 'eventLog', registryEntry: () => undefined });
    includesAll(notInRegistry, ['⚠ `brand_new` is not in the loud-boundary registry']);
    const unknownNoRegistry = hover({ ...SPEC_BOUNDARY, boundary: 'brand_new' }, { kind: 'eventLog' });
    includesAll(unknownNoRegistry, ['⚠ `brand_new` is not one of the six boundaries of harn 0.10 (no registry loaded)']);
    const untitled = hover(SPEC_BOUNDARY, { kind: 'eventLog', registryEntry: () => ({}) });
    includesAll(untitled, ['Registry: **(no title)**']);
    assert.ok(!untitled.includes('Drops:'));

    const capped = hover(
      {
        type: 'boundary_failure',
        session_id: 's',
        boundary: 'chat_turn_cap',
        kind: 'capped',
        owner: 'harness',
        detail: 'turn cap 40 reached',
        unreported: true,
      },
      { kind: 'eventLog' },
    );
    includesAll(capped, [
      '⚠ Owner: `harness`, but kind `capped` means `policy`',
      '- Dropped: no counts (`dropped_count` and `dropped_bytes` are omitted when 0)',
      '⚠ **Unreported**: caught by the Drop backstop — a harness bug',
    ]);
    const derived = hover({ type: 'boundary_failure', boundary: 'chat_turn_cap', kind: 'capped', detail: 'd' }, { kind: 'eventLog' });
    includesAll(derived, ['Owner: `policy` (absent; derived from kind)']);
    const oddKind = hover({ type: 'boundary_failure', boundary: 'chat_turn_cap', kind: 'vanished', detail: 'd' }, { kind: 'eventLog' });
    includesAll(oddKind, ['⚠ not one of dropped, unrecognized, truncated, killed, capped']);
  });

  test('budget_exhausted', () => {
    const out = hover(
      {
        index: 9,
        emitted_at_ms: 1767225700000,
        type: 'budget_exhausted',
        session_id: 's-42',
        max_iterations: 25,
        kind: 'cost',
        cost_usd: 1.5,
        wall_clock_ms: 90500,
      },
      { kind: 'eventLog' },
    );
    includesAll(out, [
      '**budget_exhausted** · `cost` · session `s-42`',
      '- Max iterations: 25',
      '- Cost: $1.5000',
      '- Wall clock: 90,500 ms (90.5 s)',
      'event #9 · emitted 2026-01-01T00:01:40.000Z',
    ]);
  });

  test('agent_loop_stall_warning', () => {
    const out = hover(
      {
        type: 'agent_loop_stall_warning',
        session_id: 's-42',
        warning: {
          iteration: 7,
          tool_name: 'open_doc',
          repeat_count: 3,
          threshold: 3,
          arguments_digest: 'sha256:aa',
          signature_digest: 'sha256:bb',
          pattern: 'same_call',
          signature: 'open_doc({"uri":"a.ts"})',
          count: 3,
          consecutive_trips: 1,
          hard_stop: false,
          arguments: { uri: 'a.ts' },
        },
      },
      { kind: 'eventLog' },
    );
    includesAll(out, [
      '**agent_loop_stall_warning** · `open_doc` · iteration 7',
      '- Repeats: 3 of threshold 3',
      '- Pattern: `same_call`',
      '- Hard stop: no',
      '- Arguments: `{"uri":"a.ts"}`',
      '- Arguments digest: `sha256:aa`',
    ]);
    includesAll(hover({ type: 'agent_loop_stall_warning', session_id: 's', warning: { tool_name: 't', hard_stop: true } }, { kind: 'eventLog' }), [
      '**hard stop**',
    ]);
  });

  test('tool_call_update (spec row): status, error category, retraction; link to its tool_call event', () => {
    const out = hover(SPEC_UPDATE, {
      kind: 'eventLog',
      line: 5,
      partner: (kind, sid, id) => (kind === 'tool_call' && sid === 's-42' && id === 'cand-3' ? { line: 3 } : undefined),
    });
    includesAll(out, [
      '**tool_call_update** · `open_doc` · `cand-3`',
      '- Status: **`failed`**',
      '- Error category: `parse_aborted` — a streamed call was retracted (ParseAborted)',
      '- Retraction: the streamed candidate was withdrawn, the tool never ran',
      '- Error: `stream ended mid-call`',
      '- Mutation: `unknown`',
      '- Call: [tool_call receipt, line 4]',
      '*Line 6 · event #5 · emitted 2026-01-01T00:00:01.510Z · execution `x-1`*',
    ]);
    const done = hover(
      {
        type: 'tool_call_update',
        session_id: 's',
        tool_call_id: 't1',
        tool_name: 'edit',
        status: 'completed',
        raw_output: 'ok',
        error: null,
        mutation_status: 'applied',
        duration_ms: 42,
        execution_duration_ms: 40,
        executor: { kind: 'host_bridge' },
        changed_paths: ['a.ts', 'b.ts'],
      },
      { kind: 'eventLog' },
    );
    includesAll(done, [
      '- Status: `completed`',
      '- Duration: 42 ms · execution 40 ms',
      '- Executor: `host_bridge`',
      '- Changed paths: 2 — `a.ts`, `b.ts`',
      '- Output: `ok`',
    ]);
    assert.ok(!done.includes('Error'));
  });

  test('tool_call event vs transcript receipt: decided by the document kind, or by shape in plain JSONL', () => {
    const ev = {
      index: 3,
      emitted_at_ms: 1767225601400,
      type: 'tool_call',
      session_id: 's-42',
      tool_call_id: 'cand-3',
      tool_name: 'open_doc',
      kind: 'read',
      status: 'pending',
      raw_input: { uri: 'a.ts' },
    };
    for (const kind of ['eventLog', 'jsonl'] as const) {
      includesAll(hover(ev, { kind }), ['**tool_call** · event · `open_doc` · `cand-3`', '- Status: `pending`', '- Input: `{"uri":"a.ts"}`', 'event #3']);
    }
    includesAll(hover({ type: 'tool_call', session_id: 's', call_id: 'tc_0', tool_name: 'x', arguments: {} }, { kind: 'jsonl' }), ['**tool_call** · receipt']);
  });

  test('iteration events and newer host events fall back to the generic hover', () => {
    includesAll(hover({ index: 0, emitted_at_ms: 0, type: 'iteration_start', session_id: 's', iteration: 0 }, { kind: 'eventLog' }), [
      '**`iteration_start`** · id `row:1` · session `s` · iteration 0',
      'Known agent event',
      '1970-01-01T00:00:00.000Z',
    ]);
    includesAll(hover({ type: 'llm_call_log', session_id: 's' }, { kind: 'eventLog' }), ['Newer host event (`from_host.rs`); *UNCONFIRMED:* its fields']);
    includesAll(hover({ type: 'mcp_server_started', session_id: 's' }, { kind: 'eventLog' }), ['Known agent event']);
  });
});

describe('rowHover: event-log topic records (file backend, §7)', () => {
  test('a record shows the row it carries, with the record envelope; the record shape is UNCONFIRMED', () => {
    const { type: _type, ...payload } = SPEC_RESPONSE;
    const record = {
      id: 3,
      event: { kind: 'provider_call_response', payload, headers: { 'harn.provenance.schema': 'harn-eventlog-provenance-v1' }, occurred_at_ms: 1767225601200 },
    };
    includesAll(hover(record, { kind: 'jsonl', line: 2 }), [
      '**provider_call_response** · call `c-01` · iteration 0',
      '- Tokens: 50 in · 12 out',
      'Event-log topic record (file backend): `kind` `provider_call_response`',
      '*UNCONFIRMED:* the record shape of `observability.agent_events.<session>` topics',
      '*Line 3 · topic record #3 · occurred 2026-01-01T00:00:01.200Z · provenance `harn-eventlog-provenance-v1`*',
    ]);
    const { index: _i, emitted_at_ms: _e, frame_depth: _f, execution_id: _x, type: _t, ...boundary } = SPEC_BOUNDARY;
    includesAll(hover({ id: 9, event: { kind: 'boundary_failure', payload: boundary } }, { kind: 'jsonl' }), [
      '**boundary_failure** · `text_tool_parse` · `unrecognized`',
      '- Dropped: 1 item · 31 bytes',
    ]);
    includesAll(hover({ id: 1, event: { kind: 'tool_call', payload: { session_id: 's', tool_call_id: 'k', tool_name: 'x' } } }, { kind: 'jsonl' }), [
      '**tool_call** · event',
    ]);
  });
});

describe('rowHover: Markdown injection', () => {
  const attacks = [
    '[click me](javascript:alert(1))',
    '<img src=x onerror=alert(1)>',
    '<script>alert(1)</script>',
    '``` \n# Heading\n```',
    '`` ` ``',
    '\n\n# Heading\n\n- item\n\n[ref]: http://evil.example',
    'see https://evil.example and www.evil.example',
    '![img](http://evil.example/x.png)',
    '</code></pre><a href="http://evil.example">x</a>',
    '|a|b|\n|-|-|\n|c|d|',
    'x` <img src=x onerror=alert(1)> [a](http://evil.example) `y',
    '` ``<b>bold</b>`` `',
  ];

  test('content, names, ids, arguments, detail, excerpt and registry prose never become HTML or links', () => {
    for (const a of attacks) {
      const rows: unknown[] = [
        {
          type: 'message',
          session_id: a,
          message_index: 0,
          role: a,
          content: a,
          message: { role: a, content: a, tool_call_id: a, name: a, tool_calls: [{ id: a, function: { name: a, arguments: a } }] },
        },
        {
          type: 'provider_call_response',
          call_id: a,
          iteration: a,
          model: a,
          provider: a,
          text: a,
          stop_reason: a,
          parsed_tool_calls: [{ id: a, name: a, arguments: { [a]: a } }],
        },
        { type: 'provider_call_request', call_id: a, model: a, provider: a, tool_format: a, thinking: { mode: a, level: a } },
        { type: 'tool_call', session_id: a, call_id: a, tool_name: a, arguments: { a }, schema_version: a },
        { type: 'tool_result', session_id: a, call_id: a, tool_name: a, ok: a, tool_format: a },
        { type: 'boundary_failure', session_id: a, boundary: a, kind: a, owner: a, detail: a, excerpt: a, dropped_count: a },
        { type: 'tool_call_update', session_id: a, tool_call_id: a, tool_name: a, status: a, error: a, error_category: a, raw_output: a, changed_paths: [a] },
        { type: 'agent_loop_stall_warning', session_id: a, warning: { tool_name: a, pattern: a, signature: a, arguments: a } },
        { type: 'budget_exhausted', session_id: a, kind: a, max_iterations: a },
        { type: 'agent_session_finalized', session_id: a, final_status: a, stop_reason: a, iterations: a, terminal: true },
        { type: a, [a]: a, session_id: a, timestamp: a, execution_id: a },
        { type: 'system_prompt', content: a, hash: a },
      ];
      for (const row of rows) {
        for (const kind of ['transcript', 'eventLog'] as const) {
          const out = hover(row, {
            kind,
            partner: () => ({ line: 1 }),
            registryEntry: () => ({ title: a, drops: a }),
          });
          assert.deepEqual(unsafeHtml(out), [], `unsafe HTML for ${JSON.stringify(a)} in ${JSON.stringify(row).slice(0, 80)}:\n${out}`);
          const html = md.render(out);
          assert.ok(!/<h\d|<table|<img|<script/i.test(html), `structure injected:\n${out}`);
        }
      }
    }
  });

  test('a link target from lineLink with spaces or parentheses stays one link', () => {
    const out = hover(SPEC_TOOL_RESULT, { partner: () => ({ line: 2 }), lineLink: (n) => `file:///w/a (copy)/t.jsonl#L${n + 1}` });
    const html = md.render(out);
    assert.ok(html.includes('<a href="file:///w/a%20%28copy%29/t.jsonl#L3">tool_call receipt, line 3</a>'), html);
  });

  test('a 10 MB content row hovers with a bounded preview', () => {
    const big = 'x'.repeat(10_000_000);
    const out = hover({ type: 'message', session_id: 's', role: 'user', content: big, message: { role: 'user', content: big } });
    assert.ok(out.length < 2000, `hover length ${out.length}`);
    includesAll(out, ['(10,000,000 chars, first 200 shown)']);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Outline

/** A readable tree: "kind name — detail [line-endLine]" per node, indented. */
function tree(nodes: OutlineNode[], depth = 0): string {
  return nodes
    .map(
      (n) =>
        `${'  '.repeat(depth)}${n.kind} ${n.name}${n.detail ? ` — ${n.detail}` : ''} [${n.line}-${n.endLine}]${n.children.length ? '\n' + tree(n.children, depth + 1) : ''}`,
    )
    .join('\n');
}

function rowsOf(list: unknown[]): OutlineRow[] {
  return list.map((row, line) => ({ line, row }));
}

/** One session: a system prompt (no session id), an opening user message, 3 iterations, the terminal row. */
function transcriptSessionRows(sid: string): unknown[] {
  const rows: unknown[] = [{ type: 'system_prompt', content: 'sys', hash: 1, content_hash: 'blake3:1' }];
  rows.push({ type: 'message', session_id: sid, message_index: 0, role: 'user', content: 'fix a.ts', message: { role: 'user', content: 'fix a.ts' } });
  let index = 1;
  for (let it = 0; it < 3; it++) {
    const call = `c-${sid}-${it}`;
    const last = it === 2;
    rows.push({ type: 'routing_decision', call_id: call, iteration: it, selected_provider: 'ollama', selected_model: 'm-small' });
    rows.push({ type: 'provider_call_request', call_id: call, iteration: it, model: 'm-small', provider: 'ollama', message_count: index, tool_format: 'text' });
    rows.push({
      type: 'provider_call_response',
      call_id: call,
      iteration: it,
      model: 'm-small',
      input_tokens: 1000 * (it + 1),
      output_tokens: 10,
      cost_usd: 0.001,
      response_ms: 1500,
      stop_reason: last ? 'natural' : 'tool_use',
      parsed_tool_calls: last ? [] : [{ id: `tc_${it}`, name: 'open_doc', arguments: { uri: 'a.ts' } }],
    });
    rows.push({
      type: 'message',
      session_id: sid,
      message_index: index,
      role: 'assistant',
      content: last ? 'done' : '<tool_call>…</tool_call>',
      message: { role: 'assistant' },
    });
    if (!last) {
      rows.push({
        type: 'tool_call',
        schema_version: 'harn.llm_tool_call_receipt.v1',
        session_id: sid,
        assistant_message_index: index,
        call_id: `tc_${it}`,
        tool_name: 'open_doc',
        arguments: { uri: 'a.ts' },
      });
      index++;
      rows.push({
        type: 'message',
        session_id: sid,
        message_index: index,
        role: 'user',
        content: 'let x = 1',
        message: { role: 'user', content: 'let x = 1' },
      });
      rows.push({
        type: 'tool_result',
        schema_version: 'harn.llm_tool_result_receipt.v1',
        session_id: sid,
        message_index: index,
        call_id: `tc_${it}`,
        tool_name: 'open_doc',
        ok: true,
        tool_format: 'text',
      });
    }
    index++;
  }
  rows.push({ type: 'agent_session_finalized', session_id: sid, final_status: 'done', stop_reason: 'natural', iterations: 3, terminal: true });
  return rows;
}

describe('artifactOutline', () => {
  test('transcript, 2 sessions × 3 iterations: sessions → iterations → calls → rows and receipts', () => {
    const rows = [...transcriptSessionRows('A'), ...transcriptSessionRows('B')];
    // A boundary failure copied into session A's second iteration (after its tool_result receipt).
    rows.splice(13, 0, { type: 'boundary_failure', boundary: 'text_tool_parse', kind: 'unrecognized', owner: 'harness', detail: 'd', dropped_count: 1 });
    const outline = artifactOutline(rowsOf(rows), 'transcript');
    assert.equal(
      tree(outline),
      [
        'session session A — done · 3 iterations · 3 calls · 6,000 in / 30 out [0-21]',
        '  event system_prompt — blake3:1 [0-0]',
        '  iteration iteration 0 — 1 call · 1,000 in / 10 out [1-8]',
        '    message user #0 — fix a.ts [1-1]',
        '    call m-small · c-A-0 — 1,000 in / 10 out · $0.0010 · 1,500 ms (1.50 s) [2-8]',
        '      event routing — ollama / m-small [2-2]',
        '      event request — 1 message · text [3-3]',
        '      event response — 1,000 in / 10 out · tool_use · 1 tool call [4-4]',
        '      tool tool_call open_doc — tc_0 [6-6]',
        '      tool tool_result open_doc — tc_0 · ok [8-8]',
        '    message assistant #1 — <tool_call>…</tool_call> [5-5]',
        '    message user #2 — let x = 1 [7-7]',
        '  iteration iteration 1 — 1 call · 2,000 in / 10 out [9-16]',
        '    call m-small · c-A-1 — 2,000 in / 10 out · $0.0010 · 1,500 ms (1.50 s) [9-16]',
        '      event routing — ollama / m-small [9-9]',
        '      event request — 3 messages · text [10-10]',
        '      event response — 2,000 in / 10 out · tool_use · 1 tool call [11-11]',
        '      tool tool_call open_doc — tc_1 [14-14]',
        '      tool tool_result open_doc — tc_1 · ok [16-16]',
        '    message assistant #3 — <tool_call>…</tool_call> [12-12]',
        '    event boundary_failure text_tool_parse — unrecognized · harness · 1 dropped [13-13]',
        '    message user #4 — let x = 1 [15-15]',
        '  iteration iteration 2 — 1 call · 3,000 in / 10 out [17-20]',
        '    call m-small · c-A-2 — 3,000 in / 10 out · $0.0010 · 1,500 ms (1.50 s) [17-19]',
        '      event routing — ollama / m-small [17-17]',
        '      event request — 5 messages · text [18-18]',
        '      event response — 3,000 in / 10 out · natural [19-19]',
        '    message assistant #5 — done [20-20]',
        '  terminal agent_session_finalized — done · 3 iterations [21-21]',
      ].join('\n') +
        '\n' +
        tree(outline.slice(1)),
    );
    // Session B: its system_prompt row (no session id, after A's terminal row) waits for B.
    const b = defined(outline[1], 'session B');
    assert.equal(b.name, 'session B');
    assert.equal(b.line, 22);
    assert.equal(b.endLine, rows.length - 1);
    assert.deepEqual(
      b.children.map((c) => `${c.kind} ${c.name}`),
      ['event system_prompt', 'iteration iteration 0', 'iteration iteration 1', 'iteration iteration 2', 'terminal agent_session_finalized'],
    );
    assert.deepEqual(
      defined(b.children[1], 'iteration 0').children.map((c) => c.name),
      ['user #0', 'm-small · c-B-0', 'assistant #1', 'user #2'],
    );
    // Containment: every child lies within its parent's lines.
    const check = (n: OutlineNode): void => {
      for (const c of n.children) {
        assert.ok(c.line >= n.line && c.endLine <= n.endLine, `${c.name} [${c.line}-${c.endLine}] inside ${n.name} [${n.line}-${n.endLine}]`);
        check(c);
      }
    };
    outline.forEach(check);
  });

  test('event log: sessions → iterations (iteration_start … iteration_end) → events; interleaved sessions', () => {
    const ev = (index: number, sid: string, type: string, extra: Record<string, unknown> = {}): unknown => ({
      index,
      emitted_at_ms: 1767225600000 + index,
      frame_depth: null,
      execution_id: 'x-1',
      type,
      session_id: sid,
      ...extra,
    });
    const rows = [
      ev(0, 's-42', 'iteration_start', { iteration: 0 }),
      ev(1, 's-42', 'tool_call', { tool_call_id: 'cand-3', tool_name: 'open_doc', status: 'pending', raw_input: {} }),
      ev(0, 'sub-1', 'worker_update', { status: 'running' }),
      SPEC_BOUNDARY,
      SPEC_UPDATE,
      ev(6, 's-42', 'iteration_end', { iteration: 0 }),
      ev(7, 's-42', 'iteration_start', { iteration: 1 }),
      ev(8, 's-42', 'agent_loop_stall_warning', { warning: { tool_name: 'open_doc', repeat_count: 3, hard_stop: true } }),
      ev(9, 's-42', 'iteration_end', { iteration: 1 }),
      ev(10, 's-42', 'budget_exhausted', { max_iterations: 2, kind: 'iterations' }),
      ev(1, 'sub-1', 'subagent_stop', {}),
    ];
    for (const kind of ['eventLog', 'jsonl'] as const) {
      assert.equal(
        tree(artifactOutline(rowsOf(rows), kind)),
        [
          'session session s-42 — 2 iterations · 9 events [0-9]',
          '  iteration iteration 0 — 3 events [0-5]',
          '    tool tool_call open_doc — cand-3 · pending [1-1]',
          '    event boundary_failure text_tool_parse — unrecognized · harness · 1 dropped [3-3]',
          '    tool tool_call_update open_doc — cand-3 · failed · parse_aborted [4-4]',
          '  iteration iteration 1 — 1 event [6-8]',
          '    event agent_loop_stall_warning — open_doc · ×3 · hard stop [7-7]',
          '  event budget_exhausted — iterations · max 2 iterations [9-9]',
          'session session sub-1 — 0 iterations · 2 events [2-10]',
          '  event worker_update — #0 · running [2-2]',
          '  event subagent_stop — #1 [10-10]',
        ].join('\n'),
      );
    }
  });

  test('rows without sessions: a "(no session)" group, or the only session; non-objects skipped', () => {
    const provider = [
      { type: 'provider_call_request', call_id: 'c1', iteration: 0, model: 'm' },
      { type: 'provider_call_response', call_id: 'c1', iteration: 0, model: 'm', input_tokens: 5, output_tokens: 1 },
      'not an object',
      { type: 'interpreted_response', call_id: 'c1', iteration: 0, tool_format: 'native', tool_calls: [] },
    ];
    assert.equal(
      tree(artifactOutline(rowsOf(provider), 'transcript')),
      [
        'session (no session) — 1 iteration · 1 call · 5 in / 1 out [0-3]',
        '  iteration iteration 0 — 1 call · 5 in / 1 out [0-3]',
        '    call m · c1 — 5 in / 1 out [0-3]',
        '      event request [0-0]',
        '      event response — 5 in / 1 out [1-1]',
        '      event interpreted — native [3-3]',
      ].join('\n'),
    );

    // One session: rows before it wait for it, rows after its terminal row still join it.
    const single = artifactOutline(
      rowsOf([
        { type: 'tool_schemas', schemas: [{ name: 'a' }] },
        SPEC_MESSAGE,
        SPEC_RESPONSE,
        SPEC_TOOL_RESULT,
        SPEC_FINALIZED,
        { type: 'provider_call_request', call_id: 'late', iteration: 5, model: 'm' },
      ]),
      'transcript',
    );
    assert.equal(single.length, 1);
    assert.equal(
      tree(single),
      [
        'session session s-42 — done · 2 iterations · 2 calls · 50 in / 12 out [0-5]',
        '  event tool_schemas — 1 tool [0-0]',
        '  iteration iteration 0 — 1 call · 50 in / 12 out [1-3]',
        '    message user #0 — fix a.ts [1-1]',
        '    call m-small · c-01 — 50 in / 12 out [2-3]',
        '      event response — 50 in / 12 out · 1 tool call [2-2]',
        '      tool tool_result open_doc — tc_0 · ok [3-3]',
        '  terminal agent_session_finalized — done · 2 iterations [4-4]',
        '  iteration iteration 5 — 1 call [5-5]',
        '    call m · late — no response [5-5]',
        '      event request [5-5]',
      ].join('\n'),
    );

    // Two sessions and trailing session-less rows: those go to "(no session)".
    const two = artifactOutline(
      rowsOf([
        { ...SPEC_MESSAGE, session_id: 'a' },
        { ...SPEC_FINALIZED, session_id: 'a' },
        { ...SPEC_MESSAGE, session_id: 'b' },
        { ...SPEC_FINALIZED, session_id: 'b' },
        { type: 'template.render', name: 't' },
      ]),
      'transcript',
    );
    assert.deepEqual(
      two.map((n) => `${n.name} [${n.line}-${n.endLine}]`),
      ['session a [0-1]', 'session b [2-3]', '(no session) [4-4]'],
    );
    // Only messages, no provider rows: the messages sit under the session.
    assert.equal(
      tree(artifactOutline(rowsOf([SPEC_MESSAGE]), 'jsonl')),
      'session session s-42 — 0 iterations · 0 calls [0-0]\n  message user #0 — fix a.ts [0-0]',
    );
    assert.deepEqual(artifactOutline([], 'transcript'), []);
  });

  test('event-log topic records are outlined as the rows they carry', () => {
    const record = (id: number, row: Record<string, unknown>): unknown => {
      const { type, ...payload } = row;
      return { id, event: { kind: type, payload, headers: {}, occurred_at_ms: 1767225600000 + id } };
    };
    const transcript = [SPEC_MESSAGE, SPEC_RESPONSE, SPEC_TOOL_RESULT, SPEC_FINALIZED].map((r, i) => record(i + 1, r));
    assert.equal(
      tree(artifactOutline(rowsOf(transcript), 'jsonl')),
      [
        'session session s-42 — done · 1 iteration · 1 call · 50 in / 12 out [0-3]',
        '  iteration iteration 0 — 1 call · 50 in / 12 out [0-2]',
        '    message user #0 — fix a.ts [0-0]',
        '    call m-small · c-01 — 50 in / 12 out [1-2]',
        '      event response — 50 in / 12 out · 1 tool call [1-1]',
        '      tool tool_result open_doc — tc_0 · ok [2-2]',
        '  terminal agent_session_finalized — done · 2 iterations [3-3]',
      ].join('\n'),
    );
    const events = [
      record(1, { type: 'iteration_start', session_id: 's', iteration: 0 }),
      record(2, { type: 'tool_call_update', session_id: 's', tool_call_id: 'k', tool_name: 'x', status: 'completed' }),
      record(3, { type: 'iteration_end', session_id: 's', iteration: 0 }),
    ];
    assert.equal(
      tree(artifactOutline(rowsOf(events), 'jsonl')),
      ['session session s — 1 iteration · 3 events [0-2]', '  iteration iteration 0 — 1 event [0-2]', '    tool tool_call_update x — k · completed [1-1]'].join(
        '\n',
      ),
    );
  });

  test('names are one non-empty line; anonymous calls pair request and response', () => {
    const out = artifactOutline(
      rowsOf([
        { type: 'message', session_id: 's\nx', role: '', content: 'a\nb\u2028c' },
        { type: 'provider_call_request', iteration: 0, model: 'm\n1' },
        { type: 'provider_call_response', iteration: 0, input_tokens: 1, output_tokens: 2 },
        { type: '' },
      ]),
      'transcript',
    );
    const all: OutlineNode[] = [];
    const walk = (n: OutlineNode): void => {
      all.push(n);
      n.children.forEach(walk);
    };
    out.forEach(walk);
    for (const n of all) {
      assert.ok(n.name.length > 0 && !/[\n\r\u2028]/.test(n.name + n.detail), JSON.stringify(n.name + n.detail));
    }
    const iteration = defined(out[0], 'the session').children.find((c) => c.kind === 'iteration');
    assert.ok(iteration);
    const calls = iteration.children.filter((c) => c.kind === 'call');
    assert.equal(calls.length, 1);
    const call = defined(calls[0], 'the call');
    assert.equal(call.name, 'm 1 · call');
    assert.equal(call.children.length, 2);
  });

  test('100k rows: builds the outline (O(rows))', () => {
    const rows: OutlineRow[] = [];
    let line = 0;
    const sessions = 10;
    const perSession = 10_000;
    for (let s = 0; s < sessions; s++) {
      const sid = `s-${s}`;
      for (let i = 0; rows.length < (s + 1) * perSession; i++) {
        const call = `c-${s}-${i}`;
        rows.push({ line: line++, row: { type: 'message', session_id: sid, message_index: 2 * i, role: 'user', content: 'x' } });
        rows.push({ line: line++, row: { type: 'provider_call_request', call_id: call, iteration: i, model: 'm' } });
        rows.push({ line: line++, row: { type: 'provider_call_response', call_id: call, iteration: i, model: 'm', input_tokens: 10, output_tokens: 1 } });
        rows.push({ line: line++, row: { type: 'tool_call', session_id: sid, call_id: `t${i}`, tool_name: 'a', arguments: {} } });
        rows.push({ line: line++, row: { type: 'tool_result', session_id: sid, call_id: `t${i}`, tool_name: 'a', ok: true, message_index: 2 * i + 1 } });
      }
    }
    assert.equal(rows.length, 100_000);
    const outline = artifactOutline(rows, 'transcript');
    assert.equal(outline.length, sessions);
    assert.equal(defined(outline[0], 'session 0').children.length, perSession / 5);
    let count = 0;
    const walk = (n: OutlineNode): void => {
      count++;
      n.children.forEach(walk);
    };
    outline.forEach(walk);
    // Every row is a node, plus one session, one iteration and one call per 5 rows... minus nothing: 100k + 10 + 2×20k.
    assert.equal(count, 100_000 + sessions + 2 * 20_000);
  });
});
