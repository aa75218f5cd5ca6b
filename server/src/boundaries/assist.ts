// Editor help for boundaries, as pure functions: live checks of a `.harn` text against the registry (with
// their severities), hover text for an id, completion items, and the fixes (minimal registry, funnel or source
// edits) for each finding kind. Markdown and messages take ids, titles and paths from files through
// text/markdown.ts.

import { addBoundaryVariant, boundaryVariantName } from './funnelEdits';
import { closestIds } from './gate';
import { BOUNDARY_KINDS, HarnBoundaryScan } from './harnSites';
import { addAnchor, addBoundaryEntry, removeAnchor, removeEntry, TextEdit } from './registryEdits';
import { BoundaryEntry, BoundarySite, Funnel, Registry, TextRange } from './types';
import { code, link, plain, strong } from '../text/markdown';

export type LiveProblemCode = 'unknown_boundary' | 'boundary_payload_incomplete' | 'invalid_boundary_kind';

export interface LiveProblem {
  code: LiveProblemCode;
  severity: 'error' | 'warning';
  message: string;
  range: TextRange;
  data?: { id: string; suggestions: string[] };
}

/** An id the registry lacks is an error (the gate's finding for it is one); a payload problem is a warning. */
export function liveProblemSeverity(code: LiveProblemCode): 'error' | 'warning' {
  return code === 'unknown_boundary' ? 'error' : 'warning';
}

export function registeredIds(registry: Registry): Set<string> {
  return new Set(registry.boundaries.map((b) => b.id?.value).filter((id): id is string => !!id));
}

/** As-you-type problems in one `.harn` text: ids the registry does not know, payload problems. */
export function liveHarnProblems(scan: HarnBoundaryScan, registry: Registry | undefined): LiveProblem[] {
  const problems: LiveProblem[] = scan.problems.map((p) => ({ code: p.code, severity: liveProblemSeverity(p.code), message: p.message, range: p.range }));
  if (!registry?.parsed) return problems;
  const known = registeredIds(registry);
  for (const ref of scan.references) {
    // `boundary: ""` is an id still being typed (completion offers the ids there).
    if (known.has(ref.id) || ref.id === '') continue;
    const suggestions = closestIds(ref.id, known);
    const hint = suggestions[0] !== undefined ? ` Did you mean ${code(suggestions[0])}?` : '';
    const via = ref.viaConstant ? ` (through ${code(ref.viaConstant)})` : '';
    problems.push({
      code: 'unknown_boundary',
      severity: liveProblemSeverity('unknown_boundary'),
      message: `reports boundary ${code(ref.id)}${via}, which is not in the registry.${hint}`,
      range: ref.range,
      data: { id: ref.id, suggestions },
    });
  }
  return problems;
}

export function findEntry(registry: Registry | undefined, id: string): BoundaryEntry | undefined {
  return registry?.boundaries.find((b) => b.id?.value === id);
}

/**
 * Markdown describing a registered boundary; `uriOf` turns a root-relative path into a `file:` URI. Everything
 * from the registry and the sites (ids, titles, drops, paths, event, marker) goes through the Markdown builder;
 * a path that could leave the root (absolute, or with a `..` segment) is shown, not linked.
 */
export function entryMarkdown(id: string, registry: Registry | undefined, sites: BoundarySite[], uriOf: (relative: string) => string): string {
  const fileLink = (relative: string): string => (staysInside(relative) ? link(relative, uriOf(relative)) : code(relative));
  const entry = findEntry(registry, id);
  if (!entry) {
    const audited = registry?.audited.find((a) => a.id?.value === id);
    if (audited) {
      const anchors = audited.anchors.map((a) => fileLink(a.value)).join(', ');
      return [
        `${strong(id)} — audited boundary: ${plain(audited.title?.value ?? '')}`,
        `Event: ${code(audited.event?.value ?? '?')} · marker ${code(audited.marker?.value ?? '')}`,
        `Anchors: ${anchors || 'none'}`,
      ].join('\n\n');
    }
    return `${strong(id)} is not in the loud-boundary registry.`;
  }
  const parts = [`${strong(id)} — ${entry.title ? plain(entry.title.value) : '(no title)'}`];
  if (entry.drops) parts.push(`Drops: ${plain(entry.drops.value)}`);
  const anchors = entry.anchors.map((a) => fileLink(a.value));
  parts.push(`Anchors: ${anchors.length ? anchors.join(', ') : 'none'}`);
  parts.push(`Test: ${entry.test ? fileLink(entry.test.value) : 'none'}`);
  const where = [...new Set(sites.filter((s) => s.id === id).map((s) => s.path))].sort();
  if (where.length) parts.push(`Reported in: ${where.map(fileLink).join(', ')}`);
  if (entry.event) parts.push(`Event: ${code(entry.event.value)}${entry.wasSilent ? ' · was silent before it was registered' : ''}`);
  return parts.join('\n\n');
}

/** A root-relative path that names a file inside the root: not absolute, no drive, no `..` segment. */
function staysInside(relative: string): boolean {
  if (relative === '' || /^[\\/]/.test(relative) || /^[A-Za-z]:/.test(relative)) return false;
  return !relative.split(/[\\/]/).includes('..');
}

export interface BoundaryCompletion {
  label: string;
  detail: string;
  documentation: string;
}

export function idCompletions(registry: Registry | undefined): BoundaryCompletion[] {
  // `detail` is plain text in LSP; `documentation` is Markdown, so the registry's prose is escaped there.
  return (registry?.boundaries ?? []).flatMap((b) =>
    b.id?.value ? [{ label: b.id.value, detail: b.title?.value ?? '', documentation: b.drops ? `Drops: ${plain(b.drops.value)}` : '' }] : [],
  );
}

export function kindCompletions(): BoundaryCompletion[] {
  return [...BOUNDARY_KINDS].map(([kind, owner]) => ({
    label: kind,
    detail: `owner: ${owner}`,
    documentation: owner === 'policy' ? 'A policy cap ended the output (owner "policy").' : 'The harness lost model output (owner "harness").',
  }));
}

/** The edits of a fix to one file (root-relative). */
export interface FileEdits {
  path: string;
  edits: TextEdit[];
}

/** A fix: edits to one or more files (none empty), titled for the light bulb. */
export interface Fix {
  title: string;
  files: FileEdits[];
  preferred?: boolean;
}

export interface FixContext {
  registryPath: string;
  registryText: string;
  registry: Registry;
  sites: BoundarySite[];
  /** The funnel (boundary.rs) as it is now, when it can be read: registering an id adds its variant there too. */
  funnel?: { path: string; text: string; parsed: Funnel };
}

/** Fixes for a gate or live finding of `kind` about `id`, shown in file `path` (root-relative). */
export function fixesFor(
  kind: string,
  id: string,
  path: string,
  context: FixContext,
  extra: { suggestions?: string[]; anchorPath?: string; idRange?: TextRange; sourceText?: string } = {},
): Fix[] {
  const { registryPath, registryText, registry, funnel } = context;
  const fixes: Fix[] = [];
  // An empty id (`boundary: ""` half typed) is nothing to register: the registry requires a non-empty id.
  if (id === '') return fixes;
  const push = (title: string, files: FileEdits[], preferred = false): void => {
    if (files.length && files.every((f) => f.edits.length)) fixes.push({ title, files, preferred });
  };
  const inRegistry = (edits: TextEdit[]): FileEdits[] => [{ path: registryPath, edits }];
  // Whether the funnel maps a variant to the id (then registering it needs no Rust).
  const inFunnel = funnel?.parsed.arms.some((a) => a.wire === id) ?? false;
  switch (kind) {
    case 'unknown_boundary': {
      for (const [i, suggestion] of (extra.suggestions ?? []).entries()) {
        const edit = extra.idRange && extra.sourceText !== undefined ? replaceHarnString(extra.sourceText, extra.idRange, suggestion) : undefined;
        if (edit) push(`Change to '${suggestion}'`, [{ path, edits: [edit] }], i === 0);
      }
      const entry = addBoundaryEntry(registryText, registry, { id, anchors: [path] });
      const preferred = !extra.suggestions?.length;
      if (inFunnel) {
        push(`Register boundary '${id}' in ${registryPath}`, inRegistry(entry), preferred);
        break;
      }
      // Upstream's checklist: the `BoundaryId` variant (+ ALL + as_str) and the [[boundary]] entry, in one fix.
      const variant = funnel ? addBoundaryVariant(funnel.text, funnel.parsed, id) : [];
      const both = entry.length > 0 && variant.length > 0;
      if (both && funnel)
        push(`Register boundary '${id}' in ${registryPath} and ${funnel.path}`, [...inRegistry(entry), { path: funnel.path, edits: variant }], preferred);
      push(`Register boundary '${id}' in the registry only`, inRegistry(entry), preferred && !both);
      break;
    }
    case 'unregistered_site':
      push(`Add ${path} to the anchors of '${id}'`, inRegistry(addAnchor(registryText, registry, id, path)), true);
      break;
    case 'missing_anchor':
      if (extra.anchorPath)
        push(`Remove the missing anchor ${extra.anchorPath} from '${id}'`, inRegistry(removeAnchor(registryText, registry, id, extra.anchorPath)), true);
      break;
    case 'stale_entry':
      push(`Remove the entry '${id}' from ${registryPath}`, inRegistry(removeEntry(registryText, registry, id)), true);
      break;
    case 'orphan_entry': {
      // The variant is what is missing when something reports the id; else the entry is likely left over.
      const reported = context.sites.some((s) => s.id === id);
      const name = boundaryVariantName(id);
      const entry = findEntry(registry, id);
      if (funnel && name && entry && !inFunnel) {
        // The entry's title documents the variant.
        const edits = addBoundaryVariant(funnel.text, funnel.parsed, id, entry.title?.value);
        push(`Add BoundaryId::${name} for '${id}' to ${funnel.path}`, [{ path: funnel.path, edits }], reported);
      }
      push(`Remove the entry '${id}' from ${registryPath}`, inRegistry(removeEntry(registryText, registry, id)), !reported);
      break;
    }
    case 'unregistered_boundary': {
      const anchors = [...new Set(context.sites.filter((s) => s.id === id).map((s) => s.path))].sort();
      push(`Add a [[boundary]] entry for '${id}'`, inRegistry(addBoundaryEntry(registryText, registry, { id, anchors })), true);
      break;
    }
  }
  return fixes;
}

/** Replaces a `.harn` string literal's content, keeping its quoting (`"…"` or `r"…"`); undefined when the id comes through a constant. */
function replaceHarnString(text: string, range: TextRange, value: string): TextEdit | undefined {
  const original = text.slice(range.start, range.end);
  if (!/^(r#*)?"/.test(original)) return undefined;
  const raw = /^r#*"/.exec(original);
  if (raw) {
    const hashes = raw[0].length - 2;
    const closing = '"' + '#'.repeat(hashes);
    return { start: range.start, end: range.end, newText: `${raw[0]}${value}${closing}` };
  }
  const escaped = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '\\$');
  return { start: range.start, end: range.end, newText: `"${escaped}"` };
}
