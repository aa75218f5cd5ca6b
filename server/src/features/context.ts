// What every adaptor needs: the connection, the open documents, the router and the providers in
// precedence order. Built once in features/index.ts.

import { CancellationToken, Connection, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { rootOf } from '../workspace/folders';
import { HandlerHost } from './handler';
import { ServerLifecycle } from './lifecycle';
import { DocumentRequest, DomainProvider } from './provider';
import { DocumentKind, DocumentRouter } from './router';

export class FeatureContext implements HandlerHost {
  constructor(
    readonly connection: Connection,
    readonly documents: TextDocuments<TextDocument>,
    readonly router: DocumentRouter,
    /** In precedence order: for one document kind, the first provider that answers wins. */
    readonly providers: readonly DomainProvider[],
    readonly roots: () => readonly string[],
    readonly lifecycle: ServerLifecycle = new ServerLifecycle(),
  ) {}

  refuseAfterShutdown(method: string): void {
    this.lifecycle.refuseAfterShutdown(method);
  }

  versionOf(uri: string): number | undefined {
    return this.documents.get(uri)?.version;
  }

  error(message: string): void {
    this.connection.console.error(message);
  }

  info(message: string): void {
    this.connection.console.info(message);
  }

  /** The root of the workspace folder a file belongs to (the innermost one holding it), if any. */
  rootOf(file: string): string | undefined {
    return rootOf(file, this.roots());
  }

  kindOf(uri: string): DocumentKind | undefined {
    return this.router.kindOf(uri, this.documents.get(uri));
  }

  providersFor(kind: DocumentKind): DomainProvider[] {
    return this.providers.filter((p) => p.kinds.has(kind));
  }

  /** The routed request for one document, or undefined when no domain owns it. */
  request(uri: string, token: CancellationToken): DocumentRequest | undefined {
    const kind = this.kindOf(uri);
    return kind === undefined ? undefined : { uri, kind, doc: this.documents.get(uri), token };
  }
}

/** The first answer of the providers of a kind, in precedence order. */
export async function firstAnswer<T>(
  providers: readonly DomainProvider[],
  ask: (p: DomainProvider) => T | undefined | Promise<T | undefined>,
): Promise<T | undefined> {
  for (const provider of providers) {
    const answer = await ask(provider);
    if (answer !== undefined) return answer;
  }
  return undefined;
}
