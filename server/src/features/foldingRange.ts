// textDocument/foldingRange.

import { FoldingRange } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { guarded } from './handler';
import { openRequest } from './openRequest';

export function registerFoldingRange(ctx: FeatureContext): void {
  ctx.connection.onFoldingRanges(
    guarded(ctx, 'foldingRange', [] as FoldingRange[], async (params, token) => {
      const request = openRequest(ctx, params.textDocument.uri, token);
      if (!request) return [];
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.foldingRange?.(request))) ?? [];
    }),
  );
}
