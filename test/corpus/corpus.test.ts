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
    assert.ok(files.some((f) => f.startsWith('harn-v0.7/')), 'harn-v0.7 files');
    assert.ok(files.some((f) => f.startsWith('harn-0.10/')), 'harn-0.10 files');
    // 6 v0.7 syntax cases, 1 from 0.10, 3 semicolon negatives, stdlib/json.harn.
    assert.equal(failing.length, 11, failing.join('\n'));
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
    assert.ok(clean > 800, `${clean} clean files`);
  });

  test('conformance/errors/{types,semantic,runtime} are syntactically valid', () => {
    const semanticErrors = files.filter((f) => /\/conformance\/errors\/(types|semantic|runtime)\//.test(f));
    assert.ok(semanticErrors.length >= 60, `${semanticErrors.length} files`);
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
      assert.ok(diagnostics.length > 0, `${file} parsed with no diagnostic`);
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
