// The extension's settings (`harn.*`), validated with zod. An invalid value is reported and its
// default used; it is never silently replaced.

import { z } from 'zod';
import { DEFAULT_GATE_SETTINGS } from '../boundaries/workspaceGate';
import { DEFAULT_ARTIFACT_SETTINGS } from '../artifacts/classify';
import { DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_LIMIT } from '../artifacts/jsonl';
import { DEFAULT_RUN_CONTROL_SETTINGS, RUN_CONTROL_DELIVERIES } from '../runControl/classify';

const relativePath = z.string().min(1, 'must not be empty');
const globs = z.array(z.string().min(1)).min(1, 'needs at least one glob');

export const BoundarySettingsSchema = z.object({
  registryPath: relativePath.default(DEFAULT_GATE_SETTINGS.registryPath),
  funnelPath: relativePath.default(DEFAULT_GATE_SETTINGS.funnelPath),
  rustGlobs: globs.default(DEFAULT_GATE_SETTINGS.rustGlobs),
  harnGlobs: globs.default(DEFAULT_GATE_SETTINGS.harnGlobs),
});

export const ArtifactSettingsSchema = z.object({
  transcriptGlobs: globs.default(DEFAULT_ARTIFACT_SETTINGS.transcriptGlobs),
  eventLogGlobs: globs.default(DEFAULT_ARTIFACT_SETTINGS.eventLogGlobs),
  runRecordGlobs: globs.default(DEFAULT_ARTIFACT_SETTINGS.runRecordGlobs),
  /** Lines longer than this are not read (`line_too_long`); at most the longest string V8 can make. */
  maxLineBytes: z
    .number()
    .int('must be a whole number of bytes')
    .min(1, 'must be at least 1')
    .max(MAX_LINE_BYTES_LIMIT, `must be at most ${MAX_LINE_BYTES_LIMIT} (the longest line that can be decoded)`)
    .default(DEFAULT_MAX_LINE_BYTES),
});

export const RunControlSettingsSchema = z.object({
  /** Run-control logs (also recognised by their rows when no glob matches). */
  logGlobs: globs.default(DEFAULT_RUN_CONTROL_SETTINGS.logGlobs),
  /** The inbox file composed requests are appended to, relative to the log's folder. */
  inbox: relativePath.default(DEFAULT_RUN_CONTROL_SETTINGS.inbox),
  delivery: z.enum(RUN_CONTROL_DELIVERIES, { error: `must be one of ${RUN_CONTROL_DELIVERIES.join(', ')}` }).default(DEFAULT_RUN_CONTROL_SETTINGS.delivery),
});

export const DIAGNOSTIC_SCOPES = ['workspace', 'openFiles'] as const;

export const DiagnosticSettingsSchema = z.object({
  /** `workspace`: every `.harn` file and run artifact is checked from disk, open or not; `openFiles`: only open ones. */
  scope: z.enum(DIAGNOSTIC_SCOPES, { error: `must be one of ${DIAGNOSTIC_SCOPES.join(', ')}` }).default('workspace'),
});

export const TrainingSettingsSchema = z.object({
  /** An information diagnostic on a run record's descriptor when the run cannot be projected into a training example. */
  projectionDiagnostics: z.boolean({ error: 'must be true or false' }).default(true),
});

export const InlayHintSettingsSchema = z.object({
  /** The parameter's name before each literal argument of a `.harn` call. */
  parameterNames: z.boolean({ error: 'must be true or false' }).default(true),
});

export const WorkbenchSettingsSchema = z.object({
  boundaries: BoundarySettingsSchema,
  artifacts: ArtifactSettingsSchema,
  diagnostics: DiagnosticSettingsSchema,
  runControl: RunControlSettingsSchema,
  training: TrainingSettingsSchema,
  inlayHints: InlayHintSettingsSchema,
});

/** The settings' types are the schemas' (the domains take them as their own GateSettings and ArtifactSettings). */
export type WorkbenchSettings = z.infer<typeof WorkbenchSettingsSchema>;

/** Reads the `harn` configuration section; each invalid field falls back to its default with a problem message. */
export function readSettings(raw: unknown): { settings: WorkbenchSettings; problems: string[] } {
  const problems: string[] = [];
  const section = isRecord(raw) ? raw : {};
  const settings = {
    boundaries: readGroup('boundaries', section, BoundarySettingsSchema, problems),
    artifacts: readGroup('artifacts', section, ArtifactSettingsSchema, problems),
    diagnostics: readGroup('diagnostics', section, DiagnosticSettingsSchema, problems),
    runControl: readGroup('runControl', section, RunControlSettingsSchema, problems),
    training: readGroup('training', section, TrainingSettingsSchema, problems),
    inlayHints: readGroup('inlayHints', section, InlayHintSettingsSchema, problems),
  };
  return { settings, problems };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one group of settings field by field, so one bad value does not discard the others. */
function readGroup<Shape extends z.ZodRawShape>(
  name: string,
  section: Record<string, unknown>,
  schema: z.ZodObject<Shape>,
  problems: string[],
): z.infer<z.ZodObject<Shape>> {
  const group = section[name];
  const raw = isRecord(group) ? group : {};
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const parsed = z.safeParse(field, raw[key]);
    if (parsed.success) out[key] = parsed.data;
    else {
      problems.push(`harn.${name}.${key} ${parsed.error.issues[0]?.message ?? 'is invalid'}; using the default`);
      out[key] = undefined;
    }
  }
  // Every field is now valid or absent (its default): the group as a whole parses.
  return schema.parse(out);
}
