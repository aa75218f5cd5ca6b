// aion's run-workspace rules (spec/run-control-and-workspace.md part B, issue 14): where a run's directory comes
// from, and which part of its input is the task. Pure: bytes in, a decision out. A run whose input does not say
// where it belongs is refused, terminally; nothing here ever falls back to the launching process's directory.

import { decodeUtf8, hexBytes } from '../text/utf8';

/** `fixed`: every run uses this directory. `perRun`: each run's directory is this parameter of its own input. */
export type RunWorkspaceConfig = { fixed: string } | { perRun: string };

/** Every reason a run is refused, as `Refusal.kind` (the README's "Run workspaces: the rules" lists each). */
export const REFUSAL_KINDS = [
  'input_required',
  'input_not_utf8',
  'input_not_json',
  'input_not_object',
  'parameter_missing',
  'parameter_not_string',
  'parameter_blank',
  'prompt_none',
  'prompt_several',
  'prompt_not_text',
  'invalid_config',
  'pipeline_not_absolute',
  'pipeline_missing',
  'pipeline_not_file',
  'binary_invalid',
  'directory_not_absolute',
  'directory_missing',
  'directory_not_directory',
  'directory_unreadable',
  'env_name_invalid',
  'env_missing',
] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** Why a run is not started. `message` says what arrived and why. */
export type Refusal = { ok: false; kind: RefusalKind; message: string };

export function refusal(kind: RefusalKind, message: string): Refusal {
  return { ok: false, kind, message };
}

const NOT_STARTED = 'the run is not started';
const EXCERPT_CHARS = 80;

/** A value from the input as a short JSON excerpt, for messages (JSON.stringify escapes control characters). */
export function excerpt(text: string): string {
  const quoted = JSON.stringify(text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) : text);
  return text.length > EXCERPT_CHARS ? `${quoted.slice(0, -1)}…" (${text.length} characters)` : quoted;
}

/** A JSON value as JSON text, cut to a short excerpt (JSON escapes every control character). */
export function jsonExcerpt(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    // Nested deeper than JSON.stringify's stack reaches (JSON.parse read it iteratively).
    return `${jsonKind(value)} nested too deep to show`;
  }
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} characters)` : text;
}

const MAX_FIELDS_SHOWN = 20;

/** Field names for messages: quoted, escaped, cut; at most 20, then how many more. */
export function fieldList(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, MAX_FIELDS_SHOWN).map(excerpt).join(', ');
  return names.length > MAX_FIELDS_SHOWN ? `${shown} and ${names.length - MAX_FIELDS_SHOWN} more` : shown;
}

/** The JSON kind of a value, as messages name it. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'boolean':
      return 'a boolean';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    default:
      return 'an object';
  }
}

/** The input as text, or a refusal naming the first bytes that are not UTF-8. A leading BOM is not part of it. */
function inputText(input: Uint8Array, why: string, kind: RefusalKind = 'input_not_utf8'): { ok: true; text: string } | Refusal {
  const decoded = decodeUtf8(input);
  const [first] = decoded.invalid;
  if (first !== undefined) {
    return refusal(
      kind,
      `The run's input (${input.length} bytes) is not UTF-8: bytes ${hexBytes(first.bytes)} at byte ${first.byteOffset}${decoded.invalid.length > 1 ? ` and ${decoded.invalid.length - 1} more places` : ''}; ${why}; ${NOT_STARTED}.`,
    );
  }
  return { ok: true, text: decoded.text.startsWith('\uFEFF') ? decoded.text.slice(1) : decoded.text };
}

/** V8's reason is left out: it quotes the input raw, and its wording changes between Node versions. */
type Parsed = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A configuration that names no directory or no parameter can never place a run. */
function configProblem(config: RunWorkspaceConfig): Refusal | undefined {
  if ('fixed' in config) {
    return config.fixed.trim() === ''
      ? refusal('invalid_config', `The run workspace is { "fixed": ${excerpt(config.fixed)} }: a blank directory; ${NOT_STARTED}.`)
      : undefined;
  }
  return config.perRun.trim() === ''
    ? refusal('invalid_config', `The run workspace is { "perRun": ${excerpt(config.perRun)} }: a blank parameter name; ${NOT_STARTED}.`)
    : undefined;
}

/**
 * The run's directory, as written (the launcher checks that it is absolute, exists and is a directory).
 * `fixed` ignores the input; `perRun` reads its parameter from the input, a JSON object, and refuses every other
 * shape, naming the parameter and what arrived. `input` undefined: the run has no input at all.
 */
export function directoryForRun(config: RunWorkspaceConfig, input: Uint8Array | undefined): { ok: true; directory: string } | Refusal {
  const bad = configProblem(config);
  if (bad) return bad;
  if ('fixed' in config) return { ok: true, directory: config.fixed };
  const parameter = config.perRun;
  const name = JSON.stringify(parameter);
  if (input === undefined) {
    return refusal(
      'input_required',
      `The run's directory is its input's ${name} parameter (perRun), and this run has no input: run it with an input file (Harn: Run Pipeline With Input…, or --input FILE); ${NOT_STARTED}.`,
    );
  }
  const text = inputText(input, `its directory parameter ${name} cannot be read`);
  if (!text.ok) return text;
  const parsed = parseJson(text.text);
  if (!parsed.ok) {
    return refusal(
      'input_not_json',
      `The run's input is not JSON (it starts ${excerpt(text.text)}), so its directory parameter ${name} cannot be read; ${NOT_STARTED}.`,
    );
  }
  const value = parsed.value;
  if (!isObject(value)) {
    return refusal(
      'input_not_object',
      `The run's input is ${jsonKind(value)} (${jsonExcerpt(value)}), not a JSON object, so it has no directory parameter ${name}; ${NOT_STARTED}.`,
    );
  }
  if (!Object.hasOwn(value, parameter)) {
    const fields = Object.keys(value);
    return refusal(
      'parameter_missing',
      `The run's input has no ${name} parameter (its fields: ${fieldList(fields)}), so it does not say where the run belongs; ${NOT_STARTED}.`,
    );
  }
  const directory = value[parameter];
  if (typeof directory !== 'string') {
    return refusal(
      'parameter_not_string',
      `The run's input has ${name} as ${jsonKind(directory)} (${jsonExcerpt(directory)}), not a string naming a directory; ${NOT_STARTED}.`,
    );
  }
  if (directory.trim() === '') {
    return refusal('parameter_blank', `The run's input has ${name} blank (${excerpt(directory)}): it names no directory; ${NOT_STARTED}.`);
  }
  return { ok: true, directory };
}

/**
 * The run's task (the prompt), from its input: not JSON → the text unchanged; a JSON string → that string; a JSON
 * object → its one field left once the directory parameter and the reserved names are removed, which must be a
 * string; any other JSON value → the JSON text as it arrived. Bytes that are not UTF-8 are a protocol error.
 */
export function promptForRun(config: RunWorkspaceConfig, input: Uint8Array, reserved: readonly string[]): { ok: true; prompt: string } | Refusal {
  const text = inputText(input, 'a run input must be UTF-8 text');
  if (!text.ok) return { ...text, message: `Protocol error: ${text.message}` };
  const parsed = parseJson(text.text);
  if (!parsed.ok) return { ok: true, prompt: text.text };
  const value = parsed.value;
  if (typeof value === 'string') return { ok: true, prompt: value };
  if (!isObject(value)) return { ok: true, prompt: text.text };
  const removed = new Set(reserved);
  if ('perRun' in config) removed.add(config.perRun);
  const fields = Object.keys(value);
  const left = fields.filter((f) => !removed.has(f));
  const arrived = `fields that arrived: ${fieldList(fields)}`;
  const directory = 'perRun' in config ? `the directory parameter ${JSON.stringify(config.perRun)}` : 'no directory parameter (fixed)';
  const without = `removed: ${directory}, reserved: ${fieldList(reserved)}`;
  const [only, ...more] = left;
  if (only === undefined) {
    return refusal('prompt_none', `The run's input has no field left for the task (${arrived}; ${without}); ${NOT_STARTED}.`);
  }
  if (more.length > 0) {
    return refusal(
      'prompt_several',
      `The run's input has ${left.length} fields left for the task (${fieldList(left)}), not one, so the task is ambiguous (${arrived}; ${without}); ${NOT_STARTED}.`,
    );
  }
  const prompt = value[only];
  if (typeof prompt !== 'string') {
    return refusal(
      'prompt_not_text',
      `The run's input has its task field ${JSON.stringify(only)} as ${jsonKind(prompt)} (${jsonExcerpt(prompt)}), not text; ${NOT_STARTED}.`,
    );
  }
  return { ok: true, prompt };
}
