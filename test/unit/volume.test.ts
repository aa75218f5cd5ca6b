// Domain modules on volume (issue 9, "caps instead of crashes"): inputs generated here, far bigger than
// any real one, must answer without overflowing the stack and in linear time (a quadratic step on these
// sizes would not finish within the test's timeout).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addBoundaryVariant } from '../../server/src/boundaries/funnelEdits';
import { parseFunnel } from '../../server/src/boundaries/rust';

describe('funnel edits on a huge funnel', () => {
  test('an arm of 130,000 variants (Math.min(...variants) overflowed; a scan per variant was quadratic)', { timeout: 60_000 }, () => {
    const n = 130_000;
    const variants = Array.from({ length: n }, (_, i) => `    /// Variant ${i}.\n    V${i},`).join('\n');
    const pattern = Array.from({ length: n }, (_, i) => `Self::V${i}`).join(' | ');
    const text = `pub enum BoundaryId {\n${variants}\n}\n\nimpl BoundaryId {\n    pub fn as_str(self) -> &'static str {\n        match self {\n            ${pattern} => "shared",\n        }\n    }\n}\n`;
    const funnel = parseFunnel(text);
    assert.equal(funnel.arms.length, n);
    const edits = addBoundaryVariant(text, funnel, 'new_one');
    assert.deepEqual(
      edits.map((e) => e.newText),
      ['\n    /// TODO: describe this boundary\n    NewOne,', '\n            Self::NewOne => "new_one",'],
    );
  });
});
