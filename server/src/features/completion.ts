// textDocument/completion: the first provider that answers (ids inside a `boundary: "…"` string before
// the Harn names around it).

import { CompletionItem } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerCompletion(ctx: FeatureContext): void {
  ctx.connection.onCompletion(firstProviderAnswer(ctx, 'completion', [] as CompletionItem[], (p, request, params) => p.completion?.(request, params.position)));
}
