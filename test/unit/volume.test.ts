// Domain modules on volume (issue 9, "caps instead of crashes"): inputs generated here, far bigger than
// any real one, must answer without overflowing the stack and in linear time (a quadratic step on these
// sizes would not finish within the test's timeout).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { addBoundaryVariant } from '../../server/src/boundaries/funnelEdits';
import { closestIds, evaluateGate } from '../../server/src/boundaries/gate';
import { parseRegistry, parseRegistrySteps, parseRegistryWhole, RegistryCache } from '../../server/src/boundaries/registry';
import { parseFunnel } from '../../server/src/boundaries/rust';
import { Steps } from '../../server/src/boundaries/steps';
import { BoundarySite } from '../../server/src/boundaries/types';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS } from '../../server/src/boundaries/workspaceGate';
import { runInSlices } from '../../server/src/features/slices';
import { artifactOutline, capOutline, OutlineRow } from '../../server/src/artifacts/outline';
import { cappedOutline } from '../../server/src/harn/outline';
import { parse } from '../../server/src/harn/parser';
import { MAX_OUTLINE_SYMBOLS } from '../../server/src/outlineCap';

describe('funnel edits on a huge funnel', () => {
  test('an arm of 130,000 variants (Math.min(...variants) overflowed; a scan per variant was quadratic)', { timeout: 60_000 }, () => {
    const n = 130_000;
    const variants = Array.from({ length: n }, (_, i) => `    /// Variant ${i}.\n    V${i},`).join('\n');
    const pattern = Array.from({ length: n }, (_, i) => `Self::V${i}`).join(' | ');
    const text = `pub enum BoundaryId {\n${variants}\n}\n\nimpl BoundaryId {\n    pub fn as_str(self) -> &'static str {\n        match self {\n            ${pattern} => "shared",\n        }\n    }\n}\n`;
    const funnel = parseFunnel(text);
    assert.equal(funnel.arms.length, n);
    const edits = addBoundaryVariant(text, funnel, 'new_one');
    assert.deepEqual(
      edits.map((e) => e.newText),
      ['\n    /// TODO: describe this boundary\n    NewOne,', '\n            Self::NewOne => "new_one",'],
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// The registry, parsed one entry at a time

const entry = (i: number, extra = ''): string =>
  `[[boundary]]\nid = "b_${i}"\ntitle = "Boundary ${i}"\nanchors = ["crates/a_${i % 7}.rs"]\ntest = "crates/t.rs"\n${extra}\n`;
const entries = (n: number, extra = ''): string => Array.from({ length: n }, (_, i) => entry(i, extra)).join('');
const AUDITED = '[[audited]]\nid = "loud"\nanchors = ["crates/l.rs"]\nmarker = "m"\n\n';

/** Texts where splitting at entry headers must give exactly the whole parse (some of them by falling back to it). */
const REGISTRY_CASES: Record<string, string> = {
  'entries and audited ones': entries(40) + AUDITED + entries(3),
  'a prefix with comments, root keys and another table': '# Registry\nschema = 1\n[meta]\nowner = "x"\n\n' + entries(5),
  'CRLF line endings': (entries(5) + AUDITED).replace(/\n/g, '\r\n'),
  'a byte order mark': '\uFEFF' + entries(5),
  'a multi-line basic string holding a header line': entry(0, 'notes = """\n[[boundary]]\nid = "not an entry"\n"""') + entries(3),
  'a multi-line literal string holding a header line': entry(0, "notes = '''\n[[audited]]\n'''") + entries(3),
  'quotes and escapes in one-line strings': entry(0, 'notes = "a \\"\\"\\" b # c [[boundary]]"\ndrops = \'"""\'') + entries(3),
  'indented headers with comments': '  [[boundary]]  # first\nid = "x"\n\n\t[[audited]]\t#\nid = "y"\n' + entries(2),
  'a header inside a comment': '# [[boundary]]\n' + entries(2) + '# [[boundary]] id = "z"\n',
  'identical entries (duplicates)': entries(3) + entries(3),
  'schema problems inside entries': entry(0, 'colour = "red"\nwas_silent = "no"\nanchors.x = 1') + entries(2),
  'a sub-table after the entries (parsed whole)': entries(3) + '[boundary.extra]\nx = 1\n',
  'a table after the entries (parsed whole)': entries(3) + '[meta]\nx = 1\n',
  'a prefix naming a section (parsed whole)': 'boundary = 1\n' + entries(2),
  'a prefix table naming a section (parsed whole)': '[audited]\nx = 1\n' + entries(2),
  'a syntax error in an entry in the middle': entries(3) + '[[boundary]]\nid = "unterminated\n\n' + entries(3),
  'a header line inside a multi-line array': entry(0, 'drops = [\n[[boundary]]\n]') + entries(2),
  'a nested array on its own line (parsed whole)': entry(0, 'anchors = [\n  ["x"],\n]') + entries(2),
  'an unterminated multi-line string': entries(2) + entry(9, 'notes = """\n') + entries(2),
};

describe('parseRegistry one entry at a time: the same registry as parsed whole', () => {
  for (const [name, text] of Object.entries(REGISTRY_CASES)) {
    test(name, () => {
      assert.deepEqual(parseRegistry(text), parseRegistryWhole(text));
    });
  }

  test('any mix of those fragments (property)', () => {
    const fragments = [
      entry(1),
      entry(2, 'notes = """\n[[boundary]]\n"""'),
      AUDITED,
      '# [[boundary]]\n',
      '\n',
      'x = 1\n',
      '[meta]\n',
      '[boundary.sub]\n',
      '"""\n',
      "'''\n",
      'id = "a"\n',
      '[[boundary]]\n',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 12 }), fc.boolean(), (parts, crlf) => {
        const text = crlf ? parts.join('').replace(/\n/g, '\r\n') : parts.join('');
        assert.deepEqual(parseRegistry(text), parseRegistryWhole(text));
      }),
      { numRuns: 400 },
    );
  });

  test('with a cache: an edit re-parses one entry, entries before it are the same objects, the rest moved right', () => {
    const cache: RegistryCache = { pieces: new Map() };
    const before = entries(200);
    const first = parseRegistry(before, cache);
    const after = before.replace('id = "b_100"', 'id = "b_100_renamed"');
    const second = parseRegistry(after, cache);
    assert.deepEqual(second, parseRegistryWhole(after));
    assert.equal(second.boundaries[99], first.boundaries[99], 'an entry before the edit is reused as it is');
    assert.notEqual(second.boundaries[150], first.boundaries[150], 'one after it is moved');
    assert.equal(second.boundaries[100]?.id?.value, 'b_100_renamed');
    assert.equal(cache.pieces.size, 200);
  });

  test('50,000 entries: yields while it parses, and gives every entry', { timeout: 120_000 }, () => {
    const text = entries(50_000);
    const steps = parseRegistrySteps(text);
    let yields = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) yields++;
    assert.equal(next.value.boundaries.length, 50_000);
    assert.deepEqual(next.value.problems, []);
    assert.ok(yields >= 50_000 / 8, `${yields} yields`);
    assert.deepEqual(next.value.boundaries[49_999]?.id?.range, { start: text.lastIndexOf('"b_49999"'), end: text.lastIndexOf('"b_49999"') + 9 });
  });
});

// ---------------------------------------------------------------------------------------------------
// The gate: linear in entries, sites and variants

/** Objects whose `prop` counts its reads. */
function counted<T extends object>(items: T[], prop: keyof T & string): { items: T[]; reads: () => number } {
  let reads = 0;
  const out = items.map((item) => {
    const value: unknown = item[prop];
    const copy = { ...item };
    Object.defineProperty(copy, prop, {
      get: () => {
        reads++;
        return value;
      },
      enumerable: true,
    });
    return copy;
  });
  return { items: out, reads: () => reads };
}

describe('evaluateGate is linear', () => {
  const N = 2000;
  const registryText = Array.from({ length: N }, (_, i) => `[[boundary]]\nid = "b_${i}"\nanchors = ["s/${i % 10}.rs"]\ntest = "t.rs"\n`).join('\n');
  const funnel = parseFunnel(
    `pub enum BoundaryId {\n${Array.from({ length: N }, (_, i) => `    B${i},`).join('\n')}\n}\nimpl BoundaryId {\n    pub fn as_str(self) -> &'static str {\n        match self {\n${Array.from({ length: N }, (_, i) => `            Self::B${i} => "b_${i}",`).join('\n')}\n        }\n    }\n}\n`,
  );
  const sites: BoundarySite[] = Array.from({ length: N }, (_, i) => ({ path: `s/${i % 10}.rs`, id: `b_${i}`, range: { start: i, end: i + 1 } }));

  test(`each site's id and each variant's name is read a few times, not once per entry (${N} of each)`, () => {
    const countedSites = counted(sites, 'id');
    const countedVariants = counted(funnel.enumVariants, 'name');
    const result = evaluateGate({
      registryPath: 'r.toml',
      funnelPath: 'f.rs',
      registry: parseRegistry(registryText),
      funnel: { ...funnel, enumVariants: countedVariants.items },
      sites: countedSites.items,
      existing: new Set(['t.rs', ...Array.from({ length: 10 }, (_, i) => `s/${i}.rs`)]),
      contents: new Map([['t.rs', sites.map((s) => s.id).join(' ')]]),
      refused: new Map(),
    });
    assert.deepEqual(result.findings, []);
    assert.ok(countedSites.reads() <= 3 * N, `site ids read ${countedSites.reads()} times`);
    assert.ok(countedVariants.reads() <= 2 * N, `variant names read ${countedVariants.reads()} times`);
  });

  test('the same findings, in the same order, when some entries are wrong', () => {
    const broken = registryText.replace('id = "b_7"', 'id = "b_7x"').replace('anchors = ["s/3.rs"]', 'anchors = ["s/4.rs"]');
    const input = {
      registryPath: 'r.toml',
      funnelPath: 'f.rs',
      registry: parseRegistry(broken),
      funnel,
      sites,
      existing: new Set(['t.rs', ...Array.from({ length: 10 }, (_, i) => `s/${i}.rs`)]),
      contents: new Map([['t.rs', sites.map((s) => s.id).join(' ')]]),
      refused: new Map<string, string>(),
    };
    assert.deepEqual(
      evaluateGate(input).findings.map((f) => `${f.kind} ${f.id} @ ${f.path}`),
      [
        'unregistered_boundary b_7 @ f.rs',
        'orphan_entry b_7x @ r.toml',
        'unregistered_site b_3 @ s/3.rs',
        'stale_entry b_7x @ r.toml',
        'inert_test b_7x @ t.rs',
        'unknown_boundary b_7 @ s/7.rs',
      ],
    );
  });
});

describe('closestIds', () => {
  /** The plain edit distance, for reference. */
  function distance(a: string, b: string): number {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0] ?? 0;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j] ?? 0;
        row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length] ?? 0;
  }
  function reference(id: string, candidates: string[], limit = 3): string[] {
    const budget = Math.max(2, Math.floor(id.length / 3));
    return candidates
      .map((candidate) => ({ candidate, d: distance(id, candidate) }))
      .filter((s) => s.d > 0 && s.d <= budget)
      .sort((a, b) => a.d - b.d || a.candidate.localeCompare(b.candidate))
      .slice(0, limit)
      .map((s) => s.candidate);
  }

  test('the same answer as the plain edit distance (property)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_'), maxLength: 14 });
    fc.assert(
      fc.property(word, fc.uniqueArray(word, { maxLength: 40 }), (id, candidates) => {
        assert.deepEqual(closestIds(id, candidates), reference(id, candidates));
      }),
      { numRuns: 500 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Running in slices

describe('the gate in steps', () => {
  test('runSteps yields between entries and files, and gives what run() gives', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-steps-'));
    try {
      const n = 3000;
      const write = (rel: string, text: string): void => {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      };
      write(
        DEFAULT_GATE_SETTINGS.registryPath,
        Array.from({ length: n }, (_, i) => `[[boundary]]\nid = "b_${i}"\nanchors = ["crates/s${i % 30}.rs"]\ntest = "crates/t.rs"\n`).join('\n'),
      );
      write(
        DEFAULT_GATE_SETTINGS.funnelPath,
        `pub enum BoundaryId {\n${Array.from({ length: n }, (_, i) => `    B${i},`).join('\n')}\n}\nimpl BoundaryId {\n    pub fn as_str(self) -> &'static str {\n        match self {\n${Array.from({ length: n }, (_, i) => `            Self::B${i} => "b_${i}",`).join('\n')}\n        }\n    }\n}\n`,
      );
      for (let f = 0; f < 30; f++) {
        const calls = Array.from({ length: n / 30 }, (_, k) => `    BoundaryFailure::new(BoundaryId::B${f + 30 * k}).report();`);
        write(`crates/s${f}.rs`, `fn f() {\n${calls.join('\n')}\n}\n`);
      }
      write('crates/t.rs', Array.from({ length: n }, (_, i) => `// b_${i}`).join('\n'));
      const steps = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS).runSteps();
      let yields = 0;
      let next = steps.next();
      for (; !next.done; next = steps.next()) yields++;
      assert.ok(yields > n / 8, `${yields} yields`);
      assert.deepEqual(next.value.result.findings, []);
      assert.deepEqual(next.value, new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS).run());
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('runInSlices: runs to the end, or stops at the first yield after it is cancelled', async () => {
    let taken = 0;
    function* work(n: number): Steps<number> {
      for (let i = 0; i < n; i++) {
        taken++;
        yield;
      }
      return n;
    }
    assert.equal(await runInSlices(work(1000), () => false), 1000);
    taken = 0;
    let cancelled = false;
    const running = runInSlices(work(1_000_000), () => cancelled, 0);
    cancelled = true;
    assert.equal(await running, undefined);
    assert.ok(taken < 1_000_000, `${taken} steps taken`);
  });
});

// ---------------------------------------------------------------------------------------------------
// Outlines: at most 5,000 symbols, then how many more

/** A one-line `.harn` text of `let aN = N; ` until it is at least `chars` long. */
function oneLineLets(chars: number): { text: string; count: number; offsetOf: (i: number) => number } {
  const parts: string[] = [];
  const offsets: number[] = [];
  let length = 0;
  while (length < chars) {
    const part = `let a${parts.length} = ${parts.length}; `;
    offsets.push(length);
    parts.push(part);
    length += part.length;
  }
  return { text: parts.join(''), count: parts.length, offsetOf: (i) => offsets[i] ?? -1 };
}

const countSymbols = (symbols: { children: unknown[] }[]): number => symbols.reduce((n, s) => n + 1 + countSymbols(s.children as { children: unknown[] }[]), 0);

describe('the .harn outline is capped', () => {
  test('a 20 MB one-line file of 900,000 declarations: the first 5,000, the rest only counted', { timeout: 120_000 }, () => {
    const { text, count, offsetOf } = oneLineLets(20_000_000);
    const outline = cappedOutline(parse(text).file, text);
    assert.equal(outline.symbols.length, MAX_OUTLINE_SYMBOLS);
    assert.equal(outline.omitted, count - MAX_OUTLINE_SYMBOLS);
    assert.equal(outline.firstOmitted, offsetOf(5000));
    assert.deepEqual(
      [outline.symbols[0], outline.symbols.at(-1)].map((s) => s && `${s.kind} ${s.name} ${s.start}-${s.end}`),
      [`constant a0 0-${'let a0 = 0'.length}`, `constant a4999 ${offsetOf(4999)}-${offsetOf(4999) + 'let a4999 = 4999'.length}`],
    );
  });

  test('a parent before its children: a struct of 6,000 fields keeps the struct and 4,999 fields', () => {
    const text = `struct Big {\n${Array.from({ length: 6000 }, (_, i) => `  f${i}: int`).join('\n')}\n}\nfn after() {\n  return 1\n}\n`;
    const outline = cappedOutline(parse(text).file, text);
    assert.equal(countSymbols(outline.symbols), MAX_OUTLINE_SYMBOLS);
    assert.equal(outline.symbols.length, 1);
    assert.equal(outline.symbols[0]?.children.length, 4999);
    assert.equal(outline.omitted, 6000 - 4999 + 1);
    assert.equal(outline.firstOmitted, text.indexOf('f4999'));
  });

  test('names and details stay short whatever the source', () => {
    const longName = 'n'.repeat(1_000_000);
    const params = Array.from({ length: 100_000 }, (_, i) => `p${i}`).join(', ');
    const text = `pipeline ${longName}(${params}) {\n  return 1\n}\nlet x: ${'{a: int, '.repeat(10_000)}b: int${'}'.repeat(10_000)} = nil\n`;
    const { symbols } = cappedOutline(parse(text).file, text);
    assert.equal(symbols[0]?.name.length, 120);
    assert.ok(symbols[0]?.name.endsWith('…'));
    for (const s of symbols) assert.ok(s.detail.length <= 80, `${s.name.slice(0, 10)}: ${s.detail.length} characters`);
    assert.match(symbols[0]?.detail ?? '', /^\(p0, p1, p2, .*…$/);
  });
});

describe('the artifacts outline is capped', () => {
  test('7,000 messages of one session: 5,000 nodes in document order, then the count of the rest', () => {
    const rows: OutlineRow[] = Array.from({ length: 7000 }, (_, line) => ({
      line,
      row: { type: 'message', session_id: 's', role: 'user', content: `m${line}`, message_index: line },
    }));
    const full = artifactOutline(rows, 'transcript');
    const total = countSymbols(full);
    const capped = capOutline(full);
    assert.equal(countSymbols(capped.nodes), MAX_OUTLINE_SYMBOLS);
    assert.equal(capped.omitted, total - MAX_OUTLINE_SYMBOLS);
    assert.equal(typeof capped.firstOmitted, 'number');
    assert.deepEqual(capOutline(full, total), { nodes: full, omitted: 0, firstOmitted: undefined });
  });
});
