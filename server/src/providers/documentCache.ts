// What a provider derives from a file's text (a validation, a log's replay), kept per URI: for an open document as
// long as its version is the same, for a closed file read from disk as long as its text is the same.

import { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readFileTextSync } from '../workspace/files';
import { uriToPath } from '../workspace/harnWorkspace';

interface Entry<T> {
  /** The open document's version; undefined for a file read from disk. */
  version: number | undefined;
  text: string;
  value: T;
}

export class DocumentCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    /** The open documents (the connection's TextDocuments). */
    private readonly documents: Pick<TextDocuments<TextDocument>, 'get'>,
    private readonly derive: (uri: string, text: string) => T,
    /** A closed file larger than this is not read (get answers undefined). */
    private readonly maxBytes: number,
  ) {}

  /** The value of the open document, else of the file on disk; undefined when the file cannot be read. */
  get(uri: string): T | undefined {
    const doc = this.documents.get(uri);
    const cached = this.entries.get(uri);
    if (doc) {
      if (cached?.version === doc.version) return cached.value;
      const text = doc.getText();
      const value = this.derive(uri, text);
      this.entries.set(uri, { version: doc.version, text, value });
      return value;
    }
    const read = readFileTextSync(uriToPath(uri), { maxBytes: this.maxBytes });
    if (!read.ok) return undefined;
    if (cached?.version === undefined && cached?.text === read.text) return cached.value;
    const value = this.derive(uri, read.text);
    this.entries.set(uri, { version: undefined, text: read.text, value });
    return value;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The URIs with a value kept. */
  uris(): IterableIterator<string> {
    return this.entries.keys();
  }
}
