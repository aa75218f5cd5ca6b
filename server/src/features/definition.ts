// textDocument/definition.

import { LocationLink } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { guarded } from './handler';
import { openRequest } from './openRequest';

export function registerDefinition(ctx: FeatureContext): void {
  ctx.connection.onDefinition(
    guarded(ctx, 'definition', [] as LocationLink[], async (params, token) => {
      const request = openRequest(ctx, params.textDocument.uri, token);
      if (!request) return [];
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.definition?.(request, params.position))) ?? [];
    }),
  );
}
