// The `[fmt]` options of the `harn.toml` nearest a file, found and read as upstream's harn-cli does
// (`config.rs`, RULES.md §2): from the file's directory (or the directory itself) upwards, at most 16
// directories, stopping after one that holds a `.git` entry (the project root, whose own harn.toml still
// counts). The first harn.toml found wins even without a `[fmt]` table. Honoured keys: `line_width` and
// `separator_width` (or `line-width`, `separator-width`), non-negative integers. Like upstream, the whole
// manifest's `[fmt]` and `[lint]` tables must have the right types, or the file is an error (and the
// defaults are used).

import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { ParseError } from 'toml-eslint-parser';
import { parseTomlAst, tomlDocumentValue } from '../../boundaries/registry';
import { readFileTextSync } from '../../workspace/files';
import { DEFAULT_FORMAT_OPTIONS, FormatOptions } from './index';

export const MANIFEST = 'harn.toml';
/** Upstream's MAX_PARENT_DIRS. */
export const MAX_PARENT_DIRS = 16;
/** Larger manifests are not read (1 MiB). */
export const MAX_MANIFEST_BYTES = 1 << 20;

/** The file system as the lookup sees it (injected in tests). */
export interface ConfigFs {
  isDirectory(path: string): boolean;
  isFile(path: string): boolean;
  exists(path: string): boolean;
  /** The text, or undefined when it cannot be read (upstream then uses the defaults). */
  readText(path: string): string | undefined;
}

const statOf = (p: string): nodeFs.Stats | undefined => nodeFs.statSync(p, { throwIfNoEntry: false });

export const nodeConfigFs: ConfigFs = {
  isDirectory: (p) => statOf(p)?.isDirectory() ?? false,
  isFile: (p) => statOf(p)?.isFile() ?? false,
  exists: (p) => {
    try {
      nodeFs.lstatSync(p);
      return true;
    } catch {
      return false;
    }
  },
  // A regular file, bounded: a manifest is a few lines, and it may sit above the workspace.
  readText: (p) => {
    const read = readFileTextSync(p, { maxBytes: MAX_MANIFEST_BYTES });
    return read.ok ? read.text : undefined;
  },
};

export interface FormatConfig {
  options: FormatOptions;
  /** The harn.toml read, when one was found. */
  manifest?: string;
  /** Why the manifest found could not be used (`failed to parse PATH: …`); the options are then the defaults. */
  error?: string;
}

/** The harn.toml that applies to `start` (a file or a directory, absolute), or undefined. */
export function findManifest(start: string, fs: ConfigFs = nodeConfigFs): string | undefined {
  const base = nodePath.resolve(start);
  let dir: string | undefined = fs.isDirectory(base) ? base : nodePath.dirname(base);
  for (let steps = 0; dir !== undefined && steps < MAX_PARENT_DIRS; steps++) {
    const candidate = nodePath.join(dir, MANIFEST);
    if (fs.isFile(candidate)) return candidate;
    if (fs.exists(nodePath.join(dir, '.git'))) return undefined;
    const parent = nodePath.dirname(dir);
    dir = parent === dir ? undefined : parent;
  }
  return undefined;
}

/** The format options for `start` (absolute path of a file or directory). */
export function formatConfigFor(start: string, fs: ConfigFs = nodeConfigFs): FormatConfig {
  const manifest = findManifest(start, fs);
  if (manifest === undefined) return { options: DEFAULT_FORMAT_OPTIONS };
  const text = fs.readText(manifest);
  if (text === undefined) return { options: DEFAULT_FORMAT_OPTIONS, manifest };
  const read = fmtOptionsOf(text);
  if ('error' in read) return { options: DEFAULT_FORMAT_OPTIONS, manifest, error: `failed to parse ${manifest}: ${read.error}` };
  return { options: read.options, manifest };
}

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** What a TOML value is, in a message. */
function typeName(v: unknown): string {
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `boolean \`${String(v)}\``;
  if (typeof v === 'number' || typeof v === 'bigint')
    return Number.isInteger(v) || typeof v === 'bigint' ? `integer \`${String(v)}\`` : `float \`${String(v)}\``;
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a date-time';
  return 'a table';
}

/** One key under its two spellings (serde's alias): the value, or an error when both are given. */
function aliased(table: Table, canonical: string, alias: string): { value: unknown } | { error: string } {
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(table, k);
  if (has(canonical) && has(alias)) return { error: `duplicate field \`${canonical}\` (also given as \`${alias}\`)` };
  return { value: has(canonical) ? table[canonical] : has(alias) ? table[alias] : undefined };
}

/** The `[fmt]` options of a harn.toml's text, or what is wrong with it. */
export function fmtOptionsOf(text: string): { options: FormatOptions } | { error: string } {
  let document: Table;
  try {
    document = tomlDocumentValue(parseTomlAst(text));
  } catch (error) {
    if (error instanceof ParseError || error instanceof SyntaxError) return { error: error.message };
    throw error;
  }
  const fmt = document.fmt ?? {};
  if (!isTable(fmt)) return { error: `\`fmt\` must be a table, found ${typeName(fmt)}` };
  const lintProblem = lintProblemOf(document.lint);
  if (lintProblem !== undefined) return { error: lintProblem };
  const options: FormatOptions = { ...DEFAULT_FORMAT_OPTIONS };
  for (const [canonical, alias, key] of [
    ['line_width', 'line-width', 'lineWidth'],
    ['separator_width', 'separator-width', 'separatorWidth'],
  ] as const) {
    const read = aliased(fmt, canonical, alias);
    if ('error' in read) return { error: `[fmt] ${read.error}` };
    if (read.value === undefined) continue;
    const v = read.value;
    if (!(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0))
      return { error: `[fmt] ${canonical}: expected a non-negative integer, found ${typeName(v)}` };
    options[key] = v;
  }
  return { options };
}

/** Upstream deserializes `[lint]` in the same pass: a wrong type there fails the whole manifest. */
function lintProblemOf(lint: unknown): string | undefined {
  if (lint === undefined) return undefined;
  if (!isTable(lint)) return `\`lint\` must be a table, found ${typeName(lint)}`;
  const header = aliased(lint, 'require_file_header', 'require-file-header');
  if ('error' in header) return `[lint] ${header.error}`;
  if (Object.prototype.hasOwnProperty.call(lint, 'disabled')) {
    const d = lint.disabled;
    if (!Array.isArray(d) || d.some((x) => typeof x !== 'string')) return `[lint] disabled: expected an array of strings, found ${typeName(d)}`;
  }
  if (header.value !== undefined && typeof header.value !== 'boolean') return `[lint] require_file_header: expected a boolean, found ${typeName(header.value)}`;
  return undefined;
}
