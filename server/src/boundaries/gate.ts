// The loud-boundary gate as a pure function over gathered inputs: the same rules, finding kinds,
// messages and order as upstream's scripts/check_loud_boundaries.harn (`evaluate`), plus where each
// finding belongs in the editor (the registry entry, anchor or test string; the `.harn` id; the
// `BoundaryId::X` token).

import { MAX_DIAGNOSTICS_PER_FILE } from '../diagnosticCap';
import { runSteps, StepCounter, Steps } from './steps';
import { Funnel, FunnelArm, FindingKind, Registry, BoundarySite, TextRange, LocatedString, BoundaryEntry } from './types';

export interface GateInput {
  registryPath: string;
  funnelPath: string;
  registry: Registry;
  funnel: Funnel;
  /** Construction sites found in the scanned files, exempt paths (funnel, tests) already removed. */
  sites: BoundarySite[];
  /** Referenced paths (anchors, tests, audited anchors) that exist as files inside the root. */
  existing: ReadonlySet<string>;
  /** The text of referenced existing files that the test and marker checks read. */
  contents: ReadonlyMap<string, string>;
  /** Referenced paths that were not read because they leave the root, with the reason. */
  refused: ReadonlyMap<string, string>;
}

/** `internal_error`: scanning one file failed (a bug of ours); said on that file, the other files still checked.
 *  `unreadable_file`: the registry or the funnel is not a regular file (a FIFO, a folder, a device). */
export type GateFindingKind = FindingKind | 'path_outside_root' | 'toml_syntax' | 'missing_registry' | 'missing_funnel' | 'internal_error' | 'unreadable_file';

export interface Finding {
  kind: GateFindingKind;
  id: string;
  /** The path upstream prints (`[kind] id @ path`). */
  path: string;
  message: string;
  /** Where the finding is shown and fixed: a file and the ranges in it (several for repeated mentions). */
  location: { path: string; ranges: TextRange[] };
}

export interface GateResult {
  findings: Finding[];
  /** True when the gate could not run (missing or unparsable registry, missing or vacuous funnel). */
  refused: boolean;
  boundaryCount: number;
  auditedCount: number;
}

const at = (path: string, range: TextRange | undefined): { path: string; ranges: TextRange[] } => ({ path, ranges: range ? [range] : [] });

/** Ranges of an entry to point at when the finding is about the entry as a whole. */
function entryRange(entry: BoundaryEntry): TextRange {
  return entry.id?.range ?? entry.headerRange;
}

export function evaluateGate(input: GateInput): GateResult {
  return runSteps(evaluateGateSteps(input));
}

/**
 * evaluateGate in steps (steps.ts), yielding every STEP_BATCH entries, arms, sites or findings. Linear in the
 * registry, the funnel and the sites: the sites are indexed by id once, the enum's variants by name once.
 */
export function* evaluateGateSteps(input: GateInput): Steps<GateResult> {
  const { registry, funnel, registryPath, funnelPath } = input;
  const step = new StepCounter();
  const findings: Finding[] = [];
  const result = (refused: boolean): GateResult => ({
    findings,
    refused,
    boundaryCount: registry.boundaries.length,
    auditedCount: registry.audited.length,
  });

  if (!registry.parsed) {
    for (const p of registry.problems) {
      findings.push({
        kind: 'toml_syntax',
        id: '',
        path: registryPath,
        message: `failed to parse ${registryPath}: ${p.message}`,
        location: at(registryPath, p.range),
      });
    }
    return result(true);
  }
  if (funnel.arms.length === 0) {
    findings.push({
      kind: 'vacuous_funnel',
      id: '',
      path: funnelPath,
      message: `could not read any \`Self::Variant => "wire"\` arms from ${funnelPath}; the gate would pass vacuously`,
      location: at(funnelPath, { start: 0, end: 0 }),
    });
    return result(true);
  }

  // Schema problems come first, except a [[boundary]] entry's missing or empty id, which upstream reports
  // itself (below). An [[audited]] entry's missing id is kept: upstream has no finding for it.
  for (const p of registry.problems) {
    if (step.tick()) yield;
    if (/^a \[\[boundary\]\] entry has (no|an empty) `id`$/.test(p.message)) continue;
    findings.push({ kind: 'invalid_entry', id: p.id ?? '', path: registryPath, message: p.message, location: at(registryPath, p.range) });
  }

  // registered_ids: blank and duplicate ids.
  const registered = new Map<string, BoundaryEntry>();
  for (const entry of registry.boundaries) {
    if (step.tick()) yield;
    const id = entry.id?.value ?? '';
    if (id === '') {
      findings.push({
        kind: 'invalid_entry',
        id: '',
        path: registryPath,
        message: 'a [[boundary]] entry has no `id`',
        location: at(registryPath, entry.headerRange),
      });
    } else if (registered.has(id)) {
      findings.push({ kind: 'duplicate_entry', id, path: registryPath, message: 'registered twice', location: at(registryPath, entryRange(entry)) });
    } else {
      registered.set(id, entry);
    }
  }

  // Rule 1: the enum and the registry correspond 1:1 (wire ids read from the `as_str` arms). Upstream keeps
  // the arms and the registered ids in Harn dicts, which iterate in key order: variants sorted (the last arm
  // of a variant wins), then registered ids sorted.
  const enumIds = new Set<string>();
  const byVariant = new Map<string, FunnelArm>();
  for (const arm of funnel.arms) byVariant.set(arm.variant, arm);
  // The first declaration of each variant name (as a search of the list would find it).
  const declared = new Map<string, TextRange>();
  for (const v of funnel.enumVariants) if (!declared.has(v.name)) declared.set(v.name, v.range);
  for (const arm of sortByCodePoints([...byVariant.values()], (a) => a.variant)) {
    if (step.tick()) yield;
    enumIds.add(arm.wire);
    if (!registered.has(arm.wire)) {
      findings.push({
        kind: 'unregistered_boundary',
        id: arm.wire,
        path: funnelPath,
        message: `BoundaryId::${arm.variant} has no [[boundary]] entry`,
        // On the enum variant where it is declared, else on its `as_str` arm.
        location: at(funnelPath, declared.get(arm.variant) ?? arm.variantRange),
      });
    }
  }
  for (const [id, entry] of sortByCodePoints([...registered], ([id]) => id)) {
    if (step.tick()) yield;
    if (!enumIds.has(id)) {
      findings.push({
        kind: 'orphan_entry',
        id,
        path: registryPath,
        message: 'no BoundaryId variant maps to this id',
        location: at(registryPath, entryRange(entry)),
      });
    }
  }

  // Rules 2, 3 and 5, per entry (duplicates included, as upstream), with each id's live sites by path.
  const live = new Map<string, Map<string, BoundarySite[]>>();
  for (const site of input.sites) {
    if (step.tick()) yield;
    let byPath = live.get(site.id);
    if (!byPath) live.set(site.id, (byPath = new Map<string, BoundarySite[]>()));
    const list = byPath.get(site.path);
    if (list) list.push(site);
    else byPath.set(site.path, [site]);
  }
  for (const entry of registry.boundaries) {
    if (step.tick()) yield;
    const id = entry.id?.value ?? '';
    if (id === '') continue;
    anchorFindings(input, entry, id, live.get(id), findings);
    testFindings(input, entry, id, findings);
  }

  // Rule 4: a site naming an id nobody registered.
  for (const [key, group] of groupSites(input.sites)) {
    if (step.tick()) yield;
    const [path, id] = splitKey(key);
    if (registered.has(id)) continue;
    findings.push({
      kind: 'unknown_boundary',
      id,
      path,
      message: `reports boundary \`${id}\`, which is not in the registry`,
      location: { path, ranges: group.map((s) => s.range) },
    });
  }

  yield* auditedFindings(input, findings, step);
  return result(false);
}

/** Code point (= UTF-8 byte) order, as Harn sorts strings and orders dict keys. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    // i < n, so both are defined; the fallback is never used.
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * Sorts by compareCodePoints of a key. Without surrogates (the usual case) code point order is the order of
 * UTF-16 code units, which the engine compares natively and much faster.
 */
function sortByCodePoints<T>(items: T[], key: (item: T) => string): T[] {
  if (items.some((item) => SURROGATE.test(key(item)))) return items.sort((a, b) => compareCodePoints(key(a), key(b)));
  return items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

const SURROGATE = /[\uD800-\uDFFF]/;

const KEY_SEPARATOR = '\u0000';
const splitKey = (key: string): [string, string] => key.split(KEY_SEPARATOR) as [string, string];

/** Sites grouped by (path, id), keeping the order in which each pair is first seen (upstream's `unique()`). */
function groupSites(sites: BoundarySite[]): Map<string, BoundarySite[]> {
  const groups = new Map<string, BoundarySite[]>();
  for (const site of sites) {
    const key = site.path + KEY_SEPARATOR + site.id;
    const group = groups.get(key);
    if (group) group.push(site);
    else groups.set(key, [site]);
  }
  return groups;
}

/** Refused paths get their own finding and no other (they were never looked at). */
function refusedFinding(input: GateInput, located: LocatedString, id: string, findings: Finding[]): boolean {
  const reason = input.refused.get(located.value);
  if (reason === undefined) return false;
  findings.push({ kind: 'path_outside_root', id, path: located.value, message: reason, location: at(input.registryPath, located.range) });
  return true;
}

function anchorFindings(input: GateInput, entry: BoundaryEntry, id: string, live: ReadonlyMap<string, BoundarySite[]> | undefined, findings: Finding[]): void {
  const { registryPath } = input;
  if (entry.anchors.length === 0) {
    findings.push({
      kind: 'no_anchor',
      id,
      path: registryPath,
      message: 'entry declares no `anchors`',
      location: at(registryPath, entry.anchorsRange ?? entryRange(entry)),
    });
  }
  const anchorSet = new Set<string>();
  for (const anchor of entry.anchors) {
    anchorSet.add(anchor.value);
    if (refusedFinding(input, anchor, id, findings)) continue;
    if (!input.existing.has(anchor.value)) {
      findings.push({ kind: 'missing_anchor', id, path: anchor.value, message: 'anchor file does not exist', location: at(registryPath, anchor.range) });
    }
  }
  if (live === undefined || live.size === 0) {
    findings.push({
      kind: 'stale_entry',
      id,
      path: registryPath,
      message: 'no file constructs this boundary any more',
      location: at(registryPath, entryRange(entry)),
    });
  }
  for (const [path, sites] of [...(live ?? [])].sort(([x], [y]) => compareCodePoints(x, y))) {
    if (anchorSet.has(path)) continue;
    findings.push({
      kind: 'unregistered_site',
      id,
      path,
      message: `constructs \`${id}\` but is not one of its registered anchors`,
      location: { path, ranges: sites.map((s) => s.range) },
    });
  }
}

function testFindings(input: GateInput, entry: BoundaryEntry, id: string, findings: Finding[]): void {
  const { registryPath } = input;
  const test = entry.test;
  if (!test || test.value === '') {
    findings.push({
      kind: 'no_test',
      id,
      path: registryPath,
      message: 'entry declares no `test`',
      location: at(registryPath, test?.range ?? entryRange(entry)),
    });
    return;
  }
  if (refusedFinding(input, test, id, findings)) return;
  if (!input.existing.has(test.value)) {
    findings.push({ kind: 'missing_test', id, path: test.value, message: 'test file does not exist', location: at(registryPath, test.range) });
    return;
  }
  if (!(input.contents.get(test.value) ?? '').includes(id)) {
    findings.push({ kind: 'inert_test', id, path: test.value, message: `test file never mentions \`${id}\``, location: at(registryPath, test.range) });
  }
}

function* auditedFindings(input: GateInput, findings: Finding[], step: StepCounter): Steps<void> {
  for (const entry of input.registry.audited) {
    if (step.tick()) yield;
    const id = entry.id?.value ?? '';
    const marker = entry.marker?.value ?? '';
    for (const anchor of entry.anchors) {
      if (refusedFinding(input, anchor, id, findings)) continue;
      if (!input.existing.has(anchor.value)) {
        findings.push({
          kind: 'missing_audited_anchor',
          id,
          path: anchor.value,
          message: 'audited anchor file does not exist',
          location: at(input.registryPath, anchor.range),
        });
      } else if (marker !== '' && !(input.contents.get(anchor.value) ?? '').includes(marker)) {
        findings.push({
          kind: 'audited_event_gone',
          id,
          path: anchor.value,
          message: `no longer contains \`${marker}\` — the boundary may have gone silent`,
          location: at(input.registryPath, anchor.range),
        });
      }
    }
  }
}

/**
 * The registered ids closest to `id` by edit distance (at most a third of its length), closest first. Each
 * candidate costs little beyond the budget: one whose length alone differs by more is skipped, and a distance
 * stops being computed once every way through it exceeds the budget (a 50,000-entry registry is scanned per
 * unknown id as you type).
 */
export function closestIds(id: string, candidates: Iterable<string>, limit = 3): string[] {
  const scored: { candidate: string; distance: number }[] = [];
  const budget = Math.max(2, Math.floor(id.length / 3));
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - id.length) > budget) continue;
    const distance = editDistanceWithin(id, candidate, budget);
    if (distance > 0 && distance <= budget) scored.push({ candidate, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map((s) => s.candidate);
}

/** The edit distance of a and b when it is at most `budget`, else some number above it. */
function editDistanceWithin(a: string, b: string, budget: number): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    // Every index read is in [0, b.length]; the fallbacks are never used.
    let diagonal = row[0] ?? 0;
    row[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      const cell = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      row[j] = cell;
      if (cell < best) best = cell;
      diagonal = above;
    }
    // Distances never decrease down the rows: past the budget here, past it at the end.
    if (best > budget) return budget + 1;
  }
  return row[b.length] ?? 0;
}

/**
 * Upstream's text output: the OK line, or the failure header and one line per finding, or — when the gate
 * could not run (unparsable registry, vacuous funnel, missing or refused file) — upstream's `::error::` line.
 */
export function renderGateText(result: GateResult, registryPath: string, perFile = MAX_DIAGNOSTICS_PER_FILE): string {
  if (result.refused) return result.findings.map((f) => `::error::${f.message}`).join('\n');
  if (result.findings.length === 0) {
    return `loud-boundary registry OK (${result.boundaryCount} funnelled boundary(ies), ${result.auditedCount} audited)`;
  }
  const lines = [`::error::loud-boundary registry failed (${result.findings.length} finding(s)):`];
  // Bounded as every report is (diagnosticCap.ts): at most `perFile` lines per file where findings are shown.
  const listed = new Map<string, number>();
  for (const f of result.findings) {
    const n = listed.get(f.location.path) ?? 0;
    listed.set(f.location.path, n + 1);
    if (n < perFile) lines.push(`  [${f.kind}] ${f.id} @ ${f.path}: ${f.message}`);
  }
  for (const [where, n] of listed) {
    if (n > perFile) lines.push(`  … ${n - perFile} more finding(s) in ${where} not shown (at most ${perFile} are listed per file)`);
  }
  lines.push(
    `hint: a boundary that can drop model output must report through crate::boundary::BoundaryFailure and be listed in ${registryPath}. See the header of that file for the checklist.`,
  );
  return lines.join('\n');
}
