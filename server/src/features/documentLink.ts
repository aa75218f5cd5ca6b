// textDocument/documentLink.

import { DocumentLink } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { guarded } from './handler';
import { openRequest } from './openRequest';

export function registerDocumentLink(ctx: FeatureContext): void {
  ctx.connection.onDocumentLinks(
    guarded(ctx, 'documentLink', [] as DocumentLink[], async (params, token) => {
      const request = openRequest(ctx, params.textDocument.uri, token);
      if (!request) return [];
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.documentLink?.(request))) ?? [];
    }),
  );
}
