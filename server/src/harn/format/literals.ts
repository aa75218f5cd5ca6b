// Literal spellings as harn-fmt 0.7.50 prints them: from the value, not the source spelling
// (RULES.md §7.1): ints in decimal, floats like Rust's f64 Display, durations re-unitised.

/** An int literal's decimal spelling (`0x1F` → `31`, `1_000` → `1000`); the raw text when it is not a number. */
export function formatInt(raw: string): string {
  if (DECIMAL.test(raw)) return raw;
  const digits = raw.replace(/_/g, '');
  try {
    return BigInt(digits).toString();
  } catch {
    return raw;
  }
}

/** Already as BigInt would print it: no prefix, separator or leading zero. */
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/** A float literal as Rust's `f64` Display writes it: shortest round-trip digits, never an exponent, `.0` when integral. */
export function formatFloat(raw: string): string {
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isFinite(value)) return raw;
  let text = value.toString();
  if (text.includes('e')) text = expandExponent(text);
  if (!text.includes('.')) text += '.0';
  return text;
}

/** `1e21` → `1000000000000000000000`, `1.5e-7` → `0.00000015`. */
function expandExponent(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const UNIT_MS: ReadonlyMap<string, number> = new Map([
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
  ['w', 604_800_000],
]);

/** A duration in the largest of h/m/s that divides it exactly, else ms (`60s` → `1m`, `0s` → `0ms`). */
export function formatDuration(raw: string): string {
  const match = /^([\d_]+)(ms|s|m|h|d|w)$/.exec(raw);
  const unit = match && UNIT_MS.get(match[2] ?? '');
  if (!match || unit === undefined || unit === null) return raw;
  const ms = Number((match[1] ?? '').replace(/_/g, '')) * unit;
  if (!Number.isSafeInteger(ms)) return raw;
  if (ms === 0) return '0ms';
  for (const [name, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${name}`;
  }
  return `${ms}ms`;
}

/** Rust's `String::len()`: UTF-8 bytes, which is what every width rule measures. */
export function utf8Length(text: string): number {
  // Not a charCodeAt loop: the printer's strings come in many representations (flat, cons, sliced; one- or
  // two-byte), which makes every property read on them, `.length` and `.charCodeAt` included, megamorphic.
  return NodeBuffer.byteLength(text, 'utf8');
}

/** The global read once: read at every call, it is not folded away by the optimiser. */
const NodeBuffer = Buffer;

/**
 * utf8Length when it is at most `limit`, else some number above `limit`: a width compared with the line
 * width need not read (and flatten) a long text, e.g. a multi-line receiver or operand.
 */
export function utf8LengthUpTo(text: string, limit: number): number {
  return text.length > limit ? text.length : utf8Length(text);
}
