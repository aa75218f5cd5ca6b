// harn/languageFeatures: whether our `.harn` language features answer. The client turns them off while
// upstream's extension serves the same language (both servers would otherwise hover, complete and report
// syntax errors on every `.harn` file); the boundary and artifact features stay. The state comes with
// `initialize` and then with each notification; a switch re-checks the open `.harn` documents at once.

import { z } from 'zod';
import { LanguageFeaturesNotification, LanguageFeaturesParams } from '../protocol';
import { FeatureContext } from './context';
import { WorkspaceChecks } from './workspace';
import { DiagnosticsPipeline } from './diagnostics';

/** Checked where they enter: the client is not the only possible sender. */
const LanguageFeaturesSchema = z.object({ enabled: z.boolean(), reason: z.string().max(1000) });

const ON_BY_DEFAULT: LanguageFeaturesParams = { enabled: true, reason: 'no choice was sent by the client' };

/** Reads `{ enabled, reason }`; anything else is a problem message (and the features stay as they were). */
export function readLanguageFeatures(raw: unknown): { value: LanguageFeaturesParams } | { problem: string } {
  const parsed = LanguageFeaturesSchema.safeParse(raw);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
  return { problem: `expected { enabled: boolean, reason: string }${where}: ${issue?.message ?? 'invalid'}` };
}

/** The current choice. Read on first use, not at registration: `initialize` (its options) comes later. */
export class LanguageFeatureSwitch {
  private current: LanguageFeaturesParams | undefined;

  constructor(
    private readonly initializationOptions: () => unknown,
    private readonly log: { info(message: string): void; warn(message: string): void },
  ) {}

  get state(): LanguageFeaturesParams {
    this.current ??= this.initial();
    return this.current;
  }

  get enabled(): boolean {
    return this.state.enabled;
  }

  /** Applies a choice; true when it changed whether the features answer. */
  set(next: LanguageFeaturesParams): boolean {
    const changed = next.enabled !== this.enabled;
    this.current = next;
    return changed;
  }

  private initial(): LanguageFeaturesParams {
    const state = this.fromInitializationOptions();
    this.log.info(describeLanguageFeatures(state));
    return state;
  }

  private fromInitializationOptions(): LanguageFeaturesParams {
    const options = this.initializationOptions();
    if (options === undefined || options === null) return ON_BY_DEFAULT;
    if (typeof options !== 'object' || Array.isArray(options)) {
      this.log.warn(
        `initializationOptions ignored, the .harn language features stay on: expected an object, got ${Array.isArray(options) ? 'an array' : typeof options}.`,
      );
      return ON_BY_DEFAULT;
    }
    const raw = (options as Record<string, unknown>).languageFeatures;
    if (raw === undefined) return ON_BY_DEFAULT;
    const read = readLanguageFeatures(raw);
    if ('value' in read) return read.value;
    this.log.warn(`initializationOptions.languageFeatures ignored, the .harn language features stay on: ${read.problem}.`);
    return ON_BY_DEFAULT;
  }
}

export function describeLanguageFeatures(state: LanguageFeaturesParams): string {
  return `Harn language features on .harn files: ${state.enabled ? 'on' : 'off'} (${state.reason})`;
}

export function registerLanguageFeatures(
  ctx: FeatureContext,
  diagnostics: DiagnosticsPipeline,
  languageFeatures: LanguageFeatureSwitch,
  checks: WorkspaceChecks,
  supportsTokenRefresh: () => boolean = () => false,
  refreshInlayHints: () => void = () => undefined,
): void {
  ctx.connection.onNotification(LanguageFeaturesNotification, (raw: unknown) => {
    const read = readLanguageFeatures(raw);
    if ('problem' in read) {
      ctx.error(`harn/languageFeatures ignored: ${read.problem}.`);
      return;
    }
    const changed = languageFeatures.set(read.value);
    ctx.info(describeLanguageFeatures(read.value));
    // The Problems panel follows at once: our Harn diagnostics go (or come back) on every .harn file, open or closed.
    if (changed) {
      diagnostics.revalidate((_doc, kind) => kind === 'harn');
      checks.recheckClosed((kind) => kind === 'harn');
      // The editor keeps the colours it has until asked to fetch tokens again.
      if (supportsTokenRefresh())
        ctx.connection.languages.semanticTokens.refresh().catch((error: unknown) => ctx.error(`semantic tokens refresh failed: ${String(error)}`));
      refreshInlayHints();
    }
  });
}
