// The gate over a real folder (BoundaryGateWorkspace): which files are scanned (.gitignore honoured,
// untracked files included, exempt paths), what counts as a site (AST and lexer, not text), paths that
// leave the root (refused and never read, proved with a spy), and incremental re-runs (only the
// invalidated file is read again, and the findings follow).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { defined } from '../support/assertions';
import { gateRunDiagnosticList } from '../../server/src/boundaries/diagnostics';
import { renderGateText } from '../../server/src/boundaries/gate';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS, FileScan, GateSettings, refusalReason, TextSource } from '../../server/src/boundaries/workspaceGate';

const REGISTRY = DEFAULT_GATE_SETTINGS.registryPath;
const FUNNEL = DEFAULT_GATE_SETTINGS.funnelPath;

const FUNNEL_TEXT = `pub enum BoundaryId {
    ChatTurnCap,
    TextToolParse,
}

impl BoundaryId {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ChatTurnCap => "chat_turn_cap",
            Self::TextToolParse => "text_tool_parse",
        }
    }
}
`;

const REGISTRY_TEXT = `[[boundary]]
id = "chat_turn_cap"
anchors = ["crates/stdlib/chat.harn"]
test = "tests/chat.harn"

[[boundary]]
id = "text_tool_parse"
anchors = ["crates/vm/parse.rs"]
test = "crates/vm/parse_tests.rs"
`;

const emission = (field: string): string =>
  `pub fn report(session_id: string) {\n  agent_emit_event(session_id, "boundary_failure", {\n    ${field},\n    kind: "capped",\n    detail: "d",\n  })\n}\n`;

const BASE: Record<string, string> = {
  [REGISTRY]: REGISTRY_TEXT,
  [FUNNEL]: FUNNEL_TEXT,
  'crates/stdlib/chat.harn': emission('boundary: "chat_turn_cap"'),
  'crates/vm/parse.rs': 'fn parse() {\n    BoundaryFailure::new(BoundaryId::TextToolParse, "x").report();\n}\n',
  'crates/vm/parse_tests.rs': 'fn t() { let _ = BoundaryId::TextToolParse; } // text_tool_parse\n',
  'tests/chat.harn': '// chat_turn_cap\n',
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-wsgate-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));
let trees = 0;

/** A fresh tree inside its own folder (so `../x` stays in this test's scratch space). */
function makeTree(extra: Record<string, string> = {}, omit: string[] = []): string {
  const root = path.join(scratch, `t${++trees}`, 'repo');
  for (const [rel, text] of Object.entries({ ...BASE, ...extra })) {
    if (omit.includes(rel)) continue;
    write(root, rel, text);
  }
  return root;
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** The gate with every disk read and every open-document lookup recorded. */
class SpyGate extends BoundaryGateWorkspace {
  readonly diskReads: string[] = [];
  readonly lookups: string[];
  constructor(root: string, settings: GateSettings = DEFAULT_GATE_SETTINGS, open: Record<string, string> = {}) {
    const lookups: string[] = [];
    const source: TextSource = {
      openText: (absolute) => {
        lookups.push(absolute);
        return open[path.relative(root, absolute).split(path.sep).join('/')];
      },
    };
    super(root, settings, source);
    this.lookups = lookups;
  }
  protected override readDisk(relative: string): string | undefined {
    this.diskReads.push(relative);
    return super.readDisk(relative);
  }
  takeReads(): string[] {
    return this.diskReads.splice(0).sort();
  }
}

type Triple = string;
const findings = (gate: BoundaryGateWorkspace): Triple[] => gate.run().result.findings.map((f) => `${f.kind} ${f.id} @ ${f.path}`);
const sitesOf = (gate: BoundaryGateWorkspace): string[] => gate.run().allSites.map((s) => `${s.id} @ ${s.path}`);

const hasGit = spawnSync('git', ['--version']).status === 0;

describe('workspace gate: the base tree', () => {
  test('is clean', () => {
    const gate = new BoundaryGateWorkspace(makeTree(), DEFAULT_GATE_SETTINGS);
    const run = gate.run();
    assert.deepEqual(run.result.findings, []);
    assert.equal(run.result.refused, false);
    assert.equal(run.scannedFiles, 4, 'the funnel, parse.rs, parse_tests.rs, chat.harn');
  });
});

describe('workspace gate: which files are scanned', () => {
  test(".gitignore'd files are not scanned; untracked ones are (as `git grep --untracked`)", { skip: hasGit ? undefined : 'git is not installed' }, () => {
    const root = makeTree({
      '.gitignore': 'crates/generated/\n*.local.harn\n',
      'crates/generated/sites.rs': 'f(BoundaryId::ChatTurnCap);\n',
      'crates/stdlib/mine.local.harn': emission('boundary: "chat_turn_cap"'),
    });
    const git = (...args: string[]): void => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
        cwd: root,
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    write(root, 'crates/stdlib/new_cap.harn', emission('boundary: "chat_turn_cap"'));
    const gate = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS);
    assert.deepEqual(findings(gate), ['unregistered_site chat_turn_cap @ crates/stdlib/new_cap.harn']);
    assert.ok(!sitesOf(gate).some((s) => s.includes('generated/') || s.includes('.local.harn')));
  });

  test('nested .gitignore files apply below their folder', () => {
    const root = makeTree({
      'crates/vm/.gitignore': 'scratch_*.rs\n',
      'crates/vm/scratch_a.rs': 'f(BoundaryId::ChatTurnCap);\n',
      'crates/stdlib/scratch_b.rs': 'f(BoundaryId::ChatTurnCap);\n',
    });
    assert.deepEqual(findings(new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS)), ['unregistered_site chat_turn_cap @ crates/stdlib/scratch_b.rs']);
  });

  test('exempt paths (the funnel, /tests/, tests.rs, _tests.rs, _test.rs) are read but are not sites', () => {
    const mention = 'fn t() { f(BoundaryId::ChatTurnCap); }\n';
    const exempt = ['crates/vm/tests/it.rs', 'crates/vm/boundary/tests.rs', 'crates/vm/chat_tests.rs', 'crates/vm/chat_test.rs'];
    const root = makeTree({
      ...Object.fromEntries(exempt.map((p) => [p, mention])),
      [FUNNEL]: FUNNEL_TEXT + '\nfn all() -> [BoundaryId; 1] { [BoundaryId::ChatTurnCap] }\n',
      // Not exempt: `tests.rs` needs a `/` before it, `_tests` must end the name, `tests/` must follow a `/`.
      'crates/vm/contests.rs': mention,
      'crates/vm/chat_tests_util.rs': mention,
    });
    const gate = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS);
    assert.deepEqual(findings(gate), [
      'unregistered_site chat_turn_cap @ crates/vm/chat_tests_util.rs',
      'unregistered_site chat_turn_cap @ crates/vm/contests.rs',
    ]);
    const sites = sitesOf(gate);
    for (const p of [...exempt, FUNNEL]) assert.ok(sites.includes(`chat_turn_cap @ ${p}`), `${p} is still a known site (hover, fixes)`);
  });

  test('only the configured globs are scanned', () => {
    const root = makeTree({ 'tools/x.rs': 'f(BoundaryId::ChatTurnCap);\n', 'lib/x.harn': emission('boundary: "nope"') });
    assert.deepEqual(findings(new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS)), []);
    const wide = new BoundaryGateWorkspace(root, { ...DEFAULT_GATE_SETTINGS, rustGlobs: ['**/*.rs'], harnGlobs: ['**/*.harn'] });
    assert.deepEqual(findings(wide), ['unregistered_site chat_turn_cap @ tools/x.rs', 'unknown_boundary nope @ lib/x.harn']);
  });
});

describe('workspace gate: what counts as a site', () => {
  test('`boundary: ID` through a const counts, at the constant', () => {
    const root = makeTree({ 'crates/stdlib/chat.harn': `const CAP = "chat_turn_cap"\n\n${emission('boundary: CAP')}` });
    const gate = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS);
    assert.deepEqual(findings(gate), []);
    const site = defined(
      defined(gate.last, 'a gate run').allSites.find((s) => s.path === 'crates/stdlib/chat.harn'),
      'the site in chat.harn',
    );
    const text = fs.readFileSync(path.join(root, site.path), 'utf8');
    assert.equal(text.slice(site.range.start, site.range.end), 'CAP');
    assert.ok(site.range.start > text.indexOf('boundary:'), 'the use, not the declaration');
  });

  test('`boundary: "x"` in a comment or a string does not count (.harn), nor `BoundaryId::X` in a Rust comment or string', () => {
    const root = makeTree({
      'crates/stdlib/notes.harn':
        '// emit with boundary: "chat_turn_cap"\n/* boundary: "ghost" */\npub fn help() -> string {\n  return "use boundary: \\"chat_turn_cap\\" here" + """\n  boundary: "ghost"\n  """\n}\n',
      'crates/vm/notes.rs':
        '// BoundaryId::ChatTurnCap,\n/* BoundaryId::TextToolParse; */\nconst HELP: &str = "BoundaryId::ChatTurnCap, then report";\nconst RAW: &str = r#"BoundaryId::TextToolParse)"#;\n',
    });
    const gate = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS);
    assert.deepEqual(findings(gate), []);
    assert.ok(!sitesOf(gate).some((s) => s.includes('notes.')));
  });
});

describe('workspace gate: paths that leave the root are refused and never read', () => {
  test(
    'a symlinked anchor pointing outside, `../x` and `/abs` anchors: path_outside_root, with no read or lookup',
    { skip: process.platform === 'win32' ? 'symlinks' : undefined },
    () => {
      const root = makeTree();
      const outside = path.join(path.dirname(root), 'outside');
      fs.mkdirSync(outside);
      const secret = path.join(outside, 'secret.rs');
      fs.writeFileSync(secret, 'f(BoundaryId::ChatTurnCap); // chat_turn_cap\n');
      fs.chmodSync(secret, 0o000); // unreadable, for good measure (root can still read it: the spy is the proof)
      fs.symlinkSync(secret, path.join(root, 'crates/vm/linked.rs'));
      fs.symlinkSync(outside, path.join(root, 'crates/vm/outside_dir'));
      const absolute = path.join(outside, 'abs.rs');
      fs.writeFileSync(absolute, 'chat_turn_cap\n');
      const anchors = ['crates/vm/linked.rs', 'crates/vm/outside_dir/secret.rs', '../outside/secret.rs', absolute];
      write(
        root,
        REGISTRY,
        REGISTRY_TEXT.replace(
          'anchors = ["crates/stdlib/chat.harn"]',
          `anchors = ["crates/stdlib/chat.harn", ${anchors.map((a) => JSON.stringify(a)).join(', ')}]`,
        ).replace('test = "tests/chat.harn"', 'test = "../outside/secret.rs"'),
      );
      const gate = new SpyGate(root);
      const run = gate.run();
      assert.deepEqual(
        run.result.findings.map((f) => [f.kind, f.path, f.message]),
        [
          ['path_outside_root', 'crates/vm/linked.rs', 'refused: `crates/vm/linked.rs` is a symbolic link that leads out of the repository root'],
          [
            'path_outside_root',
            'crates/vm/outside_dir/secret.rs',
            'refused: `crates/vm/outside_dir/secret.rs` is a symbolic link that leads out of the repository root',
          ],
          ['path_outside_root', '../outside/secret.rs', 'refused: `../outside/secret.rs` leaves the repository root'],
          ['path_outside_root', absolute, `refused: \`${absolute}\` is absolute; registry paths are relative to the repository root`],
          ['path_outside_root', '../outside/secret.rs', 'refused: `../outside/secret.rs` leaves the repository root'],
        ],
      );
      const touched = [...gate.diskReads, ...gate.lookups.map((a) => path.relative(root, a))];
      for (const p of touched) {
        assert.ok(!p.startsWith('..') && !p.includes('linked') && !p.includes('outside'), `read or looked up ${p}`);
      }
      // Symbolic links are not walked either: the linked file is no site.
      assert.ok(!sitesOf(gate).some((s) => s.includes('linked') || s.includes('outside')));
    },
  );

  test('refusalReason: `..` after normalising, absolute (posix and Windows forms), NUL; inside paths are fine', () => {
    const root = makeTree();
    assert.equal(refusalReason(root, 'crates/vm/parse.rs'), undefined);
    assert.equal(refusalReason(root, 'crates/../crates/vm/parse.rs'), undefined);
    assert.equal(refusalReason(root, 'crates/missing.rs'), undefined, 'missing is not refused (the gate reports it missing)');
    const refusal = (relative: string): string => defined(refusalReason(root, relative), `the refusal of ${JSON.stringify(relative)}`);
    assert.match(refusal('crates/../../x.rs'), /leaves the repository root/);
    assert.match(refusal('..'), /leaves the repository root/);
    assert.match(refusal('/etc/passwd'), /is absolute/);
    assert.match(refusal('C:\\x.rs'), /is absolute/);
    assert.match(refusal('\\\\server\\share\\x.rs'), /is absolute/);
    assert.match(refusal('a\0b'), /not a valid path/);
  });

  test('a registry or funnel setting that leaves the root refuses the whole run, reading nothing', () => {
    const root = makeTree();
    for (const settings of [
      { ...DEFAULT_GATE_SETTINGS, registryPath: '../loud_boundaries.toml' },
      { ...DEFAULT_GATE_SETTINGS, funnelPath: '/tmp/boundary.rs' },
    ]) {
      const gate = new SpyGate(root, settings);
      const run = gate.run();
      assert.equal(run.result.refused, true);
      assert.deepEqual(
        run.result.findings.map((f) => f.kind),
        ['path_outside_root'],
      );
      assert.deepEqual(gate.diskReads, []);
    }
  });
});

describe('workspace gate: missing files', () => {
  test("no registry: missing_registry; no funnel: missing_funnel (refused, with upstream's messages)", () => {
    const noRegistry = new BoundaryGateWorkspace(makeTree({}, [REGISTRY]), DEFAULT_GATE_SETTINGS).run();
    assert.deepEqual(
      noRegistry.result.findings.map((f) => [f.kind, f.message]),
      [['missing_registry', 'missing scripts/loud_boundaries.toml']],
    );
    assert.equal(noRegistry.result.refused, true);
    const noFunnel = new BoundaryGateWorkspace(makeTree({}, [FUNNEL]), DEFAULT_GATE_SETTINGS).run();
    assert.deepEqual(
      noFunnel.result.findings.map((f) => [f.kind, f.message]),
      [['missing_funnel', 'missing the funnel definition crates/harn-vm/src/boundary.rs']],
    );
    assert.equal(noFunnel.result.boundaryCount, 2);
  });

  test('an anchor that is a folder is missing, not read', () => {
    const root = makeTree({ 'crates/vm/dir/keep.txt': '' });
    write(root, REGISTRY, REGISTRY_TEXT.replace('anchors = ["crates/vm/parse.rs"]', 'anchors = ["crates/vm/parse.rs", "crates/vm/dir"]'));
    assert.deepEqual(findings(new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS)), ['missing_anchor text_tool_parse @ crates/vm/dir']);
  });
});

describe('workspace gate: incremental runs', () => {
  test('a second run with nothing invalidated reads nothing', () => {
    const gate = new SpyGate(makeTree());
    gate.run();
    // Each file once: a scanned file the registry references (anchor, test) and the funnel are not read twice.
    assert.deepEqual(
      gate.takeReads(),
      [FUNNEL, 'crates/stdlib/chat.harn', 'crates/vm/parse.rs', 'crates/vm/parse_tests.rs', REGISTRY, 'tests/chat.harn'].sort(),
    );
    gate.run();
    assert.deepEqual(gate.takeReads(), []);
  });

  test('after invalidate(path) only that file is read again, and the findings follow it', () => {
    const root = makeTree();
    const gate = new SpyGate(root);
    assert.deepEqual(findings(gate), []);
    gate.takeReads();

    // A scanned file loses its site.
    write(root, 'crates/vm/parse.rs', 'fn parse() {}\n');
    gate.invalidate('crates/vm/parse.rs');
    assert.deepEqual(findings(gate), ['stale_entry text_tool_parse @ scripts/loud_boundaries.toml']);
    assert.deepEqual(gate.takeReads(), ['crates/vm/parse.rs']);

    // A test file stops naming its id.
    write(root, 'tests/chat.harn', '// the cap\n');
    gate.invalidate('tests/chat.harn');
    assert.deepEqual(findings(gate), ['inert_test chat_turn_cap @ tests/chat.harn', 'stale_entry text_tool_parse @ scripts/loud_boundaries.toml']);
    assert.deepEqual(gate.takeReads(), ['tests/chat.harn']);

    // The registry changes (and a file changes without being invalidated: its old text is kept).
    write(root, REGISTRY, REGISTRY_TEXT.replace('test = "crates/vm/parse_tests.rs"', 'test = "crates/vm/parse_tests.rs"\nnotes = "x"'));
    write(root, 'tests/chat.harn', '// chat_turn_cap\n');
    gate.invalidate(REGISTRY);
    assert.deepEqual(findings(gate), ['inert_test chat_turn_cap @ tests/chat.harn', 'stale_entry text_tool_parse @ scripts/loud_boundaries.toml']);
    assert.deepEqual(gate.takeReads(), [REGISTRY]);
    gate.invalidate('tests/chat.harn');
    assert.deepEqual(findings(gate), ['stale_entry text_tool_parse @ scripts/loud_boundaries.toml']);
    assert.deepEqual(gate.takeReads(), ['tests/chat.harn']);
  });

  test('created and deleted files change the scanned list', () => {
    const root = makeTree();
    const gate = new SpyGate(root);
    findings(gate);
    gate.takeReads();
    write(root, 'crates/stdlib/more.harn', emission('boundary: "chat_turn_capp"'));
    gate.invalidate('crates/stdlib/more.harn', 'created');
    assert.deepEqual(findings(gate), ['unknown_boundary chat_turn_capp @ crates/stdlib/more.harn']);
    assert.deepEqual(gate.takeReads(), ['crates/stdlib/more.harn']);
    fs.rmSync(path.join(root, 'crates/stdlib/more.harn'));
    gate.invalidate('crates/stdlib/more.harn', 'deleted');
    assert.deepEqual(findings(gate), []);
    assert.deepEqual(gate.takeReads(), []);
  });

  test('a changed funnel re-maps Rust sites without re-reading them, even after a refused run', () => {
    const root = makeTree();
    const gate = new SpyGate(root);
    assert.deepEqual(findings(gate), []);
    // The registry disappears for a while: a refused run.
    fs.renameSync(path.join(root, REGISTRY), path.join(root, 'scripts/away.toml'));
    gate.invalidate(REGISTRY, 'deleted');
    assert.deepEqual(
      gate.run().result.findings.map((f) => f.kind),
      ['missing_registry'],
    );
    // Meanwhile the variant is renamed (wire string kept).
    write(root, FUNNEL, FUNNEL_TEXT.replace('Self::TextToolParse', 'Self::TextToolParsing').replace('    TextToolParse,', '    TextToolParsing,'));
    gate.invalidate(FUNNEL);
    fs.renameSync(path.join(root, 'scripts/away.toml'), path.join(root, REGISTRY));
    gate.invalidate(REGISTRY, 'created');
    gate.takeReads();
    // parse.rs still says BoundaryId::TextToolParse, which no arm maps any more.
    assert.deepEqual(findings(gate), ['stale_entry text_tool_parse @ scripts/loud_boundaries.toml']);
    assert.ok(!gate.takeReads().includes('crates/vm/parse.rs'), 'mentions are cached by variant and re-mapped');
  });

  test('an open registry document is followed on every run without invalidation; closing it falls back to the disk', () => {
    const root = makeTree();
    const open: Record<string, string> = {};
    const gate = new SpyGate(root, DEFAULT_GATE_SETTINGS, open);
    assert.deepEqual(findings(gate), []);
    open[REGISTRY] = REGISTRY_TEXT.replace('test = "tests/chat.harn"', 'test = "tests/unsaved.harn"');
    assert.deepEqual(findings(gate), ['missing_test chat_turn_cap @ tests/unsaved.harn']);
    delete open[REGISTRY];
    gate.takeReads();
    assert.deepEqual(findings(gate), []);
    assert.deepEqual(gate.takeReads(), [], 'the disk text was kept');
  });

  test('reset() forgets everything (a .gitignore or settings change)', () => {
    const root = makeTree();
    const gate = new SpyGate(root);
    findings(gate);
    write(root, '.gitignore', 'crates/vm/parse.rs\n');
    gate.reset();
    gate.takeReads();
    assert.deepEqual(findings(gate), ['stale_entry text_tool_parse @ scripts/loud_boundaries.toml']);
    assert.ok(gate.takeReads().includes(REGISTRY));
  });
});

/** A gate whose scan of one file throws (as a stack overflow did for a long expression chain), counting scans. */
class FailingGate extends SpyGate {
  readonly scanned: string[] = [];
  constructor(
    root: string,
    private readonly failing: string,
  ) {
    super(root);
  }
  protected override scanText(relative: string, text: string): FileScan {
    this.scanned.push(relative);
    if (relative === this.failing) throw new RangeError('Maximum call stack size exceeded');
    return super.scanText(relative, text);
  }
}

describe('workspace gate: one file whose scan fails', () => {
  const FAILED =
    "scanning this file for boundary sites failed (RangeError: Maximum call stack size exceeded), a bug in Harn Workbench: the gate checked every other file, without this file's sites";

  test('is an internal_error finding on that file, listed first; every other file is still checked', () => {
    const root = makeTree({ 'crates/stdlib/other.harn': emission('boundary: "not_registered"') });
    const gate = new FailingGate(root, 'crates/stdlib/chat.harn');
    const run = gate.run();
    assert.deepEqual(run.result.findings[0], {
      kind: 'internal_error',
      id: '',
      path: 'crates/stdlib/chat.harn',
      message: FAILED,
      location: { path: 'crates/stdlib/chat.harn', ranges: [{ start: 0, end: 0 }] },
    });
    // Without chat.harn's site its entry is stale; the other .harn file and the Rust files were scanned.
    assert.deepEqual(
      run.result.findings.slice(1).map((f) => `${f.kind} ${f.id} @ ${f.path}`),
      ['stale_entry chat_turn_cap @ scripts/loud_boundaries.toml', 'unknown_boundary not_registered @ crates/stdlib/other.harn'],
    );
    assert.equal(run.result.refused, false);
    assert.deepEqual(
      run.failures.map((f) => f.path),
      ['crates/stdlib/chat.harn'],
    );
    assert.ok(run.failures[0]?.error instanceof RangeError);
    assert.deepEqual(gateRunDiagnosticList(run, (r) => gate.readFile(r))[0], {
      path: 'crates/stdlib/chat.harn',
      diagnostic: {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 'error',
        source: 'harn.boundaries',
        code: 'internal_error',
        message: FAILED,
        data: { id: '', kind: 'internal_error', path: 'crates/stdlib/chat.harn' },
      },
    });
    assert.match(renderGateText(run.result, REGISTRY), /\n {2}\[internal_error\] {2}@ crates\/stdlib\/chat\.harn: scanning this file/);
  });

  test('the failure is cached like a scan until the file changes', () => {
    const gate = new FailingGate(makeTree(), 'crates/stdlib/chat.harn');
    gate.run();
    gate.scanned.length = 0;
    assert.equal(gate.run().failures.length, 1);
    assert.deepEqual(gate.scanned, []);
    gate.invalidate('crates/stdlib/chat.harn');
    gate.run();
    assert.deepEqual(gate.scanned, ['crates/stdlib/chat.harn']);
  });

  test('a registry that cannot be read refuses the run with an internal_error on it', () => {
    class BrokenRegistry extends BoundaryGateWorkspace {
      // The run parses the registry in steps (between requests, in the server).
      // eslint-disable-next-line require-yield -- it fails before its first step
      override *parseRegistrySteps(): Generator<never, never> {
        throw new TypeError('injected');
      }
    }
    const run = new BrokenRegistry(makeTree(), DEFAULT_GATE_SETTINGS).run();
    assert.equal(run.result.refused, true);
    assert.deepEqual(
      run.result.findings.map((f) => `${f.kind} @ ${f.location.path}: ${f.message}`),
      [`internal_error @ ${REGISTRY}: failed to read ${REGISTRY} (TypeError: injected), a bug in Harn Workbench: the gate could not run`],
    );
    assert.deepEqual(
      run.failures.map((f) => f.path),
      [REGISTRY],
    );
  });
});
