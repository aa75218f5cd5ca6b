// harn/prefixMessage: one message of the array a provider request sent, as readable text (directives/messageText.ts), for the client's read-only
// `harn-prefix:` documents (the "Show Prefix Break" diff: the previous request's message and the broken one's).

import { z } from 'zod';
import { PrefixMessageRequest, PrefixMessageResult } from '../protocol';
import { ArtifactProvider } from '../providers/artifactProvider';
import { FeatureContext } from './context';
import { guarded } from './handler';

/** Checked where they enter: callId is a call id or `row:N`; index a message index. */
const PrefixMessageParamsSchema = z.object({ uri: z.string().min(1), callId: z.string().min(1), index: z.number().int().nonnegative() });

export function registerPrefixMessage(ctx: FeatureContext, artifacts: ArtifactProvider): void {
  ctx.connection.onRequest(
    PrefixMessageRequest,
    guarded(ctx, 'prefixMessage', null as PrefixMessageResult, (raw: unknown) => {
      const params = PrefixMessageParamsSchema.safeParse(raw);
      if (!params.success) throw new Error(`invalid parameters: ${params.error.issues[0]?.message ?? 'expected { uri, callId, index }'}`);
      const { uri, callId, index } = params.data;
      return artifacts.prefixMessage(uri, ctx.kindOf(uri), callId, index);
    }),
  );
}
