// textDocument/completion: the first provider that answers (ids inside a `boundary: "…"` string before
// the Harn names around it).

import { CompletionItem } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { guarded } from './handler';
import { openRequest } from './openRequest';

export function registerCompletion(ctx: FeatureContext): void {
  ctx.connection.onCompletion(
    guarded(ctx, 'completion', [] as CompletionItem[], async (params, token) => {
      const request = openRequest(ctx, params.textDocument.uri, token);
      if (!request) return [];
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.completion?.(request, params.position))) ?? [];
    }),
  );
}
