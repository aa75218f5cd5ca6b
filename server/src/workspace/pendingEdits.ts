// A fix that edits several files (the registry and the funnel) reaches the server as one change per
// file, and checks run between them would publish a state nobody wrote (a transient `orphan_entry`).
// The server remembers the multi-file edits it offered, with each file's text before and after; once
// one of them starts to arrive, results that depend on those files wait until every file has its new
// text. An edit is given up when a file's text is neither (the user edited on, or undid half of it) or
// when a grace period ends.

export interface FileEdit {
  before: string;
  after: string;
}

interface Offer {
  files: ReadonlyMap<string, FileEdit>;
  startedAt?: number;
}

export class PendingEdits {
  /** Offered edits, newest first. */
  private offered: Offer[] = [];

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly graceMs = 1000,
    private readonly keep = 16,
  ) {}

  /** Remembers an edit the server offers over several files. */
  offer(files: ReadonlyMap<string, FileEdit>): void {
    if (files.size < 2) return;
    const same = (o: Offer): boolean =>
      o.files.size === files.size && [...files].every(([k, v]) => o.files.get(k)?.after === v.after && o.files.get(k)?.before === v.before);
    this.offered = [{ files }, ...this.offered.filter((o) => !same(o))].slice(0, this.keep);
  }

  /** Whether a path belongs to an offered edit (only then is its new text worth reading). */
  concerns(path: string): boolean {
    return this.offered.some((o) => o.files.has(path));
  }

  /** A file now has `text`: an offered edit that gives it this text, its other files untouched or done, has started. */
  changed(path: string, text: string | undefined, read: (path: string) => string | undefined): void {
    for (const o of this.offered) {
      if (o.startedAt !== undefined || text === undefined || o.files.get(path)?.after !== text) continue;
      if (this.consistent(o, read)) o.startedAt = this.now();
    }
  }

  /**
   * When results may be published: undefined now, else the time to check again. An edit whose files all
   * have their new texts is done and forgotten; one given up is forgotten too.
   */
  holdUntil(read: (path: string) => string | undefined): number | undefined {
    let until: number | undefined;
    const now = this.now();
    this.offered = this.offered.filter((o) => {
      if (o.startedAt === undefined) return this.consistent(o, read);
      if ([...o.files].every(([path, edit]) => read(path) === edit.after)) return false;
      const deadline = o.startedAt + this.graceMs;
      if (deadline <= now || !this.consistent(o, read)) return false;
      until = until === undefined ? deadline : Math.max(until, deadline);
      return true;
    });
    return until;
  }

  /** Every file still has the text the edit was computed on, or the text it gives. */
  private consistent(o: Offer, read: (path: string) => string | undefined): boolean {
    return [...o.files].every(([path, edit]) => {
      const text = read(path);
      return text === edit.before || text === edit.after;
    });
  }
}
