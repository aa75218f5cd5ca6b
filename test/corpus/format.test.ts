// `harn fmt` parity on the formatter oracle (../shared/corpus/fmt-oracle, issue 16): every path of
// unchanged.txt must format to itself, every source of formatted/ to the oracle's output, and every output
// must be a fixed point. The counts are a hard assertion (798/798, 29/29, 827/827); the failure message
// shows the start of the diff of every mismatch.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { format } from '../../server/src/harn/format';
import { parse } from '../../server/src/harn/parser';
import { corpusFiles, corpusPath, corpusSkip, readCorpus } from '../support/corpus';
import { normalised, sameComments, sameErrors } from '../support/formatAst';
import { fuzzCase } from '../support/fuzz';

const ORACLE = 'fmt-oracle';

function formatted(text: string): string | undefined {
  const result = format(text);
  return 'text' in result ? result.text : undefined;
}

/** The first differing lines of two texts, for a failure message. */
function diffStart(expected: string, actual: string | undefined, context = 3): string {
  if (actual === undefined) return '  (refused)';
  const a = expected.split('\n');
  const b = actual.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const out: string[] = [`  @@ line ${i + 1}`];
  for (let k = i; k < Math.min(a.length, i + context); k++) out.push(`  - ${a[k]}`);
  for (let k = i; k < Math.min(b.length, i + context); k++) out.push(`  + ${b[k]}`);
  return out.join('\n');
}

function formattedSources(): string[] {
  const root = corpusPath(path.join(ORACLE, 'formatted'));
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.harn')) out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out;
}

describe('harn fmt parity on the oracle', { skip: corpusSkip }, () => {
  test('counts: unchanged kept, changed matching, idempotent', (t) => {
    assert.ok(existsSync(corpusPath(ORACLE)), 'the oracle folder is missing');
    const unchanged = readCorpus(path.join(ORACLE, 'unchanged.txt')).split('\n').filter(Boolean);
    const changed = formattedSources();
    assert.equal(unchanged.length, 798);
    assert.equal(changed.length, 29);
    let kept = 0;
    let matching = 0;
    let idempotent = 0;
    const mismatches: string[] = [];
    const checkIdempotent = (file: string, output: string | undefined): void => {
      if (output === undefined) return;
      const again = formatted(output);
      if (again === output) idempotent++;
      else mismatches.push(`${file} (not idempotent)\n${diffStart(output, again)}`);
    };
    for (const file of unchanged) {
      const source = readCorpus(file);
      const output = formatted(source);
      if (output === source) kept++;
      else mismatches.push(`${file} (unchanged in the oracle)\n${diffStart(source, output)}`);
      checkIdempotent(file, output);
    }
    for (const file of changed) {
      const expected = readCorpus(path.join(ORACLE, 'formatted', file));
      const output = formatted(readCorpus(file));
      if (output === expected) matching++;
      else mismatches.push(`${file} (oracle output differs)\n${diffStart(expected, output)}`);
      checkIdempotent(file, output);
    }
    const counts = `unchanged kept ${kept}/798, changed matching ${matching}/29, idempotent ${idempotent}/827`;
    t.diagnostic(counts);
    assert.deepEqual({ kept, matching, idempotent }, { kept: 798, matching: 29, idempotent: 827 }, `${counts}\n${mismatches.join('\n')}`);
  });

  test('formatting never changes the AST, and is idempotent, on every corpus file that parses', (t) => {
    let same = 0;
    let total = 0;
    let newSyntax = 0;
    let newSyntaxTotal = 0;
    const failures: string[] = [];
    for (const file of corpusFiles()) {
      if (file.startsWith(`${ORACLE}/`)) continue;
      const source = readCorpus(file);
      const before = parse(source);
      if (before.diagnostics.length > 0) continue;
      total++;
      if (file.startsWith('harn-0.10/')) newSyntaxTotal++;
      const output = formatted(source);
      const after = output === undefined ? undefined : parse(output);
      const ok =
        output !== undefined &&
        after !== undefined &&
        after.diagnostics.length === 0 &&
        sameComments(source, before.comments, output, after.comments) &&
        formatted(output) === output &&
        JSON.stringify(normalised(after.file)) === JSON.stringify(normalised(before.file));
      if (ok) {
        same++;
        if (file.startsWith('harn-0.10/')) newSyntax++;
      } else failures.push(file);
    }
    const counts = `AST kept and idempotent ${same}/${total}, of which harn-0.10 ${newSyntax}/${newSyntaxTotal}`;
    t.diagnostic(counts);
    assert.ok(total > 800, counts);
    assert.deepEqual(failures, [], counts);
  });

  test('files with syntax errors are formatted around them: same errors, same AST, idempotent', (t) => {
    let around = 0;
    const failures: string[] = [];
    const broken = corpusFiles().filter((file) => !file.startsWith(`${ORACLE}/`) && parse(readCorpus(file)).diagnostics.length > 0);
    for (const file of broken) {
      const source = readCorpus(file);
      const before = parse(source);
      const output = formatted(source);
      const after = output === undefined ? undefined : parse(output);
      const ok =
        output !== undefined &&
        after !== undefined &&
        formatted(output) === output &&
        sameErrors(before.diagnostics, after.diagnostics) &&
        JSON.stringify(normalised(after.file)) === JSON.stringify(normalised(before.file));
      if (ok) around++;
      else failures.push(file);
    }
    const counts = `broken files formatted around their errors ${around}/${broken.length}`;
    t.diagnostic(counts);
    assert.ok(broken.length >= 10, counts);
    assert.deepEqual(failures, [], counts);
  });

  test('fuzz: mutated corpus files keep their AST, comments and errors through formatting, idempotently', (t) => {
    const sources = corpusFiles()
      .filter((file) => !file.startsWith(`${ORACLE}/`))
      .map((file) => [file, readCorpus(file)] as const);
    const failures: string[] = [];
    let clean = 0;
    const seeds = Number(process.env.FMT_FUZZ_SEEDS ?? 300);
    for (let seed = 1; seed <= seeds; seed++) {
      const c = fuzzCase(seed, sources);
      const before = parse(c.text);
      const output = formatted(c.text);
      if (output === undefined) continue; // refused: an error before the first item
      const after = parse(output);
      if (before.diagnostics.length === 0) clean++;
      const ok =
        formatted(output) === output &&
        sameErrors(before.diagnostics, after.diagnostics) &&
        sameComments(c.text, before.comments, output, after.comments) &&
        JSON.stringify(normalised(after.file)) === JSON.stringify(normalised(before.file));
      if (!ok) failures.push(`seed ${c.seed}: ${c.source} after ${c.operations.join(', ')}`);
    }
    t.diagnostic(`fuzz: ${seeds - failures.length}/${seeds} kept (${clean} parsed cleanly)`);
    assert.deepEqual(failures, [], `${failures.length} of ${seeds} seeds fail`);
  });
});
