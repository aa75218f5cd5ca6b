// harn/runControlCompose: builds a steer or interrupt bound to a run's latest snapshot, pre-checked through the
// inbox model; `inbox` appends it (one line, one write) to the run's inbox, `clipboard` returns it, `check` only
// validates (as the user types). Bad parameters are answered with a refusal that says what is wrong.

import { z } from 'zod';
import { RunControlComposeRequest, RunControlComposeResult } from '../protocol';
import { RunControlProvider } from '../providers/runControlProvider';
import { FeatureContext } from './context';
import { guarded } from './handler';

const CommandSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('steer'), input: z.string() }),
  z.strictObject({ kind: z.literal('interrupt'), reason: z.string().optional(), force: z.boolean() }),
]);

const RunControlComposeParamsSchema = z.strictObject({
  uri: z.string().min(1),
  runId: z.string(),
  command: CommandSchema,
  deliver: z.enum(['check', 'inbox', 'clipboard']),
  retryOf: z.string().min(1).optional(),
});

const FAILED: RunControlComposeResult = { ok: false, code: 'INTERNAL_ERROR', message: 'Composing failed; the server log says why.' };

export function registerRunControlCompose(ctx: FeatureContext, runControl: RunControlProvider): void {
  ctx.connection.onRequest(
    RunControlComposeRequest,
    guarded(ctx, 'runControlCompose', FAILED, (raw: unknown): RunControlComposeResult => {
      const params = RunControlComposeParamsSchema.safeParse(raw);
      if (!params.success) {
        const issue = params.error.issues[0];
        return {
          ok: false,
          code: 'INVALID_PARAMS',
          message: `Invalid parameters: ${issue ? `${issue.path.join('.') || '(params)'}: ${issue.message}` : 'see harn/runControlCompose'}.`,
        };
      }
      const p = params.data;
      const command =
        p.command.kind === 'steer'
          ? p.command
          : { kind: 'interrupt' as const, force: p.command.force, ...(p.command.reason === undefined ? {} : { reason: p.command.reason }) };
      return runControl.compose(p.uri, ctx.kindOf(p.uri), p.runId, command, p.deliver, p.retryOf);
    }),
  );
}
