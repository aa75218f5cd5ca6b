// Parity of our loud-boundary gate with upstream's (scripts/check_loud_boundaries.harn @09227830) on trees
// built at test time from the real Harn 0.10 files of the shared corpus. The oracle below is a line-by-line
// TypeScript transcription of upstream's text algorithm (boundary_wire_strings, is_exempt_site, rust_sites,
// harn_sites, evaluate, main), reading the tree through `git grep -I -n -F --untracked` exactly as upstream
// does. Both must report the same findings (kind, id, path, in order) on the corpus tree and on mutations of
// it that exercise every rule; where our lexer/AST reading is deliberately more precise, the difference is
// asserted exactly. Skipped when the corpus or git is absent.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS } from '../../server/src/boundaries/workspaceGate';
import { corpusRoot, corpusSkip, repoRoot, requireCorpus } from '../support/corpus';

const UPSTREAM = path.join(corpusRoot, 'harn-0.10');
const gitMissing = spawnSync('git', ['--version']).status === 0 ? undefined : 'git is not installed (the oracle runs `git grep`)';
const skip = corpusSkip ?? gitMissing;

// ---------------------------------------------------------------------------------------------------------
// The oracle: upstream's algorithm, transcribed. Harn dicts are BTreeMaps, so their keys iterate in
// code-point order; `lines()` is Rust's (split on \n, drop a trailing \r, no final empty line); `unique()`
// keeps first occurrences.

const REGISTRY_PATH = 'scripts/loud_boundaries.toml';
const FUNNEL_PATH = 'crates/harn-vm/src/boundary.rs';
const HARN_SITE_MARKER = 'boundary: "';

interface Site {
  path: string;
  id: string;
}
interface OracleFinding {
  kind: string;
  id: string;
  path: string;
  message: string;
}
type Dict = Record<string, unknown>;

const byCodePoint = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const sortedKeys = (d: ReadonlyMap<string, unknown>): string[] => [...d.keys()].sort(byCodePoint);

function harnLines(text: string): string[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function uniqueSites(sites: Site[]): Site[] {
  const seen = new Set<string>();
  return sites.filter((s) => {
    const key = `${s.path}\0${s.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Harn's to_string on a TOML value (strings as themselves), written as JavaScript's String() writes it. */
function toStr(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v instanceof Date) return String(v);
  if (Array.isArray(v)) return v.map(toStr).join(',');
  // A table: "[object Object]", as String() gives.
  return Object.prototype.toString.call(v);
}
const field = (entry: unknown, key: string): unknown => (entry && typeof entry === 'object' ? (entry as Dict)[key] : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function boundaryWireStrings(funnelSource: string): Map<string, string> {
  const out = new Map<string, string>();
  const implMarker = 'impl BoundaryId {';
  const implStart = funnelSource.indexOf(implMarker);
  if (implStart < 0) return out;
  const rest = funnelSource.slice(implStart);
  const end = rest.indexOf('\n}\n');
  const body = end < 0 ? rest : rest.slice(0, end);
  for (const raw of harnLines(body)) {
    const line = raw.trim();
    if (!line.startsWith('Self::') || !line.includes('=>')) continue;
    const [left, right, ...more] = line.split('=>');
    if (left === undefined || right === undefined || more.length) continue;
    const variant = left.trim().slice('Self::'.length).trim();
    let wire = right.trim();
    if (wire.endsWith(',')) wire = wire.slice(0, wire.length - 1).trim();
    if (!wire.startsWith('"') || !wire.endsWith('"') || wire.length < 2) continue;
    out.set(variant, wire.slice(1, wire.length - 1));
  }
  return out;
}

function isExemptSite(p: string): boolean {
  const normalized = p.replace(/\\/g, '/');
  return (
    normalized === FUNNEL_PATH ||
    normalized.includes('/tests/') ||
    normalized.endsWith('/tests.rs') ||
    normalized.endsWith('_tests.rs') ||
    normalized.endsWith('_test.rs')
  );
}

function rustSites(grepOutput: string, wireStrings: Map<string, string>): Site[] {
  const sites: Site[] = [];
  for (const raw of harnLines(grepOutput)) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const p = line.slice(0, colon);
    const body = line.slice(colon + 1);
    for (const variant of sortedKeys(wireStrings)) {
      const m = 'BoundaryId::' + variant;
      if (body.includes(m + ',') || body.includes(m + ')') || body.includes(m + ';') || body.includes(m + ' ') || body.endsWith(m)) {
        sites.push({ path: p, id: toStr(wireStrings.get(variant) ?? '') });
      }
    }
  }
  return uniqueSites(sites);
}

function harnSites(grepOutput: string): Site[] {
  const sites: Site[] = [];
  const token = HARN_SITE_MARKER;
  for (const raw of harnLines(grepOutput)) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon < 0 || !line.includes(token)) continue;
    const p = line.slice(0, colon);
    const after = line.slice(line.indexOf(token) + token.length);
    const close = after.indexOf('"');
    if (close <= 0) continue;
    sites.push({ path: p, id: after.slice(0, close) });
  }
  return uniqueSites(sites);
}

function sitesFor(sites: Site[], id: string): string[] {
  return [...new Set(sites.filter((s) => s.id === id).map((s) => s.path))].sort(byCodePoint);
}

function evaluate(registry: Dict, wireStrings: Map<string, string>, sites: Site[], existing: Set<string>, contents: Map<string, string>): OracleFinding[] {
  const entries = list(registry.boundary);
  const findings: OracleFinding[] = [];
  // registered_ids
  const registered = new Map<string, boolean>();
  for (const entry of entries) {
    const id = toStr(field(entry, 'id') ?? '');
    if (id === '') findings.push({ kind: 'invalid_entry', id: '', path: REGISTRY_PATH, message: 'a [[boundary]] entry has no `id`' });
    else if (registered.has(id)) findings.push({ kind: 'duplicate_entry', id, path: REGISTRY_PATH, message: 'registered twice' });
    else registered.set(id, true);
  }
  // enum_correspondence_findings
  const enumIds = new Set<string>();
  for (const variant of sortedKeys(wireStrings)) {
    const id = toStr(wireStrings.get(variant) ?? '');
    enumIds.add(id);
    if (!registered.has(id)) {
      findings.push({ kind: 'unregistered_boundary', id, path: FUNNEL_PATH, message: `BoundaryId::${variant} has no [[boundary]] entry` });
    }
  }
  for (const id of sortedKeys(registered)) {
    if (!enumIds.has(id)) findings.push({ kind: 'orphan_entry', id, path: REGISTRY_PATH, message: 'no BoundaryId variant maps to this id' });
  }
  for (const entry of entries) {
    const id = toStr(field(entry, 'id') ?? '');
    if (id === '') continue;
    // entry_anchor_findings
    const anchors = list(field(entry, 'anchors') ?? []);
    if (anchors.length === 0) findings.push({ kind: 'no_anchor', id, path: REGISTRY_PATH, message: 'entry declares no `anchors`' });
    const anchorSet = new Set<string>();
    for (const anchor of anchors) {
      const p = toStr(anchor);
      anchorSet.add(p);
      if (!existing.has(p)) findings.push({ kind: 'missing_anchor', id, path: p, message: 'anchor file does not exist' });
    }
    const live = sitesFor(sites, id);
    if (live.length === 0) findings.push({ kind: 'stale_entry', id, path: REGISTRY_PATH, message: 'no file constructs this boundary any more' });
    for (const p of live) {
      if (!anchorSet.has(p))
        findings.push({ kind: 'unregistered_site', id, path: p, message: `constructs \`${id}\` but is not one of its registered anchors` });
    }
    // entry_test_findings
    const testPath = toStr(field(entry, 'test') ?? '');
    if (testPath === '') findings.push({ kind: 'no_test', id, path: REGISTRY_PATH, message: 'entry declares no `test`' });
    else if (!existing.has(testPath)) findings.push({ kind: 'missing_test', id, path: testPath, message: 'test file does not exist' });
    else if (!(contents.get(testPath) ?? '').includes(id))
      findings.push({ kind: 'inert_test', id, path: testPath, message: `test file never mentions \`${id}\`` });
  }
  for (const site of sites) {
    if (!registered.has(site.id)) {
      findings.push({ kind: 'unknown_boundary', id: site.id, path: site.path, message: `reports boundary \`${site.id}\`, which is not in the registry` });
    }
  }
  // audited_findings
  for (const entry of list(registry.audited)) {
    const id = toStr(field(entry, 'id') ?? '');
    const marker = toStr(field(entry, 'marker') ?? '');
    for (const anchor of list(field(entry, 'anchors') ?? [])) {
      const p = toStr(anchor);
      if (!existing.has(p)) findings.push({ kind: 'missing_audited_anchor', id, path: p, message: 'audited anchor file does not exist' });
      else if (marker !== '' && !(contents.get(p) ?? '').includes(marker)) {
        findings.push({ kind: 'audited_event_gone', id, path: p, message: `no longer contains \`${marker}\` — the boundary may have gone silent` });
      }
    }
  }
  return findings;
}

function gitGrep(root: string, pattern: string, globs: string[]): string | undefined {
  const args = ['-C', root, 'grep', '-I', '-n', '-F', '--untracked', '-e', pattern, '--', ...globs];
  const result = spawnSync('git', args, { encoding: 'utf8' });
  if (result.status !== 0 && result.status !== 1) return undefined;
  return result.stdout;
}

function referencedPaths(entries: unknown[]): string[] {
  const paths: string[] = [];
  for (const entry of entries) {
    for (const anchor of list(field(entry, 'anchors') ?? [])) paths.push(toStr(anchor));
    const testPath = toStr(field(entry, 'test') ?? '');
    if (testPath !== '') paths.push(testPath);
  }
  return [...new Set(paths)];
}

/** Upstream's `main`: the findings, or the `::error::` line it stops with. */
function oracle(root: string): OracleFinding[] | string {
  if (!fs.existsSync(path.join(root, REGISTRY_PATH))) return `missing ${REGISTRY_PATH}`;
  let registry: Dict;
  try {
    registry = getStaticTOMLValue(parseTOML(fs.readFileSync(path.join(root, REGISTRY_PATH), 'utf8')));
  } catch (err) {
    return `failed to parse ${REGISTRY_PATH}: ${String(err)}`;
  }
  if (!fs.existsSync(path.join(root, FUNNEL_PATH))) return `missing the funnel definition ${FUNNEL_PATH}`;
  const wireStrings = boundaryWireStrings(fs.readFileSync(path.join(root, FUNNEL_PATH), 'utf8'));
  if (wireStrings.size === 0) return 'vacuous funnel';
  const rustGrep = gitGrep(root, 'BoundaryId::', ['crates/*.rs']);
  const harnGrep = gitGrep(root, HARN_SITE_MARKER, ['crates/*.harn']);
  if (rustGrep === undefined || harnGrep === undefined) return 'git grep failed';
  const sites: Site[] = [];
  for (const site of rustSites(rustGrep, wireStrings)) if (!isExemptSite(site.path)) sites.push(site);
  sites.push(...harnSites(harnGrep));
  const existing = new Set<string>();
  const contents = new Map<string, string>();
  const wanted = [...referencedPaths(list(registry.boundary)), ...referencedPaths(list(registry.audited))];
  for (const p of new Set(wanted)) {
    if (fs.existsSync(path.join(root, p))) {
      existing.add(p);
      contents.set(p, fs.readFileSync(path.join(root, p), 'utf8'));
    }
  }
  return evaluate(registry, wireStrings, uniqueSites(sites), existing, contents);
}

// ---------------------------------------------------------------------------------------------------------
// Trees

type Triple = [kind: string, id: string, path: string];

function ours(root: string): Triple[] {
  return new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS).run().result.findings.map((f) => [f.kind, f.id, f.path]);
}

function upstream(root: string): Triple[] {
  const result = oracle(root);
  if (typeof result === 'string') assert.fail(`the oracle stopped: ${result}`);
  return result.map((f) => [f.kind, f.id, f.path]);
}

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.name=parity', '-c', 'user.email=parity@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.stderr}`);
}

class Tree {
  constructor(readonly root: string) {}
  file(rel: string): string {
    return path.join(this.root, rel);
  }
  read(rel: string): string {
    return fs.readFileSync(this.file(rel), 'utf8');
  }
  write(rel: string, text: string): void {
    fs.mkdirSync(path.dirname(this.file(rel)), { recursive: true });
    fs.writeFileSync(this.file(rel), text);
  }
  remove(rel: string): void {
    fs.rmSync(this.file(rel));
  }
  edit(rel: string, from: string | RegExp, to: string): void {
    const text = this.read(rel);
    const next = text.replace(from, to);
    assert.notEqual(next, text, `${String(from)} not found in ${rel}`);
    this.write(rel, next);
  }
  append(rel: string, text: string): void {
    fs.appendFileSync(this.file(rel), text);
  }
}

const key = (t: Triple): string => t.join(' | ');

/** What each side reports that the other does not (as multisets). */
function difference(a: Triple[], b: Triple[]): { onlyOurs: string[]; onlyUpstream: string[] } {
  const count = new Map<string, number>();
  for (const t of b) count.set(key(t), (count.get(key(t)) ?? 0) + 1);
  const onlyOurs: string[] = [];
  for (const t of a) {
    const n = count.get(key(t)) ?? 0;
    if (n > 0) count.set(key(t), n - 1);
    else onlyOurs.push(key(t));
  }
  const onlyUpstream: string[] = [];
  for (const [k, n] of count) for (let i = 0; i < n; i++) onlyUpstream.push(k);
  return { onlyOurs: onlyOurs.sort(), onlyUpstream: onlyUpstream.sort() };
}

const HARN = 'crates/harn-stdlib/src/stdlib/agent';
const TOOL_CALLS = `${HARN}/loop_tool_calls.harn`;
const CONFORMANCE = 'conformance/tests/scenarios/agent_loud_boundary_events.harn';

/** A `.harn` file emitting one boundary_failure whose `boundary:` field is written as given. */
function emission(boundaryField: string): string {
  return `pub fn report(session_id: string) {\n  agent_emit_event(session_id, "boundary_failure", {\n    ${boundaryField}\n    kind: "dropped",\n    detail: "x",\n  })\n}\n`;
}

describe('loud-boundary gate: parity with upstream on the Harn 0.10 tree', { skip }, () => {
  let scratch: string;
  let base: string;
  let cases = 0;

  before(() => {
    requireCorpus();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-parity-'));
    base = path.join(scratch, 'base');
    fs.mkdirSync(base);
    for (const part of [REGISTRY_PATH, 'crates', 'conformance']) fs.cpSync(path.join(UPSTREAM, part), path.join(base, part), { recursive: true });
    // The corpus is read-only: make the copy writable for the mutations.
    const chmod = (p: string): void => {
      const stat = fs.statSync(p);
      fs.chmodSync(p, stat.isDirectory() ? 0o755 : 0o644);
      if (stat.isDirectory()) for (const name of fs.readdirSync(p)) chmod(path.join(p, name));
    };
    chmod(base);
  });
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    if (!skip) console.log(`boundaries parity: ${cases} trees compared`);
  });

  /**
   * A copy of the corpus tree in a fresh git repository (untracked files: `git grep --untracked` reads them
   * as it reads tracked ones), then mutated. With `commit`, the corpus files are committed first, so that
   * the mutation's files are untracked beside tracked ones.
   */
  function tree(mutate: (t: Tree) => void, commit = false): Tree {
    // Each tree sits one level down, so that `../x` stays inside this case's own folder.
    const root = path.join(scratch, `case-${++cases}`, 'repo');
    fs.cpSync(base, root, { recursive: true });
    git(root, 'init', '-q');
    if (commit) {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'upstream files');
    }
    const t = new Tree(root);
    mutate(t);
    return t;
  }

  function agree(mutate: (t: Tree) => void, expected?: (findings: Triple[]) => void, commit = false): void {
    const t = tree(mutate, commit);
    const mine = ours(t.root);
    assert.deepEqual(mine, upstream(t.root));
    expected?.(mine);
  }

  function differ(mutate: (t: Tree) => void, onlyOurs: Triple[], onlyUpstream: Triple[]): void {
    const t = tree(mutate);
    assert.deepEqual(difference(ours(t.root), upstream(t.root)), { onlyOurs: onlyOurs.map(key).sort(), onlyUpstream: onlyUpstream.map(key).sort() });
  }

  /** The findings on the corpus tree as it is, computed once. */
  let baseFindings: Triple[] | undefined;
  /** Exactly what a mutation changed: the findings it added and the ones it removed, against the unmutated tree. */
  const changes = (findings: Triple[], added: Triple[], removed: Triple[] = []): void => {
    baseFindings ??= ours(tree(() => {}).root);
    const { onlyOurs, onlyUpstream } = difference(findings, baseFindings);
    assert.deepEqual({ added: onlyOurs, removed: onlyUpstream }, { added: added.map(key).sort(), removed: removed.map(key).sort() });
  };

  describe('agreement', () => {
    test('the corpus tree as it is', () => {
      agree(
        () => {},
        (f) => {
          // The corpus holds only a few of the anchors: the tree is far from clean, which exercises the rules.
          // Every finding, in upstream's order (text_tool_parse, whose anchors are all there, has none).
          const entry = (id: string, anchors: string[], test: string): Triple[] => [
            ...anchors.map((a): Triple => ['missing_anchor', id, a]),
            ['stale_entry', id, REGISTRY_PATH],
            ['missing_test', id, test],
          ];
          assert.deepEqual(f, [
            ...entry(
              'response_content_extraction',
              ['crates/harn-vm/src/llm/api/response/boundary.rs', 'crates/harn-vm/src/llm/api/response.rs'],
              'crates/harn-vm/src/llm/api/response/boundary/tests.rs',
            ),
            ...entry('visible_text_sanitize', ['crates/harn-vm/src/visible_text.rs'], 'crates/harn-vm/src/visible_text.rs'),
            ...entry('host_event_ingest', ['crates/harn-vm/src/agent_events/from_host.rs'], 'crates/harn-vm/src/agent_events/from_host_tests.rs'),
            ...entry(
              'provider_admission_gate',
              ['crates/harn-vm/src/llm/agent_observe/provider_errors.rs'],
              'crates/harn-vm/src/llm/agent_observe/provider_errors_boundary_tests.rs',
            ),
            ['stale_entry', 'chat_turn_cap', REGISTRY_PATH],
            ['missing_audited_anchor', 'agent_loop_budget', 'crates/harn-stdlib/src/stdlib/agent/loop_turn_options.harn'],
            ['missing_audited_anchor', 'agent_loop_stall', 'crates/harn-stdlib/src/stdlib/agent/stall_observation.harn'],
            ['missing_audited_anchor', 'streaming_tool_detect', 'crates/harn-vm/src/llm/tools/parse/streaming.rs'],
            ['missing_audited_anchor', 'llm_transport', 'crates/harn-vm/src/llm/call.rs'],
            ['missing_audited_anchor', 'acp_prompt_ingest', 'crates/harn-serve/src/adapters/acp/schema.rs'],
          ]);
        },
      );
    });

    test('an anchor removed', () => {
      agree(
        (t) => t.remove(TOOL_CALLS),
        (f) =>
          changes(f, [
            ['missing_anchor', 'text_tool_parse', TOOL_CALLS],
            ['stale_entry', 'text_tool_parse', REGISTRY_PATH],
          ]),
      );
    });

    test('an unregistered .harn site (a new, untracked file)', () => {
      const p = `${HARN}/cap_notice.harn`;
      agree(
        (t) => t.write(p, emission('boundary: "text_tool_parse",')),
        (f) => changes(f, [['unregistered_site', 'text_tool_parse', p]]),
      );
    });

    test("a typo'd id in a .harn payload", () => {
      agree(
        (t) => t.edit(TOOL_CALLS, 'boundary: "text_tool_parse"', 'boundary: "text_tool_prase"'),
        (f) =>
          changes(f, [
            ['unknown_boundary', 'text_tool_prase', TOOL_CALLS],
            ['stale_entry', 'text_tool_parse', REGISTRY_PATH],
          ]),
      );
    });

    test('a new enum variant with its wire string', () => {
      agree(
        (t) => {
          t.edit(FUNNEL_PATH, '    ChatTurnCap,\n}', '    ChatTurnCap,\n    StreamTruncate,\n}');
          t.edit(
            FUNNEL_PATH,
            'Self::ChatTurnCap => "chat_turn_cap",',
            'Self::ChatTurnCap => "chat_turn_cap",\n            Self::StreamTruncate => "stream_truncate",',
          );
        },
        (f) => changes(f, [['unregistered_boundary', 'stream_truncate', FUNNEL_PATH]]),
      );
    });

    test('a variant renamed with its wire string (and variants out of alphabetical order)', () => {
      agree(
        (t) => t.edit(FUNNEL_PATH, 'Self::ChatTurnCap => "chat_turn_cap"', 'Self::AChatTurnLimit => "chat_turn_limit"'),
        (f) =>
          changes(f, [
            ['unregistered_boundary', 'chat_turn_limit', FUNNEL_PATH],
            ['orphan_entry', 'chat_turn_cap', REGISTRY_PATH],
          ]),
      );
    });

    test('a test that stops mentioning its id', () => {
      agree(
        (t) => t.write(CONFORMANCE, t.read(CONFORMANCE).replaceAll('chat_turn_cap', 'chat_cap')),
        (f) => changes(f, [['inert_test', 'chat_turn_cap', CONFORMANCE]]),
      );
    });

    test('an audited marker present, then renamed', () => {
      const p = 'crates/harn-vm/src/llm/tools/parse/streaming.rs';
      agree(
        (t) => t.write(p, 'pub enum Update { ParseAborted { reason: String } }\n'),
        (f) => changes(f, [], [['missing_audited_anchor', 'streaming_tool_detect', p]]),
      );
      agree(
        (t) => t.write(p, 'pub enum Update { ParseCancelled { reason: String } }\n'),
        (f) => changes(f, [['audited_event_gone', 'streaming_tool_detect', p]], [['missing_audited_anchor', 'streaming_tool_detect', p]]),
      );
    });

    test('Rust construction sites: in an anchor, outside the anchors, in exempt test paths', () => {
      agree(
        (t) => {
          t.write('crates/harn-vm/src/visible_text.rs', 'fn f() { BoundaryFailure::new(BoundaryId::VisibleTextSanitize, Kind::Dropped, "x").report(); }\n');
          t.write('crates/harn-vm/src/llm/retry.rs', 'fn g() {\n    let b = BoundaryId::ResponseContentExtraction;\n}\n');
          t.write('crates/harn-vm/src/llm/api/response/boundary/tests.rs', 'let a = BoundaryId::ResponseContentExtraction;\n');
          t.write('crates/harn-vm/src/llm/retry_test.rs', 'let a = (BoundaryId::HostEventIngest);\n');
          t.write('crates/harn-vm/src/llm/retry_tests.rs', 'let a = BoundaryId::HostEventIngest;\n');
          t.write('crates/harn-vm/tests/it.rs', 'let a = BoundaryId::HostEventIngest;\n');
          t.write('crates/harn-vm/src/agent_events/tests.rs', 'let a = BoundaryId::HostEventIngest;\n');
        },
        (f) => {
          // The anchor and the tests now exist (and mention no id: inert); the test paths' sites are exempt.
          changes(
            f,
            [
              ['inert_test', 'response_content_extraction', 'crates/harn-vm/src/llm/api/response/boundary/tests.rs'],
              ['inert_test', 'visible_text_sanitize', 'crates/harn-vm/src/visible_text.rs'],
              ['unregistered_site', 'response_content_extraction', 'crates/harn-vm/src/llm/retry.rs'],
            ],
            [
              ['missing_anchor', 'visible_text_sanitize', 'crates/harn-vm/src/visible_text.rs'],
              ['missing_test', 'response_content_extraction', 'crates/harn-vm/src/llm/api/response/boundary/tests.rs'],
              ['missing_test', 'visible_text_sanitize', 'crates/harn-vm/src/visible_text.rs'],
              ['stale_entry', 'response_content_extraction', REGISTRY_PATH],
              ['stale_entry', 'visible_text_sanitize', REGISTRY_PATH],
            ],
          );
        },
      );
    });

    test('Rust delimiters both read: `,` `)` `;` a space, the end of the line, a prefix variant', () => {
      agree(
        (t) => {
          t.write('crates/harn-vm/src/a.rs', 'f(BoundaryId::TextToolParse, k);\n');
          t.write('crates/harn-vm/src/b.rs', 'f(BoundaryId::ChatTurnCap);\n');
          t.write('crates/harn-vm/src/c.rs', 'let x = BoundaryId::HostEventIngest;\n');
          t.write('crates/harn-vm/src/d.rs', 'match b { BoundaryId::VisibleTextSanitize => 1, _ => 0 }\n');
          t.write('crates/harn-vm/src/e.rs', 'let x =\n    BoundaryId::ProviderAdmissionGate\n;\n');
          // A variant that is a prefix of another: `BoundaryId::Text` is not read out of `BoundaryId::TextToolParse`.
          t.edit(FUNNEL_PATH, 'Self::ChatTurnCap => "chat_turn_cap",', 'Self::ChatTurnCap => "chat_turn_cap",\n            Self::Text => "text",');
          t.write('crates/harn-vm/src/f.rs', 'g(BoundaryId::Text);\n');
        },
        (f) => {
          const sites: Array<[string, string]> = [
            ['text_tool_parse', 'a'],
            ['chat_turn_cap', 'b'],
            ['host_event_ingest', 'c'],
            ['visible_text_sanitize', 'd'],
            ['provider_admission_gate', 'e'],
          ];
          // Each new site is unregistered, and an entry without one before is not stale any more.
          changes(
            f,
            [
              ...sites.map(([id, file]): Triple => ['unregistered_site', id, `crates/harn-vm/src/${file}.rs`]),
              ['unregistered_boundary', 'text', FUNNEL_PATH],
              ['unknown_boundary', 'text', 'crates/harn-vm/src/f.rs'],
            ],
            ['chat_turn_cap', 'host_event_ingest', 'provider_admission_gate', 'visible_text_sanitize'].map((id): Triple => ['stale_entry', id, REGISTRY_PATH]),
          );
        },
      );
    });

    test("a .gitignore'd site is not read; an untracked one is (beside tracked files)", () => {
      agree(
        (t) => {
          t.write('.gitignore', 'crates/harn-vm/src/generated/\n*.bak.harn\n');
          t.write('crates/harn-vm/src/generated/sites.rs', 'let x = BoundaryId::ChatTurnCap;\n');
          t.write(`${HARN}/old.bak.harn`, emission('boundary: "chat_turn_cap",'));
          t.write(`${HARN}/new.harn`, emission('boundary: "chat_turn_cap",'));
        },
        (f) => {
          // Only the untracked new.harn is read: neither generated/ nor the *.bak.harn file.
          changes(f, [['unregistered_site', 'chat_turn_cap', `${HARN}/new.harn`]], [['stale_entry', 'chat_turn_cap', REGISTRY_PATH]]);
        },
        true,
      );
    });

    test('registry drift: an entry removed, duplicated, without id, orphaned, without test or anchors', () => {
      agree(
        (t) => {
          const text = t.read(REGISTRY_PATH);
          const start = text.indexOf('[[boundary]]\nid = "host_event_ingest"');
          const end = text.indexOf('[[boundary]]', start + 1);
          t.write(
            REGISTRY_PATH,
            text.slice(0, start) +
              text.slice(end) +
              [
                '',
                '[[boundary]]',
                'id = "text_tool_parse"',
                `anchors = ["${TOOL_CALLS}"]`,
                `test = "${CONFORMANCE}"`,
                '',
                '[[boundary]]',
                'title = "no id"',
                '',
                '[[boundary]]',
                'id = "zz_orphan"',
                `anchors = ["${TOOL_CALLS}"]`,
                '',
                '[[boundary]]',
                'id = "aa_orphan"',
                'anchors = []',
                'test = ""',
                '',
              ].join('\n'),
          );
        },
        (f) => {
          changes(
            f,
            [
              ['unregistered_boundary', 'host_event_ingest', FUNNEL_PATH],
              ['duplicate_entry', 'text_tool_parse', REGISTRY_PATH],
              ['invalid_entry', '', REGISTRY_PATH],
              ['orphan_entry', 'aa_orphan', REGISTRY_PATH],
              ['orphan_entry', 'zz_orphan', REGISTRY_PATH],
              ['stale_entry', 'aa_orphan', REGISTRY_PATH],
              ['stale_entry', 'zz_orphan', REGISTRY_PATH],
              ['no_test', 'aa_orphan', REGISTRY_PATH],
              ['no_test', 'zz_orphan', REGISTRY_PATH],
              ['no_anchor', 'aa_orphan', REGISTRY_PATH],
            ],
            // The removed entry's own findings go with it.
            [
              ['missing_anchor', 'host_event_ingest', 'crates/harn-vm/src/agent_events/from_host.rs'],
              ['missing_test', 'host_event_ingest', 'crates/harn-vm/src/agent_events/from_host_tests.rs'],
              ['stale_entry', 'host_event_ingest', REGISTRY_PATH],
            ],
          );
        },
      );
    });

    test('examples/drift agrees too, except the anchor that leaves the root', () => {
      const t = tree((tr) => {
        fs.rmSync(tr.root, { recursive: true });
        fs.cpSync(path.join(repoRoot, 'examples', 'drift'), tr.root, { recursive: true });
        git(tr.root, 'init', '-q');
      });
      const mine = ours(t.root);
      assert.deepEqual(difference(mine, upstream(t.root)), {
        onlyOurs: [key(['path_outside_root', 'provider_admission_gate', '../outside.rs'])],
        onlyUpstream: [key(['missing_anchor', 'provider_admission_gate', '../outside.rs'])],
      });
      assert.equal(mine.length, 15);
    });
  });

  // Where we read code instead of lines, on purpose. Each case asserts the exact difference.
  describe('documented differences', () => {
    const site = (p: string, id = 'text_tool_parse'): Triple => ['unregistered_site', id, p];

    test('.harn: `boundary: "id"` in a // comment is not a site (upstream: it is)', () => {
      const p = `${HARN}/commented.harn`;
      differ((t) => t.write(p, `// Reports with boundary: "text_tool_parse", like the parser.\npub fn f() {}\n`), [], [site(p)]);
    });

    test('.harn: `boundary: "id"` inside a string is not a site (upstream: it is)', () => {
      const p = `${HARN}/doc_string.harn`;
      differ(
        (t) => t.write(p, `pub fn help() -> string {\n  return """\n    Emit with boundary: "text_tool_parse", kind and detail.\n    """\n}\n`),
        [],
        [site(p)],
      );
    });

    test('.harn: a `boundary:` payload split over lines is a site (upstream: not)', () => {
      const p = `${HARN}/split.harn`;
      differ((t) => t.write(p, emission('boundary:\n      "text_tool_parse",')), [site(p)], []);
    });

    test('.harn: `boundary: ID` through a const is a site (upstream: not)', () => {
      const p = `${HARN}/via_const.harn`;
      differ((t) => t.write(p, `const TOOL_BOUNDARY = "text_tool_parse"\n\n${emission('boundary: TOOL_BOUNDARY,')}`), [site(p)], []);
    });

    test('.harn: `boundary:"id"` without a space, and a quoted `"boundary":` key, are sites (upstream: not)', () => {
      const p = `${HARN}/spacing.harn`;
      const q = `${HARN}/quoted_key.harn`;
      differ(
        (t) => {
          t.write(p, emission('boundary:"text_tool_parse",'));
          t.write(q, emission('"boundary": "text_tool_parse",'));
        },
        [site(p), site(q)],
        [],
      );
    });

    test('.harn: two `boundary:` fields on one line are two sites (upstream: only the first)', () => {
      const p = `${HARN}/one_line.harn`;
      differ(
        (t) => t.write(p, 'pub fn f() {\n  let a = [{boundary: "text_tool_parse", kind: "dropped"}, {boundary: "chat_turn_cap", kind: "capped"}]\n}\n'),
        [site(p, 'chat_turn_cap')],
        // chat_turn_cap has no other site in the corpus tree: upstream calls it stale.
        [['stale_entry', 'chat_turn_cap', REGISTRY_PATH]],
      );
    });

    test('.harn: `boundary: ""` is an unknown (empty) id (upstream: skipped)', () => {
      const p = `${HARN}/empty_id.harn`;
      differ((t) => t.write(p, emission('boundary: "",')), [['unknown_boundary', '', p]], []);
    });

    test('.harn: a `boundary:` field of a struct literal is not a site (upstream: it is)', () => {
      const p = `${HARN}/struct_field.harn`;
      differ((t) => t.write(p, 'pub fn f() {\n  let e = BoundaryEvent {boundary: "text_tool_parse", kind: "dropped"}\n}\n'), [], [site(p)]);
    });

    test('Rust: `BoundaryId::X` in a comment or a string literal is not a site (upstream: it is)', () => {
      const a = 'crates/harn-vm/src/commented.rs';
      const b = 'crates/harn-vm/src/in_string.rs';
      differ(
        (t) => {
          t.write(a, '// Report through BoundaryId::TextToolParse, as the parser does.\nfn f() {}\n');
          t.write(b, 'const HELP: &str = "use BoundaryId::TextToolParse; to report";\n');
        },
        [],
        [site(a), site(b)],
      );
    });

    test('Rust: `BoundaryId::X` followed by `.`, `}`, `]`, `=>` (no space) is a site (upstream needs `,` `)` `;` a space or EOL)', () => {
      const files = {
        'crates/harn-vm/src/dot.rs': 'let s = BoundaryId::TextToolParse.as_str();\n',
        'crates/harn-vm/src/brace.rs': 'let f = Failure { boundary: BoundaryId::TextToolParse};\n',
        'crates/harn-vm/src/bracket.rs': 'let all = [BoundaryId::TextToolParse];\n',
        'crates/harn-vm/src/arrow.rs': 'match b { BoundaryId::TextToolParse=> 1, _ => 0 };\n',
      };
      differ(
        (t) => Object.entries(files).forEach(([p, text]) => t.write(p, text)),
        Object.keys(files).map((p) => site(p)),
        [],
      );
    });

    test('Rust: a path spaced or split over lines, and a use-group, are sites (upstream: not)', () => {
      const files = {
        'crates/harn-vm/src/spaced.rs': 'let b = BoundaryId :: TextToolParse.as_str();\n',
        'crates/harn-vm/src/split.rs': 'let b = BoundaryId::\n    TextToolParse.as_str();\n',
        'crates/harn-vm/src/group.rs': 'use crate::boundary::BoundaryId::{TextToolParse};\n',
      };
      differ(
        (t) => Object.entries(files).forEach(([p, text]) => t.write(p, text)),
        Object.keys(files).map((p) => site(p)),
        [],
      );
    });

    test('Rust: `OtherBoundaryId::X,` is not a BoundaryId path (upstream: a site of X)', () => {
      const p = 'crates/harn-vm/src/other.rs';
      differ((t) => t.write(p, 'let b = OtherBoundaryId::TextToolParse;\n'), [], [site(p)]);
    });

    test('funnel: an arm with a trailing comment or split over lines is read (upstream: dropped)', () => {
      differ(
        (t) => t.edit(FUNNEL_PATH, 'Self::ChatTurnCap => "chat_turn_cap",', 'Self::ChatTurnCap => // the cap\n                "chat_turn_cap",'),
        [],
        [['orphan_entry', 'chat_turn_cap', REGISTRY_PATH]],
      );
    });

    test('funnel: CRLF line endings read the same arms (upstream reads past `impl BoundaryId` into the later impls)', () => {
      // Without "\n}\n" upstream's body runs to the end of the file: BoundaryFailureKind's `as_str` arms, then
      // its `owner` arms (`Self::Capped => "policy"` overwrites "capped"; the `A | B | … => "harness"` arm
      // becomes one strange variant).
      const extra: Triple[] = ['dropped', 'harness', 'killed', 'policy', 'truncated', 'unrecognized'].map((id) => ['unregistered_boundary', id, FUNNEL_PATH]);
      differ((t) => t.write(FUNNEL_PATH, t.read(FUNNEL_PATH).replace(/\r?\n/g, '\r\n')), [], extra);
    });

    const ABSOLUTE = '/nonexistent-harn-parity/anchor.rs';
    test('registry: an anchor that leaves the root is refused and never read (upstream: read, or missing_anchor)', () => {
      differ(
        (t) => {
          t.write('../outside.rs', 'BoundaryId::TextToolParse,\n');
          t.edit(REGISTRY_PATH, `anchors = ["${TOOL_CALLS}"]`, `anchors = ["${TOOL_CALLS}", "../outside.rs", "${ABSOLUTE}"]`);
        },
        [
          ['path_outside_root', 'text_tool_parse', '../outside.rs'],
          ['path_outside_root', 'text_tool_parse', ABSOLUTE],
        ],
        // Upstream reads ../outside.rs (it exists: no finding) and reports the absolute one as missing.
        [['missing_anchor', 'text_tool_parse', ABSOLUTE]],
      );
    });

    test('registry: schema problems are invalid_entry findings (upstream ignores unknown keys and [[audited]] ids)', () => {
      differ(
        (t) => {
          t.edit(REGISTRY_PATH, 'id = "text_tool_parse"', 'id = "text_tool_parse"\nanchor = "typo"');
          t.edit(REGISTRY_PATH, 'id = "agent_loop_stall"', 'name = "agent_loop_stall"');
        },
        [
          ['invalid_entry', 'text_tool_parse', REGISTRY_PATH], // unknown key `anchor`
          ['invalid_entry', '', REGISTRY_PATH], // unknown key `name`
          ['invalid_entry', '', REGISTRY_PATH], // an [[audited]] entry has no `id`
        ],
        [],
      );
    });
  });
});
