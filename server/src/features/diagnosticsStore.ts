// One place that publishes diagnostics: each producer (a provider's live checks, the gate's workspace
// findings, files validated from disk) owns a bucket per document, and a document's published list is
// the union of its buckets — capped here, the editor's one place for it (diagnosticCap.ts): each bucket
// when it is set, the union when it is published, so a document never shows more than
// MAX_DIAGNOSTICS_PER_FILE diagnostics (errors kept before warnings, across buckets) and one note.
// A bucket computed from an open document's text remembers that version: a publication at another
// version leaves it out, so that a published diagnostic always describes the text of its version.

import { Connection, Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { capNoteDiagnostic, CapView, DiagnosticCap } from '../diagnosticCap';
import { Severity } from '../diagnostics';
import { toLspDiagnostic } from '../providers/convert';

/** A provider's name, or the name of a workspace-wide producer (`gate`). */
export type Bucket = string;

/** The workspace check's bucket (workspaceScan.ts): a closed file's diagnostics from disk, hidden while it is open. */
export const DISK_BUCKET: Bucket = 'disk';

/** A bucket's diagnostics, with the version of the open document they were computed from (none: from the file on disk). */
interface Entry {
  diagnostics: Diagnostic[];
  version: number | undefined;
}

export class DiagnosticsStore {
  private readonly byUri = new Map<string, Map<Bucket, Entry>>();
  /** Documents whose live checks have published: their disk bucket describes a text the editor no longer shows. */
  private readonly live = new Set<string>();
  /** The version each open document was last published with: a publication that names none is at that version. */
  private readonly versions = new Map<string, number>();

  constructor(private readonly connection: Pick<Connection, 'sendDiagnostics'>) {}

  /**
   * Replaces one bucket of one document and publishes the document. `version`: the open document's version the
   * diagnostics were computed from, and published with; none for a file on disk.
   */
  set(uri: string, bucket: Bucket, diagnostics: Diagnostic[], version?: number): void {
    this.bucketsOf(uri).set(bucket, { diagnostics: capped(diagnostics), version });
    this.publish(uri, version);
  }

  /** Replaces several buckets of one document, computed from one version, and publishes it once (one check, one publication). */
  setBuckets(uri: string, next: ReadonlyMap<Bucket, Diagnostic[]>, version?: number): void {
    const buckets = this.bucketsOf(uri);
    for (const [bucket, diagnostics] of next) buckets.set(bucket, { diagnostics: capped(diagnostics), version });
    this.publish(uri, version);
  }

  /**
   * Replaces a bucket across all documents: documents no longer listed get it cleared. `versions`: the version of
   * the open document each list was computed from (a document not in it: from its file on disk); each document is
   * published at the version it was last published with, which leaves out a list computed for another one.
   */
  replaceAll(bucket: Bucket, next: Map<string, Diagnostic[]>, versions: ReadonlyMap<string, number> = new Map()): void {
    for (const [uri, buckets] of this.byUri) {
      if (buckets.has(bucket) && !next.has(uri)) {
        buckets.delete(bucket);
        this.publish(uri);
      }
    }
    for (const [uri, diagnostics] of next) {
      this.bucketsOf(uri).set(bucket, { diagnostics: capped(diagnostics), version: versions.get(uri) });
      this.publish(uri);
    }
  }

  get(uri: string, bucket: Bucket): Diagnostic[] {
    return this.byUri.get(uri)?.get(bucket)?.diagnostics ?? [];
  }

  private bucketsOf(uri: string): Map<Bucket, Entry> {
    let buckets = this.byUri.get(uri);
    if (!buckets) this.byUri.set(uri, (buckets = new Map<Bucket, Entry>()));
    return buckets;
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

  /**
   * The document was closed: its disk bucket is shown again (publishes when it has one); it has no version any more.
   * What was computed from its text goes (the editor shows the file on disk now: the gate's findings come back when
   * it reads the file again), but for the buckets in `keep`, whose producers keep them on close: they stand for the
   * closed file from now on.
   */
  markClosed(uri: string, keep: ReadonlySet<Bucket> = new Set()): void {
    this.versions.delete(uri);
    let changed = false;
    const buckets = this.byUri.get(uri);
    for (const [bucket, entry] of buckets ?? []) {
      if (entry.version === undefined) continue;
      if (keep.has(bucket)) entry.version = undefined;
      else {
        buckets?.delete(bucket);
        changed = true;
      }
    }
    if ((this.live.delete(uri) && buckets?.has(DISK_BUCKET)) || changed) this.publish(uri);
  }

  /**
   * Publishes a document's buckets at `version`, else at the version it was last published with (a closed
   * document has none): a bucket computed for another version of its text is left out (it comes back when it is
   * computed again, or when that version is published), and so is the disk bucket of a document the live checks follow.
   */
  private publish(uri: string, version?: number): void {
    if (version !== undefined) this.versions.set(uri, version);
    const at = version ?? this.versions.get(uri);
    const live = this.live.has(uri);
    const shown: Diagnostic[][] = [];
    for (const [name, entry] of this.byUri.get(uri) ?? []) {
      if (live && name === DISK_BUCKET) continue;
      if (at !== undefined && entry.version !== undefined && entry.version !== at) continue;
      shown.push(entry.diagnostics);
    }
    const all = capped(flatten(shown));
    void this.connection.sendDiagnostics(at === undefined ? { uri, diagnostics: all } : { uri, version: at, diagnostics: all });
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
