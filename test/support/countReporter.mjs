// A node:test reporter for scripts/run-tests.mjs: one line per outcome, `pass`, `fail` or `skip`, a tab,
// then the test's file and name. Its counts differ from node's own totals (`# pass`, `# skipped`) on
// purpose: a skipped suite (`describe(…, { skip })`, whose tests node never lists) is one skipped test
// here, and a suite that failed by itself (its body or a hook threw) is one failed test; a suite
// failing only because of its tests is not counted again. A `todo` test counts as skipped.

export default async function* countReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const data = event.data;
    const suite = data.details?.type === 'suite';
    const label = `${data.file ?? ''}\t${String(data.name).replace(/[\t\n\r]/g, ' ')}`;
    if (event.type === 'test:pass') {
      if (flagged(data.skip) || flagged(data.todo)) yield `skip\t${label}\n`;
      else if (!suite) yield `pass\t${label}\n`;
    } else if (flagged(data.todo)) {
      yield `skip\t${label}\n`;
    } else if (!(suite && data.details?.error?.failureType === 'subtestsFailed')) {
      yield `fail\t${label}\n`;
    }
  }
}

/** node sets `skip` and `todo` to true or to the reason given. */
function flagged(value) {
  return value !== undefined && value !== false;
}
