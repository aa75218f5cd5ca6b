// `harn-workbench check-loud-boundaries` (and the gate inside `check`) as a process: dist/cli.js on
// examples/demo (clean) and examples/drift (every finding kind once), in every output format, with the
// --registry/--funnel overrides, the refusals, and the usage and I/O errors (exit 2).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LineIndex } from '../../server/src/text/lineIndex';
import { defined } from '../support/assertions';
import type { FileDiagnostic } from '../../server/src/report/format';

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const DEMO = path.join(REPO, 'examples', 'demo');
const DRIFT = path.join(REPO, 'examples', 'drift');
const REGISTRY = 'scripts/loud_boundaries.toml';
const FUNNEL = 'crates/harn-vm/src/boundary.rs';

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (no shell; argument array). Runs are started eagerly and may overlap: tests await them. */
function cli(args: string[], cwd = REPO): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error && typeof error.code === 'number' ? error.code : error ? null : 0;
      resolve({ status: code, stdout, stderr });
    });
  });
}

const HINT =
  'hint: a boundary that can drop model output must report through crate::boundary::BoundaryFailure and be listed in scripts/loud_boundaries.toml. See the header of that file for the checklist.';

/** examples/drift in upstream's order: kind, id, the path upstream prints, and what the editor range covers. */
const DRIFT_FINDINGS: Array<{ kind: string; id: string; path: string; shownIn: string; covers: string }> = [
  { kind: 'duplicate_entry', id: 'response_content_extraction', path: REGISTRY, shownIn: REGISTRY, covers: '"response_content_extraction"' },
  { kind: 'invalid_entry', id: '', path: REGISTRY, shownIn: REGISTRY, covers: '[[boundary]]' },
  { kind: 'unregistered_boundary', id: 'stream_truncate', path: FUNNEL, shownIn: FUNNEL, covers: 'StreamTruncate' },
  { kind: 'orphan_entry', id: 'legacy_html_strip', path: REGISTRY, shownIn: REGISTRY, covers: '"legacy_html_strip"' },
  { kind: 'inert_test', id: 'chat_turn_cap', path: 'conformance/tests/chat_events.harn', shownIn: REGISTRY, covers: '"conformance/tests/chat_events.harn"' },
  { kind: 'no_anchor', id: 'host_event_ingest', path: REGISTRY, shownIn: REGISTRY, covers: 'anchors = []' },
  {
    kind: 'unregistered_site',
    id: 'host_event_ingest',
    path: 'crates/harn-vm/src/agent_events/from_host.rs',
    shownIn: 'crates/harn-vm/src/agent_events/from_host.rs',
    covers: 'HostEventIngest',
  },
  { kind: 'stale_entry', id: 'visible_text_sanitize', path: REGISTRY, shownIn: REGISTRY, covers: '"visible_text_sanitize"' },
  { kind: 'no_test', id: 'visible_text_sanitize', path: REGISTRY, shownIn: REGISTRY, covers: '"visible_text_sanitize"' },
  {
    kind: 'missing_anchor',
    id: 'provider_admission_gate',
    path: 'crates/harn-vm/src/llm/admission_wait.rs',
    shownIn: REGISTRY,
    covers: '"crates/harn-vm/src/llm/admission_wait.rs"',
  },
  { kind: 'path_outside_root', id: 'provider_admission_gate', path: '../outside.rs', shownIn: REGISTRY, covers: '"../outside.rs"' },
  {
    kind: 'missing_test',
    id: 'text_tool_parse',
    path: 'conformance/tests/text_tool_parse.harn',
    shownIn: REGISTRY,
    covers: '"conformance/tests/text_tool_parse.harn"',
  },
  {
    kind: 'unknown_boundary',
    id: 'chat_turn_capp',
    path: 'crates/harn-stdlib/src/stdlib/agent/chat_summary.harn',
    shownIn: 'crates/harn-stdlib/src/stdlib/agent/chat_summary.harn',
    covers: '"chat_turn_capp"',
  },
  {
    kind: 'missing_audited_anchor',
    id: 'agent_loop_budget',
    path: 'crates/harn-stdlib/src/stdlib/agent/loop_turn_options.harn',
    shownIn: REGISTRY,
    covers: '"crates/harn-stdlib/src/stdlib/agent/loop_turn_options.harn"',
  },
  {
    kind: 'audited_event_gone',
    id: 'agent_loop_stall',
    path: 'crates/harn-stdlib/src/stdlib/agent/stall_observation.harn',
    shownIn: REGISTRY,
    covers: '"crates/harn-stdlib/src/stdlib/agent/stall_observation.harn"',
  },
];

const UPSTREAM_MESSAGES: Record<string, string> = {
  duplicate_entry: 'registered twice',
  invalid_entry: 'a [[boundary]] entry has no `id`',
  unregistered_boundary: 'BoundaryId::StreamTruncate has no [[boundary]] entry',
  orphan_entry: 'no BoundaryId variant maps to this id',
  inert_test: 'test file never mentions `chat_turn_cap`',
  no_anchor: 'entry declares no `anchors`',
  unregistered_site: 'constructs `host_event_ingest` but is not one of its registered anchors',
  stale_entry: 'no file constructs this boundary any more',
  no_test: 'entry declares no `test`',
  missing_anchor: 'anchor file does not exist',
  path_outside_root: 'refused: `../outside.rs` leaves the repository root',
  missing_test: 'test file does not exist',
  unknown_boundary: 'reports boundary `chat_turn_capp`, which is not in the registry',
  missing_audited_anchor: 'audited anchor file does not exist',
  audited_event_gone: 'no longer contains `agent_loop_stall_warning` — the boundary may have gone silent',
};

/** What `--format json` prints per diagnostic: the CLI's own type. */
type JsonDiagnostic = FileDiagnostic;

/** The text a 0-based line/UTF-16 character range covers in a file under the root. */
function covered(root: string, d: JsonDiagnostic): string {
  const index = new LineIndex(fs.readFileSync(path.join(root, d.path), 'utf8'));
  return index.text.slice(index.offsetAt(d.range.start), index.offsetAt(d.range.end));
}

describe('check-loud-boundaries', () => {
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test builds first)'));

  test('examples/demo: exit 0 and the OK line on stdout', async () => {
    const { status, stdout, stderr } = await cli(['check-loud-boundaries', '--root', DEMO]);
    assert.equal(status, 0, stderr);
    assert.equal(stdout, 'loud-boundary registry OK (2 funnelled boundary(ies), 1 audited)\n');
    assert.equal(stderr, '');
  });

  test("examples/drift, text: upstream's report on stderr, each kind once, exit 1", async () => {
    const { status, stdout, stderr } = await cli(['check-loud-boundaries', '--root', 'examples/drift']);
    assert.equal(status, 1);
    assert.equal(stdout, '');
    const expected = [
      `::error::loud-boundary registry failed (${DRIFT_FINDINGS.length} finding(s)):`,
      ...DRIFT_FINDINGS.map((f) => `  [${f.kind}] ${f.id} @ ${f.path}: ${UPSTREAM_MESSAGES[f.kind]}`),
      HINT,
      '',
    ].join('\n');
    assert.equal(stderr, expected);
    assert.equal(new Set(DRIFT_FINDINGS.map((f) => f.kind)).size, 15, 'every kind exactly once');
  });

  test('examples/drift, json: the DESIGN.md shape, paths relative to --root, 0-based UTF-16 ranges on the right text', async () => {
    const { status, stdout } = await cli(['check-loud-boundaries', '--root', DRIFT, '--format', 'json'], os.tmpdir());
    assert.equal(status, 1);
    const parsed = JSON.parse(stdout) as { version: number; diagnostics: JsonDiagnostic[] };
    assert.deepEqual(Object.keys(parsed), ['version', 'diagnostics']);
    assert.equal(parsed.version, 1);
    assert.equal(parsed.diagnostics.length, DRIFT_FINDINGS.length);
    parsed.diagnostics.forEach((d, i) => {
      const want = defined(DRIFT_FINDINGS[i], `finding ${i}`);
      assert.deepEqual(Object.keys(d).sort(), ['code', 'data', 'message', 'path', 'range', 'severity', 'source']);
      assert.equal(d.path, want.shownIn);
      assert.equal(d.severity, 'error');
      assert.equal(d.source, 'harn.boundaries');
      assert.equal(d.code, want.kind);
      assert.deepEqual(d.data, { id: want.id, kind: want.kind, path: want.path });
      assert.ok(d.message.includes(defined(UPSTREAM_MESSAGES[want.kind], `upstream's message for ${want.kind}`)), d.message);
      assert.equal(covered(DRIFT, d), want.covers, `${want.kind}: ${JSON.stringify(d.range)}`);
    });
    // Two spot checks of the numbers themselves (the registry's line 72; the .harn id on line 6, column 17).
    assert.deepEqual(defined(parsed.diagnostics[0], 'diagnostic 0').range, { start: { line: 71, character: 5 }, end: { line: 71, character: 34 } });
    assert.deepEqual(defined(parsed.diagnostics[12], 'diagnostic 12').range.start, { line: 5, character: 16 });
  });

  test('examples/drift, github: one ::error workflow command per finding, 1-based', async () => {
    const [jsonRun, { status, stdout }] = await Promise.all([
      cli(['check-loud-boundaries', '--root', DRIFT, '--format', 'json']),
      cli(['check-loud-boundaries', '--root', DRIFT, '--format', 'github']),
    ]);
    const json = JSON.parse(jsonRun.stdout) as { diagnostics: JsonDiagnostic[] };
    assert.equal(status, 1);
    const lines = stdout.trimEnd().split('\n');
    assert.equal(lines.length, DRIFT_FINDINGS.length);
    lines.forEach((line, i) => {
      const d = defined(json.diagnostics[i], `diagnostic ${i}`);
      const props = [
        `file=${d.path}`,
        `line=${d.range.start.line + 1}`,
        `col=${d.range.start.character + 1}`,
        `endLine=${d.range.end.line + 1}`,
        `endColumn=${d.range.end.character + 1}`,
        `title=harn.boundaries/${defined(DRIFT_FINDINGS[i], `finding ${i}`).kind}`,
      ].join(',');
      assert.equal(line, `::error ${props}::${d.message}`);
    });
    assert.equal(
      lines[1],
      '::error file=scripts/loud_boundaries.toml,line=77,col=1,endLine=77,endColumn=13,title=harn.boundaries/invalid_entry::a [[boundary]] entry has no `id`',
    );
  });

  test('examples/drift, sarif: 2.1.0, one result per finding, ruleId harn.boundaries/<kind>', async () => {
    const { status, stdout } = await cli(['check-loud-boundaries', '--root', DRIFT, '--format', 'sarif']);
    assert.equal(status, 1);
    const sarif = JSON.parse(stdout) as {
      version: string;
      runs: Array<{
        tool: { driver: { rules: Array<{ id: string }> } };
        results: Array<{
          ruleId: string;
          ruleIndex: number;
          level: string;
          locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
        }>;
      }>;
    };
    assert.equal(sarif.version, '2.1.0');
    const run = defined(sarif.runs[0], 'the run');
    assert.deepEqual(
      run.results.map((r) => r.ruleId),
      DRIFT_FINDINGS.map((f) => `harn.boundaries/${f.kind}`),
    );
    assert.equal(run.tool.driver.rules.length, 15);
    for (const [i, r] of run.results.entries()) {
      assert.equal(defined(run.tool.driver.rules[r.ruleIndex], `rule ${r.ruleIndex}`).id, r.ruleId);
      assert.equal(r.level, 'error');
      assert.equal(defined(r.locations[0], `result ${i}'s location`).physicalLocation.artifactLocation.uri, defined(DRIFT_FINDINGS[i], `finding ${i}`).shownIn);
    }
  });

  describe('overrides, refusals and errors', () => {
    let scratch: string;
    before(() => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cli-gate-'));
    });
    after(() => fs.rmSync(scratch, { recursive: true, force: true }));

    /** examples/demo copied, then changed. */
    function demoCopy(name: string, change: (root: string) => void = () => {}): string {
      const root = path.join(scratch, name);
      fs.cpSync(DEMO, root, { recursive: true });
      change(root);
      return root;
    }

    test('--registry and --funnel point the gate at other files (the configured funnel is exempt)', async () => {
      const root = demoCopy('moved', (r) => {
        fs.mkdirSync(path.join(r, 'config'));
        fs.renameSync(path.join(r, REGISTRY), path.join(r, 'config/boundaries.toml'));
        fs.renameSync(path.join(r, FUNNEL), path.join(r, 'crates/harn-vm/src/ids.rs'));
        // A mention in the funnel itself must stay exempt under its new name.
        fs.appendFileSync(path.join(r, 'crates/harn-vm/src/ids.rs'), '\npub const FIRST: BoundaryId = BoundaryId::ChatTurnCap;\n');
      });
      const [ok, missing] = await Promise.all([
        cli(['check-loud-boundaries', '--root', root, '--registry', 'config/boundaries.toml', '--funnel=crates/harn-vm/src/ids.rs']),
        cli(['check-loud-boundaries', '--root', root]),
      ]);
      assert.equal(ok.status, 0, ok.stderr);
      assert.equal(ok.stdout, 'loud-boundary registry OK (2 funnelled boundary(ies), 1 audited)\n');
      assert.equal(missing.status, 2);
      assert.equal(missing.stderr, 'harn-workbench: missing scripts/loud_boundaries.toml\n');
      // The hint names the registry in use.
      fs.appendFileSync(
        path.join(root, 'config/boundaries.toml'),
        '\n[[boundary]]\nid = "chat_turn_cap"\nanchors = ["crates/harn-stdlib/src/stdlib/agent/chat.harn"]\ntest = "conformance/tests/boundary_events.harn"\n',
      );
      const dup = await cli(['check-loud-boundaries', '--root', root, '--registry', 'config/boundaries.toml', '--funnel', 'crates/harn-vm/src/ids.rs']);
      assert.equal(dup.status, 1);
      assert.equal(
        dup.stderr,
        '::error::loud-boundary registry failed (1 finding(s)):\n  [duplicate_entry] chat_turn_cap @ config/boundaries.toml: registered twice\n' +
          'hint: a boundary that can drop model output must report through crate::boundary::BoundaryFailure and be listed in config/boundaries.toml. See the header of that file for the checklist.\n',
      );
    });

    test('exit 2: a missing registry, a missing funnel, a --root that is not a folder, an unknown option, a path out of the root', async () => {
      const empty = path.join(scratch, 'empty');
      fs.mkdirSync(empty);
      const cases: Array<[string[], RegExp]> = [
        [['check-loud-boundaries', '--root', empty], /^harn-workbench: missing scripts\/loud_boundaries\.toml\n$/],
        [
          ['check-loud-boundaries', '--root', demoCopy('nofunnel', (r) => fs.rmSync(path.join(r, FUNNEL)))],
          /^harn-workbench: missing the funnel definition crates\/harn-vm\/src\/boundary\.rs\n$/,
        ],
        [['check-loud-boundaries', '--root', path.join(scratch, 'nope')], /^harn-workbench: --root is not a folder: /],
        [['check-loud-boundaries', '--root', path.join(DEMO, REGISTRY)], /^harn-workbench: --root is not a folder: /],
        [
          ['check-loud-boundaries', '--root', DEMO, '--frobnicate'],
          /^harn-workbench: unknown option --frobnicate\n\nUsage:|^harn-workbench: unknown option --frobnicate\n/,
        ],
        [['check-loud-boundaries', '--root', DEMO, '--format', 'xml'], /--format must be one of text, json, github, sarif, not xml/],
        [['check-loud-boundaries', '--root'], /--root needs a value/],
        [['check-loud-boundaries', 'examples/demo'], /takes no paths/],
        [
          ['check-loud-boundaries', '--root', DEMO, '--registry', '../loud_boundaries.toml'],
          /refused: `\.\.\/loud_boundaries\.toml` leaves the repository root/,
        ],
      ];
      const results = await Promise.all(cases.map(([args]) => cli(args)));
      for (const [i, [args, stderr]] of cases.entries()) {
        const r = defined(results[i], `the result of ${args.join(' ')}`);
        assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, stderr, args.join(' '));
        assert.equal(r.stdout, '');
      }
    });

    test("the gate refuses to run: upstream's ::error:: line on stderr, exit 1", async () => {
      const vacuous = demoCopy('vacuous', (r) => {
        const funnel = path.join(r, FUNNEL);
        fs.writeFileSync(funnel, fs.readFileSync(funnel, 'utf8').replace(/Self::(\w+) => "\w+",/g, 'Self::$1 => todo!(),'));
      });
      const broken = demoCopy('broken', (r) => fs.appendFileSync(path.join(r, REGISTRY), '\n[[boundary]\n'));
      const [v, b, brokenJson] = await Promise.all([
        cli(['check-loud-boundaries', '--root', vacuous]),
        cli(['check-loud-boundaries', '--root', broken]),
        cli(['check-loud-boundaries', '--root', broken, '--format', 'json']),
      ]);
      assert.equal(v.status, 1);
      assert.equal(v.stderr, `::error::could not read any \`Self::Variant => "wire"\` arms from ${FUNNEL}; the gate would pass vacuously\n`);
      assert.equal(b.status, 1);
      assert.match(b.stderr, /^::error::failed to parse scripts\/loud_boundaries\.toml: TOML syntax error: .+\n$/);
      const json = JSON.parse(brokenJson.stdout) as { diagnostics: JsonDiagnostic[] };
      assert.deepEqual(
        json.diagnostics.map((d) => [d.path, d.code]),
        [[REGISTRY, 'toml_syntax']],
      );
    });
  });
});

describe('check includes the gate', () => {
  test("check --root examples/drift --format json: the gate's diagnostics beside the .harn checks", async () => {
    const { status, stdout } = await cli(['check', '--root', 'examples/drift', '--format', 'json']);
    assert.equal(status, 1);
    const parsed = JSON.parse(stdout) as { version: number; diagnostics: JsonDiagnostic[] };
    assert.equal(parsed.version, 1);
    const gate = parsed.diagnostics.filter((d) => d.source === 'harn.boundaries' && d.severity === 'error');
    assert.deepEqual(gate.map((d) => d.code).sort(), DRIFT_FINDINGS.map((f) => f.kind).sort());
    for (const d of gate) assert.ok(!path.isAbsolute(d.path) && !d.path.includes('\\'), d.path);
    // The drift example's .harn files are otherwise clean.
    assert.deepEqual(
      parsed.diagnostics.filter((d) => d.source !== 'harn.boundaries'),
      [],
    );
  });

  test('check on examples/demo: no gate finding (exit 1 only for the deliberately broken run)', async () => {
    const { status, stdout } = await cli(['check', '--root', DEMO]);
    assert.equal(status, 1, stdout);
    assert.match(stdout, /; gate on examples\/demo: 0 findings; other: /);
    const located = stdout.split('\n').filter((l) => /^\S+:\d+:\d+: /.test(l));
    // Every located line is the broken run's: its file, 1-based position, severity and code (messages in cliArtifacts.test.ts).
    assert.deepEqual(
      located.map((l) => l.slice(0, l.indexOf(']') + 1)),
      [
        'runs/broken/event_log.jsonl:7:1: warning [harn.artifacts/boundary_failure]',
        'runs/broken/event_log.jsonl:8:2: warning [harn.artifacts/event_index_gap]',
        'runs/broken/event_log.jsonl:9:2: warning [harn.artifacts/event_index_duplicate]',
        'runs/broken/event_log.jsonl:10:311: error [harn.artifacts/unreported_boundary_failure]',
        'runs/broken/run-llm/llm_transcript-empty.jsonl:1:1: warning [harn.artifacts/empty_transcript]',
        'runs/broken/run-llm/llm_transcript-latin1.jsonl:2:201: error [harn.artifacts/invalid_utf8]',
        'runs/broken/run-llm/llm_transcript-unfinished.jsonl:6:1: warning [harn.artifacts/incomplete_source]',
        'runs/broken/run-llm/llm_transcript.jsonl:8:162: warning [harn.artifacts/unpaired_tool_call]',
        'runs/broken/run-llm/llm_transcript.jsonl:11:138: error [harn.artifacts/duplicate_tool_result_receipt]',
        'runs/broken/run-llm/llm_transcript.jsonl:12:138: error [harn.artifacts/unbound_tool_result_receipt]',
        'runs/broken/run-llm/llm_transcript.jsonl:14:152: error [harn.artifacts/malformed_jsonl]',
        'runs/broken/run-llm/llm_transcript.jsonl:15:2: information [harn.artifacts/unknown_row_type]',
        'runs/broken/run-llm/llm_transcript.jsonl:16:76: error [harn.artifacts/invalid_row]',
        'runs/broken/run-llm/llm_transcript.jsonl:19:1: warning [harn.artifacts/row_after_terminal]',
        // The projector stops at the first pointer's first descriptor error (upstream's order): it says so on the pointer.
        'runs/broken/run.json:49:7: information [harn.training/unverified_descriptor]',
        'runs/broken/run.json:56:32: warning [harn.artifacts/unverified_descriptor]',
        'runs/broken/run.json:69:23: error [harn.artifacts/missing_descriptor]',
        'runs/broken/run.json:81:29: error [harn.artifacts/schema_mismatch]',
        'runs/broken/run.json:111:28: error [harn.artifacts/artifact_kind_mismatch]',
        'runs/broken/run.json:141:21: error [harn.artifacts/run_id_mismatch]',
        'runs/broken/run.json:173:28: error [harn.artifacts/path_traversal]',
        'runs/broken/run.json:201:19: error [harn.artifacts/missing_path]',
        'runs/broken/run.json:231:28: error [harn.artifacts/unavailable]',
        'runs/broken/run.json:260:28: error [harn.artifacts/invalid_utf8]',
        'runs/broken/run.json:289:28: error [harn.artifacts/malformed_jsonl]',
        'runs/broken/run.json:318:28: error [harn.artifacts/empty_transcript]',
        'runs/broken/run.json:348:21: error [harn.artifacts/digest_mismatch]',
        'runs/broken/run.json:378:23: error [harn.artifacts/byte_len_mismatch]',
        'runs/broken/run.json:408:26: error [harn.artifacts/event_count_mismatch]',
        'runs/broken/run.json:442:23: error [harn.artifacts/completeness_mismatch]',
        // runs/directives/README.md: one of each directive problem.
        'runs/controls/run_control.jsonl:25:1: error [harn.runControl/SEQUENCE_NOT_INCREASING]',
        'runs/controls/run_control.jsonl:30:1: error [harn.runControl/TRANSITION_AFTER_TERMINAL]',
        'runs/controls/run_control.jsonl:34:1: error [harn.runControl/APPLIED_BEFORE_ACCEPTED]',
        'runs/controls/run_control.jsonl:38:1: error [harn.runControl/APPLIED_BEFORE_ACCEPTED]',
        'runs/controls/run_control.jsonl:44:1: error [harn.runControl/DUPLICATE_REQUEST]',
        'runs/controls/run_control.jsonl:49:1: error [harn.runControl/STALE_TURN]',
        'runs/controls/run_control.jsonl:54:1: error [harn.runControl/RUN_CLOSED_WITH_ACCEPTED]',
        'runs/directives/run-llm/llm_transcript.jsonl:17:1: warning [harn.directives/prefix_break]',
        'runs/directives/run-llm/llm_transcript.jsonl:23:803: warning [harn.directives/directive_reissued]',
        'runs/directives/run-llm/llm_transcript.jsonl:31:500: warning [harn.directives/nonce_mismatch]',
        'runs/directives/run-llm/llm_transcript.jsonl:34:1: error [harn.directives/withdrawn_turn_not_restated]',
        // runs/training/README.md: three runs that cannot be exported as training examples, each for its own reason.
        'runs/training/edited/run.json:56:9: information [harn.training/digest_mismatch]',
        'runs/training/edited/run.json:63:21: error [harn.artifacts/digest_mismatch]',
        'runs/training/mispaired.training.json:44:5: error [harn.training/unpaired_tool_call]',
        'runs/training/mispaired.training.json:106:3: information [harn.training/unknown_field]',
        'runs/training/outside-catalog/run.json:56:9: information [harn.training/tool_outside_catalog]',
        'runs/training/unfinished/run-llm/llm_transcript.jsonl:12:1: warning [harn.artifacts/incomplete_source]',
        'runs/training/unfinished/run.json:56:9: information [harn.training/incomplete_source]',
      ],
    );
  });
});
