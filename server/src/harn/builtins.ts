// The table of Harn host builtins used for hover, completion and signature help.
//
// Which names are here: every bare-identifier call in the Harn corpus (Harn v0.7 conformance tests,
// examples and stdlib, plus the 0.10 agent stdlib and scripts) that is not declared or imported in its
// own file, counted, and kept when it is a runtime builtin rather than a function from a `std/...`
// module. All agent-loop, LLM, event, session, transcript, tool-registry and channel builtins seen in the
// corpus are included whatever their count. test/unit/builtins.test.ts re-runs that count and fails when
// a frequently called name is missing.
//
// Where the docs come from: the language notes in harn-artifacts.md / harn-language.md, corpus usage and
// `.expected` outputs, and the public burin-labs/harn builtin reference and typed signature tables. The
// docs are short paraphrases, not copies. Anything only known by shape says so in `unconfirmed`.
//
// Conventions: types use Harn type syntax. An optional argument is rendered as `name: T = nil` (the
// runtime applies its own default when the argument is omitted), a rest argument as `...name: T` where T
// is the type of each extra argument. A builtin that accepts several argument shapes has one signature
// per shape.

export interface BuiltinParam {
  name: string;
  type?: string;
  optional?: boolean;
  rest?: boolean;
}

export interface BuiltinSignature {
  params: BuiltinParam[];
  returns?: string;
}

export interface Builtin {
  name: string;
  category: string;
  /** One per accepted form. */
  signatures: BuiltinSignature[];
  /** One line, plain text. */
  doc: string;
  /** What is not confirmed about this entry, when something is not. */
  unconfirmed?: string;
}

// ------------------------------------------------------------------------------------------- helpers

/** A compact form: the parameter list as it would read in Harn (`a: T, b?: U, ...c: V`) and the return type. */
type Form = readonly [params: string, returns: string];

/** Splits `text` on `sep` where it is not nested in (), <>, [] or {}; the `>` of `->` does not close. */
function splitTopLevel(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '<' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}' || (ch === '>' && text[i - 1] !== '-')) depth--;
    else if (ch === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

function parseParam(text: string): BuiltinParam {
  const match = /^(\.\.\.)?([A-Za-z_][A-Za-z0-9_]*)(\?)?\s*(?::\s*(.+))?$/s.exec(text);
  if (!match) throw new Error(`builtins: bad parameter spec '${text}'`);
  const name = match[2];
  if (name === undefined) throw new Error(`builtins: bad parameter spec '${text}'`);
  const param: BuiltinParam = { name };
  if (match[4] !== undefined) param.type = match[4].trim();
  if (match[3]) param.optional = true;
  if (match[1]) param.rest = true;
  return param;
}

function form(spec: Form): BuiltinSignature {
  return { params: splitTopLevel(spec[0], ',').map(parseParam), returns: spec[1] };
}

function isFormList(forms: Form | readonly Form[]): forms is readonly Form[] {
  return Array.isArray(forms[0]);
}

function def(name: string, category: string, forms: Form | readonly Form[], doc: string, unconfirmed?: string): Builtin {
  const list: readonly Form[] = isFormList(forms) ? forms : [forms];
  const builtin: Builtin = { name, category, signatures: list.map(form), doc };
  if (unconfirmed !== undefined) builtin.unconfirmed = unconfirmed;
  return builtin;
}

/** Renders one signature in Harn syntax, e.g. `fn agent_emit_event(session_id: string, event_type: string, payload: dict) -> nil`. */
export function formatSignature(b: Builtin, s: BuiltinSignature): string {
  const params = s.params.map((p) => {
    let text = (p.rest ? '...' : '') + p.name;
    if (p.type) text += `: ${p.type}`;
    if (p.optional && !p.rest) text += ' = nil';
    return text;
  });
  return `fn ${b.name}(${params.join(', ')})${s.returns ? ` -> ${s.returns}` : ''}`;
}

// -------------------------------------------------------------------------------------- the table

const HANDLE_FIRST_NOTE = 'the handle-first form is only seen in the 0.10 agent stdlib (commit 04ede7d0 era); its runtime definition was not read';

const CORE: Builtin[] = [
  // ---- output
  def(
    'println',
    'io',
    ['value: any', 'nil'],
    'Prints a value to stdout followed by a newline, with no prefix.',
    'the upstream signature table marks println variadic; the corpus only passes one argument',
  ),
  def(
    'print',
    'io',
    ['value: any', 'nil'],
    'Prints a value to stdout without a prefix or trailing newline.',
    'the upstream signature table marks print variadic; the corpus only passes one argument',
  ),
  def('log', 'io', ['value: any', 'nil'], 'Prints a value to stdout prefixed with "[harn] " and followed by a newline.'),
  def('eprintln', 'io', ['value: any', 'nil'], 'Prints a value to stderr followed by a newline.'),
  def('eprint', 'io', ['value: any', 'nil'], 'Prints a value to stderr without a trailing newline.'),
  def(
    '__io_eprintln',
    'io',
    ['value: any', 'nil'],
    'Runtime-internal stderr line writer used by the 0.10 repository scripts.',
    'internal (double-underscore) builtin; shape from corpus calls only',
  ),
  def(
    '__io_println',
    'io',
    ['value: any', 'nil'],
    'Runtime-internal stdout line writer used by the 0.10 repository scripts.',
    'internal (double-underscore) builtin; shape from corpus calls only',
  ),
  def(
    'progress',
    'io',
    [
      ['phase: string, message: string, progress?: int | float, total?: int | float', 'nil'],
      ['phase: string, message: string, options: dict', 'nil'],
    ],
    'Emits standalone progress output for a phase; an options dict selects a spinner (step) or a bar (current, total, width).',
  ),
  def('color', 'io', ['text: any, name: string', 'string'], 'Wraps text in the ANSI foreground colour code for the given colour name.'),
  def('bold', 'io', ['text: any', 'string'], 'Wraps text in ANSI bold styling.'),
  def('dim', 'io', ['text: any', 'string'], 'Wraps text in ANSI dim styling.'),
  def('set_color_mode', 'io', ['mode: string', 'nil'], 'Sets how ANSI colour output is handled.', 'accepted mode values not confirmed'),
  def('prompt_user', 'io', ['message?: string', 'string | nil'], 'Shows a message and reads one line from stdin.'),
  def(
    'read_line',
    'io',
    ['', 'string | nil'],
    'Reads one line from stdin without its newline, or nil at end of input.',
    'optional arguments of the newer runtime not confirmed',
  ),
  def('read_stdin', 'io', ['', 'string | nil'], 'Reads the rest of stdin as a string.', 'the result when stdin is already drained is not confirmed'),
  def('mock_stdin', 'testing', ['input: string', 'nil'], 'Replaces stdin with the given text for tests.', 'argument shape taken from corpus calls only'),
  def('unmock_stdin', 'testing', ['', 'nil'], 'Restores the real stdin after mock_stdin.'),
  def(
    'mock_tty',
    'testing',
    ['stream: string, is_tty: bool', 'nil'],
    'Makes is_stdin_tty / is_stdout_tty report the given answer for a stream ("stdin", "stdout") in tests.',
  ),
  def('unmock_tty', 'testing', ['', 'nil'], 'Restores real terminal detection after mock_tty.'),
  def('capture_stderr_start', 'testing', ['', 'nil'], 'Starts capturing stderr output.'),
  def('capture_stderr_take', 'testing', ['', 'string'], 'Returns and clears the stderr text captured since capture_stderr_start.'),
  def('is_stdin_tty', 'io', ['', 'bool'], 'Reports whether stdin is a terminal.'),
  def('is_stdout_tty', 'io', ['', 'bool'], 'Reports whether stdout is a terminal.'),

  // ---- types and conversion
  def('type_of', 'types', ['value: any', 'string'], 'Returns the runtime type name of a value, such as "int", "string", "list", "dict", "set" or "closure".'),
  def('to_string', 'types', ['value: any', 'string'], 'Converts a value to its string representation.'),
  def('to_int', 'types', ['value: any', 'int | nil'], 'Parses or converts a value to an int (floats truncate, bools become 0 or 1); nil when it cannot.'),
  def('to_float', 'types', ['value: any', 'float | nil'], 'Parses or converts a value to a float; nil when it cannot.'),
  def(
    'iter',
    'types',
    ['source: any', 'Iter<any>'],
    'Lifts a list, dict, set, string, generator or channel into a lazy single-pass iterator; dict iterators yield pairs.',
  ),
  def('pair', 'types', ['first: any, second: any', 'Pair<any, any>'], 'Builds a two-element Pair, read with .first and .second or destructured in a for loop.'),
  def(
    'unreachable',
    'types',
    ['value?: any', 'never'],
    'Throws "unreachable code was reached"; with a variable argument the type checker requires it to be narrowed to never.',
  ),
  def('hash_value', 'types', ['value: any', 'int'], 'Returns an integer hash that is equal for structurally equal values.'),
  def('is_same', 'types', ['a: any, b: any', 'bool'], 'Reports identity: true for the same list or dict object, and for equal primitives.'),
  def('addr_of', 'types', ['value: any', 'string'], 'Returns a stable identity string for a value, such as "int@42".'),
  def(
    'is_type',
    'schema',
    ['value: any, schema: any', 'bool'],
    'Checks a value against a type schema and returns a bool.',
    'argument order and accepted schema forms not confirmed',
  ),

  // ---- Result
  def('Ok', 'result', ['value: any', 'Result<any, any>'], 'Wraps a value as Result.Ok.'),
  def('Err', 'result', ['error: any', 'Result<any, any>'], 'Wraps a value as Result.Err.'),
  def('is_ok', 'result', ['value: any', 'bool'], 'Returns true when the value is a Result.Ok.'),
  def('is_err', 'result', ['value: any', 'bool'], 'Returns true when the value is a Result.Err.'),
  def('unwrap', 'result', ['result: any', 'any'], 'Returns the Ok value, throws on Err, and passes non-Result values through.'),
  def('unwrap_or', 'result', ['result: any, fallback: any', 'any'], 'Returns the Ok value, or the fallback on Err; non-Result values pass through.'),
  def('unwrap_err', 'result', ['result: any', 'any'], 'Returns the Err value and throws when the value is not an Err.'),

  // ---- JSON, YAML, TOML
  def('json_parse', 'json', ['text: string', 'any'], 'Parses a JSON string into Harn values; throws on invalid JSON.'),
  def('json_stringify', 'json', ['value: any', 'string'], 'Serializes a value to JSON; closures and handles become null.'),
  def(
    'json_validate',
    'json',
    ['value: any, schema: dict', 'bool'],
    'Validates data against a schema dict; returns true when valid and throws with details otherwise.',
  ),
  def(
    'json_extract',
    'json',
    ['text: string, key?: string', 'any'],
    'Extracts JSON from text that may carry markdown fences or prose; with a key, returns that field.',
  ),
  def('json_pointer', 'json', ['value: any, pointer: string', 'any'], 'Reads an RFC 6901 JSON Pointer path, or nil when it is missing.'),
  def('json_pointer_set', 'json', ['value: any, pointer: string, replacement: any', 'any'], 'Returns a copy with the JSON Pointer path replaced or inserted.'),
  def(
    'json_pointer_delete',
    'json',
    ['value: any, pointer: string', 'any'],
    'Returns a copy with the JSON Pointer path removed; missing paths leave it unchanged.',
  ),
  def('jq', 'json', ['value: any, expression: string', 'list<any>'], 'Evaluates a jq-like expression and returns every emitted result as a list.'),
  def('jq_first', 'json', ['value: any, expression: string', 'any'], 'Returns the first jq result, or nil when the expression emits nothing.'),
  def('yaml_parse', 'json', ['text: string', 'any'], 'Parses a YAML string into Harn values; throws on invalid YAML.'),
  def('yaml_stringify', 'json', ['value: any', 'string'], 'Serializes a value to YAML.'),
  def('toml_parse', 'json', ['text: string', 'any'], 'Parses a TOML string into Harn values; throws on invalid TOML.'),
  def('toml_stringify', 'json', ['value: any', 'string'], 'Serializes a value to TOML.'),
  def('csv_parse', 'json', ['text: string, options?: dict', 'list<any>'], 'Parses CSV text into rows.', 'row shape and option keys not confirmed'),
  def(
    'parse_junit_xml',
    'json',
    ['xml: string | bytes', 'list<dict>'],
    'Parses JUnit XML into one dict per test case (name, status, duration_ms, message, stdout, stderr); malformed input gives an empty list.',
  ),
  def('csv_stringify', 'json', ['rows: list<any>, options?: dict', 'string'], 'Serializes rows to CSV text.', 'option keys not confirmed'),

  // ---- schemas
  def(
    'schema_check',
    'schema',
    ['value: any, schema: dict', 'Result<any, any>'],
    'Validates data against an extended schema and returns Ok(data) or Err({message, errors, ...}).',
  ),
  def('schema_parse', 'schema', ['value: any, schema: dict', 'Result<any, any>'], 'Like schema_check, but also applies schema default values recursively.'),
  def('schema_is', 'schema', ['value: any, schema: dict', 'bool'], 'Validates data against a schema and returns true or false without throwing.'),
  def(
    'schema_expect',
    'schema',
    ['value: any, schema: dict, apply_defaults?: bool', 'any'],
    'Validates data and returns the normalized value, throwing on failure.',
  ),
  def(
    'schema_of',
    'schema',
    ['type_name: any', 'dict'],
    'Produces the schema dict for a type, so schema-taking builtins can narrow to that type.',
    'the argument is a type name; how the parser types it is not confirmed',
  ),
  def('schema_extend', 'schema', ['base: dict, overrides: dict', 'dict'], 'Shallow-merges two schema dicts.'),
  def('schema_partial', 'schema', ['schema: dict', 'dict'], 'Removes required recursively so every property becomes optional.'),
  def('schema_pick', 'schema', ['schema: dict, keys: list<string>', 'dict'], 'Keeps only the named top-level properties of a schema.'),
  def('schema_omit', 'schema', ['schema: dict, keys: list<string>', 'dict'], 'Removes the named top-level properties from a schema.'),
  def('schema_to_json_schema', 'schema', ['schema: dict', 'dict'], 'Converts an extended Harn schema to JSON Schema.'),
  def('schema_from_json_schema', 'schema', ['schema: dict', 'dict'], 'Converts a JSON Schema object into a canonical Harn schema dict.'),
  def('schema_to_openapi_schema', 'schema', ['schema: dict', 'dict'], 'Converts an extended Harn schema into an OpenAPI-friendly schema object.'),
  def('schema_from_openapi_schema', 'schema', ['schema: dict', 'dict'], 'Converts an OpenAPI Schema Object into a canonical Harn schema dict.'),

  // ---- math
  def('abs', 'math', ['value: int | float', 'int | float'], 'Returns the absolute value.'),
  def('ceil', 'math', ['value: int | float', 'int'], 'Rounds up to an int; ints pass through.'),
  def('floor', 'math', ['value: int | float', 'int'], 'Rounds down to an int; ints pass through.'),
  def('round', 'math', ['value: int | float', 'int'], 'Rounds to the nearest int; ints pass through.'),
  def('sqrt', 'math', ['value: int | float', 'float'], 'Returns the square root.'),
  def(
    'pow',
    'math',
    ['base: int | float, exponent: int | float', 'int | float'],
    'Raises base to exponent; the result is an int when both are ints and the exponent is not negative.',
  ),
  def('min', 'math', ['a: int | float, b: int | float', 'int | float'], 'Returns the smaller of two numbers; a float if either argument is a float.'),
  def('max', 'math', ['a: int | float, b: int | float', 'int | float'], 'Returns the larger of two numbers; a float if either argument is a float.'),
  def(
    'random',
    'math',
    [
      ['', 'float'],
      ['rng: any', 'float'],
    ],
    'Returns a random float in [0, 1), optionally from a seeded RNG handle.',
  ),
  def(
    'random_int',
    'math',
    [
      ['min: int, max: int', 'int'],
      ['rng: any, min: int, max: int', 'int'],
    ],
    'Returns a random int in [min, max] inclusive, optionally from a seeded RNG handle.',
  ),
  def(
    'random_choice',
    'math',
    [
      ['items: list<any>', 'any'],
      ['rng: any, items: list<any>', 'any'],
    ],
    'Returns a random element of a list, or nil for an empty list.',
  ),
  def(
    'random_shuffle',
    'math',
    [
      ['items: list<any>', 'list<any>'],
      ['rng: any, items: list<any>', 'list<any>'],
    ],
    'Returns a shuffled copy of a list.',
  ),
  def('rng_seed', 'math', ['seed: int', 'any'], 'Creates a reproducible RNG handle for the random builtins.'),
  def('mean', 'math', ['items: list<int | float>', 'float'], 'Returns the arithmetic mean of a numeric list.'),
  def('median', 'math', ['items: list<int | float>', 'float'], 'Returns the median of a numeric list.'),
  def('variance', 'math', ['items: list<int | float>, sample?: bool', 'float'], 'Returns the population variance, or the sample variance when sample is true.'),
  def(
    'stddev',
    'math',
    ['items: list<int | float>, sample?: bool', 'float'],
    'Returns the population standard deviation, or the sample one when sample is true.',
  ),
  def('percentile', 'math', ['items: list<int | float>, p: int | float', 'float'], 'Returns the p-th percentile (0 to 100) using R-7 interpolation.'),
  def('sin', 'math', ['value: int | float', 'float'], 'Sine of an angle in radians.'),
  def('cos', 'math', ['value: int | float', 'float'], 'Cosine of an angle in radians.'),
  def('tan', 'math', ['value: int | float', 'float'], 'Tangent of an angle in radians.'),
  def('asin', 'math', ['value: int | float', 'float'], 'Inverse sine.'),
  def('acos', 'math', ['value: int | float', 'float'], 'Inverse cosine.'),
  def('atan', 'math', ['value: int | float', 'float'], 'Inverse tangent.'),
  def('atan2', 'math', ['y: int | float, x: int | float', 'float'], 'Two-argument inverse tangent.'),
  def('log2', 'math', ['value: int | float', 'float'], 'Base-2 logarithm.'),
  def('log10', 'math', ['value: int | float', 'float'], 'Base-10 logarithm.'),
  def('ln', 'math', ['value: int | float', 'float'], 'Natural logarithm.'),
  def('exp', 'math', ['value: int | float', 'float'], "Euler's number raised to the given power."),
  def('sign', 'math', ['value: int | float', 'int'], 'Returns -1, 0 or 1 according to the sign of a number.'),
  def('is_nan', 'math', ['value: int | float', 'bool'], 'Reports whether a number is NaN.'),
  def('is_infinite', 'math', ['value: int | float', 'bool'], 'Reports whether a number is infinite.'),

  // ---- sets
  def(
    'set',
    'collections',
    [
      ['', 'set'],
      ['items: list<any>', 'set'],
      ['...values: any', 'set'],
    ],
    'Creates a set, from a list or from the arguments themselves; duplicates are dropped.',
  ),
  def('set_add', 'collections', ['s: set, value: any', 'set'], 'Returns a new set with the value added.'),
  def('set_remove', 'collections', ['s: set, value: any', 'set'], 'Returns a new set with the value removed.'),
  def('set_contains', 'collections', ['s: set, value: any', 'bool'], 'Reports whether the set contains the value.'),
  def('set_union', 'collections', ['a: set, b: set', 'set'], 'Returns the union of two sets.'),
  def('set_intersect', 'collections', ['a: set, b: set', 'set'], 'Returns the intersection of two sets.'),
  def('set_difference', 'collections', ['a: set, b: set', 'set'], 'Returns the elements of a that are not in b.'),
  def('set_symmetric_difference', 'collections', ['a: set, b: set', 'set'], 'Returns the elements in exactly one of the two sets.'),
  def('set_is_subset', 'collections', ['a: set, b: set', 'bool'], 'Reports whether every element of a is in b.'),
  def('set_is_superset', 'collections', ['a: set, b: set', 'bool'], 'Reports whether a contains every element of b.'),
  def('set_is_disjoint', 'collections', ['a: set, b: set', 'bool'], 'Reports whether two sets share no elements.'),
  def('to_list', 'collections', ['s: set', 'list<any>'], 'Converts a set to a list.'),

  // ---- collections
  def(
    'len',
    'collections',
    ['value: string | list<any> | dict | set | bytes | nil', 'int'],
    'Returns the length of a string (characters), list (items), dict (keys) or set.',
  ),
  def(
    'contains',
    'collections',
    ['haystack: string | list<any>, needle: any', 'bool'],
    'Reports whether a string contains a substring or a list contains an item.',
  ),
  def('keys', 'collections', ['d: dict', 'list<string>'], 'Returns the keys of a dict.'),
  def('values', 'collections', ['d: dict', 'list<any>'], 'Returns the values of a dict.'),
  def('entries', 'collections', ['d: dict', 'list<any>'], 'Returns the entries of a dict.', 'element shape of the returned list not confirmed'),
  def(
    'range',
    'collections',
    [
      ['end: int', 'range'],
      ['start: int, end: int', 'range'],
    ],
    'Returns a lazy half-open range of ints from start (default 0) up to end; .to_list() materializes it.',
    'the upstream signature table types the result as a list; the conformance output shows a lazy range',
  ),
  def('chunk', 'collections', ['items: list<any>, size: int', 'list<list<any>>'], 'Splits a list into chunks of the given size.'),
  def('window', 'collections', ['items: list<any>, size: int, step?: int', 'list<list<any>>'], 'Returns sliding windows of a list with an optional stride.'),
  def('group_by', 'collections', ['items: list<any>, key_fn: fn(any) -> any', 'dict'], 'Groups list items into a dict keyed by the callback result.'),
  def('partition', 'collections', ['items: list<any>, predicate: fn(any) -> bool', 'dict'], 'Splits a list into {match, no_match} lists by a predicate.'),
  def('dedup_by', 'collections', ['items: list<any>, key_fn: fn(any) -> any', 'list<any>'], 'Keeps the first item for each key produced by the callback.'),
  def('flat_map', 'collections', ['items: list<any>, callback: fn(any) -> any', 'list<any>'], 'Maps each item and flattens the results one level.'),

  // ---- strings
  def('trim', 'string', ['text: string', 'string'], 'Removes leading and trailing whitespace.'),
  def('lowercase', 'string', ['text: string', 'string'], 'Converts a string to lowercase.'),
  def('uppercase', 'string', ['text: string', 'string'], 'Converts a string to uppercase.'),
  def('split', 'string', ['text: string, separator: string', 'list<string>'], 'Splits a string on a separator.'),
  def('starts_with', 'string', ['text: string, prefix: string', 'bool'], 'Reports whether a string starts with the prefix.'),
  def('ends_with', 'string', ['text: string, suffix: string', 'bool'], 'Reports whether a string ends with the suffix.'),
  def('replace', 'string', ['text: string, old: string, new: string', 'string'], 'Replaces every occurrence of old with new.'),
  def('join', 'string', ['items: list<any>, separator?: string', 'string'], 'Joins list elements into a string with a separator.'),
  def(
    'substring',
    'string',
    ['text: string, start: int, length?: int', 'string'],
    'Returns the part of a string from start, optionally limited to length characters.',
  ),
  def(
    'format',
    'string',
    ['template: string, ...args: any', 'string'],
    'Fills {} placeholders in order; with a dict as the second argument, fills named {key} placeholders.',
  ),
  def(
    'str_pad',
    'string',
    ['text: string, width: int, fill?: string, side?: string', 'string'],
    'Pads a string to a grapheme width with a fill character on the left, right or both sides.',
  ),
  def('unicode_normalize', 'string', ['text: string, form: string', 'string'], 'Normalizes a string to NFC, NFD, NFKC or NFKD.'),
  def('unicode_graphemes', 'string', ['text: string', 'list<string>'], 'Splits a string into extended grapheme clusters.'),
  def('title_case', 'string', ['text: string', 'string'], 'Converts a string to title case.', 'word-splitting rules not confirmed'),
  def('lowercase_first', 'string', ['text: string', 'string'], 'Lowercases the first character of a string.'),
  def('uppercase_first', 'string', ['text: string', 'string'], 'Uppercases the first character of a string.'),
  def('camel_to_snake', 'string', ['text: string', 'string'], 'Converts camelCase to snake_case.'),
  def('camel_to_kebab', 'string', ['text: string', 'string'], 'Converts camelCase to kebab-case.'),
  def('camel_to_pascal', 'string', ['text: string', 'string'], 'Converts camelCase to PascalCase.'),
  def('snake_to_camel', 'string', ['text: string', 'string'], 'Converts snake_case to camelCase.'),
  def('snake_to_kebab', 'string', ['text: string', 'string'], 'Converts snake_case to kebab-case.'),
  def('snake_to_pascal', 'string', ['text: string', 'string'], 'Converts snake_case to PascalCase.'),
  def('kebab_to_camel', 'string', ['text: string', 'string'], 'Converts kebab-case to camelCase.'),
  def('kebab_to_snake', 'string', ['text: string', 'string'], 'Converts kebab-case to snake_case.'),
  def('pascal_to_snake', 'string', ['text: string', 'string'], 'Converts PascalCase to snake_case.'),
  def('pascal_to_camel', 'string', ['text: string', 'string'], 'Converts PascalCase to camelCase.'),

  // ---- regular expressions
  def(
    'regex_match',
    'regex',
    ['pattern: string, text: string, flags?: string', 'list<string> | nil'],
    'Finds all non-overlapping matches; optional flags i, m, s, x.',
  ),
  def(
    'regex_replace',
    'regex',
    ['pattern: string, replacement: string, text: string', 'string'],
    'Replaces all matches of a pattern; throws on an invalid regex.',
  ),
  def(
    'regex_replace_all',
    'regex',
    ['pattern: string, replacement: string, text: string', 'string'],
    'Replaces all matches of a pattern.',
    'argument order assumed to match regex_replace',
  ),
  def(
    'regex_captures',
    'regex',
    ['pattern: string, text: string, flags?: string', 'list<dict>'],
    'Returns one dict per match with match, groups and any named groups; empty when nothing matches.',
    'the optional flags argument is seen once in the corpus but not in the reference',
  ),
  def('regex_split', 'regex', ['text: string, pattern: string, flags?: string', 'list<string>'], 'Splits text on regex matches.'),
];

const SYSTEM: Builtin[] = [
  // ---- paths
  def('path_join', 'path', ['...parts: string', 'string'], 'Joins path components.'),
  def('dirname', 'path', ['path: string', 'string'], 'Returns the directory component of a path.'),
  def('basename', 'path', ['path: string', 'string'], 'Returns the file-name component of a path.'),
  def('extname', 'path', ['path: string', 'string'], 'Returns the file extension including the dot, such as ".harn".'),
  def('path_normalize', 'path', ['path: string', 'string'], 'Normalizes a path lexically.', 'exact normalization rules not confirmed'),
  def('path_parent', 'path', ['path: string', 'string'], 'Returns the parent of a path.', 'behaviour at the root not confirmed'),
  def('path_extension', 'path', ['path: string', 'string'], 'Returns the extension of a path.', 'whether the leading dot is included is not confirmed'),
  def(
    'path_with_extension',
    'path',
    ['path: string, extension: string', 'string'],
    'Returns the path with its extension replaced.',
    'argument shape taken from the upstream signature list and corpus calls',
  ),
  def(
    'path_relative_to',
    'path',
    ['path: string, base: string', 'any'],
    'Expresses a path relative to a base directory.',
    'return value when the path is outside the base is not confirmed',
  ),
  def('path_is_absolute', 'path', ['path: string', 'bool'], 'Reports whether a path is absolute.'),
  def(
    'path_workspace_info',
    'path',
    ['path: string, workspace_root?: string', 'dict'],
    'Classifies a path as workspace_relative, host_absolute or invalid and returns both projected forms when known.',
  ),
  def(
    'path_workspace_normalize',
    'path',
    ['path: string, workspace_root?: string', 'string | nil'],
    'Normalizes a path to workspace-relative form when it is safely inside the workspace, else nil.',
  ),

  // ---- files
  def('read_file', 'fs', ['path: string', 'string'], 'Reads a whole file as UTF-8 text; throws on failure.'),
  def('read_file_result', 'fs', ['path: string', 'Result<string, string>'], 'Reads a file without throwing: Ok(content) or Err(message).'),
  def('read_file_bytes', 'fs', ['path: string', 'bytes'], 'Reads a whole file as bytes.'),
  def('write_file', 'fs', ['path: string, content: string', 'nil'], 'Writes a string to a file; throws on failure.'),
  def('write_file_bytes', 'fs', ['path: string, content: bytes', 'nil'], 'Writes bytes to a file.'),
  def('append_file', 'fs', ['path: string, content: string', 'nil'], 'Appends a string to a file, creating it when missing.'),
  def('copy_file', 'fs', ['src: string, dst: string', 'nil'], 'Copies a file; throws on failure.'),
  def('move_file', 'fs', ['src: string, dst: string', 'nil'], 'Moves or renames a file.', 'argument shape taken from the upstream signature list only'),
  def('delete_file', 'fs', ['path: string', 'nil'], 'Deletes a file or directory recursively; throws on failure.'),
  def('file_exists', 'fs', ['path: string', 'bool'], 'Reports whether a file or directory exists.'),
  def('list_dir', 'fs', ['path?: string', 'list<string>'], 'Lists the entries of a directory (default ".") as a sorted list of names.'),
  def('mkdir', 'fs', ['path: string', 'nil'], 'Creates a directory and any missing parents.'),
  def('stat', 'fs', ['path: string', 'dict'], 'Returns file metadata: size, is_file, is_dir, readonly and modified.'),
  def('temp_dir', 'fs', ['', 'string'], 'Returns the system temporary directory path.'),
  def(
    'glob',
    'fs',
    ['pattern: string, base_or_options?: string | dict, options?: dict', 'list<string>'],
    'Lists paths matching a glob pattern.',
    'option keys not confirmed',
  ),
  def(
    'scan_directory',
    'fs',
    ['path?: string, pattern_or_options?: string | dict, options?: dict', 'list<any>'],
    'Enumerates files and directories with optional pattern, max_depth, include_hidden, include_dirs and include_files.',
  ),
  def(
    'vision_ocr',
    'fs',
    ['image: string | dict, options?: dict', 'dict'],
    'Runs OCR over an image and returns structured text (text, blocks, lines, tokens, source, backend, stats).',
  ),
  def(
    'render',
    'fs',
    ['path: string, bindings?: dict', 'string'],
    "Reads a template file relative to the current module's asset root and renders it with the bindings.",
  ),
  def('render_prompt', 'fs', ['path: string, bindings?: dict', 'string'], 'Prompt-oriented alias of render for .harn.prompt and .prompt assets.'),
  def('render_string', 'fs', ['template: string, bindings?: dict', 'string'], 'Renders an inline template string with the same engine as render.'),

  // ---- environment and process
  def('env', 'env', ['name: string', 'string | nil'], 'Reads an environment variable, or nil when it is unset.'),
  def('env_or', 'env', ['name: string, fallback: any', 'any'], 'Reads an environment variable, or returns the fallback when it is unset.'),
  def('timestamp', 'env', ['', 'float'], 'Returns the Unix time in seconds with sub-second precision.'),
  def('elapsed', 'env', ['', 'int'], 'Returns the milliseconds since the VM started.'),
  def('monotonic_ms', 'env', ['', 'int'], 'Returns a monotonic clock reading in milliseconds.'),
  def('now_ms', 'env', ['', 'int'], 'Returns the current time in milliseconds.', 'epoch base not confirmed'),
  def('mock_time', 'testing', ['ms: int', 'nil'], 'Freezes the runtime clock at a given time for tests.', 'argument meaning not confirmed'),
  def('unmock_time', 'testing', ['', 'nil'], 'Restores the real clock after mock_time.'),
  def('advance_time', 'testing', ['ms: int', 'int'], 'Advances the mocked clock by the given milliseconds.'),
  def('exec', 'process', ['command: string, ...args: string', 'dict'], 'Runs an external command and returns {stdout, stderr, status, success}.'),
  def('exec_at', 'process', ['dir: string, command: string, ...args: string', 'dict'], 'Runs an external command in the given directory.'),
  def('shell', 'process', ['command: string', 'dict'], 'Runs a command through the shell and returns {stdout, stderr, status, success}.'),
  def('shell_at', 'process', ['dir: string, command: string', 'dict'], 'Runs a shell command in the given directory.'),
  def('exit', 'process', ['code?: int', 'never'], 'Terminates the process with the exit code (default 0).'),
  def('sleep', 'process', ['duration: int | duration', 'nil'], 'Pauses execution for a duration or a number of milliseconds.'),
  def('uuid', 'env', ['', 'string'], 'Generates a random version 4 UUID.'),
  def('uuid_v7', 'env', ['', 'string'], 'Generates a time-ordered version 7 UUID.'),
  def('uuid_v5', 'env', ['namespace: string, name: string', 'string'], 'Generates a deterministic namespaced version 5 UUID.'),
  def('uuid_parse', 'env', ['text: string', 'string | nil'], 'Canonicalizes a UUID string, or returns nil when it is invalid.'),
  def('uuid_nil', 'env', ['', 'string'], 'Returns the all-zero UUID.'),
  def('cwd', 'env', ['', 'string'], 'Returns the current working directory.'),
  def('source_dir', 'env', ['', 'string'], 'Returns the directory of the executing .harn file, falling back to the working directory.'),
  def('project_root', 'env', ['', 'string | nil'], 'Returns the nearest ancestor directory containing harn.toml, or nil.'),
  def('execution_root', 'env', ['', 'string'], 'Returns the directory used by source-relative execution helpers such as exec_at.'),
  def('asset_root', 'env', ['', 'string'], 'Returns the directory used by source-relative asset helpers such as render.'),
  def('runtime_paths', 'env', ['', 'dict'], 'Returns the resolved runtime paths: execution, asset, state, run and worktree roots.'),
  def('platform', 'env', ['', 'string'], 'Returns the OS name: "darwin", "linux" or "windows".'),
  def('arch', 'env', ['', 'string'], 'Returns the CPU architecture, such as "aarch64" or "x86_64".'),
  def('pid', 'env', ['', 'int'], 'Returns the current process id.'),
  def('home_dir', 'env', ['', 'string'], "Returns the user's home directory."),
  def('username', 'env', ['', 'string'], 'Returns the current OS user name.'),
  def('hostname', 'env', ['', 'string'], 'Returns the machine host name.'),
  def(
    'project_fingerprint',
    'env',
    ['path?: string', 'dict'],
    'Returns a shallow project profile: languages, frameworks, package managers, test runner, VCS and CI.',
  ),
  def(
    'secret_get',
    'env',
    ['name: string', 'any'],
    'Reads a secret by name from the configured secret providers.',
    'return shape and name format not confirmed',
  ),

  // ---- encoding, hashing, crypto
  def('base64_encode', 'encoding', ['input: string | bytes', 'string'], 'Base64-encodes with the standard alphabet and padding.'),
  def('base64_decode', 'encoding', ['text: string', 'string'], 'Decodes standard base64; throws on invalid input.'),
  def('base64url_encode', 'encoding', ['input: string | bytes', 'string'], 'Base64-encodes with the URL-safe alphabet and no padding.'),
  def('base64url_decode', 'encoding', ['text: string', 'string'], 'Decodes URL-safe unpadded base64; throws on invalid input.'),
  def('base32_encode', 'encoding', ['input: string', 'string'], 'Base32-encodes with the RFC 4648 alphabet and padding.'),
  def('base32_decode', 'encoding', ['text: string', 'string'], 'Decodes base32; throws on invalid input.'),
  def('hex_encode', 'encoding', ['input: string', 'string'], 'Hex-encodes a string as lowercase ASCII.'),
  def('hex_decode', 'encoding', ['text: string', 'string'], 'Decodes a hex string; throws on invalid input.'),
  def('url_encode', 'encoding', ['text: string', 'string'], 'Percent-encodes a string, leaving unreserved characters unchanged.'),
  def('url_decode', 'encoding', ['text: string', 'string'], 'Decodes %XX sequences and + as a space.'),
  def('url_parse', 'encoding', ['url: string', 'dict'], 'Parses a URL into its parts.', 'field names of the result not confirmed'),
  def('bytes_from_string', 'encoding', ['text: string', 'bytes'], 'Encodes a string as UTF-8 bytes.'),
  def('bytes_to_string', 'encoding', ['input: bytes', 'string'], 'Decodes bytes as UTF-8 text.'),
  def('bytes_from_hex', 'encoding', ['text: string', 'bytes'], 'Decodes a hex string into bytes.'),
  def('bytes_to_hex', 'encoding', ['input: bytes', 'string'], 'Encodes bytes as a lowercase hex string.'),
  def('bytes_from_base64', 'encoding', ['text: string', 'bytes'], 'Decodes base64 into bytes.'),
  def('bytes_to_base64', 'encoding', ['input: bytes', 'string'], 'Encodes bytes as base64.'),
  def('bytes_len', 'encoding', ['input: bytes', 'int'], 'Returns the number of bytes.'),
  def('bytes_concat', 'encoding', ['left: bytes, right: bytes', 'bytes'], 'Concatenates two byte values.'),
  def('sha256', 'hash', ['input: string | bytes', 'string'], 'Returns the SHA-256 hash as lowercase hex.'),
  def('sha512', 'hash', ['input: string | bytes', 'string'], 'Returns the SHA-512 hash as lowercase hex.'),
  def(
    'sha3_256',
    'hash',
    ['input: string | bytes', 'string'],
    'Returns the SHA3-256 hash of the input.',
    'output encoding assumed to be lowercase hex like sha256',
  ),
  def(
    'sha3_512',
    'hash',
    ['input: string | bytes', 'string'],
    'Returns the SHA3-512 hash of the input.',
    'output encoding assumed to be lowercase hex like sha512',
  ),
  def('md5', 'hash', ['input: string | bytes', 'string'], 'Returns the MD5 hash as lowercase hex.'),
  def('blake3', 'hash', ['input: string | bytes', 'string'], 'Returns the BLAKE3 hash of the input.', 'output encoding not confirmed'),
  def('hmac_sha256', 'hash', ['key: string, message: string', 'string'], 'Returns an HMAC-SHA256 signature as lowercase hex.'),
  def('hmac_sha256_base64', 'hash', ['key: string, message: string', 'string'], 'Returns an HMAC-SHA256 signature as standard base64.'),
  def('constant_time_eq', 'hash', ['a: string, b: string', 'bool'], 'Compares two strings in constant time; use it for signatures.'),
  def('jwt_sign', 'hash', ['algorithm: string, claims: dict, private_key: string', 'string'], 'Signs a compact JWT with a PEM private key (ES256 or RS256).'),
  def(
    'signed_url',
    'hash',
    ['base: string, claims: dict, secret: string, expires_at: int, options?: dict', 'string'],
    'Creates a short-lived HMAC-SHA256 signed URL or path.',
  ),
  def(
    'verify_signed_url',
    'hash',
    ['url: string, secret_or_keys: string | dict, now: int, options?: dict', 'dict'],
    'Verifies a signed URL and returns {valid, reason, expired, claims, ...}.',
  ),
  def('ed25519_verify', 'hash', ['public_hex: string, message: string | bytes, signature_hex: string', 'bool'], 'Verifies an Ed25519 signature.'),
  def('ed25519_keypair', 'hash', ['', 'dict'], 'Generates an Ed25519 key pair.', 'field names of the result not confirmed'),
  def(
    'ed25519_sign',
    'hash',
    ['private_hex: string, message: string | bytes', 'string'],
    'Signs a message with a hex Ed25519 private key and returns the hex signature.',
  ),
  def('gzip_encode', 'encoding', ['input: bytes | string, level?: int', 'bytes'], 'Compresses data with gzip.'),
  def('gzip_decode', 'encoding', ['input: bytes', 'bytes'], 'Decompresses gzip data.'),
  def(
    'zstd_encode',
    'encoding',
    ['input: bytes | string, level?: int', 'bytes'],
    'Compresses data with zstd.',
    'parameter list taken from corpus calls and the gzip counterpart',
  ),
  def('zstd_decode', 'encoding', ['input: bytes', 'bytes'], 'Decompresses zstd data.'),
  def('brotli_encode', 'encoding', ['input: bytes | string, quality?: int', 'bytes'], 'Compresses data with brotli.'),
  def('brotli_decode', 'encoding', ['input: bytes', 'bytes'], 'Decompresses brotli data.'),
  def(
    'cookie_serialize',
    'http',
    ['name: string, value: string, options?: dict', 'string'],
    'Serializes one Set-Cookie value with options such as http_only, secure, same_site, path and max_age.',
  ),
  def('cookie_parse', 'http', ['header: string | list<string> | dict', 'dict'], 'Parses Cookie header values into {cookies, pairs, duplicates, invalid}.'),
  def('session_verify', 'http', ['token: string, secret: string', 'dict'], 'Verifies a stateless signed session token and returns {ok, payload, error}.'),
  def('cookie_delete', 'http', ['name: string, options?: dict', 'string'], 'Serializes a deletion cookie with Max-Age=0 and an epoch Expires.'),
  def('cookie_sign', 'http', ['value: string, secret: string', 'string'], 'Appends an HMAC-SHA256 signature to a cookie value.'),
  def('cookie_verify', 'http', ['signed: string, secret: string', 'dict'], 'Verifies a signed cookie value and returns {ok, value, error} without throwing.'),
  def(
    'cookie_round_trip',
    'http',
    ['request_or_set_cookie: string | dict | list<any>, set_cookie?: string | dict | list<any>', 'dict'],
    'Test helper that applies Set-Cookie headers to a request cookie header and returns {cookie_header, cookies}.',
  ),
  def('session_sign', 'http', ['payload: any, secret: string', 'string'], 'Returns a stateless signed session token holding a JSON payload.'),
  def(
    'session_cookie',
    'http',
    ['name: string, payload: any, secret: string, options?: dict', 'string'],
    'Serializes a signed session cookie (Path=/, HttpOnly, Secure, SameSite=Lax by default).',
  ),
  def(
    'session_from_cookies',
    'http',
    ['headers: string | dict | list<any>, name: string, secret: string', 'dict'],
    'Reads a named session cookie from request cookies and verifies it.',
  ),

  // ---- dates and durations
  def(
    'date_now',
    'datetime',
    ['', 'dict'],
    'Returns the current UTC time as a dict with year, month, day, hour, minute, second, weekday, timestamp and iso8601.',
  ),
  def('date_iso', 'datetime', ['', 'string'], 'Returns the current UTC time as an ISO 8601 string.'),
  def('date_parse', 'datetime', ['text: string', 'int | float'], 'Parses an RFC 3339 or ISO 8601 string into a Unix timestamp.'),
  def(
    'date_format',
    'datetime',
    ['timestamp: int | float | dict, format?: string, timezone?: string', 'string'],
    'Formats a timestamp with strftime codes (default "%Y-%m-%d %H:%M:%S"), optionally in a timezone.',
  ),
  def(
    'date_in_zone',
    'datetime',
    ['timestamp: int | float | dict, timezone: string', 'dict'],
    'Converts a timestamp into the local fields of an IANA timezone.',
  ),
  def(
    'date_to_zone',
    'datetime',
    ['timestamp: int | float | dict, timezone: string', 'string'],
    "Converts a timestamp to an RFC 3339 string with the timezone's offset.",
  ),
  def(
    'date_from_components',
    'datetime',
    ['components: dict, timezone?: string', 'int | float'],
    'Builds a Unix timestamp from {year, month, day, hour?, minute?, second?} in a timezone (default UTC).',
  ),
  def('date_add', 'datetime', ['timestamp: int | float | dict, amount: duration', 'int | float'], 'Adds a duration to a timestamp.'),
  def('date_diff', 'datetime', ['a: int | float | dict, b: int | float | dict', 'duration'], 'Returns the signed duration a - b.'),
  def('duration_ms', 'datetime', ['count: int | float', 'duration'], 'Makes a duration from milliseconds.'),
  def('duration_minutes', 'datetime', ['count: int | float', 'duration'], 'Makes a duration from minutes.'),
  def('duration_hours', 'datetime', ['count: int | float', 'duration'], 'Makes a duration from hours.'),
  def('duration_to_seconds', 'datetime', ['amount: duration', 'int'], 'Converts a duration to whole seconds.'),
  def('duration_to_human', 'datetime', ['amount: duration', 'string'], 'Formats a duration compactly, such as "3h 14m".'),
  def('month_name', 'datetime', ['timestamp: int | float | dict, timezone?: string', 'string'], 'Returns the month name of a timestamp.'),
  def('weekday_name', 'datetime', ['timestamp: int | float | dict, timezone?: string', 'string'], 'Returns the weekday name of a timestamp.'),

  // ---- testing
  def('assert', 'testing', ['condition: any, message?: string', 'nil'], 'Throws (with the message) when the condition is not truthy.'),
  def('assert_eq', 'testing', ['actual: any, expected: any, message?: string', 'nil'], 'Throws (with the message) when the two values are not equal.'),
  def('assert_ne', 'testing', ['a: any, b: any, message?: string', 'nil'], 'Throws (with the message) when the two values are equal.'),

  // ---- HTTP client and mocks
  def(
    'http_get',
    'http',
    ['url: string, options?: dict', 'dict'],
    'Sends a GET request and returns {status, headers, body, ok}; options include headers, auth, timeout_ms and retry.',
  ),
  def('http_post', 'http', ['url: string, body?: any, options?: dict', 'dict'], 'Sends a POST request and returns {status, headers, body, ok}.'),
  def('http_put', 'http', ['url: string, body?: any, options?: dict', 'dict'], 'Sends a PUT request and returns {status, headers, body, ok}.'),
  def('http_patch', 'http', ['url: string, body?: any, options?: dict', 'dict'], 'Sends a PATCH request and returns {status, headers, body, ok}.'),
  def('http_delete', 'http', ['url: string, options?: dict', 'dict'], 'Sends a DELETE request and returns {status, headers, body, ok}.'),
  def(
    'http_request',
    'http',
    ['method: string, url: string, options?: dict', 'dict'],
    'Sends an HTTP request with any method and returns {status, headers, body, ok}.',
  ),
  def(
    'http_download',
    'http',
    ['url: string, dst_path: string, options?: dict', 'dict'],
    'Streams a response body to a file and returns {bytes_written, status, headers, ok}.',
  ),
  def(
    'http_header',
    'http',
    ['source: dict | list<any>, name: string', 'string | nil'],
    'Reads a header case-insensitively from a header dict, request or response.',
  ),
  def(
    'http_mock',
    'http',
    ['method: string, url_pattern: string, response: dict', 'nil'],
    'Registers a mock HTTP response for a method and URL glob; {responses: [...]} scripts retries.',
  ),
  def('http_mock_clear', 'http', ['', 'nil'], 'Clears all HTTP mocks and recorded calls.'),
  def('http_mock_calls', 'http', ['options?: dict', 'list<dict>'], 'Returns the intercepted calls as {method, url, headers, body} dicts.'),
  def('http_session', 'http', ['options?: dict', 'string'], 'Creates a reusable HTTP client session handle.'),
  def('http_session_request', 'http', ['session: string, method: string, url: string, options?: dict', 'dict'], 'Sends a request through a reusable session.'),
  def('http_session_close', 'http', ['session: string', 'bool'], 'Closes an HTTP session handle.'),
  def('http_stream_open', 'http', ['url: string, options?: dict', 'string'], 'Opens a streaming HTTP response handle.'),
  def(
    'http_stream_read',
    'http',
    ['stream: string, max_bytes?: int', 'bytes | nil'],
    'Reads the next chunk of a streaming response, or nil when it is exhausted.',
  ),
  def('http_stream_info', 'http', ['stream: string', 'dict'], 'Returns {status, headers, ok} for an open stream.'),
  def('http_stream_close', 'http', ['stream: string', 'bool'], 'Closes a streaming HTTP response handle.'),
  def('http_server', 'http', ['options?: dict', 'dict'], 'Creates an in-process inbound HTTP server definition.'),
  def(
    'http_server_route',
    'http',
    ['server: dict, method: string, template: string, handler: fn(dict) -> any, options?: dict', 'dict'],
    'Registers a route; templates support {name} and :name path parameters.',
  ),
  def(
    'http_server_before',
    'http',
    ['server: dict, handler: fn(dict) -> any', 'dict'],
    'Registers before-middleware that returns a request to continue or a response to short-circuit.',
  ),
  def('http_server_after', 'http', ['server: dict, handler: fn(dict, dict) -> any', 'dict'], 'Registers after-middleware that receives (response, request).'),
  def('http_server_request', 'http', ['server: dict, request: dict', 'dict'], 'Dispatches a synthetic or host-adapted request through the server.'),
  def('http_server_test', 'http', ['server: dict, request: dict', 'dict'], 'Alias of http_server_request for script-level tests.'),
  def('http_server_set_ready', 'http', ['server: dict, ready: bool', 'bool'], 'Sets the readiness gate used by request dispatch.'),
  def('http_server_security_headers', 'http', ['tls_config: dict', 'dict'], 'Returns TLS-aware response headers such as strict-transport-security.'),
  def('http_server_tls_pem', 'http', ['cert_path: string, key_path: string', 'dict'], 'Builds an in-process HTTPS config from PEM files.'),
  def('http_server_tls_plain', 'http', ['', 'dict'], 'Builds an HTTP-server TLS config for deliberate cleartext listening.'),
  def(
    'http_server_tls_edge',
    'http',
    ['options?: dict', 'dict'],
    'Builds an HTTP-server TLS config for edge-terminated HTTPS (local listener stays plain, HSTS on).',
  ),
  def(
    'http_server_tls_self_signed_dev',
    'http',
    ['hosts?: list<string> | string', 'dict'],
    'Generates a self-signed development certificate config for local HTTPS testing.',
  ),
  def('http_server_readiness', 'http', ['server: dict, handler: fn() -> any', 'dict'], 'Registers a readiness callback used by http_server_ready.'),
  def('http_server_ready', 'http', ['server: dict', 'bool'], 'Returns server readiness, calling the readiness callback when one is set.'),
  def('http_server_on_shutdown', 'http', ['server: dict, handler: fn() -> any', 'dict'], 'Registers a shutdown callback.'),
  def('http_server_shutdown', 'http', ['server: dict', 'bool'], 'Marks the server shut down and runs its shutdown callbacks.'),
  def('http_response', 'http', ['status?: int, body?: any, headers?: dict', 'dict'], 'Builds a response dict.'),
  def('http_response_text', 'http', ['body?: any, options?: dict', 'dict'], 'Builds a text response; options include status and headers.'),
  def('http_response_json', 'http', ['body?: any, options?: dict', 'dict'], 'Builds a JSON response with a JSON content type.'),
  def(
    'multipart_parse',
    'http',
    ['body: bytes | string, content_type: string, options?: dict', 'dict'],
    'Parses a multipart/form-data body into {boundary, fields, field_count, total_bytes}.',
  ),
  def('multipart_field_text', 'http', ['field: dict', 'string'], "Decodes a parsed multipart field's bytes as UTF-8, throwing on invalid text."),
  def('multipart_field_bytes', 'http', ['field: dict', 'bytes'], "Returns a parsed multipart field's raw bytes."),
  def(
    'multipart_form_data',
    'http',
    ['fields: list<dict>, options?: dict', 'dict'],
    'Builds a deterministic {content_type, boundary, body} multipart fixture from field dicts.',
  ),
  def('egress_policy', 'http', ['config: dict', 'dict'], 'Installs the process egress allow/deny policy used by outbound network calls.'),
  def('websocket_connect', 'websocket', ['url: string, options?: dict', 'string'], 'Opens a WebSocket client handle.'),
  def('websocket_send', 'websocket', ['socket: string | dict, message: any, options?: dict', 'bool'], 'Sends a text, binary, ping, pong or close message.'),
  def(
    'websocket_receive',
    'websocket',
    ['socket: string | dict, timeout_ms?: int', 'dict | nil'],
    'Receives one message ({type, data} or {type: "timeout"}), or nil after close.',
  ),
  def('websocket_close', 'websocket', ['socket: string | dict', 'bool'], 'Closes a WebSocket handle.'),
  def('websocket_server', 'websocket', ['bind?: string, options?: dict', 'dict'], 'Starts a WebSocket server and returns {id, addr, url}.'),
  def(
    'websocket_route',
    'websocket',
    ['server: string | dict, path: string, options?: dict', 'bool'],
    'Registers an HTTP upgrade route on a WebSocket server.',
  ),
  def(
    'websocket_accept',
    'websocket',
    ['server: string | dict, timeout_ms?: int', 'dict | nil'],
    'Accepts one upgraded connection and returns its socket handle and peer metadata.',
  ),
  def('websocket_server_close', 'websocket', ['server: string | dict', 'bool'], 'Stops a WebSocket server.'),
  def('websocket_mock', 'websocket', ['url_pattern: string, config?: any', 'nil'], 'Registers an in-process WebSocket mock.'),
  def('sse_connect', 'sse', ['method?: string, url?: string, options?: dict', 'string'], 'Opens an SSE receive handle.'),
  def(
    'sse_receive',
    'sse',
    ['stream: string, timeout_ms?: int', 'dict | nil'],
    'Receives one SSE event ({type: "event", event, data, id}) or a timeout marker.',
  ),
  def('sse_server_response', 'sse', ['options?: dict', 'dict'], 'Creates a server-side text/event-stream response handle.'),
  def('sse_server_send', 'sse', ['stream: string | dict, event: any, options?: dict', 'bool'], 'Writes one event frame to a server SSE response.'),
  def('sse_server_flush', 'sse', ['stream: string | dict', 'bool'], 'Flushes buffered server SSE frames while the client is connected.'),
  def('sse_server_status', 'sse', ['stream: string | dict', 'dict'], 'Returns the buffered-event count and close, cancel and disconnect state.'),
  def('sse_server_mock_receive', 'sse', ['stream: string | dict', 'dict | nil'], 'Reads the next buffered server SSE frame in tests.'),
  def('sse_server_heartbeat', 'sse', ['stream: string | dict, comment?: string', 'bool'], 'Writes an SSE comment (heartbeat) frame.'),
  def('sse_server_cancel', 'sse', ['stream: string | dict, reason?: string', 'bool'], 'Marks a server SSE response cancelled and closed.'),
  def('sse_server_cancelled', 'sse', ['stream: string | dict', 'bool'], 'Reports whether a server SSE response was cancelled.'),
  def('sse_server_close', 'sse', ['stream: string | dict', 'bool'], 'Closes a server SSE response.'),
  def('sse_server_disconnected', 'sse', ['stream: string | dict', 'bool'], 'Reports whether the client of a server SSE response disconnected.'),
  def('sse_server_mock_disconnect', 'sse', ['stream: string | dict', 'bool'], 'Simulates the client disconnecting from a server SSE response.'),
  def('sse_event', 'sse', ['event: any, options?: dict', 'string'], 'Formats a server-sent event frame.'),
  def('sse_mock', 'sse', ['url_pattern: string, events_or_config: list<any> | dict', 'nil'], 'Registers an in-process SSE stream mock.'),
  def('transport_mock_clear', 'testing', ['', 'nil'], 'Clears mocked SSE and WebSocket transports and their recorded calls.'),
  def('transport_mock_calls', 'testing', ['', 'list<dict>'], 'Returns the recorded mocked SSE and WebSocket calls.'),

  // ---- host bridge
  def('host_call', 'host', ['name: string, params?: any', 'any'], 'Calls a host capability operation named "capability.operation".'),
  def('host_capabilities', 'host', ['', 'dict'], 'Returns the typed host capability manifest.'),
  def('host_has', 'host', ['capability: string, operation?: string', 'bool'], 'Reports whether the host offers a capability or operation.'),
  def('host_tool_list', 'host', ['', 'list<dict>'], 'Lists host-exposed bridge tools as {name, description, schema, deprecated}; [] without a bridge.'),
  def('host_tool_call', 'host', ['name: string, args?: any', 'any'], 'Invokes a bridge-exposed host tool by name.'),
  def(
    'host_mock',
    'host',
    ['capability: string, operation: string, result_or_config?: any, params?: dict', 'nil'],
    'Registers a mock result (or {result, params, error}) for a host operation in tests.',
  ),
  def('host_mock_calls', 'host', ['', 'list<dict>'], 'Returns recorded mocked host calls as {capability, operation, params}.'),
  def('host_mock_clear', 'host', ['', 'nil'], 'Clears host mocks and recorded calls.'),
  def('host_mock_push_scope', 'host', ['', 'nil'], 'Opens a nested scope for host mocks.', 'scoping semantics inferred from the name'),
  def('host_mock_pop_scope', 'host', ['', 'nil'], 'Closes the innermost host-mock scope.', 'scoping semantics inferred from the name'),
];

const RUNTIME: Builtin[] = [
  // ---- concurrency: tasks, channels, atomics, sync primitives
  def('await', 'concurrency', ['handle: task', 'any'], 'Waits for a spawned task to finish and returns its result.'),
  def('cancel', 'concurrency', ['handle: task', 'nil'], 'Cancels a spawned task.'),
  def('is_cancelled', 'concurrency', ['', 'bool'], 'Reports whether the current task has been asked to cancel.'),
  def(
    'parallel_race',
    'concurrency',
    ['items: list<any>, worker: fn(any) -> any', 'any'],
    'Runs the worker on every item concurrently and returns the first result to arrive.',
    'shape from corpus calls only; how errors and losers are handled is not confirmed',
  ),
  def('channel', 'channel', ['name?: string, capacity?: int', 'channel'], 'Creates a channel with an optional name and buffer capacity.'),
  def('send', 'channel', ['ch: channel, value: any', 'nil'], 'Sends a value on a channel.', 'one reference documents the result as nil, another as a bool'),
  def('receive', 'channel', ['ch: channel', 'any'], 'Receives the next value from a channel, blocking until one is available.'),
  def('try_receive', 'channel', ['ch: channel', 'any'], 'Receives a value without blocking, or nil when none is ready.'),
  def('close_channel', 'channel', ['ch: channel', 'nil'], 'Closes a channel so no further values can be sent.'),
  def(
    'select',
    'channel',
    ['...channels: channel', 'dict | nil'],
    'Waits for the first channel with data and returns {index, value, channel}, or nil when all are closed.',
    'select is also a reserved keyword (the select statement); whether select(...) still parses as a call is not confirmed',
  ),
  def(
    'channel_select',
    'channel',
    ['channels: list<channel>, timeout?: int | duration', 'dict | nil'],
    'Selects over a list of channels with an optional timeout.',
  ),
  def(
    'mailbox_open',
    'channel',
    ['options: dict', 'dict'],
    'Opens a named mailbox in a scope with a capacity.',
    'option keys taken from corpus calls (scope, name, capacity)',
  ),
  def('mailbox_send', 'channel', ['target: string | dict, message: any', 'bool'], 'Sends a message to a mailbox by name or handle.'),
  def('mailbox_receive', 'channel', ['mailbox: dict', 'any'], 'Receives the next message from a mailbox, waiting for one.'),
  def('mailbox_try_receive', 'channel', ['mailbox: dict', 'any'], 'Receives a mailbox message without waiting.', 'return value when empty not confirmed'),
  def('mailbox_metrics', 'channel', ['mailbox: dict', 'dict'], 'Returns mailbox metrics such as depth.'),
  def('atomic', 'concurrency', ['initial?: int | float | bool', 'atomic'], 'Creates an atomic cell (default 0).'),
  def('atomic_get', 'concurrency', ['cell: atomic', 'any'], 'Reads the current value of an atomic cell.'),
  def('atomic_set', 'concurrency', ['cell: atomic, value: any', 'any'], 'Sets an atomic cell and returns the previous value.'),
  def('atomic_add', 'concurrency', ['cell: atomic, delta: int', 'int'], 'Adds to an atomic cell and returns the previous value.'),
  def('atomic_cas', 'concurrency', ['cell: atomic, expected: any, new_value: any', 'bool'], 'Compare-and-swap; returns true when the swap happened.'),
  def(
    'shared_cell',
    'concurrency',
    ['options: dict', 'dict'],
    'Opens a scoped shared cell with an initial value.',
    'option keys taken from corpus calls (scope, key, initial)',
  ),
  def('shared_get', 'concurrency', ['cell: dict', 'any'], 'Reads the value of a shared cell.'),
  def('shared_set', 'concurrency', ['cell: dict, value: any', 'any'], 'Writes the value of a shared cell.', 'return value not confirmed'),
  def('shared_snapshot', 'concurrency', ['cell: dict', 'dict'], 'Takes a versioned snapshot of a shared cell for shared_cas.'),
  def('shared_cas', 'concurrency', ['cell: dict, snapshot: dict, value: any', 'bool'], 'Writes the value only if the cell is unchanged since the snapshot.'),
  def('shared_metrics', 'concurrency', ['cell: dict', 'any'], 'Returns metrics for a shared cell.', 'result shape not confirmed'),
  def(
    'shared_map',
    'concurrency',
    ['options: dict', 'dict'],
    'Opens a scoped shared map with initial entries.',
    'option keys taken from corpus calls (scope, key, initial)',
  ),
  def('shared_map_get', 'concurrency', ['map: dict, key: string', 'any'], 'Reads one key of a shared map.'),
  def('shared_map_set', 'concurrency', ['map: dict, key: string, value: any', 'any'], 'Writes one key of a shared map.', 'return value not confirmed'),
  def('shared_map_snapshot', 'concurrency', ['map: dict, key: string', 'dict'], 'Takes a versioned snapshot of one key for shared_map_cas.'),
  def(
    'shared_map_cas',
    'concurrency',
    ['map: dict, key: string, snapshot: dict, value: any', 'bool'],
    'Writes one key only if it is unchanged since the snapshot.',
  ),
  def('shared_map_entries', 'concurrency', ['map: dict', 'dict'], 'Returns all entries of a shared map as a dict.'),
  def(
    'sync_mutex_acquire',
    'concurrency',
    ['key: string, timeout_ms?: int', 'any'],
    'Acquires a named mutex permit.',
    'meaning of a nil result and timeout units not confirmed',
  ),
  def(
    'sync_rwlock_acquire',
    'concurrency',
    ['key: string, mode: string, timeout_ms?: int', 'any'],
    'Acquires a named read or write lock permit; nil when it cannot within the timeout.',
    'shape from corpus calls only',
  ),
  def(
    'sync_semaphore_acquire',
    'concurrency',
    ['key: string, capacity: int, permits: int, timeout_ms?: int', 'any'],
    'Acquires permits from a named semaphore.',
    'shape from corpus calls only; parameter meanings not confirmed',
  ),
  def(
    'sync_gate_acquire',
    'concurrency',
    ['key: string, limit: int, timeout_ms?: int', 'any'],
    'Acquires a slot from a named concurrency gate.',
    'shape from corpus calls only',
  ),
  def('sync_release', 'concurrency', ['permit: any', 'bool'], 'Releases a permit returned by one of the sync_*_acquire builtins.'),
  def('sync_metrics', 'concurrency', ['kind: string, key: string', 'any'], 'Returns metrics for a named sync primitive.', 'shape from corpus calls only'),
  def('supervisor_start', 'concurrency', ['spec: dict', 'dict'], 'Starts a supervisor with child task closures, restart policy and propagation strategy.'),
  def('supervisor_state', 'concurrency', ['handle: any', 'dict'], 'Returns supervisor children, status, restart counts, last errors and metrics.'),
  def('supervisor_events', 'concurrency', ['handle: any', 'list<dict>'], 'Returns supervisor lifecycle events.'),
  def('supervisor_stop', 'concurrency', ['handle: any, timeout?: duration', 'dict'], 'Asks children to cancel, waits for them to drain, then aborts the rest.'),

  // ---- persistent store and checkpoints
  def('store_get', 'store', ['key: string', 'any'], 'Reads a value from the persistent store, or nil when missing.'),
  def('store_set', 'store', ['key: string, value: any', 'nil'], 'Stores a value in .harn/store.json and saves it.'),
  def('store_delete', 'store', ['key: string', 'nil'], 'Removes a key from the persistent store.'),
  def('store_list', 'store', ['', 'list<string>'], 'Lists all store keys, sorted.'),
  def('store_save', 'store', ['', 'nil'], 'Flushes the persistent store to disk.'),
  def('store_clear', 'store', ['', 'nil'], 'Removes every key from the persistent store.'),
  def(
    'checkpoint',
    'store',
    ['key: string, value: any', 'nil'],
    'Records a checkpoint value under a key, overwriting any previous value.',
    'return value not confirmed',
  ),
  def('checkpoint_get', 'store', ['key: string', 'any'], 'Reads the value recorded under a checkpoint key.', 'result for a missing key not confirmed'),
  def('checkpoint_exists', 'store', ['key: string', 'bool'], 'Reports whether a checkpoint key exists, even when its value is nil.'),
  def('checkpoint_delete', 'store', ['key: string', 'nil'], 'Deletes a checkpoint key; deleting a missing key does nothing.'),
  def('checkpoint_list', 'store', ['', 'list<string>'], 'Lists the checkpoint keys.'),
  def('checkpoint_clear', 'store', ['', 'nil'], 'Deletes every checkpoint.'),
  def('metadata_get', 'store', ['dir: string, namespace?: string', 'dict | nil'], 'Reads directory metadata with inheritance from parent directories.'),
  def('metadata_set', 'store', ['dir: string, namespace: string, data: dict', 'nil'], 'Writes metadata for a directory and namespace.'),
  def('metadata_resolve', 'store', ['dir: string, namespace?: string', 'dict | nil'], 'Reads resolved metadata while keeping the namespace structure.'),
  def('metadata_entries', 'store', ['namespace?: string', 'list<dict>'], 'Lists stored directories with their local and resolved metadata.'),
  def('metadata_status', 'store', ['namespace?: string', 'dict'], 'Summarizes metadata directories, namespaces, missing hashes and stale state.'),
  def('metadata_stale', 'store', ['project: string', 'dict'], 'Checks metadata staleness and returns {any_stale, tier1, tier2}.'),
  def('metadata_refresh_hashes', 'store', ['', 'nil'], 'Recomputes the metadata content hashes.'),
  def('compute_content_hash', 'store', ['dir: string', 'string'], 'Hashes the contents of a directory for staleness checks.'),
  def('invalidate_facts', 'store', ['dir: string', 'nil'], 'Marks the cached facts of a directory as stale.'),
  def(
    'event_log_emit',
    'store',
    ['topic: string, kind: string, payload?: any, headers?: dict', 'int'],
    'Appends an event to an event-log topic and returns its id.',
    'the meaning of the returned int is inferred from the signature table',
  ),

  // ---- errors, circuit breakers
  def('throw_error', 'errors', ['message: string, category?: string', 'never'], 'Throws a categorized error dict with message and category.'),
  def('error_category', 'errors', ['error: any', 'string'], 'Returns the category of a caught error, such as "timeout", "rate_limit" or "generic".'),
  def('is_timeout', 'errors', ['error: any', 'bool'], 'Reports whether a caught error is a timeout.'),
  def('is_rate_limited', 'errors', ['error: any', 'bool'], 'Reports whether a caught error is a rate limit.'),
  def(
    'circuit_breaker',
    'errors',
    ['name: string, threshold?: int, reset_ms?: int', 'string'],
    'Creates a named circuit breaker (defaults: 5 failures, 30000 ms reset) and returns its name.',
  ),
  def('circuit_check', 'errors', ['name: string', 'string'], 'Returns the circuit state: "closed", "open" or "half_open".'),
  def('circuit_record_failure', 'errors', ['name: string', 'bool'], 'Records a failure; returns true when the circuit just opened.'),
  def('circuit_record_success', 'errors', ['name: string', 'nil'], 'Records a success, closing the circuit and resetting the failure count.'),
  def('circuit_reset', 'errors', ['name: string', 'nil'], 'Resets a circuit to closed.'),

  // ---- tracing, logging, metrics
  def('trace_start', 'tracing', ['name: string', 'dict'], 'Starts a trace span and returns {trace_id, span_id, name, start_ms}.'),
  def('trace_end', 'tracing', ['span: dict', 'nil'], 'Ends a span and logs its duration.'),
  def('trace_id', 'tracing', ['', 'string | nil'], 'Returns the current trace id, or nil without an active span.'),
  def('trace_spans', 'tracing', ['', 'list<dict>'], 'Returns the recorded trace spans.'),
  def('trace_summary', 'tracing', ['', 'string'], 'Returns a formatted summary of the trace spans.'),
  def('enable_tracing', 'tracing', ['enabled?: bool', 'nil'], 'Turns pipeline-level tracing on (default) or off.'),
  def('log_json', 'tracing', ['key: string, value?: any', 'nil'], 'Emits a structured JSON log line with a timestamp.'),
  def('log_debug', 'tracing', ['message: any, fields?: dict', 'nil'], 'Logs a message at debug level.'),
  def('log_info', 'tracing', ['message: any, fields?: dict', 'nil'], 'Logs a message at info level.'),
  def('log_warn', 'tracing', ['message: any, fields?: dict', 'nil'], 'Logs a message at warn level.'),
  def('log_error', 'tracing', ['message: any, fields?: dict', 'nil'], 'Logs a message at error level.'),
  def('log_set_level', 'tracing', ['level: string', 'nil'], 'Sets the minimum level for log_debug, log_info, log_warn and log_error.'),
  def('timer_start', 'tracing', ['name?: string', 'dict'], 'Starts a named timer and returns its handle.'),
  def('timer_end', 'tracing', ['timer: dict', 'int'], 'Stops a timer, prints the elapsed time and returns it in milliseconds.'),
  def(
    'metrics_inc',
    'tracing',
    ['name: string, amount?: int', 'any'],
    'Increments a named counter metric.',
    'default increment and return value not confirmed',
  ),

  // ---- runtime context
  def('runtime_context', 'runtime', ['', 'dict'], 'Returns the logical runtime context: task, workflow, trigger, agent, trace and task-local values.'),
  def('task_current', 'runtime', ['', 'dict'], 'Alias of runtime_context.'),
  def('runtime_context_values', 'runtime', ['', 'dict'], 'Returns the task-local values of the current logical task.'),
  def('runtime_context_get', 'runtime', ['key: string, fallback?: any', 'any'], 'Returns a task-local value, the fallback, or nil.'),
  def('runtime_context_set', 'runtime', ['key: string, value: any', 'any'], 'Sets a task-local value and returns the previous value or nil.'),
  def('runtime_context_clear', 'runtime', ['key: string', 'any'], 'Clears a task-local value and returns the previous value or nil.'),
];

const AGENTS: Builtin[] = [
  // ---- LLM calls
  def(
    'llm_call',
    'llm',
    ['prompt: string, system?: string | nil, options?: dict', 'dict'],
    'Sends one LLM request and returns {text, model, input_tokens, output_tokens, ...}; throws on transport, rate-limit or schema failures.',
  ),
  def(
    'llm_call_safe',
    'llm',
    ['prompt: string, system?: string | nil, options?: dict', 'dict'],
    'Non-throwing llm_call: returns {ok, response, error} where error carries a category and message.',
  ),
  def(
    'llm_call_structured',
    'llm',
    ['prompt: string, schema: dict | Schema<any>, options?: dict', 'any'],
    'Calls the LLM for JSON output and returns the schema-validated data directly, retrying on schema errors.',
  ),
  def(
    'llm_call_structured_safe',
    'llm',
    ['prompt: string, schema: dict | Schema<any>, options?: dict', 'dict'],
    'Non-throwing llm_call_structured: returns {ok, data, error}.',
  ),
  def(
    'llm_call_structured_result',
    'llm',
    ['prompt: string, schema: dict | Schema<any>, options?: dict', 'dict'],
    'Structured LLM call that returns an envelope with ok, data, extracted_json, attempts and repair details.',
  ),
  def(
    'llm_completion',
    'llm',
    ['prefix: string, suffix?: string | nil, system?: string | nil, options?: dict', 'dict'],
    'Sends a text-completion or fill-in-the-middle request and returns {text, model, input_tokens, output_tokens}.',
  ),
  def(
    'llm_stream',
    'llm',
    ['prompt: string, system?: string | nil, options?: dict', 'channel'],
    'Starts a streaming LLM request.',
    'the newer signature table returns a channel, an older hover table a string',
  ),
  def('llm_info', 'llm', ['', 'dict'], 'Returns the current LLM configuration: {provider, model, api_key_set}.'),
  def('llm_usage', 'llm', ['', 'dict'], 'Returns cumulative LLM usage: input and output tokens, total duration and call counts.'),
  def('llm_resolve_model', 'llm', ['alias: string', 'dict'], 'Resolves a model alias to {id, provider}.'),
  def('llm_pick_model', 'llm', ['target: string, options?: dict', 'dict'], 'Resolves a model alias or tier to {id, provider, tier}.'),
  def('llm_infer_provider', 'llm', ['model_id: string', 'string'], 'Infers the provider name from a model id, e.g. claude-* gives anthropic.'),
  def('llm_model_tier', 'llm', ['model_id: string', 'string'], 'Returns the capability tier of a model: "small", "mid" or "frontier".'),
  def('llm_model_info', 'llm', ['selector: string', 'dict'], 'Returns catalog information for a model.', 'result fields not confirmed'),
  def('llm_known_models', 'llm', ['', 'list<any>'], 'Lists the models known to the provider catalog.', 'element shape not confirmed'),
  def(
    'llm_healthcheck',
    'llm',
    ['provider_or_options?: string | dict, options?: dict', 'dict'],
    'Checks a provider API key and returns {valid, message, metadata}.',
  ),
  def(
    'llm_rate_limit',
    'llm',
    ['provider: string, options?: dict', 'int | bool | nil'],
    'Sets ({rpm: N}), clears ({rpm: 0}) or, with no options, reads the per-provider request rate limit.',
  ),
  def('llm_providers', 'llm', ['', 'list<string>'], 'Lists the configured provider names.'),
  def(
    'llm_available_providers',
    'llm',
    ['', 'list<any>'],
    'Lists the providers that are available in this environment.',
    'how availability is decided is not confirmed',
  ),
  def('llm_provider_catalog', 'llm', ['', 'dict'], 'Returns the provider catalog.', 'result shape not confirmed'),
  def('llm_config', 'llm', ['provider?: string', 'dict | nil'], 'Returns a provider configuration such as base_url and auth_style.'),
  def(
    'llm_cost',
    'llm',
    ['model: string, input_tokens: int, output_tokens: int', 'float'],
    'Estimates the USD cost of a call from the embedded pricing table.',
  ),
  def('llm_session_cost', 'llm', ['', 'dict'], 'Returns session totals: {total_cost, input_tokens, output_tokens, call_count}.'),
  def('llm_budget', 'llm', ['max_cost: float | int', 'nil'], 'Sets a session budget in USD; LLM calls throw once it is exceeded.'),
  def('llm_budget_remaining', 'llm', ['', 'float | nil'], 'Returns the remaining session budget, or nil when none is set.'),
  def(
    'provider_capabilities',
    'llm',
    ['provider: string, model?: string', 'dict'],
    'Returns the capability row for a provider and model, with fields such as native_tools, defer_loading, tool_search and prompt_caching.',
  ),
  def('provider_capabilities_install', 'llm', ['toml_src: string', 'bool'], 'Installs provider capability overrides from TOML text.'),
  def('provider_capabilities_clear', 'llm', ['', 'bool'], 'Removes installed provider capability overrides.'),
  def(
    'with_rate_limit',
    'llm',
    ['provider: string, action: fn() -> any, options?: dict', 'any'],
    "Runs a closure under the provider's rate limiter and retries it with backoff on retryable errors.",
  ),
  def(
    'llm_mock',
    'llm-mock',
    ['response: dict', 'nil'],
    'Queues a mock LLM response (text, tool_calls, match, consume_match, token counts, error) for the mock provider.',
  ),
  def('llm_mock_calls', 'llm-mock', ['', 'list<dict>'], 'Returns the calls made to the mock provider as {messages, system, tools} dicts.'),
  def('llm_mock_clear', 'llm-mock', ['', 'nil'], 'Clears queued mock LLM responses and recorded calls.'),
  def('llm_mock_push_scope', 'llm-mock', ['', 'nil'], 'Opens a nested scope for LLM mocks.', 'scoping semantics inferred from the name'),
  def('llm_mock_pop_scope', 'llm-mock', ['', 'nil'], 'Closes the innermost LLM-mock scope.', 'scoping semantics inferred from the name'),

  // ---- agent loop and agent definitions
  def(
    'agent_loop',
    'agent',
    [
      ['prompt: string, system?: string | nil, options?: dict', 'dict'],
      ['harness: Harness, prompt: string, system?: string | nil, options?: dict', 'dict'],
    ],
    'Runs a multi-turn agent loop with tool dispatch until the model signals it is done or a limit is hit, and returns a result dict with status, text and transcript.',
    'the harness-first form is only seen in one 0.10 conformance test that imports agent_loop from std/agent/loop; in the 0.10 stdlib copy agent_loop is a Harn function taking (message, system_prompt, options)',
  ),
  def(
    'agent',
    'agent',
    ['name: string, config?: dict', 'dict'],
    'Builds an agent definition dict (_type "agent") from a name and a config such as system, provider, model, max_iterations and tools.',
  ),
  def('agent_config', 'agent', ['agent: dict, prompt: any', 'dict'], 'Builds the {prompt, system, options} call for running an agent definition on a prompt.'),
  def('agent_name', 'agent', ['agent: dict', 'string | nil'], 'Returns the name of an agent definition.'),
  def(
    'agent_preset',
    'agent',
    ['kind: string, options?: dict', 'dict'],
    'Returns a preset agent configuration of the given kind.',
    'preset kinds and result shape not confirmed',
  ),
  def(
    'agent_subscribe',
    'agent-event',
    ['session_id: string, callback: fn(dict) -> any', 'nil'],
    'Registers a closure that receives each agent event (a dict with a type field) emitted for the session.',
  ),
  def(
    'agent_emit_event',
    'agent-event',
    [
      ['session_id: string, event_type: string, payload: dict', 'nil'],
      ['agent: HarnessAgent, session_id: string, event_type: string, payload: dict', 'nil'],
    ],
    'Appends a typed agent event (e.g. boundary_failure, tool_call, tool_call_update) to a session for subscribers and the event log; boundary_failure payloads need boundary, kind and detail.',
    'UNCONFIRMED: the 4-argument form prepends an agent handle (HarnessAgent in the 0.10 stdlib; the artifact notes say "an agent or harness handle") and is only seen in stdlib/agent/loop_tool_calls.harn, so whether it accepts a Harness and what it returns (the corpus always discards the result) are unknown; the nil return of the 3-argument form comes from the upstream harness.agent.emit_event signature; newer runtimes may expose the bare name only as a legacy ambient alias of harness.agent.emit_event',
  ),
  def(
    'agent_inject_feedback',
    'agent-event',
    ['session_id: string, kind: string, content: string', 'nil'],
    'Injects a feedback note of the given kind into an agent session.',
    'when the note reaches the model is not confirmed',
  ),
  def('agent_trace', 'agent-event', ['', 'list<dict>'], 'Returns the agent trace events collected during agent_loop runs, each with a type field.'),
  def('agent_trace_summary', 'agent-event', ['', 'dict'], 'Returns a roll-up of agent trace events: token counts, durations, tool usage and iterations.'),
  def(
    'agent_parse_tool_calls',
    'agent',
    [
      ['text: string, tools?: dict | nil', 'dict'],
      ['agent: HarnessAgent, text: string, tools: dict | nil, tool_format?: string', 'dict'],
    ],
    'Parses tool calls out of model text for a tool registry and returns a dict with the calls, the prose and parse diagnostics.',
    HANDLE_FIRST_NOTE,
  ),
  def(
    'agent_dispatch_tool_call',
    'agent',
    [
      ['call: dict, tools?: dict | nil, options?: dict', 'dict'],
      ['tool_runtime: HarnessTools, call: dict, tools: dict | nil, options?: dict', 'dict'],
    ],
    'Dispatches one tool call against a tool registry and returns the dispatch result dict.',
    HANDLE_FIRST_NOTE,
  ),
  def(
    'agent_dispatch_tool_batch',
    'agent',
    ['calls: list<dict>, tools?: dict | nil, options?: dict', 'list<dict>'],
    'Dispatches a list of tool calls against a tool registry and returns one result per call.',
  ),

  // ---- agent sessions
  def('agent_session_open', 'agent-session', ['id?: string | nil', 'string'], 'Opens a session idempotently and returns its id; nil mints a new UUIDv7 id.'),
  def('agent_session_exists', 'agent-session', ['id: string', 'bool'], 'Reports whether a session id exists; safe on unknown ids.'),
  def('agent_session_current_id', 'agent-session', ['', 'string | nil'], 'Returns the innermost active session id, or nil outside any session.'),
  def('agent_session_length', 'agent-session', ['id: string', 'int'], 'Returns the number of messages in a session; throws on an unknown id.'),
  def(
    'agent_session_snapshot',
    'agent-session',
    ['id: string', 'dict | nil'],
    'Returns a read-only transcript snapshot with parent_id, child_ids and branched_at_event_index.',
  ),
  def('agent_session_ancestry', 'agent-session', ['id: string', 'dict | nil'], 'Returns {parent_id, child_ids, root_id} for a session.'),
  def('agent_session_reset', 'agent-session', ['id: string', 'nil'], 'Wipes the session history but keeps its id and subscribers.'),
  def(
    'agent_session_fork',
    'agent-session',
    ['src: string, dst?: string', 'string'],
    'Copies a session transcript into a child session and records the parent link.',
  ),
  def(
    'agent_session_fork_at',
    'agent-session',
    ['src: string, keep_first: int, dst?: string', 'string'],
    'Forks a session keeping only its first keep_first messages.',
  ),
  def('agent_session_trim', 'agent-session', ['id: string, keep_last: int', 'int'], 'Keeps only the last keep_last messages and returns how many were kept.'),
  def('agent_session_compact', 'agent-session', ['id: string, options?: dict', 'int'], 'Runs the LLM, truncate or observation-mask compactor on a session.'),
  def(
    'agent_session_inject',
    'agent-session',
    ['id: string, message: dict', 'nil'],
    'Appends a {role, content, ...} message to a session; a missing role is an error.',
  ),
  def(
    'agent_session_close',
    'agent-session',
    [
      ['id: string', 'nil'],
      ['id: string, options: dict', 'nil'],
    ],
    'Closes and evicts a session immediately.',
    'the form with an options dict (reason, status, error) is only seen in the 0.10 stdlib chat loop',
  ),

  // ---- workers, sub-agents and daemons
  def(
    'sub_agent_run',
    'agent',
    ['task: string, options?: dict', 'dict'],
    'Runs an isolated child agent loop and returns only an envelope (summary, artifacts, ok, error, ...); background: true returns a worker handle.',
  ),
  def('spawn_agent', 'agent', ['config: dict', 'dict'], 'Starts a worker from a workflow graph or a delegated stage config and returns its handle.'),
  def('send_input', 'agent', ['handle: any, task: string', 'dict'], 'Re-runs a completed worker with a new task, carrying its state forward.'),
  def('wait_agent', 'agent', ['handle: any', 'dict | list<dict>'], 'Waits for one worker, or a list of workers, to finish.'),
  def('close_agent', 'agent', ['handle: any', 'dict'], 'Cancels a worker and marks it terminal.'),
  def('list_agents', 'agent', ['', 'list<dict>'], 'Lists the worker summaries tracked by the runtime.'),
  def('resume_agent', 'agent', ['target: string', 'dict'], 'Restores a persisted worker snapshot by id or snapshot path.'),
  def('worker_trigger', 'agent', ['handle: any, payload: any', 'dict'], 'Re-triggers a retriggerable worker with a new payload.'),
  def('daemon_spawn', 'agent', ['config: dict', 'dict'], 'Starts a daemon-mode agent and returns its handle.'),
  def('daemon_trigger', 'agent', ['handle: string | dict, event: any', 'dict'], 'Queues a durable trigger event for a running daemon.'),
  def('daemon_snapshot', 'agent', ['handle: string | dict', 'dict'], 'Returns the latest daemon snapshot with its live queue state.'),
  def('daemon_stop', 'agent', ['handle: string | dict', 'dict'], 'Stops a daemon, keeping its queued trigger state for resume.'),
  def('daemon_resume', 'agent', ['path: string', 'dict'], 'Resumes a daemon from its persisted state directory.'),

  // ---- transcripts and conversations
  def('transcript', 'transcript', ['metadata?: dict', 'dict'], 'Creates an empty transcript.'),
  def('transcript_messages', 'transcript', ['transcript: list<any> | dict', 'list<dict>'], 'Returns the messages of a transcript.'),
  def('transcript_events', 'transcript', ['transcript: list<any> | dict', 'list<dict>'], 'Returns the canonical events of a transcript.'),
  def(
    'transcript_events_by_kind',
    'transcript',
    ['transcript: list<any> | dict | nil, kind: string', 'list<dict>'],
    'Returns the transcript events whose kind field matches.',
  ),
  def('transcript_stats', 'transcript', ['transcript: list<any> | dict | nil', 'dict'], 'Counts the messages, tool calls and visible events of a transcript.'),
  def('transcript_summary', 'transcript', ['transcript: list<any> | dict', 'string | nil'], 'Returns the transcript summary, or nil.'),
  def('transcript_id', 'transcript', ['transcript: list<any> | dict', 'string'], 'Returns the transcript id.'),
  def('transcript_assets', 'transcript', ['transcript: list<any> | dict', 'list<dict>'], 'Returns the asset descriptors of a transcript.'),
  def('transcript_add_asset', 'transcript', ['transcript: list<any> | dict, asset: dict', 'dict'], 'Registers a durable asset reference on a transcript.'),
  def('transcript_render_full', 'transcript', ['transcript: list<any> | dict', 'string'], 'Renders the full execution history of a transcript.'),
  def(
    'transcript_render_visible',
    'transcript',
    ['transcript: list<any> | dict', 'string'],
    'Renders only the public, human-visible messages of a transcript.',
  ),
  def(
    'transcript_compact',
    'transcript',
    ['transcript: list<any> | dict, options?: dict', 'dict'],
    'Compacts a transcript with the runtime compaction engine.',
  ),
  def('transcript_summarize', 'transcript', ['transcript: list<any> | dict, options?: dict', 'dict'], 'Summarizes and compacts a transcript with an LLM call.'),
  def(
    'transcript_auto_compact',
    'transcript',
    ['messages: list<dict>, options?: dict', 'list<dict>'],
    'Applies the agent-loop compaction pipeline (llm, truncate or custom strategy) to a message list.',
  ),
  def('transcript_from_messages', 'transcript', ['messages_or_transcript: list<any> | dict', 'dict'], 'Normalizes a message list into a transcript.'),
  def('transcript_export', 'transcript', ['transcript: list<any> | dict', 'string'], 'Exports a transcript as JSON text.'),
  def('transcript_import', 'transcript', ['text: string', 'dict'], 'Imports a transcript from JSON text.'),
  def(
    'transcript_fork',
    'transcript',
    ['transcript: list<any> | dict, options?: dict', 'dict'],
    'Forks a transcript, optionally dropping messages or the summary.',
  ),
  def('transcript_reset', 'transcript', ['options?: dict', 'dict'], 'Starts a fresh active transcript with optional metadata.'),
  def('transcript_archive', 'transcript', ['transcript: list<any> | dict', 'dict'], 'Marks a transcript archived and appends a lifecycle event.'),
  def('transcript_abandon', 'transcript', ['transcript: list<any> | dict', 'dict'], 'Marks a transcript abandoned and appends a lifecycle event.'),
  def('transcript_resume', 'transcript', ['transcript: list<any> | dict', 'dict'], 'Marks a transcript active again and appends a lifecycle event.'),
  def('conversation', 'transcript', ['', 'list<dict>'], 'Creates an empty conversation message list.'),
  def(
    'add_message',
    'transcript',
    ['messages_or_transcript: list<any> | dict, role: string, content: any', 'list<any> | dict'],
    'Appends a message with the given role.',
  ),
  def('add_user', 'transcript', ['messages_or_transcript: list<any> | dict, content: any', 'list<any> | dict'], 'Appends a user message.'),
  def('add_assistant', 'transcript', ['messages_or_transcript: list<any> | dict, content: any', 'list<any> | dict'], 'Appends an assistant message.'),
  def('add_system', 'transcript', ['messages_or_transcript: list<any> | dict, content: any', 'list<any> | dict'], 'Appends a system message.'),
  def(
    'add_tool_result',
    'transcript',
    ['messages_or_transcript: list<any> | dict, tool_use_id: string, content: any', 'list<any> | dict'],
    'Appends a tool result for a tool call id.',
  ),
  def('estimate_tokens', 'transcript', ['messages: list<dict>', 'int'], 'Estimates the token count of a message list (characters divided by 4).'),
  def(
    'microcompact',
    'transcript',
    ['text: string, max_chars?: int', 'string'],
    'Snips oversized text (default 20000 characters), keeping the head and tail with a marker.',
  ),
  def(
    'assemble_context',
    'transcript',
    ['options: dict', 'dict'],
    'Packs artifacts into a token-budgeted list of chunks with dedup, ranking and per-chunk inclusion reasons.',
  ),
  def(
    'select_artifacts_adaptive',
    'transcript',
    ['artifacts: list<dict>, policy: dict', 'list<dict>'],
    'Deduplicates and microcompacts artifacts, then selects them within a token budget.',
  ),
];

const TOOLS: Builtin[] = [
  // ---- tool registry
  def('tool_registry', 'tool-registry', ['', 'dict'], 'Creates an empty tool registry.'),
  def(
    'tool_define',
    'tool-registry',
    ['registry: dict, name: string, description: string, config: dict', 'dict'],
    'Returns the registry with a tool added; config holds parameters, handler or executor, returns, annotations and policy.',
  ),
  def('tool_find', 'tool-registry', ['registry: dict, name: string', 'dict | nil'], 'Finds a tool entry by name.'),
  def('tool_list', 'tool-registry', ['registry: dict', 'list<dict>'], 'Lists tools as {name, description, parameters} dicts.'),
  def('tool_count', 'tool-registry', ['registry: dict', 'int'], 'Returns the number of tools in a registry.'),
  def('tool_remove', 'tool-registry', ['registry: dict, name: string', 'dict'], 'Returns the registry without the named tool.'),
  def('tool_select', 'tool-registry', ['registry: dict, names: list<string>', 'dict'], 'Returns a registry containing only the named tools.'),
  def('tool_describe', 'tool-registry', ['registry: dict', 'string'], 'Returns a human-readable summary of all tools.'),
  def('tool_schema', 'tool-registry', ['registry: dict, components?: dict', 'dict'], 'Generates JSON Schema for all tools in a registry.'),
  def('tool_prompt', 'tool-registry', ['registry: dict', 'string'], 'Generates a system prompt describing the available tools.'),
  def('tool_parse_call', 'tool-registry', ['text: string', 'list<dict>'], 'Parses <tool_call>...</tool_call> blocks out of model output.'),
  def('tool_format_result', 'tool-registry', ['name: string, result: any', 'string'], 'Formats a <tool_result> envelope for a tool result.'),
  def('tool_bind', 'tool-registry', ['registry?: dict | nil', 'dict | nil'], 'Binds a registry for tool_ref and tool_def; nil unbinds it.'),
  def(
    'tool_ref',
    'tool-registry',
    ['name: string', 'string'],
    'Returns the tool name when the bound registry has it; throws for unknown names or when no registry is bound.',
  ),
  def('tool_def', 'tool-registry', ['name: string', 'dict'], 'Returns the bound registry entry (name, description, ...) for a tool; throws for unknown names.'),
  def(
    'tool_synthesize',
    'tool-registry',
    ['spec: dict', 'fn(any) -> any'],
    'Synthesizes a callable tool from a spec and caches it.',
    'spec keys not confirmed',
  ),
  def('tool_synthesis_cache', 'tool-registry', ['', 'list<dict>'], 'Returns the synthesized-tool cache entries (executor, host tool binding, ...).'),
  def('tool_synthesis_clear', 'tool-registry', ['', 'nil'], 'Clears the synthesized-tool cache.'),
  def(
    'tool_surface_validate',
    'tool-registry',
    ['surface?: any, input?: any', 'dict'],
    'Validates a tool surface description and returns a report.',
    'argument meaning and report shape not confirmed',
  ),
  def(
    'register_tool_hook',
    'tool-registry',
    ['config: dict', 'nil'],
    'Registers a pre/post hook for tool calls matching a glob pattern; deny blocks them and max_output truncates results.',
  ),
  def('clear_tool_hooks', 'tool-registry', ['', 'nil'], 'Removes all registered tool hooks.'),

  // ---- skills
  def('skill_registry', 'skill', ['', 'dict'], 'Creates an empty skill registry.'),
  def(
    'skill_define',
    'skill',
    ['registry: dict, name: string, config: dict', 'dict'],
    'Returns the registry with a skill added; a skill declaration lowers to this call.',
  ),
  def('skill_find', 'skill', ['registry: dict, name: string', 'dict | nil'], 'Finds a skill by name.'),
  def('skill_count', 'skill', ['registry: dict', 'int'], 'Returns the number of skills in a registry.'),
  def('skill_list', 'skill', ['registry: dict', 'list<dict>'], 'Lists the skills in a registry.'),
  def('skill_remove', 'skill', ['registry: dict, name: string', 'dict'], 'Returns the registry without the named skill.'),
  def('skill_select', 'skill', ['registry: dict, names: list<string>', 'dict'], 'Returns a registry containing only the named skills.'),
  def('skill_describe', 'skill', ['registry: dict', 'string'], 'Returns a text description of the skills in a registry.'),
  def(
    'skill_render',
    'skill',
    ['skill_or_body: dict | string, arguments?: list<string>', 'string'],
    'Substitutes $1, $2 and $ARGUMENTS in a skill body with the arguments.',
  ),
  def('skills_catalog_entries', 'skill', ['registry: dict', 'list<dict>'], 'Returns the catalog entries of the skills in a registry.'),
  def(
    'render_always_on_catalog',
    'skill',
    ['entries: list<dict>, budget: int', 'string'],
    'Renders the sorted "Available skills" catalog text, noting omitted entries when it exceeds the size budget.',
  ),
  def('load_skill', 'skill', ['request: string | dict', 'string'], 'Loads the full body of a skill by name.'),

  // ---- MCP
  def(
    'mcp_connect',
    'mcp',
    ['command: string, args?: list<string>', 'any'],
    'Spawns an MCP server over stdio, performs the initialize handshake and returns a client.',
  ),
  def(
    'mcp_call',
    'mcp',
    ['client: any, tool_name: string, arguments?: dict', 'any'],
    'Calls an MCP tool: a string for one text block, a list for several, nil when empty; throws on isError.',
  ),
  def('mcp_list_tools', 'mcp', ['client: any', 'list<dict>'], 'Lists the tools of an MCP server.'),
  def('mcp_list_resources', 'mcp', ['client: any', 'list<dict>'], 'Lists the resources of an MCP server.'),
  def('mcp_read_resource', 'mcp', ['client: any, uri: string', 'string | list<any> | nil'], 'Reads an MCP resource by URI.'),
  def('mcp_list_prompts', 'mcp', ['client: any', 'list<dict>'], 'Lists the prompts of an MCP server.'),
  def('mcp_get_prompt', 'mcp', ['client: any, name: string, arguments?: dict', 'dict'], 'Gets an MCP prompt with optional arguments.'),
  def('mcp_server_info', 'mcp', ['client: any', 'dict'], 'Returns connection info {name, connected} for an MCP client.'),
  def('mcp_disconnect', 'mcp', ['client: any', 'nil'], 'Stops the MCP server process and releases the client.'),
  def('mcp_tools', 'mcp', ['registry: dict', 'nil'], 'Registers a tool registry for serving over MCP.'),
  def('mcp_serve', 'mcp', ['registry: dict', 'nil'], 'Alias of mcp_tools.'),
  def('mcp_resource', 'mcp', ['config: dict', 'nil'], 'Registers a static MCP resource {uri, name, text, description?, mime_type?}.'),
  def('mcp_resource_template', 'mcp', ['config: dict', 'nil'], 'Registers an MCP resource template {uri_template, name, handler, ...}.'),
  def('mcp_prompt', 'mcp', ['config: dict', 'nil'], 'Registers an MCP prompt {name, handler, description?, arguments?}.'),
  def(
    'mcp_server_card',
    'mcp',
    ['target: string', 'dict'],
    'Returns the server card of an MCP server.',
    'what target names and the card fields are not confirmed',
  ),
  def(
    'mcp_ensure_active',
    'mcp',
    ['name: string', 'any'],
    'Ensures a configured MCP server is connected and returns its client.',
    'behaviour inferred from the name and corpus use',
  ),
  def(
    'mcp_release',
    'mcp',
    ['name: string', 'nil'],
    'Releases a configured MCP server obtained with mcp_ensure_active.',
    'behaviour inferred from the name and corpus use',
  ),
  def('mcp_registry_status', 'mcp', ['', 'list<dict>'], 'Returns the status of the configured MCP servers.', 'entry fields not confirmed'),
];

const ORCHESTRATION: Builtin[] = [
  // ---- workflows, run records, evals
  def('workflow_graph', 'workflow', ['config: dict', 'dict'], 'Normalizes a workflow definition into the typed workflow graph.'),
  def('workflow_validate', 'workflow', ['graph: dict, ceiling?: dict', 'dict'], 'Validates a workflow graph structure and its capability ceilings.'),
  def(
    'workflow_execute',
    'workflow',
    ['task: string, graph: dict, artifacts?: list<dict>, options?: dict', 'dict'],
    'Executes a workflow graph and persists a run record.',
  ),
  def('workflow_policy_report', 'workflow', ['graph: dict, ceiling?: dict', 'dict'], 'Reports the effective workflow and node policies against a ceiling.'),
  def('workflow_commit', 'workflow', ['graph: dict, reason?: string', 'dict'], 'Validates a graph and appends a commit audit entry.'),
  def('continue_as_new', 'workflow', ['target: string | dict', 'dict'], 'Advances a workflow to a new generation and clears pending update responses.'),
  def('run_record', 'workflow', ['payload: dict', 'dict'], 'Normalizes a run record.'),
  def('run_record_save', 'workflow', ['run: dict, path?: string', 'dict'], 'Persists a run record.'),
  def('run_record_load', 'workflow', ['path: string', 'dict'], 'Loads a run record from disk.'),
  def('run_record_diff', 'workflow', ['left: dict, right: dict', 'dict'], 'Compares two run records and summarizes stage and status changes.'),
  def('run_record_fixture', 'workflow', ['run: dict', 'dict'], 'Derives a replay/eval fixture from a saved run.'),
  def('run_record_eval_suite', 'workflow', ['cases: list<dict>', 'dict'], 'Evaluates a list of {run, fixture?, path?} cases as a regression suite.'),
  def('eval_metric', 'workflow', ['name: string, value: any, metadata?: dict', 'nil'], 'Records a named metric in the eval metric store.'),
  def('eval_metrics', 'workflow', ['', 'list<dict>'], 'Returns the recorded eval metrics as {name, value, metadata?} dicts.'),
  def('eval_suite_manifest', 'workflow', ['payload: dict', 'dict'], 'Normalizes a grouped eval suite manifest.'),
  def('eval_suite_run', 'workflow', ['manifest: dict', 'dict'], 'Evaluates a manifest of saved runs, fixtures and optional baselines.'),
  def('friction_record', 'workflow', ['payload: dict, options?: dict', 'dict'], 'Records a friction event to the process-local buffer or a JSONL log.'),
  def('friction_events', 'workflow', ['', 'list<dict>'], 'Returns the friction events recorded in this VM.'),
  def('friction_clear', 'workflow', ['', 'nil'], 'Clears the process-local friction events.'),
  def('friction_eval_fixture', 'workflow', ['fixture: dict', 'dict'], 'Evaluates a repeated-friction fixture against its expected context-pack suggestions.'),
  def('context_pack_manifest', 'workflow', ['payload: dict', 'dict'], 'Validates and normalizes a context-pack manifest.'),
  def(
    'context_pack_suggestions',
    'workflow',
    ['events?: any, options?: dict', 'list<dict>'],
    'Suggests context packs or workflows from repeated friction events.',
  ),
  def(
    'command_policy',
    'workflow',
    ['config: dict', 'dict'],
    'Builds a command policy value from a config dict.',
    'config keys and how the policy is applied are not confirmed',
  ),

  // ---- artifacts
  def('artifact', 'artifact', ['payload: dict', 'dict'], 'Normalizes a typed artifact or resource.'),
  def('artifact_derive', 'artifact', ['parent: dict, kind: string, extra?: dict', 'dict'], 'Derives a new artifact from an earlier one.'),
  def('artifact_select', 'artifact', ['artifacts: list<dict>, policy?: dict', 'list<dict>'], 'Selects artifacts under a context policy and budget.'),
  def('artifact_context', 'artifact', ['artifacts: list<dict>, policy?: dict', 'string'], 'Renders the selected artifacts into context text.'),
  def('artifact_workspace_file', 'artifact', ['path: string, content: string, extra?: dict', 'dict'], 'Builds a workspace-file artifact with path provenance.'),
  def(
    'artifact_command_result',
    'artifact',
    ['command: string, output: any, extra?: dict', 'dict'],
    'Builds a command-result artifact with structured output.',
  ),
  def(
    'artifact_diff',
    'artifact',
    ['path: string, before: string, after: string, extra?: dict', 'dict'],
    'Builds a unified-diff artifact from before and after text.',
  ),
  def('artifact_diff_review', 'artifact', ['target: dict, summary?: string, extra?: dict', 'dict'], 'Builds a diff-review artifact linked to a diff or patch.'),
  def(
    'artifact_review_decision',
    'artifact',
    ['target: dict, decision: string, extra?: dict', 'dict'],
    'Builds an accept/reject review-decision artifact linked by lineage.',
  ),
  def('artifact_verification_result', 'artifact', ['title: string, text: string, extra?: dict', 'dict'], 'Builds a verification-result artifact.'),

  // ---- triggers
  def('trigger_register', 'trigger', ['config: dict', 'dict'], 'Registers a trigger dynamically and returns its handle.'),
  def('trigger_fire', 'trigger', ['handle: string | dict, event: dict', 'dict'], 'Fires a synthetic event into a trigger and returns a dispatch handle.'),
  def('trigger_list', 'trigger', ['', 'list<dict>'], 'Returns a snapshot of the live trigger bindings.'),
  def('trigger_replay', 'trigger', ['event_id: string', 'dict'], 'Re-dispatches a historical trigger event and returns the new dispatch handle.'),
  def('trigger_inspect_dlq', 'trigger', ['', 'list<dict>'], 'Returns the dead-letter queue entries with retry history.'),
  def(
    'trigger_inspect_lifecycle',
    'trigger',
    ['kind?: string | nil', 'list<dict>'],
    'Returns trigger lifecycle event-log records, optionally filtered by kind.',
  ),
  def(
    'trigger_inspect_action_graph',
    'trigger',
    ['trace_id?: string | nil', 'list<dict>'],
    'Returns action-graph observability records, optionally for one trace.',
  ),
  def('trigger_test_harness', 'trigger', ['fixture: string | dict', 'dict'], 'Runs a named trigger-system test fixture and returns a structured report.'),
  def('handler_context', 'trigger', ['', 'dict | nil'], 'Returns the active trigger dispatch context, or nil outside a dispatch.'),

  // ---- trust graph
  def(
    'trust_record',
    'trust',
    ['agent: string, action: string, approver: string | nil, outcome: string, tier: string', 'dict'],
    'Appends a hash-chained trust record for an agent action.',
  ),
  def('trust_query', 'trust', ['filters: dict', 'list<dict>'], 'Queries trust records by agent, action, time range, tier, outcome or limit.'),
  def('trust_graph_record', 'trust', ['decision: dict', 'string'], 'Appends a hash-chained trust decision and returns its entry id.'),
  def(
    'trust_graph_query',
    'trust',
    ['agent: string, action: string | nil', 'dict'],
    'Returns a trust score summary and recommended policy for an agent and action.',
  ),
  def('trust_graph_policy_for', 'trust', ['agent: string', 'dict'], "Returns the capability policy derived from an agent's trust history."),
  def('trust_graph_verify_chain', 'trust', ['', 'dict'], 'Verifies the trust graph hash chain and returns {verified, root_hash, errors, ...}.'),

  // ---- human in the loop and waitpoints
  def(
    'ask_user',
    'hitl',
    ['prompt: string, options?: dict', 'any'],
    'Pauses the dispatch until the host supplies an answer, validated against options.schema when given.',
  ),
  def(
    'request_approval',
    'hitl',
    ['action: string, options?: dict', 'dict'],
    'Emits a durable approval request, waits for quorum and returns the approval record; denial throws.',
  ),
  def(
    'dual_control',
    'hitl',
    ['n: int, m: int, action: fn() -> any, approvers?: list<string> | nil', 'any'],
    'Runs the action only after n of m approvers agree; denial throws.',
  ),
  def('escalate_to', 'hitl', ['role: string, reason: string', 'dict'], 'Escalates the dispatch to a higher-trust role and waits for the host to accept.'),
  def('hitl_pending', 'hitl', ['filters?: dict | nil', 'list<dict>'], 'Returns the pending human-in-the-loop requests from the event log, newest first.'),
  def(
    'waitpoint_create',
    'hitl',
    ['options?: string | dict | nil', 'dict'],
    'Creates a durable waitpoint and returns its handle.',
    'option keys not confirmed',
  ),
  def('waitpoint_complete', 'hitl', ['handle: string | dict, value?: any, options?: dict', 'dict'], 'Completes a waitpoint with an optional value.'),
  def(
    'waitpoint_wait',
    'hitl',
    ['handles: string | dict | list<any>, options?: dict', 'dict | list<dict>'],
    'Waits for one or more waitpoints to complete.',
    'timeout behaviour not confirmed',
  ),
  def('waitpoint_cancel', 'hitl', ['handle: string | dict, options?: dict', 'dict'], 'Cancels a waitpoint.'),

  // ---- flow invariants
  def('flow_invariant_allow', 'flow', ['', 'dict'], 'Builds an Allow invariant result.'),
  def('flow_invariant_warn', 'flow', ['reason: string', 'dict'], 'Builds a Warn invariant result with a reason.'),
  def('flow_invariant_block', 'flow', ['code: string, message: string', 'dict'], 'Builds a Block invariant result with a code and message.'),
  def('flow_invariant_require_approval', 'flow', ['kind: string, id: string', 'dict'], 'Builds a RequireApproval invariant result.'),
  def('flow_invariant_kind', 'flow', ['result: dict', 'string'], 'Returns the verdict kind of an invariant result.'),
  def('flow_invariant_confidence', 'flow', ['result: dict', 'float'], 'Returns the confidence of an invariant result.'),
  def('flow_invariant_is_blocking', 'flow', ['result: dict', 'bool'], 'Reports whether an invariant result blocks.'),
  def('flow_with_confidence', 'flow', ['result: dict, confidence: float | int', 'dict'], 'Returns an invariant result with its confidence set.'),
  def('flow_with_evidence', 'flow', ['result: dict, evidence: list<dict>', 'dict'], 'Returns an invariant result with evidence attached.'),
  def('flow_remediation', 'flow', ['description: string', 'dict'], 'Builds a remediation for an invariant result.'),
  def('flow_with_remediation', 'flow', ['result: dict, remediation: dict', 'dict'], 'Returns an invariant result with a remediation attached.'),
  def('flow_evidence_atom', 'flow', ['atom_id: string, diff_start: int, diff_end: int', 'dict'], 'Builds evidence pointing at a range of a diff atom.'),
  def('flow_evidence_citation', 'flow', ['url: string, quote: string, fetched_at: string', 'dict'], 'Builds evidence citing a quoted URL.'),
  def('flow_evidence_metadata', 'flow', ['directory: string, namespace: string, key: string', 'dict'], 'Builds evidence pointing at a metadata key.'),
  def(
    'flow_evidence_transcript',
    'flow',
    ['transcript_id: string, span_start: int, span_end: int', 'dict'],
    'Builds evidence pointing at a span of a transcript.',
  ),
];

// ------------------------------------------------------------------------------------------ exports

/** Every builtin, in table order (grouped by category). */
export const BUILTIN_LIST: readonly Builtin[] = [...CORE, ...SYSTEM, ...RUNTIME, ...AGENTS, ...TOOLS, ...ORCHESTRATION];

function indexByName(list: readonly Builtin[]): ReadonlyMap<string, Builtin> {
  const map = new Map<string, Builtin>();
  for (const b of list) if (!map.has(b.name)) map.set(b.name, b);
  return map;
}

/** The builtins by name. (A duplicate name in the list keeps its first entry; the unit test rejects duplicates.) */
export const BUILTINS: ReadonlyMap<string, Builtin> = indexByName(BUILTIN_LIST);
