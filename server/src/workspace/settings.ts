// The extension's settings (`harn.*`), validated with zod. An invalid value is reported and its
// default used; it is never silently replaced.

import { z } from 'zod';
import { DEFAULT_GATE_SETTINGS, GateSettings } from '../boundaries/workspaceGate';

const relativePath = z.string().min(1, 'must not be empty');
const globs = z.array(z.string().min(1)).min(1, 'needs at least one glob');

export const BoundarySettingsSchema = z.object({
  registryPath: relativePath.default(DEFAULT_GATE_SETTINGS.registryPath),
  funnelPath: relativePath.default(DEFAULT_GATE_SETTINGS.funnelPath),
  rustGlobs: globs.default(DEFAULT_GATE_SETTINGS.rustGlobs),
  harnGlobs: globs.default(DEFAULT_GATE_SETTINGS.harnGlobs),
});

export interface WorkbenchSettings {
  boundaries: GateSettings;
}

/** Reads the `harn` configuration section; each invalid field falls back to its default with a problem message. */
export function readSettings(raw: unknown): { settings: WorkbenchSettings; problems: string[] } {
  const problems: string[] = [];
  const section = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const boundariesRaw = typeof section.boundaries === 'object' && section.boundaries !== null ? (section.boundaries as Record<string, unknown>) : {};
  const boundaries: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(BoundarySettingsSchema.shape)) {
    const value = boundariesRaw[key];
    const parsed = schema.safeParse(value);
    if (parsed.success) boundaries[key] = parsed.data;
    else {
      problems.push(`harn.boundaries.${key} ${parsed.error.issues[0]?.message ?? 'is invalid'}; using the default`);
      boundaries[key] = schema.parse(undefined);
    }
  }
  return { settings: { boundaries: boundaries as unknown as GateSettings }, problems };
}
