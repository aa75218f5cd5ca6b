// textDocument/hover: the first provider of the document's kind that has something to say.

import { Hover } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { guarded } from './handler';

export function registerHover(ctx: FeatureContext): void {
  ctx.connection.onHover(
    guarded(ctx, 'hover', null as Hover | null, async (params, token) => {
      const request = ctx.request(params.textDocument.uri, token);
      if (!request) return null;
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.hover?.(request, params.position))) ?? null;
    }),
  );
}
