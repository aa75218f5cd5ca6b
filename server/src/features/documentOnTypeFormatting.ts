// textDocument/onTypeFormatting, on `}` (ON_TYPE_FORMATTING_TRIGGER): the block the `}` closes, re-indented by the
// first provider of the document's kind that answers. A refusal is silent here (the file is being typed).

import { TextEdit } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { FormatRefusals } from './formatRefusals';
import { firstProviderAnswer } from './openRequest';
import { FormatRefusal } from './provider';

export const ON_TYPE_FORMATTING_TRIGGER = '}';

export function registerDocumentOnTypeFormatting(ctx: FeatureContext, refusals: FormatRefusals): void {
  ctx.connection.onDocumentOnTypeFormatting(
    refusals.shown(
      firstProviderAnswer(ctx, 'documentOnTypeFormatting', null as TextEdit[] | FormatRefusal | null, (p, request, params) =>
        params.ch === ON_TYPE_FORMATTING_TRIGGER ? p.formatOnType?.(request, params.position) : undefined,
      ),
      true,
    ),
  );
}
