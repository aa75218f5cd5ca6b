// No input overflows the stack (issue 9, "Recursion"): expression chains as long as they are written (the AST
// nests as deep as they are long) are walked without recursion; JSON nested past serde_json's limit (128) is
// reported where the limit is reached and never handed to a parser or walk that recurses per level (run records,
// JSONL rows, the transcript rescan); so is TOML in the registry; re-exports are followed once per module; and
// one file whose check throws is reported on that file while the other files are still checked (gate, CLI,
// the editor's gate). Every big input is generated here.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { TextDocuments } from 'vscode-languageserver';
import type { Connection, PublishDiagnosticsParams } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { rowHover } from '../../server/src/artifacts/hover';
import { JSON_NESTING_LIMIT, jsonNestingLimitAt, nestingLimitMessage } from '../../server/src/artifacts/jsonNesting';
import { artifactOutline } from '../../server/src/artifacts/outline';
import { isRunRecord, parseRunRecord, transcriptFacts, verifyRunRecord } from '../../server/src/artifacts/runRecord';
import { EVENT_ROW_SCHEMAS, TRANSCRIPT_ROW_SCHEMAS } from '../../server/src/artifacts/schemas';
import { describeValue, validateArtifact, validateLine } from '../../server/src/artifacts/validate';
import { stringAtCharacter, stringNodeAt } from '../../server/src/directives/locate';
import { scanHarnBoundaries } from '../../server/src/boundaries/harnSites';
import { parseRegistry, TOML_NESTING_LIMIT } from '../../server/src/boundaries/registry';
import { BoundaryGateWorkspace, type FileScan } from '../../server/src/boundaries/workspaceGate';
import { FILE_CHECKS, main } from '../../server/src/cli';
import { DiagnosticsStore } from '../../server/src/features/diagnosticsStore';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import { definitionAt } from '../../server/src/harn/definition';
import { findExported, type ModuleHost } from '../../server/src/harn/resolve';
import { BoundaryProvider } from '../../server/src/providers/boundaryProvider';
import { HarnWorkspace, pathToUri } from '../../server/src/workspace/harnWorkspace';
import { readSettings } from '../../server/src/workspace/settings';
import { defined } from '../support/assertions';
import { CHAINS, CONDITIONAL } from '../support/chains';
import type { FileDiagnostic } from '../../server/src/report/format';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-recursion-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));
let trees = 0;

function tree(files: Record<string, string>): string {
  const root = path.join(scratch, `t${++trees}`);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** What `--format json` prints per diagnostic: the CLI's own type. */
type JsonDiagnostic = FileDiagnostic;

function cli(args: string[]): { status: number | null; diagnostics: JsonDiagnostic[]; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const diagnostics = result.stdout ? (JSON.parse(result.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics : [];
  return { status: result.status, diagnostics, stderr: result.stderr };
}

const range = (line: number, start: number, end: number): JsonDiagnostic['range'] => ({ start: { line, character: start }, end: { line, character: end } });

const NESTING_MESSAGE = 'Nesting too deep (more than 128 levels): the rest of this statement is skipped';

describe('expression chains: walked without recursion', () => {
  test('A.walk visits every node once, parents first, in source order, 100,000 links deep', () => {
    const text = 'let x = a' + '.b'.repeat(100_000);
    const analysis = new HarnAnalysis(text);
    const kinds = new Map<string, number>();
    let previousStart = -1;
    let ordered = true;
    A.walk(analysis.file, (node) => {
      kinds.set(node.kind, (kinds.get(node.kind) ?? 0) + 1);
      // A member chain's nodes all start at `a`; their names follow in order after them.
      if (node.kind === 'Name' && node.start < previousStart) ordered = false;
      if (node.kind === 'Name') previousStart = node.start;
    });
    assert.equal(kinds.get('Member'), 100_000);
    assert.equal(kinds.get('Name'), 100_001, 'x, and each .b');
    assert.equal(kinds.get('Identifier'), 1);
    assert.ok(ordered, 'names in source order');
  });

  test('A.walk skips the children of a node when told to', () => {
    const analysis = new HarnAnalysis('fn f() { let y = 1 }\nlet x = 2');
    const seen: string[] = [];
    A.walk(analysis.file, (node) => {
      seen.push(node.kind);
      return node.kind !== 'FnDecl';
    });
    assert.deepEqual(seen, ['SourceFile', 'FnDecl', 'LetDecl', 'Name', 'Int']);
  });

  for (const [name, text] of Object.entries(CHAINS)) {
    test(`${name}: parses clean, and the boundary scan and scopes answer`, () => {
      const analysis = new HarnAnalysis(text);
      assert.deepEqual(analysis.parsed.diagnostics, []);
      assert.deepEqual(scanHarnBoundaries(analysis), { references: [], problems: [] });
      assert.ok(analysis.scopes.root.bindings.length >= 1);
    });
  }

  test('boundary dicts deep inside a chain are all sites, in source order', () => {
    const text = 'let x = {boundary: "b0"}' + Array.from({ length: 5000 }, (_, i) => ` + {boundary: "b${i + 1}"}`).join('');
    const { references } = scanHarnBoundaries(new HarnAnalysis(text));
    assert.equal(references.length, 5001);
    assert.deepEqual(references.map((r) => r.id).slice(0, 3), ['b0', 'b1', 'b2']);
    const last = defined(references.at(-1));
    assert.deepEqual({ id: last.id, text: text.slice(last.range.start, last.range.end) }, { id: 'b5000', text: '"b5000"' });
  });

  test('a boundary_failure kind chosen by a 5,000-branch else-if ladder: the one bad kind is found, on its literal', () => {
    const branches = Array.from({ length: 5000 }, (_, i) => ` else if c${i} { ${i === 3999 ? '"bogus"' : '"dropped"'} }`).join('');
    const text = `fn g(s) {\n  agent_emit_event(s, "boundary_failure", {boundary: "b", detail: "d", kind: if c { "capped" }${branches} else { "killed" }})\n}\n`;
    const { problems } = scanHarnBoundaries(new HarnAnalysis(text));
    const at = text.indexOf('"bogus"');
    assert.deepEqual(problems, [
      {
        code: 'invalid_boundary_kind',
        message: '`bogus` is not a boundary failure kind (dropped, unrecognized, truncated, killed or capped)',
        range: { start: at, end: at + '"bogus"'.length },
      },
    ]);
  });

  test('the CLI checks each chain: exit 0, no diagnostics; the 10,000-deep conditional is one nesting_too_deep', () => {
    const files: Record<string, string> = { 'cond.harn': CONDITIONAL };
    for (const [name, text] of Object.entries(CHAINS)) files[`${name}.harn`] = text;
    const root = tree(files);
    for (const name of Object.keys(CHAINS)) {
      const result = cli(['check', path.join(root, `${name}.harn`), '--root', root]);
      assert.deepEqual({ status: result.status, diagnostics: result.diagnostics, stderr: result.stderr }, { status: 0, diagnostics: [], stderr: '' }, name);
    }
    const result = cli(['check', path.join(root, 'cond.harn'), '--root', root]);
    assert.equal(result.status, 1);
    // The 128th level: the statement, its initializer, then one per conditional's branches (opened after its `?`),
    // the last at the 127th conditional's `b`.
    assert.deepEqual(result.diagnostics, [
      { path: 'cond.harn', range: range(0, 1020, 1021), severity: 'error', source: 'harn.syntax', code: 'nesting_too_deep', message: NESTING_MESSAGE },
    ]);
  });

  test('the CLI with the gate: a 5,000-deep member chain under crates/ is scanned like any file', () => {
    const root = tree({
      'scripts/loud_boundaries.toml': '[[boundary]]\nid = "a_b"\ntitle = "A"\nanchors = ["crates/vm/site.rs"]\ntest = "crates/vm/site.rs"\n',
      'crates/harn-vm/src/boundary.rs':
        'pub enum BoundaryId { AB }\nimpl BoundaryId {\n    pub fn as_str(self) -> &\'static str {\n        match self {\n            Self::AB => "a_b",\n        }\n    }\n}\n',
      'crates/vm/site.rs': 'fn f() { report(BoundaryId::AB); } // a_b\n',
      'crates/chain.harn': '// no boundary here\n' + CHAINS.member,
      'crates/other.harn': 'let report = {boundary: "nope"}\n',
    });
    const result = cli(['check', '--root', root]);
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.path} ${d.code} ${d.range.start.line}:${d.range.start.character}`),
      ['crates/other.harn unknown_boundary 0:24'],
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------

const deepArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

describe('JSON nested past serde_json limit (128)', () => {
  test('jsonNestingLimitAt: the opener of level 128, outside strings; -1 below it', () => {
    assert.equal(JSON_NESTING_LIMIT, 128);
    assert.equal(jsonNestingLimitAt(deepArrays(127)), -1, '127 levels: serde_json reads it');
    assert.equal(jsonNestingLimitAt(deepArrays(128)), 127);
    assert.equal(jsonNestingLimitAt('{"a":'.repeat(200) + '1' + '}'.repeat(200)), 127 * 5);
    // Brackets in strings, escaped quotes, stray closers.
    assert.equal(jsonNestingLimitAt(`{"a":"${'['.repeat(300)}"}`), -1);
    assert.equal(jsonNestingLimitAt(`{"a":"\\"${'['.repeat(300)}"}`), -1);
    assert.equal(jsonNestingLimitAt(`{"a":"\\\\"${'['.repeat(127)}`), 9 + 126, 'an escaped backslash ends the string');
    assert.equal(jsonNestingLimitAt(']]]]' + deepArrays(127)), -1);
    assert.equal(jsonNestingLimitAt(`["${'['.repeat(300)}`), -1, 'an unterminated string ends the scan');
  });

  test('a transcript row 4,000 arrays deep: nesting_too_deep on the 128th bracket, and the row is not parsed', () => {
    const row = `{"type":"message","role":"user","content":${deepArrays(4000)}}`;
    const at = row.indexOf('[') + 126; // the row's object is level 1
    const result = validateLine('transcript', row);
    assert.deepEqual(result.problems, [
      {
        startCharacter: at,
        endCharacter: at + 1,
        code: 'nesting_too_deep',
        severity: 'error',
        message:
          'JSON nesting limit (128) exceeded here: Harn reads each transcript row with serde_json, which refuses arrays and objects nested 128 deep ("recursion limit exceeded"), so it cannot read it. Flatten the value, or store it as a JSON string.',
      },
    ]);
    assert.equal(result.summary.shape, 'malformed');
    assert.equal(validateLine('eventLog', row).problems[0]?.message, nestingLimitMessage('each event'));
    assert.equal(validateLine('jsonl', deepArrays(128)).problems[0]?.startCharacter, 127);
    assert.deepEqual(validateLine('jsonl', deepArrays(127)).problems, [], '127 levels are read');
  });

  test('the string under the cursor of a row 200,000 arrays deep (a hover, a directive range): none, without a stack overflow', () => {
    const row = `{"type":"message","role":"user","content":${deepArrays(200_000)}}`;
    assert.equal(stringAtCharacter(row, row.indexOf('[') + 100_000), undefined);
    assert.equal(stringNodeAt(row, ['content']), undefined);
    const shallow = `{"type":"message","content":[["deep enough"]]}`;
    assert.equal(stringAtCharacter(shallow, shallow.indexOf('deep'))?.value, 'deep enough');
  });

  test('a deep row that is also cut off (jsonc-parser would overflow finding the error) is nesting_too_deep', () => {
    const row = `{"type":"tool_call","a":${'['.repeat(100_000)}`;
    assert.deepEqual(
      validateLine('transcript', row).problems.map((p) => `${p.code} ${p.startCharacter}`),
      [`nesting_too_deep ${row.indexOf('[') + 126}`],
    );
  });

  test('in a whole transcript, the problem is on its row and the other rows are validated', () => {
    const ok = '{"type":"x"}';
    const text = [ok, `{"type":"x","v":${deepArrays(4000)}}`, ok, ''].join('\n');
    const problems = validateArtifact('transcript', text).problems.filter((p) => p.code !== 'unknown_row_type' && p.code !== 'incomplete_source');
    assert.deepEqual(
      problems.map((p) => `${p.line}:${p.startCharacter}-${p.endLine}:${p.endCharacter} ${p.code}`),
      [`1:${16 + 126}-1:${16 + 127} nesting_too_deep`],
    );
  });

  test('run.json 4,000 arrays deep (8 KB): nesting_too_deep on its line and character, nothing thrown', () => {
    const text = deepArrays(4000);
    const expected = [
      {
        line: 0,
        startCharacter: 127,
        endLine: 0,
        endCharacter: 128,
        code: 'nesting_too_deep',
        severity: 'error',
        message:
          'JSON nesting limit (128) exceeded here: Harn reads run records with serde_json, which refuses arrays and objects nested 128 deep ("recursion limit exceeded"), so it cannot read it. Flatten the value, or store it as a JSON string.',
      },
    ];
    assert.deepEqual(parseRunRecord(text).problems, expected);
    assert.equal(parseRunRecord(text).value, undefined);
    const file = path.join(tree({ 'run.json': text }), 'run.json');
    assert.deepEqual(verifyRunRecord(file, text), expected);
    const multiline = `{\n  "_type": "run_record",\n  "stages": ${deepArrays(4000)}\n}\n`;
    assert.deepEqual(
      parseRunRecord(multiline).problems.map((p) => `${p.line}:${p.startCharacter} ${p.code}`),
      [`2:${'  "stages": '.length + 126} nesting_too_deep`],
    );
  });

  test('a deep run record is still recognised as one (by name, or by a `_type` before the deep part)', () => {
    assert.equal(isRunRecord('run.json', deepArrays(4000)), true);
    assert.equal(isRunRecord('x.json', `{"_type":"run_record","v":${deepArrays(4000)}}`), true);
    assert.equal(isRunRecord('x.json', `{"_type":"other","v":${deepArrays(4000)},"w":"\\"_type\\":\\"run_record\\""}`), false);
  });

  test('the transcript rescan behind a run record: a deep row is malformed_jsonl in serde_json words', () => {
    const text = `{"type":"x","id":"a"}\n{"type":"x","v":${deepArrays(300)}}\n{"type":"x","id":"c"}\n`;
    const facts = transcriptFacts(new TextEncoder().encode(text));
    assert.deepEqual(facts.error, {
      kind: 'malformed_jsonl',
      message: `line 2 is not JSON: recursion limit exceeded at column ${16 + 127} (serde_json's nesting limit of 128)`,
      line: 2,
    });
    assert.equal(facts.event_count, 1, 'upstream stops at the first malformed row');
  });

  test('a tool_schemas row with a numeric hash and a deep value (its hash was read with jsonc-parser) in the rescan', () => {
    const text = `{"type":"tool_schemas","hash":12345678901234567890,"v":${deepArrays(100_000)}}\n`;
    assert.equal(transcriptFacts(new TextEncoder().encode(text)).error?.kind, 'malformed_jsonl');
  });

  test('what JSON.parse reads 100,000 deep (V8 parses iteratively): zod, hover, outline and messages answer', () => {
    const deep: unknown = JSON.parse(deepArrays(100_000));
    const deepObject: unknown = JSON.parse('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000));
    for (const [type, schema] of [...TRANSCRIPT_ROW_SCHEMAS, ...EVENT_ROW_SCHEMAS]) {
      for (const value of [deep, deepObject]) {
        const row = { type, content: value, arguments: value, payload: value, x: value, role: value, hash: value };
        assert.equal(typeof schema.safeParse(row).success, 'boolean', type);
        const hover = rowHover(row, { line: 0, kind: 'transcript', partner: () => undefined, lineLink: (l) => `file:///t#L${l + 1}` });
        assert.equal(typeof hover, 'string', type);
      }
    }
    assert.equal(describeValue(deep), 'an array');
    assert.equal(artifactOutline([{ line: 0, row: { type: 'message', role: 'user', content: deep } }], 'transcript').length, 1);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('registry TOML nested past 128 levels', () => {
  const ENTRY = '[[boundary]]\nid = "a"\ntitle = "A"\n';
  const MESSAGE = 'TOML syntax error: values nested more than 128 levels deep (arrays, inline tables and dotted keys together); the registry needs 3 at most';

  test('10,000 nested arrays: one toml_syntax on the 128th bracket (the parser recursed into a stack overflow at offset 0)', () => {
    assert.equal(TOML_NESTING_LIMIT, 128);
    const text = `${ENTRY}x = ${deepArrays(10_000)}\n`;
    const at = text.indexOf('[', ENTRY.length) + 127;
    assert.deepEqual(parseRegistry(text).problems, [{ code: 'toml_syntax', message: MESSAGE, range: { start: at, end: at + 1 } }]);
    const inline = `${ENTRY}x = ${'{a = '.repeat(10_000)}1${'}'.repeat(10_000)}\n`;
    const inlineAt = inline.indexOf('{') + 127 * 5;
    assert.deepEqual(parseRegistry(inline).problems, [{ code: 'toml_syntax', message: MESSAGE, range: { start: inlineAt, end: inlineAt + 1 } }]);
  });

  test('dotted keys and table headers count too, reported on the key', () => {
    const dotted = `${ENTRY}${'a.'.repeat(10_000)}b = 1\n`;
    assert.deepEqual(parseRegistry(dotted).problems, [{ code: 'toml_syntax', message: MESSAGE, range: { start: ENTRY.length, end: ENTRY.length + 1 } }]);
    const header = `${ENTRY}[${'a.'.repeat(200)}b]\nc = 1\n`;
    assert.deepEqual(parseRegistry(header).problems, [{ code: 'toml_syntax', message: MESSAGE, range: { start: ENTRY.length + 1, end: ENTRY.length + 2 } }]);
  });

  test('below the limit, and brackets in strings or comments, parse as before', () => {
    assert.equal(parseRegistry(`${ENTRY}drops = ${deepArrays(127)}\n`).parsed, true);
    const quoted = `${ENTRY}drops = "${'['.repeat(300)}"\nnotes = '''${'{'.repeat(300)}'''\n# ${'['.repeat(300)}\n`;
    const registry = parseRegistry(quoted);
    assert.equal(registry.parsed, true);
    assert.deepEqual(
      registry.problems.filter((p) => p.code === 'toml_syntax'),
      [],
    );
    assert.equal(registry.boundaries[0]?.drops?.value, '['.repeat(300));
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('re-exports followed once per module', () => {
  test('six `pub import "./a"` in a.harn itself: one load per lookup, not 12 million', () => {
    const text = 'pub import "./a"\n'.repeat(6) + 'let y = nothere\n';
    const analysis = new HarnAnalysis(text);
    let loads = 0;
    const host: ModuleHost = {
      resolveImport: () => '/w/a.harn',
      load: () => {
        loads++;
        return analysis;
      },
    };
    assert.equal(definitionAt(analysis, '/w/a.harn', text.indexOf('nothere') + 2, host), undefined);
    assert.equal(loads, 1);
  });

  test('a name re-exported through several modules is still found, at the depth it is', () => {
    const files: Record<string, HarnAnalysis> = {
      '/w/a.harn': new HarnAnalysis('pub import "./b"\npub import "./c"\n'),
      '/w/b.harn': new HarnAnalysis('pub import "./c"\npub import "./a"\n'),
      '/w/c.harn': new HarnAnalysis('pub import "./d"\n'),
      '/w/d.harn': new HarnAnalysis('pub fn target() {}\n'),
    };
    const host: ModuleHost = { resolveImport: (_from, p) => `/w/${p.slice(2)}.harn`, load: (f) => files[f] };
    const found = findExported(host, '/w/a.harn', 'target', 0);
    assert.deepEqual({ file: found?.file, name: found?.binding.name }, { file: '/w/d.harn', name: 'target' });
  });
});

// ---------------------------------------------------------------------------------------------------------------

const GATE_FILES: Record<string, string> = {
  'scripts/loud_boundaries.toml': '[[boundary]]\nid = "a_b"\ntitle = "A"\nanchors = ["crates/vm/site.rs"]\ntest = "crates/vm/site.rs"\n',
  'crates/harn-vm/src/boundary.rs':
    'pub enum BoundaryId { AB }\nimpl BoundaryId {\n    pub fn as_str(self) -> &\'static str {\n        match self {\n            Self::AB => "a_b",\n        }\n    }\n}\n',
  'crates/vm/site.rs': 'fn f() { report(BoundaryId::AB); } // a_b\n',
  'crates/bad.harn': 'let r = {boundary: "a_b"}\n',
  'crates/other.harn': 'let r = {boundary: "nope"}\n',
};

/** A failure injected into one file's scan (the editor's gate builds its own BoundaryGateWorkspace). */
function failingScans(file: string): () => void {
  type ScanText = (this: BoundaryGateWorkspace, relative: string, text: string) => FileScan;
  const prototype = BoundaryGateWorkspace.prototype as unknown as { scanText: ScanText };
  const original = prototype.scanText;
  prototype.scanText = function (relative, text) {
    if (relative === file) throw new RangeError('Maximum call stack size exceeded');
    return original.call(this, relative, text);
  };
  return () => {
    prototype.scanText = original;
  };
}

describe('one bad file never takes down the others', () => {
  test('the editor: the gate still publishes every other file, the failure is on its file, logged at error level', async () => {
    const root = tree(GATE_FILES);
    const published = new Map<string, PublishDiagnosticsParams>();
    const connection = {
      sendDiagnostics: (params: PublishDiagnosticsParams) => {
        published.set(params.uri, params);
        return Promise.resolve();
      },
    } as unknown as Connection;
    const documents = new TextDocuments(TextDocument);
    const infos: string[] = [];
    const errors: string[] = [];
    const provider = new BoundaryProvider(
      documents,
      new DiagnosticsStore(connection),
      new HarnWorkspace(documents, () => [root]),
      (m) => infos.push(m),
      (m) => errors.push(m),
    );
    const restore = failingScans('crates/bad.harn');
    try {
      // The gate runs in slices between requests: the run is done when start's promise settles.
      const defaults = readSettings(undefined).settings;
      await provider.configure([{ root, settings: defaults }]);
    } finally {
      restore();
    }
    const summary = (file: string): string[] =>
      (published.get(pathToUri(path.join(root, file)))?.diagnostics ?? []).map(
        (d) =>
          `${String(d.code)} ${String(d.severity)} ${d.range.start.line}:${d.range.start.character} ${typeof d.message === 'string' ? d.message : d.message.value}`,
      );
    assert.deepEqual(summary('crates/bad.harn'), [
      "internal_error 1 0:0 scanning this file for boundary sites failed (RangeError: Maximum call stack size exceeded), a bug in Harn Workbench: the gate checked every other file, without this file's sites",
    ]);
    assert.deepEqual(summary('crates/other.harn'), ['unknown_boundary 1 0:19 nope: reports boundary `nope`, which is not in the registry']);
    assert.equal(errors.length, 1);
    assert.match(
      defined(errors[0]),
      /^loud-boundary gate: scanning crates\/bad\.harn failed \(the other files were checked\): RangeError: Maximum call stack size exceeded\n {4}at /,
    );
    assert.equal(infos.filter((m) => m.includes('failed')).length, 0);
  });

  test('check: the failing file gets an internal_error, every other file is checked, exit 1', () => {
    const root = tree({ ...GATE_FILES, 'src/ok.harn': 'let x = 1\n', 'src/broken.harn': 'let = 1\n', 'src/fails.harn': 'let y = 2\n' });
    const original = FILE_CHECKS.harn;
    FILE_CHECKS.harn = (file, r) => {
      if (file.endsWith('fails.harn')) throw new TypeError('injected');
      return original(file, r);
    };
    const out: string[] = [];
    const err: string[] = [];
    const stdout = process.stdout.write.bind(process.stdout);
    const stderr = process.stderr.write.bind(process.stderr);
    process.stdout.write = (chunk: string | Uint8Array): boolean => out.push(String(chunk)) > 0;
    process.stderr.write = (chunk: string | Uint8Array): boolean => err.push(String(chunk)) > 0;
    let status: number;
    try {
      status = main(['check', '--root', root, '--format', 'json']);
    } finally {
      process.stdout.write = stdout;
      process.stderr.write = stderr;
      FILE_CHECKS.harn = original;
    }
    assert.equal(status, 1);
    const diagnostics = (JSON.parse(out.join('')) as { diagnostics: JsonDiagnostic[] }).diagnostics;
    assert.deepEqual(
      diagnostics.map((d) => `${d.path} ${d.source} ${d.code} ${d.severity}`),
      [
        'crates/bad.harn harn.boundaries unregistered_site error',
        'crates/other.harn harn.boundaries unknown_boundary error',
        'src/broken.harn harn.syntax syntax_error error',
        'src/fails.harn harn.workbench internal_error error',
      ],
    );
    assert.deepEqual(defined(diagnostics.at(-1)), {
      path: 'src/fails.harn',
      range: range(0, 0, 0),
      severity: 'error',
      source: 'harn.workbench',
      code: 'internal_error',
      message:
        'Harn Workbench could not finish the Harn checks of this file (TypeError: injected): a bug in Harn Workbench, not in the file. Its other checks and the other files were still checked; details are in the error output.',
    });
    assert.match(
      err.join(''),
      /^harn-workbench: internal error while checking .*fails\.harn \(the other files are still checked\): TypeError: injected\n {4}at /,
    );
  });
});
