// textDocument/rangeFormatting: the first provider of the document's kind that answers; the provider formats the
// smallest run of whole declarations around the range. tabSize/insertSpaces are ignored, as for the whole document.

import { TextEdit } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { FormatRefusals } from './formatRefusals';
import { firstProviderAnswer } from './openRequest';
import { FormatRefusal } from './provider';

export function registerDocumentRangeFormatting(ctx: FeatureContext, refusals: FormatRefusals): void {
  ctx.connection.onDocumentRangeFormatting(
    refusals.shown(
      firstProviderAnswer(ctx, 'documentRangeFormatting', null as TextEdit[] | FormatRefusal | null, (p, request, params) =>
        p.formatRange?.(request, params.range),
      ),
    ),
  );
}
