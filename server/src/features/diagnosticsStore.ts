// One place that publishes diagnostics: each producer (a provider's live checks, the gate's workspace
// findings, files validated from disk) owns a bucket per document, and a document's published list is
// the union of its buckets — capped here, the editor's one place for it (diagnosticCap.ts): each bucket
// when it is set, the union when it is published, so a document never shows more than
// MAX_DIAGNOSTICS_PER_FILE diagnostics (errors kept before warnings, across buckets) and one note.

import { Connection, Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { capNoteDiagnostic, CapView, DiagnosticCap } from '../diagnosticCap';
import { Severity } from '../diagnostics';
import { toLspDiagnostic } from '../providers/convert';

/** A provider's name, or the name of a workspace-wide producer (`gate`). */
export type Bucket = string;

/** The workspace check's bucket (workspaceScan.ts): a closed file's diagnostics from disk, hidden while it is open. */
export const DISK_BUCKET: Bucket = 'disk';

export class DiagnosticsStore {
  private readonly byUri = new Map<string, Map<Bucket, Diagnostic[]>>();
  /** Documents whose live checks have published: their disk bucket describes a text the editor no longer shows. */
  private readonly live = new Set<string>();

  constructor(private readonly connection: Pick<Connection, 'sendDiagnostics'>) {}

  /** Replaces one bucket of one document and publishes the document. */
  set(uri: string, bucket: Bucket, diagnostics: Diagnostic[], version?: number): void {
    let buckets = this.byUri.get(uri);
    if (!buckets) this.byUri.set(uri, (buckets = new Map<Bucket, Diagnostic[]>()));
    buckets.set(bucket, capped(diagnostics));
    this.publish(uri, version);
  }

  /** Replaces several buckets of one document and publishes it once (one check, one publication). */
  setBuckets(uri: string, next: ReadonlyMap<Bucket, Diagnostic[]>, version?: number): void {
    let buckets = this.byUri.get(uri);
    if (!buckets) this.byUri.set(uri, (buckets = new Map<Bucket, Diagnostic[]>()));
    for (const [bucket, diagnostics] of next) buckets.set(bucket, capped(diagnostics));
    this.publish(uri, version);
  }

  /** Replaces a bucket across all documents: documents no longer listed get it cleared. */
  replaceAll(bucket: Bucket, next: Map<string, Diagnostic[]>): void {
    for (const [uri, buckets] of this.byUri) {
      if (buckets.has(bucket) && !next.has(uri)) {
        buckets.delete(bucket);
        this.publish(uri);
      }
    }
    for (const [uri, diagnostics] of next) this.set(uri, bucket, diagnostics);
  }

  get(uri: string, bucket: Bucket): Diagnostic[] {
    return this.byUri.get(uri)?.get(bucket) ?? [];
  }

  /** Forgets a bucket of a closed document (the gate's findings stay: they describe files on disk). */
  clear(uri: string, bucket: Bucket): void {
    const buckets = this.byUri.get(uri);
    if (!buckets?.delete(bucket)) return;
    this.publish(uri);
  }

  /** The live checks of an open document publish from now on: its disk bucket is not shown (no duplicates). */
  markLive(uri: string): void {
    this.live.add(uri);
  }

  /** The document was closed: its disk bucket is shown again (publishes when it has one). */
  markClosed(uri: string): void {
    if (this.live.delete(uri) && this.byUri.get(uri)?.has(DISK_BUCKET)) this.publish(uri);
  }

  private publish(uri: string, version?: number): void {
    const buckets = this.byUri.get(uri);
    const shown = buckets && this.live.has(uri) ? [...buckets].filter(([name]) => name !== DISK_BUCKET).map(([, list]) => list) : (buckets?.values() ?? []);
    const all = capped(flatten(shown));
    void this.connection.sendDiagnostics(version === undefined ? { uri, diagnostics: all } : { uri, version, diagnostics: all });
  }
}

const SEVERITY_NAMES: Record<DiagnosticSeverity, Severity> = {
  [DiagnosticSeverity.Error]: 'error',
  [DiagnosticSeverity.Warning]: 'warning',
  [DiagnosticSeverity.Information]: 'information',
  [DiagnosticSeverity.Hint]: 'hint',
};

/** The items of several lists in turn (never spread: a list may hold a million). */
function* flatten<T>(lists: Iterable<readonly T[]>): Generator<T> {
  for (const list of lists) yield* list;
}

/** An LSP diagnostic as the cap sees it (no severity: an error, as clients show it). */
function capView(d: Diagnostic): CapView {
  return {
    severity: d.severity === undefined ? 'error' : SEVERITY_NAMES[d.severity],
    line: d.range.start.line,
    character: d.range.start.character,
    code: d.code,
    data: d.data,
  };
}

/** At most MAX_DIAGNOSTICS_PER_FILE of them, in their order, then the note counting the rest (diagnosticCap.ts). */
function capped(diagnostics: Iterable<Diagnostic>): Diagnostic[] {
  const cap = new DiagnosticCap(capView);
  cap.addAll(diagnostics);
  const result = cap.finish();
  const note = capNoteDiagnostic(result);
  if (note !== undefined) result.kept.push(toLspDiagnostic(note));
  return result.kept;
}
