// One place that publishes diagnostics: each producer (a provider's live checks, the gate's workspace
// findings, files validated from disk) owns a bucket per document, and a document's published list is
// the union of its buckets.

import { Connection, Diagnostic } from 'vscode-languageserver';

/** A provider's name, or the name of a workspace-wide producer (`gate`). */
export type Bucket = string;

export class DiagnosticsStore {
  private readonly byUri = new Map<string, Map<Bucket, Diagnostic[]>>();

  constructor(private readonly connection: Connection) {}

  /** Replaces one bucket of one document and publishes the document. */
  set(uri: string, bucket: Bucket, diagnostics: Diagnostic[], version?: number): void {
    let buckets = this.byUri.get(uri);
    if (!buckets) this.byUri.set(uri, (buckets = new Map<Bucket, Diagnostic[]>()));
    buckets.set(bucket, diagnostics);
    this.publish(uri, version);
  }

  /** Replaces several buckets of one document and publishes it once (one check, one publication). */
  setBuckets(uri: string, next: ReadonlyMap<Bucket, Diagnostic[]>, version?: number): void {
    let buckets = this.byUri.get(uri);
    if (!buckets) this.byUri.set(uri, (buckets = new Map<Bucket, Diagnostic[]>()));
    for (const [bucket, diagnostics] of next) buckets.set(bucket, diagnostics);
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

  private publish(uri: string, version?: number): void {
    const all: Diagnostic[] = [];
    for (const list of this.byUri.get(uri)?.values() ?? []) all.push(...list);
    void this.connection.sendDiagnostics(version === undefined ? { uri, diagnostics: all } : { uri, version, diagnostics: all });
  }
}
