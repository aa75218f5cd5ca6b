// harn/runControlTree: a run-control log's sessions → runs → controls → receipts, asked by the client only while
// its view is visible; harn/runControlTreeChanged (sent by the run-control provider) tells it when to ask again.

import { z } from 'zod';
import { RunControlTreeRequest, RunControlTreeResult } from '../protocol';
import { RunControlProvider } from '../providers/runControlProvider';
import { FeatureContext } from './context';
import { guarded } from './handler';

const RunControlTreeParamsSchema = z.strictObject({ uri: z.string().min(1) });

export function registerRunControlTree(ctx: FeatureContext, runControl: RunControlProvider): void {
  ctx.connection.onRequest(
    RunControlTreeRequest,
    guarded(ctx, 'runControlTree', null as RunControlTreeResult, (raw: unknown) => {
      const params = RunControlTreeParamsSchema.safeParse(raw);
      if (!params.success) throw new Error(`invalid parameters: ${params.error.issues[0]?.message ?? 'expected { uri }'}`);
      return runControl.tree(params.data.uri, ctx.kindOf(params.data.uri));
    }),
  );
}
