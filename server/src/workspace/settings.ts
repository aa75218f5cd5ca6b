// The extension's settings (`harn.*`), validated with zod. An invalid value is reported and its
// default used; it is never silently replaced.

import { z } from 'zod';
import { DEFAULT_GATE_SETTINGS, GateSettings } from '../boundaries/workspaceGate';
import { ArtifactSettings, DEFAULT_ARTIFACT_SETTINGS } from '../artifacts/classify';

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
});

export interface WorkbenchSettings {
  boundaries: GateSettings;
  artifacts: ArtifactSettings;
}

/** Reads the `harn` configuration section; each invalid field falls back to its default with a problem message. */
export function readSettings(raw: unknown): { settings: WorkbenchSettings; problems: string[] } {
  const problems: string[] = [];
  const section = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const boundaries = readGroup('boundaries', section, BoundarySettingsSchema.shape, problems) as unknown as GateSettings;
  const artifacts = readGroup('artifacts', section, ArtifactSettingsSchema.shape, problems) as unknown as ArtifactSettings;
  return { settings: { boundaries, artifacts }, problems };
}

/** Reads one group of settings field by field, so one bad value does not discard the others. */
function readGroup(name: string, section: Record<string, unknown>, shape: Record<string, z.ZodType>, problems: string[]): Record<string, unknown> {
  const raw = typeof section[name] === 'object' && section[name] !== null ? (section[name] as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const parsed = schema.safeParse(raw[key]);
    if (parsed.success) out[key] = parsed.data;
    else {
      problems.push(`harn.${name}.${key} ${parsed.error.issues[0]?.message ?? 'is invalid'}; using the default`);
      out[key] = schema.parse(undefined);
    }
  }
  return out;
}
