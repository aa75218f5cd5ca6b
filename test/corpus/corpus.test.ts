// Parses every `.harn` file of the shared corpus (spec/harn-language.md §4). All must parse with no
// diagnostic except the known syntax-error files, which must each get one, matching their `.error`
// expectation (§4.2) and on the line it names. Skipped when the corpus is not beside the repository.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../server/src/harn/parser';
import { LineIndex } from '../../server/src/text/lineIndex';
import { corpusFiles, corpusSkip, readCorpus, readExpectedError } from '../support/corpus';

/** Files that must fail to parse: syntax-error cases, negative semicolon tests and a stale stdlib file. */
function mustFail(file: string): boolean {
  return (
    /^harn-[^/]+\/conformance\/errors\/syntax\/[^/]+\.harn$/.test(file) ||
    /^harn-[^/]+\/conformance\/tests\/language\/semicolon_[^/]*_invalid\.harn$/.test(file) ||
    file === 'harn-v0.7/stdlib/json.harn'
  );
}

/** `.error` matching as in harn-cli: each line is a substring, or a regex after `re:`; any line may match. */
function matchesExpectation(expectation: string, message: string): boolean {
  return expectation
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .some((line) => (line.startsWith('re:') ? new RegExp(line.slice(3)).test(message) : message.includes(line)));
}

/** Exactly the diagnostics of each must-fail file, as `line:col-line:col code: message` (1-based). */
const EXPECTED_FAILURES: Record<string, string[]> = {
  'harn-0.10/conformance/errors/syntax/hitl_keyword_shadow_let.harn': [
    "5:7-5:23 syntax_error: Expected variable name or destructuring pattern, got 'request_approval' (reserved keyword)",
  ],
  'harn-v0.7/conformance/errors/syntax/default_after_required.harn': [
    '1:16-1:17 syntax_error: Required parameter cannot follow a parameter with a default value',
  ],
  'harn-v0.7/conformance/errors/syntax/missing_close_brace.harn': [
    "1:15-1:16 syntax_error: This '{' is never closed",
    '2:1-2:1 syntax_error: Unexpected end of file, expected }',
  ],
  'harn-v0.7/conformance/errors/syntax/multiple_parse_errors.harn': [
    "2:11-2:12 syntax_error: Expected expression, got ')'",
    "4:11-4:12 syntax_error: Expected expression, got ')'",
  ],
  'harn-v0.7/conformance/errors/syntax/unexpected_character.harn': ["2:11-2:12 unexpected_character: Unexpected character '`' at 2:11"],
  'harn-v0.7/conformance/errors/syntax/unexpected_token.harn': ['2:1-2:1 syntax_error: Unexpected end of file, expected expression'],
  'harn-v0.7/conformance/errors/syntax/unterminated_string.harn': ['2:11-2:24 unterminated_string: Unterminated string at 2:11'],
  'harn-v0.7/conformance/tests/language/semicolon_empty_statement_invalid.harn': ['2:14-2:15 syntax_error: Unexpected empty statement: got ;'],
  'harn-v0.7/conformance/tests/language/semicolon_if_else_invalid.harn': ["4:6-4:10 syntax_error: Expected statement, got 'else'"],
  'harn-v0.7/conformance/tests/language/semicolon_try_catch_invalid.harn': ["4:6-4:11 syntax_error: Expected statement, got 'catch'"],
  // Written for an older syntax (`.` dict keys); it has no `.error` file.
  'harn-v0.7/stdlib/json.harn': [
    "23:15-23:16 syntax_error: Expected dict key (a name, a string or [expression]), got '.'",
    "33:17-33:18 syntax_error: Expected dict key (a name, a string or [expression]), got '.'",
    "45:17-45:18 syntax_error: Expected dict key (a name, a string or [expression]), got '.'",
  ],
};

function located(text: string, diagnostics: ReturnType<typeof parse>['diagnostics']): string[] {
  const index = new LineIndex(text);
  return diagnostics.map((d) => {
    const s = index.positionAt(d.start);
    const e = index.positionAt(d.end);
    return `${s.line + 1}:${s.character + 1}-${e.line + 1}:${e.character + 1} ${d.code}: ${d.message}`;
  });
}

function describeDiagnostics(text: string, diagnostics: ReturnType<typeof parse>['diagnostics']): string {
  const index = new LineIndex(text);
  return diagnostics
    .slice(0, 5)
    .map((d) => {
      const p = index.positionAt(d.start);
      return `${p.line + 1}:${p.character + 1} ${d.message}`;
    })
    .join('; ');
}

describe('corpus', { skip: corpusSkip }, () => {
  const files = corpusFiles();
  const failing = files.filter(mustFail);
  let clean = 0;
  let matched = 0;

  after(() => {
    if (!corpusSkip) {
      console.log(`corpus: ${files.length} files, ${clean} clean, ${matched}/${failing.length} expected failures matched`);
    }
  });

  test('the corpus holds both language versions and the known must-fail files', () => {
    const folders = new Map<string, number>();
    for (const f of files) folders.set(f.slice(0, f.indexOf('/')), (folders.get(f.slice(0, f.indexOf('/'))) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(folders), { 'fmt-oracle': 29, 'harn-0.10': 11, 'harn-v0.7': 834 });
    // 6 v0.7 syntax cases, 1 from 0.10, 3 semicolon negatives, stdlib/json.harn.
    assert.deepEqual(failing, Object.keys(EXPECTED_FAILURES).sort());
  });

  test('every other file parses with no diagnostic', () => {
    const problems: string[] = [];
    for (const file of files) {
      if (mustFail(file)) continue;
      const text = readCorpus(file);
      const { diagnostics } = parse(text);
      if (diagnostics.length === 0) clean++;
      else problems.push(`${file}: ${describeDiagnostics(text, diagnostics)}`);
    }
    assert.deepEqual(problems, []);
    assert.equal(clean, 874 - 11);
  });

  test('conformance/errors/{types,semantic,runtime} are syntactically valid', () => {
    const semanticErrors = files.filter((f) => /\/conformance\/errors\/(types|semantic|runtime)\//.test(f));
    assert.equal(semanticErrors.length, 67);
    for (const file of semanticErrors) {
      const text = readCorpus(file);
      const { diagnostics } = parse(text);
      assert.deepEqual(describeDiagnostics(text, diagnostics), '', file);
    }
  });

  for (const file of failing) {
    test(`${file} fails as expected`, () => {
      const text = readCorpus(file);
      const { diagnostics } = parse(text);
      assert.deepEqual(located(text, diagnostics), EXPECTED_FAILURES[file]);
      // And as upstream's `.error` file says (harn-cli's matching), on the line it names.
      const expectation = readExpectedError(file);
      if (expectation !== undefined) {
        const summary = describeDiagnostics(text, diagnostics);
        const matching = diagnostics.filter((d) => matchesExpectation(expectation, d.message));
        assert.ok(matching.length > 0, `no diagnostic matches ${JSON.stringify(expectation)}: ${summary}`);
        // `at L:C` in the expectation names the line the error must be on.
        const at = /at (\d+):(\d+)/.exec(expectation);
        if (at) {
          const index = new LineIndex(text);
          const line = Number(at[1]) - 1;
          assert.ok(
            matching.some((d) => index.positionAt(d.start).line === line),
            `expected a diagnostic on line ${at[1]}: ${summary}`,
          );
        }
      }
      matched++;
    });
  }
});
