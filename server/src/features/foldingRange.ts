// textDocument/foldingRange.

import { FoldingRange } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerFoldingRange(ctx: FeatureContext): void {
  ctx.connection.onFoldingRanges(firstProviderAnswer(ctx, 'foldingRange', [] as FoldingRange[], (p, request) => p.foldingRange?.(request)));
}
