// From offsets inside a decoded JSON string to UTF-16 characters of the row's raw text, and back: envelopes are
// parsed on decoded strings, the editor shows the raw row. Only rows asked about (a diagnostic to place, a tree,
// a hover) are parsed here (jsonc-parser, one row).

import { findNodeAtLocation, findNodeAtOffset, getNodePath, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { jsonNestingLimitAt } from '../artifacts/jsonNesting';
import type { JsonPath } from './facts';

/**
 * The row's syntax tree, or undefined when it nests deeper than serde_json reads (jsonc-parser recurses per level,
 * so a hostile row of a million `[` would overflow the stack; such a row is malformed anyway).
 */
function rowTree(rowText: string): JsonNode | undefined {
  return jsonNestingLimitAt(rowText) >= 0 ? undefined : parseTree(rowText, []);
}

/** The raw string node at `path` in a row, or undefined. */
export function stringNodeAt(rowText: string, path: JsonPath): JsonNode | undefined {
  const root = rowTree(rowText);
  if (!root) return undefined;
  const node = findNodeAtLocation(root, [...path]);
  return node?.type === 'string' ? node : undefined;
}

/** The raw offset in the row of decoded offset `decoded` in the string literal starting at `literalStart` (its `"`). */
export function rawOffset(rowText: string, literalStart: number, decoded: number): number {
  let i = literalStart + 1;
  let units = 0;
  while (units < decoded && i < rowText.length) {
    const c = rowText.charCodeAt(i);
    if (c === 34 /* " */) break;
    if (c === 92 /* \ */) i += rowText.charCodeAt(i + 1) === 117 /* u */ ? 6 : 2;
    else i++;
    units++;
  }
  return i;
}

/** The decoded offset in the string literal starting at `literalStart` of raw offset `raw` (inside it). */
export function decodedOffset(rowText: string, literalStart: number, raw: number): number {
  let i = literalStart + 1;
  let units = 0;
  while (i < raw && i < rowText.length) {
    const c = rowText.charCodeAt(i);
    if (c === 34) break;
    i += c === 92 ? (rowText.charCodeAt(i + 1) === 117 ? 6 : 2) : 1;
    units++;
  }
  return units;
}

/** A decoded range of the string at `path`, as raw characters of the row (undefined when the row has no such string). */
export function rowRange(rowText: string, path: JsonPath, start: number, end: number): { start: number; end: number } | undefined {
  const node = stringNodeAt(rowText, path);
  if (!node) return undefined;
  return { start: rawOffset(rowText, node.offset, start), end: rawOffset(rowText, node.offset, end) };
}

/** The string under a character of the row: its path, literal start, and the decoded offset of the character. */
export function stringAtCharacter(rowText: string, character: number): { path: JsonPath; literalStart: number; decoded: number; value: string } | undefined {
  const root = rowTree(rowText);
  if (!root) return undefined;
  const node = findNodeAtOffset(root, character);
  if (node?.type !== 'string' || typeof node.value !== 'string') return undefined;
  return { path: getNodePath(node), literalStart: node.offset, decoded: decodedOffset(rowText, node.offset, character), value: node.value };
}
