// textDocument/formatting: the first provider of the document's kind that answers, as small edits. The
// editor's tabSize/insertSpaces are ignored on purpose: `harn fmt` always indents by two spaces.

import { TextEdit } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { FormatRefusals } from './formatRefusals';
import { firstProviderAnswer } from './openRequest';
import { FormatRefusal } from './provider';

export function registerDocumentFormatting(ctx: FeatureContext, refusals: FormatRefusals): void {
  ctx.connection.onDocumentFormatting(
    refusals.shown(firstProviderAnswer(ctx, 'documentFormatting', null as TextEdit[] | FormatRefusal | null, (p, request) => p.formatDocument?.(request))),
  );
}
