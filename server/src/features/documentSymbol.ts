// textDocument/documentSymbol: the outline of an open document, from the domain that owns it.

import { DocumentSymbol } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { guarded } from './handler';
import { openRequest } from './openRequest';

export function registerDocumentSymbol(ctx: FeatureContext): void {
  ctx.connection.onDocumentSymbol(
    guarded(ctx, 'documentSymbol', [] as DocumentSymbol[], async (params, token) => {
      const request = openRequest(ctx, params.textDocument.uri, token);
      if (!request) return [];
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.documentSymbol?.(request))) ?? [];
    }),
  );
}
