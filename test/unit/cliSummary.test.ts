// The text summary's pieces (server/src/cli/summary.ts): totals, the kinds by severity (cap notes counted as
// not shown), the gate's outcome per root.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSummaryText, gateText, KindCounts, severityTotals } from '../../server/src/cli/summary';

describe('cli summary', () => {
  test('totals: errors and warnings always, infos and hints when there are any, singular for one', () => {
    assert.equal(severityTotals({ error: 0, warning: 0, information: 0, hint: 0 }), '0 errors, 0 warnings');
    assert.equal(severityTotals({ error: 1, warning: 2, information: 1, hint: 3 }), '1 error, 2 warnings, 1 info, 3 hints');
  });

  test('kinds: most severe first, the most frequent first, at most four each, then how many more', () => {
    const kinds = new KindCounts();
    assert.equal(kinds.text(), 'none');
    for (const code of ['b', 'a', 'a', 'c', 'd', 'e', 'f']) kinds.add({ code, severity: 'error' });
    kinds.add({ code: 'unknown_row_type', severity: 'information' });
    kinds.add({ code: 'x', severity: 'warning' });
    assert.equal(kinds.text(), '7 errors (2 a, 1 b, 1 c, 1 d, 2 more kinds), 1 warning (1 x), 1 info (1 unknown_row_type)');
    assert.equal(kinds.total, 9);
  });

  test('a too_many_diagnostics note counts what it stands for, as not shown', () => {
    const kinds = new KindCounts();
    for (let i = 0; i < 3; i++) kinds.add({ code: 'invalid_row', severity: 'error' });
    kinds.add({
      code: 'too_many_diagnostics',
      severity: 'error',
      data: { omitted: 12, error: 10, warning: 2, information: 0, hint: 0 },
    });
    assert.equal(kinds.text(), '13 errors (3 invalid_row, 10 not shown), 2 warnings (2 not shown)');
    assert.equal(kinds.total, 15);
  });

  test('the gate per root, or why it did not run; the whole line', () => {
    assert.equal(gateText({ root: 'examples/demo', ran: true, findings: 1 }), 'gate on examples/demo: 1 finding');
    assert.equal(gateText({ root: '.', ran: false, reason: 'no x in it' }), 'gate not run on .: no x in it');
    const other = new KindCounts();
    other.add({ code: 'syntax_error', severity: 'error' });
    assert.equal(
      checkSummaryText({
        total: { error: 3, warning: 1, information: 0, hint: 0 },
        omitted: 0,
        harnFiles: 10,
        artifactFiles: 2,
        gates: [{ root: 'examples/demo', ran: true, findings: 2 }],
        other,
      }),
      '3 errors, 1 warning in 12 files (10 .harn, 2 run artifacts); gate on examples/demo: 2 findings; other: 1 error (1 syntax_error)',
    );
  });
});
