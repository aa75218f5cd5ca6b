// harn/directiveTree: the directive envelopes of one transcript as a tree (sessions, requests, envelopes,
// directives), asked by the client only while its view is visible; harn/directiveTreeChanged tells it when to ask
// again (sent by the artifact provider after each validation of a transcript).

import { z } from 'zod';
import { DirectiveTreeRequest, DirectiveTreeResult } from '../protocol';
import { ArtifactProvider } from '../providers/artifactProvider';
import { FeatureContext } from './context';
import { guarded } from './handler';

/** Checked where they enter: the client is not the only possible sender. */
const DirectiveTreeParamsSchema = z.object({ uri: z.string().min(1) });

export function registerDirectiveTree(ctx: FeatureContext, artifacts: ArtifactProvider): void {
  ctx.connection.onRequest(
    DirectiveTreeRequest,
    guarded(ctx, 'directiveTree', null as DirectiveTreeResult, (raw: unknown) => {
      const params = DirectiveTreeParamsSchema.safeParse(raw);
      if (!params.success) throw new Error(`invalid parameters: ${params.error.issues[0]?.message ?? 'expected { uri }'}`);
      return artifacts.directiveTree(params.data.uri, ctx.kindOf(params.data.uri));
    }),
  );
}
