// textDocument/codeAction: the fixes of every provider of the document's kind.

import { CodeAction } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { guarded } from './handler';

export function registerCodeAction(ctx: FeatureContext): void {
  ctx.connection.onCodeAction(
    guarded(ctx, 'codeAction', [] as CodeAction[], (params, token) => {
      const request = ctx.request(params.textDocument.uri, token);
      if (!request) return [];
      return ctx.providersFor(request.kind).flatMap((p) => p.codeAction?.(request, params) ?? []);
    }),
  );
}
