// harn/validateArtifactFile: files too big for the editor to sync (over 50 MB) are validated from disk,
// on request, with progress, while other requests are answered (the provider reads asynchronously). Files outside
// the workspace folders are refused (the answer says why).

import * as path from 'node:path';
import { ValidateArtifactFileRequest, ValidateArtifactFileResult } from '../protocol';
import { ArtifactProvider, isArtifactKind } from '../providers/artifactProvider';
import { uriToPath } from '../workspace/harnWorkspace';
import { notificationText } from '../text/notification';
import { workspaceRefusal } from '../workspace/roots';
import { z } from 'zod';
import { FeatureContext } from './context';
import { guarded } from './handler';

/** Checked where they enter: the client is not the only possible sender. */
const ValidateArtifactFileParamsSchema = z.object({ uri: z.string().min(1) });

const NOT_AN_ARTIFACT: ValidateArtifactFileResult = { kind: undefined, problems: 0, lines: 0 };

export function registerValidateArtifactFile(ctx: FeatureContext, artifacts: ArtifactProvider): void {
  ctx.connection.onRequest(
    ValidateArtifactFileRequest,
    guarded(ctx, 'validateArtifactFile', NOT_AN_ARTIFACT, async (raw: unknown, token) => {
      const params = ValidateArtifactFileParamsSchema.safeParse(raw);
      if (!params.success) throw new Error(`invalid parameters: ${params.error.issues[0]?.message ?? 'expected { uri }'}`);
      const file = uriToPath(params.data.uri);
      // Only files inside the workspace folders (real paths: no symbolic link out) are read on request.
      const refused = workspaceRefusal(file, ctx.roots());
      if (refused !== undefined) return { ...NOT_AN_ARTIFACT, refused };
      const kind = ctx.kindOf(params.data.uri);
      if (!isArtifactKind(kind)) return NOT_AN_ARTIFACT;
      const progress = await ctx.connection.window.createWorkDoneProgress();
      progress.begin('Harn: validating', undefined, notificationText(path.basename(file)));
      try {
        return await artifacts.validateFile(file, kind, token);
      } finally {
        progress.done();
      }
    }),
  );
}
