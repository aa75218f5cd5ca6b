// textDocument/selectionRange (Expand Selection): the first provider of the document's kind that answers.

import { SelectionRange } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerSelectionRange(ctx: FeatureContext): void {
  ctx.connection.onSelectionRanges(
    firstProviderAnswer(ctx, 'selectionRange', [] as SelectionRange[], (p, request, params) => p.selectionRanges?.(request, params.positions)),
  );
}
