// Most methods are about documents the editor has open (big artifacts it does not sync only get
// hovers), and are answered by the first provider of the document's kind that has an answer.

import { CancellationToken } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { Awaitable, guarded } from './handler';
import { DomainProvider, OpenDocumentRequest } from './provider';

export function openRequest(ctx: FeatureContext, uri: string, token: CancellationToken): OpenDocumentRequest | undefined {
  const request = ctx.request(uri, token);
  const doc = request?.doc;
  return request && doc ? { ...request, doc } : undefined;
}

/** A guarded handler for a method about an open document: the first provider's answer, else `empty`. */
export function firstProviderAnswer<P extends { textDocument: { uri: string } }, R>(
  ctx: FeatureContext,
  name: string,
  empty: R,
  ask: (provider: DomainProvider, request: OpenDocumentRequest, params: P) => Awaitable<R | undefined> | undefined,
): (params: P, token: CancellationToken) => Promise<R> {
  return guarded(ctx, name, empty, async (params: P, token) => {
    const request = openRequest(ctx, params.textDocument.uri, token);
    if (!request) return empty;
    return (await firstAnswer(ctx.providersFor(request.kind), (p) => ask(p, request, params))) ?? empty;
  });
}
