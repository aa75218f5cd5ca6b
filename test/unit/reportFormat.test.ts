// report/format.ts: the CLI's output formats for one small list of diagnostics, exactly: text, JSON (the
// DESIGN.md contract), GitHub workflow commands (with the toolkit's escaping of data and properties) and
// SARIF 2.1.0; and the order diagnostics are sorted in.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FileDiagnostic, OUTPUT_FORMATS, renderGithub, renderJson, renderSarif, renderText, sortDiagnostics } from '../../server/src/report/format';

const range = (line: number, character: number, endLine: number, endCharacter: number): FileDiagnostic['range'] => ({
  start: { line, character },
  end: { line: endLine, character: endCharacter },
});

const SYNTAX: FileDiagnostic = {
  path: 'lib/main.harn',
  range: range(2, 10, 2, 11),
  severity: 'error',
  source: 'harn.syntax',
  code: 'syntax_error',
  message: "Expected expression, got ')'",
};
const GATE: FileDiagnostic = {
  path: 'scripts/loud_boundaries.toml',
  range: range(6, 5, 6, 20),
  severity: 'warning',
  source: 'harn.boundaries',
  code: 'no_test',
  message: 'chat_turn_cap: entry declares no `test`, 100% of the others do:\nadd one',
  data: { id: 'chat_turn_cap' },
};
const ROW: FileDiagnostic = {
  path: 'runs/a b,c:d/llm_transcript.jsonl',
  range: range(14, 1, 14, 30),
  severity: 'information',
  source: 'harn.artifacts',
  code: 'unknown_row_type',
  message: 'Unknown row type "x%y"\r\ntolerated',
};
const HINT: FileDiagnostic = { ...SYNTAX, range: range(0, 0, 0, 1), severity: 'hint', code: 'style', message: 'a hint' };

describe('OUTPUT_FORMATS', () => {
  test('the four formats of --format', () => {
    assert.deepEqual(OUTPUT_FORMATS, ['text', 'json', 'github', 'sarif']);
  });
});

describe('sortDiagnostics', () => {
  test('by path (code units), then line, character, and severity; the input is left as it was', () => {
    const sameSpot = { ...SYNTAX, severity: 'warning' as const, message: 'same place, a warning' };
    const input = [ROW, sameSpot, GATE, SYNTAX, HINT, { ...SYNTAX, path: 'Lib/upper.harn' }];
    const copy = [...input];
    assert.deepEqual(sortDiagnostics(input), [{ ...SYNTAX, path: 'Lib/upper.harn' }, HINT, SYNTAX, sameSpot, ROW, GATE]);
    assert.deepEqual(input, copy);
  });
});

describe('renderText', () => {
  test('path:line:column (1-based), severity, [source/code], message; then the summary line', () => {
    assert.equal(
      renderText([SYNTAX, GATE], 'checked: 1 error(s), 1 warning(s), 0 other'),
      [
        "lib/main.harn:3:11: error [harn.syntax/syntax_error] Expected expression, got ')'",
        'scripts/loud_boundaries.toml:7:6: warning [harn.boundaries/no_test] chat_turn_cap: entry declares no `test`, 100% of the others do:\nadd one',
        'checked: 1 error(s), 1 warning(s), 0 other',
      ].join('\n'),
    );
    assert.equal(renderText([], 'nothing found'), 'nothing found');
  });
});

describe('renderJson', () => {
  test('version 1 and each diagnostic with its 0-based range; data only when there is some', () => {
    assert.equal(
      renderJson([SYNTAX, GATE]),
      JSON.stringify(
        {
          version: 1,
          diagnostics: [
            {
              path: 'lib/main.harn',
              range: range(2, 10, 2, 11),
              severity: 'error',
              source: 'harn.syntax',
              code: 'syntax_error',
              message: "Expected expression, got ')'",
            },
            {
              path: 'scripts/loud_boundaries.toml',
              range: range(6, 5, 6, 20),
              severity: 'warning',
              source: 'harn.boundaries',
              code: 'no_test',
              message: 'chat_turn_cap: entry declares no `test`, 100% of the others do:\nadd one',
              data: { id: 'chat_turn_cap' },
            },
          ],
        },
        null,
        2,
      ),
    );
    assert.equal(renderJson([]), '{\n  "version": 1,\n  "diagnostics": []\n}');
  });
});

describe('renderGithub', () => {
  test('one workflow command per diagnostic: level, 1-based position and title; information and hints are notices', () => {
    assert.equal(
      renderGithub([SYNTAX, HINT]),
      [
        "::error file=lib/main.harn,line=3,col=11,endLine=3,endColumn=12,title=harn.syntax/syntax_error::Expected expression, got ')'",
        '::notice file=lib/main.harn,line=1,col=1,endLine=1,endColumn=2,title=harn.syntax/style::a hint',
      ].join('\n'),
    );
    assert.equal(renderGithub([]), '');
  });

  test('the message escapes %, CR and LF (not commas or colons); properties escape `,` and `:` too', () => {
    assert.equal(
      renderGithub([GATE, ROW]),
      [
        '::warning file=scripts/loud_boundaries.toml,line=7,col=6,endLine=7,endColumn=21,title=harn.boundaries/no_test::' +
          'chat_turn_cap: entry declares no `test`, 100%25 of the others do:%0Aadd one',
        '::notice file=runs/a b%2Cc%3Ad/llm_transcript.jsonl,line=15,col=2,endLine=15,endColumn=31,title=harn.artifacts/unknown_row_type::' +
          'Unknown row type "x%25y"%0D%0Atolerated',
      ].join('\n'),
    );
  });

  test('a `%` already followed by hex digits is escaped too, so it reads back as written', () => {
    const d: FileDiagnostic = { ...SYNTAX, path: '100%25.harn', message: 'literally %0A, not a line break' };
    assert.equal(
      renderGithub([d]),
      '::error file=100%2525.harn,line=3,col=11,endLine=3,endColumn=12,title=harn.syntax/syntax_error::literally %250A, not a line break',
    );
  });
});

describe('renderSarif', () => {
  test('SARIF 2.1.0: sorted rules, one result each with its level, 1-based UTF-16 region, encoded URI and data as properties', () => {
    const log: unknown = JSON.parse(renderSarif([SYNTAX, GATE, ROW, HINT], '1.2.3'));
    const region = (startLine: number, startColumn: number, endLine: number, endColumn: number): Record<string, number> => ({
      startLine,
      startColumn,
      endLine,
      endColumn,
    });
    const location = (uri: string, r: Record<string, number>): unknown => [
      { physicalLocation: { artifactLocation: { uri, uriBaseId: 'SRCROOT' }, region: r } },
    ];
    assert.deepEqual(log, {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'harn-workbench',
              version: '1.2.3',
              rules: [
                {
                  id: 'harn.artifacts/unknown_row_type',
                  name: 'harn_artifacts_unknown_row_type',
                  shortDescription: { text: 'harn.artifacts/unknown_row_type' },
                },
                { id: 'harn.boundaries/no_test', name: 'harn_boundaries_no_test', shortDescription: { text: 'harn.boundaries/no_test' } },
                { id: 'harn.syntax/style', name: 'harn_syntax_style', shortDescription: { text: 'harn.syntax/style' } },
                { id: 'harn.syntax/syntax_error', name: 'harn_syntax_syntax_error', shortDescription: { text: 'harn.syntax/syntax_error' } },
              ],
            },
          },
          columnKind: 'utf16CodeUnits',
          originalUriBaseIds: { SRCROOT: { uri: './' } },
          results: [
            {
              ruleId: 'harn.syntax/syntax_error',
              ruleIndex: 3,
              level: 'error',
              message: { text: "Expected expression, got ')'" },
              locations: location('lib/main.harn', region(3, 11, 3, 12)),
            },
            {
              ruleId: 'harn.boundaries/no_test',
              ruleIndex: 1,
              level: 'warning',
              message: { text: 'chat_turn_cap: entry declares no `test`, 100% of the others do:\nadd one' },
              locations: location('scripts/loud_boundaries.toml', region(7, 6, 7, 21)),
              properties: { id: 'chat_turn_cap' },
            },
            {
              ruleId: 'harn.artifacts/unknown_row_type',
              ruleIndex: 0,
              level: 'note',
              message: { text: 'Unknown row type "x%y"\r\ntolerated' },
              // A space is percent-encoded in the URI; `,` and `:` may stay.
              locations: location('runs/a%20b,c:d/llm_transcript.jsonl', region(15, 2, 15, 31)),
            },
            { ruleId: 'harn.syntax/style', ruleIndex: 2, level: 'note', message: { text: 'a hint' }, locations: location('lib/main.harn', region(1, 1, 1, 2)) },
          ],
        },
      ],
    });
  });

  test('no diagnostics: a run with no rules and no results', () => {
    const log = JSON.parse(renderSarif([], '0.1.0')) as { runs: Array<{ tool: { driver: { rules: unknown[] } }; results: unknown[] }> };
    assert.deepEqual(log.runs[0]?.tool.driver.rules, []);
    assert.deepEqual(log.runs[0]?.results, []);
  });
});
