// textDocument/completion: the first provider that answers (ids inside a `boundary: "…"` string before
// the Harn names around it); completionItem/resolve: the provider whose item it is adds its details.

import { CompletionItem } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { guarded } from './handler';
import { firstProviderAnswer } from './openRequest';

export function registerCompletion(ctx: FeatureContext): void {
  ctx.connection.onCompletion(firstProviderAnswer(ctx, 'completion', [] as CompletionItem[], (p, request, params) => p.completion?.(request, params.position)));
}

export function registerCompletionResolve(ctx: FeatureContext): void {
  // An item no provider claims, or a failure, is answered as it came.
  ctx.connection.onCompletionResolve((item, token) =>
    guarded(ctx, 'completionResolve', item, (asked: CompletionItem) => {
      for (const provider of ctx.providers) {
        const resolved = provider.resolveCompletion?.(asked);
        if (resolved) return resolved;
      }
      return asked;
    })(item, token),
  );
}
