// Which server answers for the `.harn` language: `harn.languageFeatures` (auto | on | off) and whether
// upstream's extension is installed, resolved to what the server is told and what the status item says.
// No `vscode` import: the extension passes the facts in, the unit tests too.

import { LanguageFeaturesParams } from '../../server/src/protocol';

/** Upstream's own extension (it runs harn-lsp), which registers the same `harn` language. */
export const UPSTREAM_EXTENSION_ID = 'burin-labs.harn-lang';
/** The setting, under the `harn` section. */
export const LANGUAGE_FEATURES_SECTION = 'languageFeatures';
export const LANGUAGE_FEATURES_MODES = ['auto', 'on', 'off'] as const;
export type LanguageFeaturesMode = (typeof LANGUAGE_FEATURES_MODES)[number];

/** Who serves `.harn` language features: us, upstream's harn-lsp, or nobody of ours nor theirs by choice. */
export type InForce = 'ours' | 'upstream' | 'off';

export interface ResolvedLanguageFeatures extends LanguageFeaturesParams {
  mode: LanguageFeaturesMode;
  inForce: InForce;
  /** The setting's value when it was not one of the modes (then `auto` is used); shown to the user. */
  invalid?: string;
}

export function isLanguageFeaturesMode(value: unknown): value is LanguageFeaturesMode {
  return typeof value === 'string' && (LANGUAGE_FEATURES_MODES as readonly string[]).includes(value);
}

/**
 * `auto`: ours step back when upstream's extension is installed and enabled. Installed, not active: it
 * activates on the same `onLanguage:harn` event as ours, so waiting for it to be active would race.
 */
export function resolveLanguageFeatures(setting: unknown, upstreamInstalled: boolean): ResolvedLanguageFeatures {
  const valid = isLanguageFeaturesMode(setting);
  const mode: LanguageFeaturesMode = valid ? setting : 'auto';
  const invalid = valid || setting === undefined ? undefined : JSON.stringify(setting);
  const note = invalid === undefined ? '' : ` (the setting's value ${invalid} is not auto, on or off: auto is used)`;
  if (mode === 'on') return { mode, inForce: 'ours', enabled: true, reason: 'harn.languageFeatures is on' };
  if (mode === 'off') return { mode, inForce: 'off', enabled: false, reason: 'harn.languageFeatures is off' };
  const resolved: ResolvedLanguageFeatures = upstreamInstalled
    ? { mode, inForce: 'upstream', enabled: false, reason: `harn.languageFeatures is auto and ${UPSTREAM_EXTENSION_ID} is installed${note}` }
    : { mode, inForce: 'ours', enabled: true, reason: `harn.languageFeatures is auto and ${UPSTREAM_EXTENSION_ID} is not installed${note}` };
  if (invalid !== undefined) resolved.invalid = invalid;
  return resolved;
}

/** The language status item's text for who is in force. */
export function inForceLabel(inForce: InForce): string {
  switch (inForce) {
    case 'ours':
      return 'Harn Workbench';
    case 'upstream':
      return `upstream's harn-lsp (${UPSTREAM_EXTENSION_ID})`;
    case 'off':
      return 'off';
  }
}

/** The status item's detail: the setting, short (the hover truncates long lines and hides the Switch link). */
export function inForceDetail(resolved: ResolvedLanguageFeatures): string {
  return resolved.invalid === undefined ? `harn.languageFeatures: ${resolved.mode}` : `harn.languageFeatures: ${resolved.invalid} is not a mode, auto used`;
}

/** What stays whoever serves the language, for the Switch link's tooltip. */
export const WHAT_STAYS = 'Loud-boundary ids and run artifacts are checked by Harn Workbench in every mode.';
