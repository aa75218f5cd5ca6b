// Names every JavaScript object inherits (`constructor`, `__proto__`, `toString`, `hasOwnProperty`) used where files
// name things: row types, event kinds and error categories, registry keys, boundary ids and kinds, Harn identifiers.
// Each is an ordinary unknown (or user-declared) name: no `function Object() { [native code] }` in a hover, no
// TypeError in the outline, no write into Object.prototype, and the same message as any other unknown name.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rowHover } from '../../server/src/artifacts/hover';
import { artifactOutline } from '../../server/src/artifacts/outline';
import { validateArtifact, validateLine } from '../../server/src/artifacts/validate';
import { boundaryInfoLookup, parseRegistry, parseTomlAst, tomlDocumentValue } from '../../server/src/boundaries/registry';
import { foldingRanges } from '../../server/src/harn/folding';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { completionsAt } from '../../server/src/harn/completion';
import { definitionAt } from '../../server/src/harn/definition';
import { hoverAt } from '../../server/src/harn/hover';
import type { ModuleHost } from '../../server/src/harn/resolve';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'] as const;

/** The [start, end) of the `occurrence`-th `needle` in `text`. */
function span(text: string, needle: string, occurrence = 0): { start: number; end: number } {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} in ${text}`);
  return { start: at, end: at + needle.length };
}

const untouchedPrototypes = (): void => {
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false, 'Object.prototype.polluted');
  assert.equal(Object.prototype.hasOwnProperty.call(Object, 'x'), false, 'Object.x');
};

describe('prototype names as row types', () => {
  for (const name of NAMES) {
    test(`a transcript row and an event typed ${name}: unknown_row_type on its \`type\``, () => {
      const row = `{"type":"${name}","session_id":"s"}`;
      const transcript = validateLine('transcript', row).problems;
      assert.deepEqual(
        transcript.map((p) => [p.code, p.startCharacter, p.endCharacter, p.message]),
        [
          [
            'unknown_row_type',
            1,
            span(row, `"type":"${name}"`).end,
            `Unknown transcript row type "${name}": tolerated (Harn ignores row types it does not know); not validated.`,
          ],
        ],
      );
      const event = `{"index":0,"emitted_at_ms":0,"type":"${name}","session_id":"s"}`;
      assert.deepEqual(
        validateLine('eventLog', event).problems.map((p) => [p.code, p.startCharacter, p.endCharacter, p.message]),
        [
          [
            'unknown_row_type',
            span(event, '"type"').start,
            span(event, `"type":"${name}"`).end,
            `Unknown event type "${name}": tolerated (the spec details only some of about 75 variants); only the envelope is checked.`,
          ],
        ],
      );
    });

    test(`a row typed ${name} is an event of the outline, not a TypeError`, () => {
      const rows = [
        { line: 0, row: JSON.parse(`{"type":"${name}","session_id":"s"}`) as unknown },
        { line: 1, row: { type: 'message', session_id: 's', role: 'user', content: 'hi', message_index: 0 } },
      ];
      assert.deepEqual(artifactOutline(rows, 'transcript'), [
        {
          name: 'session s',
          detail: '0 iterations · 0 calls',
          kind: 'session',
          line: 0,
          endLine: 1,
          children: [
            { name, detail: '', kind: 'event', line: 0, endLine: 0, children: [] },
            { name: 'user #0', detail: 'hi', kind: 'message', line: 1, endLine: 1, children: [] },
          ],
        },
      ]);
      const hover = rowHover(JSON.parse(`{"type":"${name}"}`), { line: 0, kind: 'transcript', partner: () => undefined, lineLink: (n) => `#L${n + 1}` });
      assert.ok(hover?.startsWith(`**\`${name}\`** · id \`row:1\`\n\nUnknown row type: tolerated`), hover);
    });
  }
});

describe('prototype names as event kinds, error categories and boundary ids', () => {
  const lookup = boundaryInfoLookup(parseRegistry('[[boundary]]\nid = "real"\ntitle = "Real"\n'));
  const ctx = { line: 0, kind: 'eventLog' as const, partner: () => undefined, lineLink: (n: number) => `#L${n + 1}`, registryEntry: lookup };

  for (const name of NAMES) {
    test(`boundary_failure with boundary and kind ${name}: an unknown id and an unknown kind`, () => {
      const row = { index: 0, emitted_at_ms: 0, type: 'boundary_failure', session_id: 's', boundary: name, kind: name, owner: 'harness', detail: 'd' };
      assert.equal(
        rowHover(row, ctx),
        [
          `**boundary_failure** · \`${name}\` · \`${name}\``,
          `⚠ \`${name}\` is not in the loud-boundary registry`,
          [
            `- Kind: \`${name}\` — ⚠ not one of dropped, unrecognized, truncated, killed, capped`,
            '- Owner: `harness`',
            '- Detail: `d`',
            '- Dropped: no counts (`dropped_count` and `dropped_bytes` are omitted when 0)',
            '- Session: `s`',
          ].join('\n'),
          '*Line 1 · event #0 · emitted 1970-01-01T00:00:00.000Z*',
        ].join('\n\n'),
      );
      const text = JSON.stringify(row);
      const problems = validateArtifact('eventLog', text + '\n', { registryTitle: (id) => lookup(id)?.title }).problems;
      assert.deepEqual(
        problems.map((p) => [p.code, p.startCharacter, p.endCharacter, p.message]),
        [
          ['boundary_failure', 0, text.length, `${name} lost model output: ${name} (owner harness)`],
          // `toString` and `hasOwnProperty` are no snake_case ids (and `__proto__` starts with `_`): refused as any such id.
          ...(/^[a-z][a-z0-9_]*$/.test(name)
            ? []
            : [
                [
                  'invalid_row',
                  span(text, '"boundary"').start,
                  span(text, `"boundary":"${name}"`).end,
                  `Invalid boundary_failure event: \`boundary\` must be a snake_case boundary id, got the string "${name}".`,
                ],
              ]),
          [
            'invalid_row',
            span(text, '"kind"').start,
            span(text, `"kind":"${name}"`).end,
            `Invalid boundary_failure event: \`kind\` must be one of dropped, unrecognized, truncated, killed, capped, got the string "${name}".`,
          ],
        ],
      );
    });

    test(`tool_call_update with error_category ${name}: the category without a meaning`, () => {
      const row = {
        index: 1,
        emitted_at_ms: 0,
        type: 'tool_call_update',
        session_id: 's',
        tool_call_id: 't',
        tool_name: 'x',
        status: 'failed',
        error_category: name,
      };
      assert.equal(
        rowHover(row, ctx),
        [
          `**tool_call_update** · \`x\` · \`t\``,
          ['- Status: **`failed`**', `- Error category: \`${name}\``, '- Session: `s`'].join('\n'),
          '*Line 1 · event #1 · emitted 1970-01-01T00:00:00.000Z*',
        ].join('\n\n'),
      );
    });
  }
});

describe('prototype names as registry keys', () => {
  for (const name of NAMES) {
    test(`\`${name} = …\`, \`${name}.x = 1\` and \`${name} = { … }\` in an entry are unknown keys`, () => {
      const text = `[[boundary]]\nid = "a"\n${name} = 1\n\n[[boundary]]\nid = "b"\n${name}.x = 1\n\n[[boundary]]\nid = "c"\n${name} = { x = 1 }\n`;
      const registry = parseRegistry(text);
      assert.deepEqual(registry.problems, [
        { code: 'invalid_entry', message: `unknown key \`${name}\` in a [[boundary]] entry`, range: span(text, name, 0), id: 'a' },
        { code: 'invalid_entry', message: `unknown key \`${name}.x\` in a [[boundary]] entry`, range: span(text, `${name}.x`), id: 'b' },
        { code: 'invalid_entry', message: `unknown key \`${name}\` in a [[boundary]] entry`, range: span(text, name, 2), id: 'c' },
      ]);
      assert.deepEqual(
        registry.boundaries.map((b) => b.id?.value),
        ['a', 'b', 'c'],
      );
      untouchedPrototypes();
    });
  }

  test('a known key written dotted is still told to be a plain key', () => {
    const text = '[[boundary]]\nid = "a"\ntitle.x = 1\n';
    assert.deepEqual(parseRegistry(text).problems, [
      { code: 'invalid_entry', message: '`title.x` makes `title` a table; write `title = …`', range: span(text, 'title.x'), id: 'a' },
    ]);
  });

  test('`__proto__` keys are own data of the document, and never reach Object.prototype or Object', () => {
    const text = 'constructor.x = 1\n__proto__.polluted = 1\n\n[[audited]]\nid = "d"\ntitle = { __proto__.polluted = 1 }\n';
    const registry = parseRegistry(text);
    assert.deepEqual(registry.problems, [
      { code: 'invalid_entry', message: '`title` must be a string, not an inline table', range: span(text, '{ __proto__.polluted = 1 }'), id: 'd' },
    ]);
    const value = tomlDocumentValue(parseTomlAst(text));
    assert.deepEqual(Object.keys(value), ['constructor', '__proto__', 'audited']);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal(JSON.stringify(value), '{"constructor":{"x":1},"__proto__":{"polluted":1},"audited":[{"id":"d","title":{"__proto__":{"polluted":1}}}]}');
    untouchedPrototypes();
  });
});

const noModules: ModuleHost = { resolveImport: () => undefined, load: () => undefined };

describe('prototype names as Harn identifiers', () => {
  for (const name of NAMES) {
    test(`a function named ${name}: hover, definition and completion answer with it`, () => {
      const text = `/** Doc of ${name}. */\nfn ${name}(a) { return a }\nlet y = ${name}(1)\nlet z = ${name.slice(0, 3)}`;
      const analysis = new HarnAnalysis(text);
      assert.deepEqual(analysis.parsed.diagnostics, []);
      const use = span(text, `${name}(1)`).start;
      assert.deepEqual(hoverAt(analysis, '/w/m.harn', use, noModules, '/w'), {
        markdown: `\`\`\`harn\nfn ${name}(a)\n\`\`\`\n\nDoc of ${name}.`,
        start: use,
        end: use + name.length,
      });
      const declared = span(text, `fn ${name}`).start + 3;
      assert.deepEqual(
        [definitionAt(analysis, '/w/m.harn', use, noModules)].map((d) => d && [d.file, d.start, d.end]),
        [['/w/m.harn', declared, declared + name.length]],
      );
      const items = completionsAt(analysis, '/w/m.harn', text.length, noModules, '/w').filter((c) => c.label === name);
      assert.deepEqual(
        items.map((c) => [c.kind, c.detail]),
        [['function', `fn ${name}(a)`]],
      );
      // An undeclared use is no builtin and no keyword.
      const bare = new HarnAnalysis(`let q = ${name}\n`);
      assert.equal(hoverAt(bare, '/w/m.harn', 8, noModules, '/w'), undefined);
      assert.deepEqual(foldingRanges(new HarnAnalysis(`fn ${name}() {\n  return 1\n}\n`)), [{ startLine: 0, endLine: 1 }]);
    });
  }
});
