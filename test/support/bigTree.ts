// A generated, healthy loud-boundary tree of any size (benchmarks and tests of big registries): the registry,
// a funnel with one variant and arm per entry, anchors constructing 50 boundaries each, tests mentioning
// theirs, and a `.harn` file (HARN_FILE) reporting the first one. The gate finds nothing wrong in it.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_GATE_SETTINGS } from '../../server/src/boundaries/workspaceGate';

const PER_FILE = 50;
export const HARN_FILE = 'crates/harn-stdlib/src/report.harn';

/** Writes a healthy tree of `entries` boundaries into a new temporary folder. */
export function writeBigTree(entries: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-big-registry-'));
  const put = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const id = (i: number): string => `boundary_${i}`;
  const variant = (i: number): string => `Boundary${i}`;
  const anchor = (i: number): string => `crates/harn-vm/src/sites/site_${Math.floor(i / PER_FILE)}.rs`;
  const test = (i: number): string => `crates/harn-vm/tests/site_${Math.floor(i / PER_FILE)}.rs`;
  const registry: string[] = ['# Loud-boundary registry (generated for the benchmark).', ''];
  for (let i = 0; i < entries; i++) {
    registry.push(
      '[[boundary]]',
      `id = "${id(i)}"`,
      `title = "Boundary number ${i}"`,
      'drops = "model output bytes past the cap"',
      'was_silent = false',
      'event = "agent_event:boundary_failure"',
      `anchors = ["${i === 0 ? HARN_FILE : anchor(i)}"]`,
      `test = "${test(i)}"`,
      '',
    );
  }
  put(DEFAULT_GATE_SETTINGS.registryPath, registry.join('\n'));
  const variants: string[] = [];
  const arms: string[] = [];
  for (let i = 0; i < entries; i++) {
    variants.push(`    /// Boundary ${i}.\n    ${variant(i)},`);
    arms.push(`            Self::${variant(i)} => "${id(i)}",`);
  }
  put(
    DEFAULT_GATE_SETTINGS.funnelPath,
    `pub enum BoundaryId {\n${variants.join('\n')}\n}\n\nimpl BoundaryId {\n    pub fn as_str(self) -> &'static str {\n        match self {\n${arms.join('\n')}\n        }\n    }\n}\n`,
  );
  for (let first = 0; first < entries; first += PER_FILE) {
    const sites: string[] = [];
    const mentions: string[] = [];
    for (let i = first; i < Math.min(entries, first + PER_FILE); i++) {
      if (i > 0) sites.push(`    BoundaryFailure::new(BoundaryId::${variant(i)}, BoundaryKind::Dropped, "lost").report();`);
      mentions.push(`    assert_eq!(event.boundary, "${id(i)}");`);
    }
    put(anchor(first), `use crate::boundary::{BoundaryFailure, BoundaryId, BoundaryKind};\n\npub fn report_all() {\n${sites.join('\n')}\n}\n`);
    put(test(first), `#[test]\nfn reports() {\n${mentions.join('\n')}\n}\n`);
  }
  put(HARN_FILE, `fn report(session_id) {\n  agent_emit_event(session_id, "boundary_failure", {boundary: "${id(0)}", kind: "dropped", detail: "lost"})\n}\n`);
  return root;
}
