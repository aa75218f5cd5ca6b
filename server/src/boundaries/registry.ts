// Reads scripts/loud_boundaries.toml (spec/harn-artifacts.md §6) into located entries and schema problems.
// Pure: text in, plain data out. Offsets are UTF-16 code units into the text as given (a BOM counts as one).

import { z } from 'zod';
import { ParseError, parseTOML, type AST } from 'toml-eslint-parser';
import { runSteps, StepCounter, Steps } from './steps';
import { isHighSurrogate } from '../text/surrogates';
import type { AuditedEntry, BoundaryEntry, LocatedString, Registry, RegistryProblem, TextRange } from './types';

// ---------------------------------------------------------------------------------------------------------------
// Schema. The zod field types are the source of truth for which keys an entry may hold and what they must be.

const nonEmpty = (what: string) => z.string().min(1, `${what} must not be empty`);

export const boundaryFields = {
  id: nonEmpty('`id`'),
  title: z.string(),
  drops: z.string(),
  was_silent: z.boolean(),
  event: z.string(),
  anchors: z.array(nonEmpty('an anchor')),
  test: z.string(),
  notes: z.string(),
};

export const auditedFields = {
  id: nonEmpty('`id`'),
  title: z.string(),
  event: z.string(),
  anchors: z.array(nonEmpty('an anchor')),
  marker: z.string(),
};

/** Every key optional except `id`; unknown keys rejected. */
export const BoundaryTableSchema = z.strictObject(boundaryFields).partial().required({ id: true });
export const AuditedTableSchema = z.strictObject(auditedFields).partial().required({ id: true });

/** A `[[boundary]]` table as TOML data, once valid. */
export type BoundaryTable = z.infer<typeof BoundaryTableSchema>;
/** An `[[audited]]` table as TOML data, once valid. */
export type AuditedTable = z.infer<typeof AuditedTableSchema>;

type SectionName = 'boundary' | 'audited';
const SECTIONS: readonly SectionName[] = ['boundary', 'audited'];
const FIELDS: Record<SectionName, { id: z.ZodType<string> } & Record<string, z.ZodType>> = { boundary: boundaryFields, audited: auditedFields };
const SCHEMAS: Record<SectionName, z.ZodType> = { boundary: BoundaryTableSchema, audited: AuditedTableSchema };
const ARTICLE: Record<SectionName, string> = { boundary: 'a', audited: 'an' };

// ---------------------------------------------------------------------------------------------------------------
// TOML access shared with registryEdits.

/**
 * Parses TOML 1.0 text. A leading BOM is read as a space so that every offset stays an offset into `text`.
 * Throws the parser's ParseError on a syntax error, and a TomlNestingError on values nested past
 * TOML_NESTING_LIMIT (the parser, its static values and the edits' checks recurse once per level).
 */
export function parseTomlAst(text: string): AST.TOMLProgram {
  const source = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  const tooDeep = tomlBracketLimitAt(source);
  if (tooDeep >= 0) throw new TomlNestingError(tooDeep);
  const ast = parseTOML(source, { tomlVersion: '1.0' });
  const deepKey = deepestKeyPast(ast);
  if (deepKey >= 0) throw new TomlNestingError(deepKey);
  return ast;
}

/** Deepest nesting of registry values read: arrays, inline tables and dotted keys together (the registry needs 3). */
export const TOML_NESTING_LIMIT = 128;

/** Values nested past TOML_NESTING_LIMIT, at `index` (a SyntaxError with an index, as the parser's own errors). */
export class TomlNestingError extends SyntaxError {
  constructor(readonly index: number) {
    super(`values nested more than ${TOML_NESTING_LIMIT} levels deep (arrays, inline tables and dotted keys together); the registry needs 3 at most`);
    this.name = 'TomlNestingError';
  }
}

/**
 * The offset of the `[` or `{` outside strings and comments that opens level TOML_NESTING_LIMIT, or -1: found
 * before parsing, in one iterative pass, since the parser recurses per array or inline table.
 */
function tomlBracketLimitAt(text: string): number {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text[i];
    if (c === '#') {
      i = text.indexOf('\n', i);
      if (i < 0) return -1;
    } else if (c === '"' || c === "'") {
      const multiline = text.startsWith(c.repeat(3), i);
      const close = multiline ? c.repeat(3) : c;
      let at = i + close.length;
      for (;;) {
        at = text.indexOf(close, at);
        if (at < 0) return -1;
        // In a basic string a quote after an odd run of backslashes is escaped; a literal string has no escapes.
        let backslashes = 0;
        while (c === '"' && text[at - 1 - backslashes] === '\\') backslashes++;
        if (backslashes % 2 === 0) break;
        at++;
      }
      i = at + close.length - 1;
    } else if (c === '[' || c === '{') {
      if (++depth >= TOML_NESTING_LIMIT) return i;
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
  }
  return -1;
}

/** The start of the first key (in source order) whose value nests past TOML_NESTING_LIMIT (its table, dotted parts and containers), or -1. */
function deepestKeyPast(ast: AST.TOMLProgram): number {
  type Pending = { node: AST.TOMLKeyValue | AST.TOMLContentNode; depth: number };
  let first = -1;
  const past = (key: AST.TOMLKey): void => {
    if (first < 0 || key.range[0] < first) first = key.range[0];
  };
  const stack: Pending[] = [];
  for (const node of ast.body[0].body) {
    if (node.type === 'TOMLKeyValue') stack.push({ node, depth: 0 });
    else if (node.resolvedKey.length > TOML_NESTING_LIMIT) past(node.key);
    else for (const kv of node.body) stack.push({ node: kv, depth: node.resolvedKey.length });
  }
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, depth } = item;
    if (node.type === 'TOMLKeyValue') {
      const inner = depth + node.key.keys.length;
      if (inner > TOML_NESTING_LIMIT) past(node.key);
      else stack.push({ node: node.value, depth: inner });
    } else if (node.type === 'TOMLArray') {
      for (const element of node.elements) stack.push({ node: element, depth: depth + 1 });
    } else if (node.type === 'TOMLInlineTable') {
      for (const kv of node.body) stack.push({ node: kv, depth });
    }
  }
  return first;
}

/** The static value of a whole document (tables as plain objects, arrays, strings, numbers, booleans, Dates). */
export function tomlDocumentValue(ast: AST.TOMLProgram): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const node of ast.body[0].body) {
    if (node.type === 'TOMLKeyValue') setDotted(document, node.key, tomlValue(node.value));
    else {
      const table = tableFor(document, node.key.keys.map(keyPartName), node.kind === 'array');
      for (const kv of node.body) setDotted(table, kv.key, tomlValue(kv.value));
    }
  }
  return document;
}

/**
 * The static value of a TOML value node, as toml-eslint-parser's getStaticTOMLValue gives it but with every key
 * an own data property: that function assigns keys with `table[key] = …`, so `__proto__ = { … }` replaced a
 * table's prototype (and `__proto__.x = 1` wrote into Object.prototype) and `constructor.x = 1` wrote onto the
 * Object function. Keys here are defined, and read back only when they are the table's own.
 */
export function tomlValue(node: AST.TOMLContentNode): unknown {
  if (node.type === 'TOMLArray') return node.elements.map(tomlValue);
  if (node.type === 'TOMLInlineTable') {
    const table: Record<string, unknown> = {};
    for (const kv of node.body) setDotted(table, kv.key, tomlValue(kv.value));
    return table;
  }
  return node.value;
}

type TomlTable = Record<string, unknown>;

/** Array.isArray, narrowing to unknown[] rather than any[]. */
const isArray = (value: unknown): value is unknown[] => Array.isArray(value);

const isTomlTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** `table[key] = value` as an own data property, whatever the key (`__proto__` included). */
function defineKey(table: TomlTable, key: string, value: unknown): void {
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
}

const ownValue = (table: TomlTable, key: string): unknown => (Object.hasOwn(table, key) ? table[key] : undefined);

/** The table a dotted key's parts lead to from `table`, made where missing. */
function childTable(table: TomlTable, key: string): TomlTable {
  const next = ownValue(table, key);
  if (isTomlTable(next)) return next;
  const made: TomlTable = {};
  defineKey(table, key, made);
  return made;
}

/** `a.b.c = value` in `table` (the parser has already refused redefinitions). */
function setDotted(table: TomlTable, key: AST.TOMLKey, value: unknown): void {
  const names = key.keys.map(keyPartName);
  let target = table;
  for (const name of names.slice(0, -1)) target = childTable(target, name);
  defineKey(target, names.at(-1) ?? '', value);
}

/** The table a `[a.b]` (or `[[a.b]]`: a new element of the array) header opens. */
function tableFor(document: TomlTable, names: readonly string[], array: boolean): TomlTable {
  let target = document;
  for (const name of names.slice(0, -1)) {
    const next = ownValue(target, name);
    // A header through an array of tables continues in its last element.
    const last: unknown = isArray(next) ? next.at(-1) : next;
    if (isTomlTable(last)) target = last;
    else {
      const made: TomlTable = {};
      if (isArray(next) && next.length > 0) next[next.length - 1] = made;
      else defineKey(target, name, made);
      target = made;
    }
  }
  const name = names.at(-1) ?? '';
  const existing = ownValue(target, name);
  const made: TomlTable = {};
  if (array) {
    if (isArray(existing)) existing.push(made);
    else defineKey(target, name, [made]);
    return made;
  }
  if (isTomlTable(existing)) return existing;
  defineKey(target, name, made);
  return made;
}

/** The name of a key part, bare or quoted. */
export function keyPartName(part: AST.TOMLBare | AST.TOMLQuoted): string {
  return part.type === 'TOMLBare' ? part.name : part.value;
}

/** The name of a key's first part: `a` for `a`, `a.b` and `"a".b`. The parser never makes a key without parts. */
export function keyHeadName(key: AST.TOMLKey): string {
  const [head] = key.keys;
  return head === undefined ? '' : keyPartName(head);
}

/** The range of a `[[name]]` / `[name]` header: from the first `[` through the last `]`. */
export function tableHeaderRange(text: string, table: AST.TOMLTable): TextRange {
  const closing = table.kind === 'array' ? ']]' : ']';
  const at = text.indexOf(closing, table.key.range[1]);
  return { start: table.range[0], end: at < 0 ? table.key.range[1] : at + closing.length };
}

function isSyntaxError(e: unknown): e is ParseError {
  return e instanceof ParseError || (e instanceof SyntaxError && typeof (e as Partial<ParseError>).index === 'number');
}

// ---------------------------------------------------------------------------------------------------------------

const range = (r: readonly [number, number]): TextRange => ({ start: r[0], end: r[1] });

function describeNode(node: AST.TOMLContentNode): string {
  if (node.type === 'TOMLArray') return 'an array';
  if (node.type === 'TOMLInlineTable') return 'an inline table';
  switch (node.kind) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'float':
      return 'a float';
    case 'boolean':
      return 'a boolean';
    default:
      return 'a date/time';
  }
}

function describeExpected(expected: string): string {
  if (expected === 'array') return 'an array of strings';
  if (expected === 'boolean') return 'a boolean';
  if (expected === 'string') return 'a string';
  return expected;
}

/** Reads one `[[section]]` table: its located values, and the problems of its keys and values. */
function readEntry(
  text: string,
  section: SectionName,
  table: AST.TOMLTable,
  problems: RegistryProblem[],
): { values: Map<string, AST.TOMLKeyValue>; id: string | undefined; headerRange: TextRange } {
  const headerRange = tableHeaderRange(text, table);
  const fields = FIELDS[section];
  const values = new Map<string, AST.TOMLKeyValue>();
  const data: Record<string, unknown> = {};
  const local: RegistryProblem[] = [];
  for (const kv of table.body) {
    const name = keyHeadName(kv.key);
    if (kv.key.keys.length > 1) {
      const dotted = text.slice(kv.key.range[0], kv.key.range[1]);
      local.push({
        code: 'invalid_entry',
        message: Object.hasOwn(fields, name)
          ? `\`${dotted}\` makes \`${name}\` a table; write \`${name} = …\``
          : `unknown key \`${dotted}\` in ${ARTICLE[section]} [[${section}]] entry`,
        range: range(kv.key.range),
      });
      continue;
    }
    values.set(name, kv);
    defineKey(data, name, tomlValue(kv.value));
  }

  const idKv = values.get('id');
  const idParsed = idKv && fields.id.safeParse(data.id);
  const idValue = idParsed && idParsed.success ? idParsed.data : undefined;

  const result = SCHEMAS[section].safeParse(data);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const kv = values.get(key);
          local.push({
            code: 'invalid_entry',
            message: `unknown key \`${key}\` in ${ARTICLE[section]} [[${section}]] entry`,
            range: kv ? range(kv.key.range) : headerRange,
          });
        }
        continue;
      }
      const key = issue.path[0];
      const kv = typeof key === 'string' ? values.get(key) : undefined;
      if (typeof key !== 'string' || !kv) {
        // Only `id` is required: a missing key is a missing id, reported on the header as upstream words it.
        local.push({
          code: 'invalid_entry',
          message: `${ARTICLE[section]} [[${section}]] entry has no \`${String(key ?? 'id')}\``,
          range: headerRange,
        });
        continue;
      }
      const index = issue.path[1];
      const element = typeof index === 'number' && kv.value.type === 'TOMLArray' ? kv.value.elements[index] : undefined;
      const node = element ?? kv.value;
      let message: string;
      if (issue.code === 'invalid_type') {
        message = element
          ? `each element of \`${key}\` must be ${describeExpected(issue.expected)}, not ${describeNode(element)}`
          : `\`${key}\` must be ${describeExpected(issue.expected)}, not ${describeNode(kv.value)}`;
      } else if (issue.code === 'too_small' && key === 'id') {
        message = `${ARTICLE[section]} [[${section}]] entry has an empty \`id\``;
      } else {
        message = issue.message;
      }
      local.push({ code: 'invalid_entry', message, range: range(node.range) });
    }
  }
  local.sort((a, b) => a.range.start - b.range.start);
  for (const problem of local) problems.push(idValue === undefined ? problem : { ...problem, id: idValue });
  return { values, id: idValue, headerRange };
}

function locatedString(kv: AST.TOMLKeyValue | undefined, nonEmptyOnly = false): LocatedString | undefined {
  const node = kv?.value;
  if (!node || node.type !== 'TOMLValue' || node.kind !== 'string') return undefined;
  if (nonEmptyOnly && node.value === '') return undefined;
  return { value: node.value, range: range(node.range) };
}

function locatedAnchors(kv: AST.TOMLKeyValue | undefined): { anchors: LocatedString[]; anchorsRange: TextRange | undefined } {
  if (!kv) return { anchors: [], anchorsRange: undefined };
  const anchors: LocatedString[] = [];
  if (kv.value.type === 'TOMLArray') {
    for (const element of kv.value.elements) {
      if (element.type === 'TOMLValue' && element.kind === 'string' && element.value !== '') {
        anchors.push({ value: element.value, range: range(element.range) });
      }
    }
  }
  return { anchors, anchorsRange: range(kv.range) };
}

/** The text parsed whole: its syntax tree, or the registry reporting its syntax error. */
function parseAst(text: string): AST.TOMLProgram | Registry {
  try {
    return parseTomlAst(text);
  } catch (e) {
    // Anything the parser throws is reported, never thrown: a parse error at its index, anything else at 0.
    const index = isSyntaxError(e) ? e.index : 0;
    const reason = e instanceof Error ? e.message : String(e);
    // A 1-char range at the error, kept inside the text (an error at the end marks the last character).
    let start = Math.max(0, Math.min(index, text.length - 1));
    if (text[start] === '\n' && text[start - 1] === '\r') start--;
    let end = Math.min(start + 1, text.length);
    const code = text.charCodeAt(start);
    if (isHighSurrogate(code) && end < text.length) end++; // never split a surrogate pair
    return {
      parsed: false,
      boundaries: [],
      audited: [],
      problems: [{ code: 'toml_syntax', message: `TOML syntax error: ${reason}`, range: { start, end } }],
    };
  }
}

/** Reads the tables of a parsed text into `registry` (offsets into `text`). */
function readTables(text: string, ast: AST.TOMLProgram, registry: Registry): void {
  const problems = registry.problems;
  for (const node of ast.body[0].body) {
    if (node.type === 'TOMLKeyValue') {
      const name = keyHeadName(node.key);
      if ((SECTIONS as readonly string[]).includes(name)) {
        problems.push({
          code: 'invalid_entry',
          message: `\`${text.slice(node.key.range[0], node.key.range[1])}\` is not read: write each entry as a [[${name}]] table`,
          range: range(node.key.range),
        });
      }
      continue;
    }
    const section = node.resolvedKey[0];
    if (section !== 'boundary' && section !== 'audited') continue;
    if (node.kind !== 'array' || node.resolvedKey.length !== 2) {
      const written = text.slice(node.key.range[0], node.key.range[1]);
      const index = node.resolvedKey[1];
      const owner = typeof index === 'number' ? (section === 'boundary' ? registry.boundaries : registry.audited)[index] : undefined;
      const problem: RegistryProblem = {
        code: 'invalid_entry',
        message:
          node.resolvedKey.length === 1
            ? `\`[${written}]\` is not read: write each entry as a [[${section}]] table`
            : `\`${written}\` makes a table inside ${ARTICLE[section]} [[${section}]] entry; entries hold only plain keys`,
        range: range(node.key.range),
      };
      if (owner?.id) problem.id = owner.id.value;
      problems.push(problem);
      continue;
    }
    const { values, headerRange } = readEntry(text, section, node, problems);
    const located = { headerRange, range: range(node.range) };
    if (section === 'boundary') {
      const wasSilent = values.get('was_silent')?.value;
      const entry: BoundaryEntry = {
        id: locatedString(values.get('id'), true),
        title: locatedString(values.get('title')),
        drops: locatedString(values.get('drops')),
        wasSilent: wasSilent?.type === 'TOMLValue' && wasSilent.kind === 'boolean' ? wasSilent.value : undefined,
        event: locatedString(values.get('event')),
        ...locatedAnchors(values.get('anchors')),
        test: locatedString(values.get('test')),
        notes: locatedString(values.get('notes')),
        ...located,
      };
      registry.boundaries.push(entry);
    } else {
      const entry: AuditedEntry = {
        id: locatedString(values.get('id'), true),
        title: locatedString(values.get('title')),
        event: locatedString(values.get('event')),
        ...locatedAnchors(values.get('anchors')),
        marker: locatedString(values.get('marker')),
        ...located,
      };
      registry.audited.push(entry);
    }
  }
}

/** The registry parsed whole (the reference for parseRegistrySteps, and its fallback). */
export function parseRegistryWhole(text: string): Registry {
  const ast = parseAst(text);
  if (!('type' in ast)) return ast;
  const registry: Registry = { parsed: true, boundaries: [], audited: [], problems: [] };
  readTables(text, ast, registry);
  return registry;
}

/** Parses the registry. Never throws: a syntax error or schema violation becomes a RegistryProblem. */
export function parseRegistry(text: string, cache?: RegistryCache): Registry {
  return runSteps(parseRegistrySteps(text, cache));
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing one entry at a time.
//
// A registry is mostly a run of `[[boundary]]` and `[[audited]]` tables. Parsed whole, 50,000 of them make one
// syntax tree of about a gigabyte and take seconds of garbage collection; parsed one table at a time the work is
// linear, yields between tables (steps.ts), and an edit re-parses only the table it touched (RegistryCache).
// Splitting must not change the result, so the text is parsed whole instead when:
// - a line that opens a table other than a plain `[[boundary]]` / `[[audited]]` header (a sub-table such as
//   `[boundary.x]`, a quoted or spaced header, a nested array on its own line) follows the first entry;
// - the text before the first entry names `boundary` or `audited` itself (a key or a table): that clashes with
//   the entries in a way only the whole text shows;
// - any piece fails to parse. A header line taken for one though it sits inside a multi-line string or array
//   leaves the piece before it unterminated, so a wrong split always ends here; the whole parse then reports
//   the error where and as it is.

/** What each piece's text held at the last parse, and where it was (its offsets are into that text). */
export interface RegistryCache {
  pieces: Map<string, { offset: number; part: Registry }>;
}

const ENTRY_HEADER = /^[ \t]*\[\[(?:boundary|audited)\]\][ \t]*(?:#[^\n]*)?\r?$/;

/** parseRegistry in steps, yielding every STEP_BATCH entries; `cache` is read and replaced (see RegistryCache). */
export function* parseRegistrySteps(text: string, cache?: RegistryCache): Steps<Registry> {
  const starts = yield* entryStarts(text);
  if (starts === undefined || starts.length === 0) return parseRegistryWhole(text);
  const prefix = parseAst(text.slice(0, starts[0] ?? 0));
  if (!('type' in prefix) || namesASection(prefix)) return parseRegistryWhole(text);
  const registry: Registry = { parsed: true, boundaries: [], audited: [], problems: [] };
  readTables(text, prefix, registry);
  const previous = cache?.pieces;
  const pieces: RegistryCache['pieces'] = new Map();
  // A piece is parsed in about 50 µs: yield every few.
  const step = new StepCounter(4);
  for (let i = 0; i < starts.length; i++) {
    if (step.tick()) yield;
    const from = starts[i] ?? 0;
    const piece = text.slice(from, starts[i + 1] ?? text.length);
    let known = pieces.get(piece) ?? previous?.get(piece);
    if (known === undefined) {
      const ast = parseAst(piece);
      if (!('type' in ast)) return parseRegistryWhole(text);
      const part: Registry = { parsed: true, boundaries: [], audited: [], problems: [] };
      readTables(piece, ast, part);
      known = { offset: 0, part };
    }
    // Entries are shared with the cache (and never changed): moved only when their piece moved.
    const part = known.offset === from ? known.part : shiftRegistry(known.part, from - known.offset);
    if (!pieces.has(piece)) pieces.set(piece, { offset: from, part });
    for (const entry of part.boundaries) registry.boundaries.push(entry);
    for (const entry of part.audited) registry.audited.push(entry);
    for (const problem of part.problems) registry.problems.push(problem);
  }
  if (cache) cache.pieces = pieces;
  return registry;
}

/**
 * The offsets of the lines holding a plain entry header, outside multi-line strings; undefined when another
 * table header follows the first entry (then the text is parsed whole).
 */
function* entryStarts(text: string): Steps<number[] | undefined> {
  const starts: number[] = [];
  let open: MultiLine = undefined;
  const step = new StepCounter();
  for (let pos = 0; pos < text.length;) {
    if (step.tick()) yield;
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    if (open === undefined) {
      let i = pos;
      while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
      if (text.charCodeAt(i) === 91 /* [ */) {
        if (ENTRY_HEADER.test(text.slice(pos, end))) starts.push(pos);
        else if (starts.length > 0) return undefined;
      }
    }
    open = multiLineAfter(text, pos, end, open);
    pos = end + 1;
  }
  return starts;
}

type MultiLine = '"""' | "'''" | undefined;

/** Whether a multi-line string is open after text[from, to) (one line), given whether one was open before. */
function multiLineAfter(text: string, from: number, to: number, open: MultiLine): MultiLine {
  let i = from;
  while (i < to) {
    if (open !== undefined) {
      const close = open === '"""' ? closingBasic(text, i, to) : text.indexOf(open, i);
      if (close < 0 || close >= to) return open;
      i = close + 3;
      // Up to two more quotes belong to the string (`""""` ends with a quote inside).
      for (let extra = 0; extra < 2 && text.startsWith(open.charAt(0), i); extra++) i++;
      open = undefined;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 35 /* # */) return undefined;
    if (text.startsWith('"""', i)) {
      open = '"""';
      i += 3;
    } else if (text.startsWith("'''", i)) {
      open = "'''";
      i += 3;
    } else if (c === 34 /* " */) {
      i++;
      while (i < to && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 /* \ */ ? 2 : 1;
      i++;
    } else if (c === 39 /* ' */) {
      const close = text.indexOf("'", i + 1);
      i = close < 0 || close >= to ? to : close + 1;
    } else {
      i++;
    }
  }
  return open;
}

/** The offset of the `"""` closing a multi-line basic string at or after `i` (escapes skipped), or -1. */
function closingBasic(text: string, i: number, to: number): number {
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34 && text.startsWith('"""', i)) return i;
  }
  return -1;
}

/** Whether the text before the first entry has a key or a table named after a section. */
function namesASection(ast: AST.TOMLProgram): boolean {
  const sections: readonly unknown[] = SECTIONS;
  return ast.body[0].body.some((node) => sections.includes(node.type === 'TOMLKeyValue' ? keyHeadName(node.key) : node.resolvedKey[0]));
}

// An entry of a piece moved to the piece's offset in the text: every range of an entry is listed here.
const shiftRange = (r: TextRange, by: number): TextRange => ({ start: r.start + by, end: r.end + by });
const shiftString = (s: LocatedString | undefined, by: number): LocatedString | undefined => s && { value: s.value, range: shiftRange(s.range, by) };

function shiftRegistry(r: Registry, by: number): Registry {
  return {
    parsed: r.parsed,
    boundaries: r.boundaries.map((e) => shiftBoundary(e, by)),
    audited: r.audited.map((e) => shiftAudited(e, by)),
    problems: r.problems.map((p) => ({ ...p, range: shiftRange(p.range, by) })),
  };
}

function shiftBoundary(e: BoundaryEntry, by: number): BoundaryEntry {
  return {
    ...e,
    id: shiftString(e.id, by),
    title: shiftString(e.title, by),
    drops: shiftString(e.drops, by),
    event: shiftString(e.event, by),
    anchors: e.anchors.map((a) => ({ value: a.value, range: shiftRange(a.range, by) })),
    anchorsRange: e.anchorsRange && shiftRange(e.anchorsRange, by),
    test: shiftString(e.test, by),
    notes: shiftString(e.notes, by),
    headerRange: shiftRange(e.headerRange, by),
    range: shiftRange(e.range, by),
  };
}

function shiftAudited(e: AuditedEntry, by: number): AuditedEntry {
  return {
    ...e,
    id: shiftString(e.id, by),
    title: shiftString(e.title, by),
    event: shiftString(e.event, by),
    anchors: e.anchors.map((a) => ({ value: a.value, range: shiftRange(a.range, by) })),
    anchorsRange: e.anchorsRange && shiftRange(e.anchorsRange, by),
    marker: shiftString(e.marker, by),
    headerRange: shiftRange(e.headerRange, by),
    range: shiftRange(e.range, by),
  };
}

/** What the registry says of a boundary id: for boundary_failure rows, their hovers and messages. */
export interface BoundaryInfo {
  title?: string;
  drops?: string;
}

/** One lookup of registered boundaries by id (the first entry wins, as the gate reports duplicates). */
export function boundaryInfoLookup(registry: Registry | undefined): (id: string) => BoundaryInfo | undefined {
  const byId = new Map<string, BoundaryInfo>();
  for (const entry of registry?.boundaries ?? []) {
    const id = entry.id?.value;
    if (id !== undefined && !byId.has(id)) byId.set(id, { title: entry.title?.value, drops: entry.drops?.value });
  }
  return (id) => byId.get(id);
}
