// textDocument/prepareRename and textDocument/rename. A refusal is answered as an error carrying its message, which
// the editor shows (null would only say "The element can't be renamed").

import { CancellationToken, ErrorCodes, Range, ResponseError, WorkspaceEdit } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';
import { RenameRefusal } from './provider';

function refusedAsError<P, R>(
  handler: (params: P, token: CancellationToken) => Promise<R | RenameRefusal>,
): (params: P, token: CancellationToken) => Promise<R> {
  return async (params, token) => {
    const answer = await handler(params, token);
    if (answer !== null && typeof answer === 'object' && 'refused' in answer) throw new ResponseError(ErrorCodes.InvalidRequest, answer.refused);
    return answer;
  };
}

export function registerRename(ctx: FeatureContext): void {
  ctx.connection.onPrepareRename(
    refusedAsError(
      firstProviderAnswer(ctx, 'prepareRename', null as { range: Range; placeholder: string } | RenameRefusal | null, (p, request, params) =>
        p.prepareRename?.(request, params.position),
      ),
    ),
  );
  ctx.connection.onRenameRequest(
    refusedAsError(
      firstProviderAnswer(ctx, 'rename', null as WorkspaceEdit | RenameRefusal | null, (p, request, params) =>
        p.rename?.(request, params.position, params.newName),
      ),
    ),
  );
}
