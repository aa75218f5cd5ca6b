// The text format's last line: how many of each severity, in how many files, what the loud-boundary gate
// found on each root (or why it did not run), and what the other diagnostics are, by code.

import { capNoteCounts, MAX_DIAGNOSTICS_PER_FILE, noCounts, SeverityCounts, sumCounts } from '../diagnosticCap';
import { Severity } from '../diagnostics';

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

const SEVERITY_WORD: Record<Severity, [string, string]> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  information: ['info', 'infos'],
  hint: ['hint', 'hints'],
};

/** `3 errors, 1 warning`, then infos and hints when there are any. */
export function severityTotals(total: SeverityCounts): string {
  const parts = [plural(total.error, ...SEVERITY_WORD.error), plural(total.warning, ...SEVERITY_WORD.warning)];
  if (total.information > 0) parts.push(plural(total.information, ...SEVERITY_WORD.information));
  if (total.hint > 0) parts.push(plural(total.hint, ...SEVERITY_WORD.hint));
  return parts.join(', ');
}

/** What the per-file cap left out, said after the rest; empty when nothing. */
export function notShownText(omitted: number): string {
  return omitted > 0 ? `; ${omitted} not shown (at most ${MAX_DIAGNOSTICS_PER_FILE} are listed per file)` : '';
}

/** Diagnostics counted by code and severity, for the summary's list of what they are. */
export class KindCounts {
  private readonly counts = new Map<string, { code: string; severity: Severity; count: number }>();
  /** What `too_many_diagnostics` notes stand for: counted, but of kinds not known here. */
  private readonly notShown = noCounts();

  add(d: { code: string; severity: Severity; data?: unknown }): void {
    const capped = capNoteCounts(d.code, d.data);
    if (capped !== undefined) {
      for (const s of SEVERITIES) this.notShown[s] += capped[s];
      return;
    }
    const key = `${d.severity} ${d.code}`;
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { code: d.code, severity: d.severity, count: 1 });
  }

  get total(): number {
    let sum = sumCounts(this.notShown);
    for (const e of this.counts.values()) sum += e.count;
    return sum;
  }

  /**
   * By severity, most severe first, each with its kinds, the most frequent first, at most `shown` of them:
   * `2 errors (2 syntax_error), 1 info (1 unknown_row_type)`; `none` when empty.
   */
  text(shown = 4): string {
    const parts: string[] = [];
    for (const severity of SEVERITIES) {
      const entries = [...this.counts.values()]
        .filter((e) => e.severity === severity)
        .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
      const unlisted = this.notShown[severity];
      if (entries.length === 0 && unlisted === 0) continue;
      const listed = entries.slice(0, shown).map((e) => `${e.count} ${e.code}`);
      if (entries.length > shown) listed.push(plural(entries.length - shown, 'more kind'));
      if (unlisted > 0) listed.push(`${unlisted} not shown`);
      const count = entries.reduce((sum, e) => sum + e.count, unlisted);
      parts.push(`${plural(count, ...SEVERITY_WORD[severity])} (${listed.join(', ')})`);
    }
    return parts.length ? parts.join(', ') : 'none';
  }
}

/** What the gate did on one root: its findings, or why it did not run. Paths as shown to the user. */
export type GateOutcome = { root: string; ran: true; findings: number } | { root: string; ran: false; reason: string };

export function gateText(outcome: GateOutcome): string {
  return `gate ${outcome.ran ? 'on' : 'not run on'} ${outcome.root}: ${outcome.ran ? plural(outcome.findings, 'finding') : outcome.reason}`;
}

export interface CheckSummary {
  total: SeverityCounts;
  omitted: number;
  harnFiles: number;
  artifactFiles: number;
  /** Training example files (`*.training.json(l)`, or JSON declaring the v1 schema): named only when there are any. */
  trainingFiles?: number;
  gates: GateOutcome[];
  /** Every diagnostic that is not a gate finding. */
  other: KindCounts;
}

/** `3 errors, 1 warning in 12 files (10 .harn, 2 run artifacts); gate on examples/demo: 2 findings; other: 1 error (1 syntax_error)`. */
export function checkSummaryText(s: CheckSummary): string {
  const training = s.trainingFiles ?? 0;
  const trainingText = training > 0 ? `, ${plural(training, 'training example file')}` : '';
  const files = `${plural(s.harnFiles + s.artifactFiles + training, 'file')} (${s.harnFiles} .harn, ${plural(s.artifactFiles, 'run artifact')}${trainingText})`;
  return [`${severityTotals(s.total)} in ${files}`, ...s.gates.map(gateText), `other: ${s.other.text()}`].join('; ') + notShownText(s.omitted);
}
