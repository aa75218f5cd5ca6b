// workspace/settings.ts: the `harn` configuration section read field by field: a missing field takes its
// default, an invalid one is reported (its key and why) and takes its default, the valid ones are kept.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readSettings, WorkbenchSettings } from '../../server/src/workspace/settings';

const DEFAULTS: WorkbenchSettings = {
  boundaries: {
    registryPath: 'scripts/loud_boundaries.toml',
    funnelPath: 'crates/harn-vm/src/boundary.rs',
    rustGlobs: ['crates/**/*.rs'],
    harnGlobs: ['crates/**/*.harn'],
  },
  artifacts: {
    transcriptGlobs: ['**/llm_transcript*.jsonl'],
    eventLogGlobs: ['**/event_log*.jsonl'],
    runRecordGlobs: ['**/run.json', '**/*.run.json'],
    maxLineBytes: 256 * 1024 * 1024,
  },
  diagnostics: { scope: 'workspace' },
  runControl: { logGlobs: ['**/*run_control*.jsonl', '**/*run-control*.jsonl'], inbox: 'run-control-inbox.jsonl', delivery: 'inbox' },
  training: { projectionDiagnostics: true },
  inlayHints: { parameterNames: true },
};

describe('readSettings', () => {
  test('training: projection diagnostics can be turned off; a non-boolean is reported and takes the default', () => {
    assert.deepEqual(readSettings({ training: { projectionDiagnostics: false } }).settings.training, { projectionDiagnostics: false });
    const { settings, problems } = readSettings({ training: { projectionDiagnostics: 'no' } });
    assert.deepEqual(settings.training, { projectionDiagnostics: true });
    assert.deepEqual(problems, ['harn.training.projectionDiagnostics must be true or false; using the default']);
  });

  test('inlay hints: parameter names can be turned off; a non-boolean is reported and takes the default', () => {
    assert.deepEqual(readSettings({ inlayHints: { parameterNames: false } }).settings.inlayHints, { parameterNames: false });
    const { settings, problems } = readSettings({ inlayHints: { parameterNames: 1 } });
    assert.deepEqual(settings.inlayHints, { parameterNames: true });
    assert.deepEqual(problems, ['harn.inlayHints.parameterNames must be true or false; using the default']);
  });

  test('run control: an unknown delivery is reported and takes the default', () => {
    const { settings, problems } = readSettings({ runControl: { delivery: 'email', inbox: 'inbox/next.jsonl' } });
    assert.deepEqual(settings.runControl, { ...DEFAULTS.runControl, inbox: 'inbox/next.jsonl' });
    assert.deepEqual(problems, ['harn.runControl.delivery must be one of inbox, clipboard; using the default']);
  });

  test('nothing configured: every default, no problem', () => {
    for (const raw of [undefined, null, {}, { boundaries: {}, artifacts: {} }]) {
      assert.deepEqual(readSettings(raw), { settings: DEFAULTS, problems: [] }, JSON.stringify(raw));
    }
  });

  test('valid values are kept, the others default; unknown keys are ignored', () => {
    const raw = {
      boundaries: { registryPath: 'boundaries.toml', harnGlobs: ['lib/**/*.harn', 'std/*.harn'], unknown: 1 },
      artifacts: { runRecordGlobs: ['records/*.json'] },
      trace: { server: 'verbose' },
    };
    assert.deepEqual(readSettings(raw), {
      settings: {
        boundaries: { ...DEFAULTS.boundaries, registryPath: 'boundaries.toml', harnGlobs: ['lib/**/*.harn', 'std/*.harn'] },
        artifacts: { ...DEFAULTS.artifacts, runRecordGlobs: ['records/*.json'] },
        diagnostics: DEFAULTS.diagnostics,
        runControl: DEFAULTS.runControl,
        training: DEFAULTS.training,
        inlayHints: DEFAULTS.inlayHints,
      },
      problems: [],
    });
  });

  test('each invalid boundary setting: its message, its default, and the valid ones beside it kept', () => {
    const { settings, problems } = readSettings({ boundaries: { registryPath: '', funnelPath: 7, rustGlobs: [], harnGlobs: [''] } });
    assert.deepEqual(settings, DEFAULTS);
    assert.deepEqual(problems, [
      'harn.boundaries.registryPath must not be empty; using the default',
      'harn.boundaries.funnelPath Invalid input: expected string, received number; using the default',
      'harn.boundaries.rustGlobs needs at least one glob; using the default',
      'harn.boundaries.harnGlobs Too small: expected string to have >=1 characters; using the default',
    ]);
    const mixed = readSettings({ boundaries: { registryPath: '', funnelPath: 'src/ids.rs' } });
    assert.deepEqual(mixed.settings.boundaries, { ...DEFAULTS.boundaries, funnelPath: 'src/ids.rs' });
    assert.deepEqual(mixed.problems, ['harn.boundaries.registryPath must not be empty; using the default']);
  });

  test('each invalid artifact setting: its message and its default; a valid one in the same group is kept', () => {
    const { settings, problems } = readSettings({ artifacts: { transcriptGlobs: 'a/*.jsonl', eventLogGlobs: ['ok/*.jsonl'], runRecordGlobs: [1] } });
    assert.deepEqual(settings, { ...DEFAULTS, artifacts: { ...DEFAULTS.artifacts, eventLogGlobs: ['ok/*.jsonl'] } });
    assert.deepEqual(problems, [
      'harn.artifacts.transcriptGlobs Invalid input: expected array, received string; using the default',
      'harn.artifacts.runRecordGlobs Invalid input: expected string, received number; using the default',
    ]);
  });

  test('null is a value, and an invalid one', () => {
    const { settings, problems } = readSettings({ boundaries: { registryPath: null } });
    assert.deepEqual(settings, DEFAULTS);
    assert.deepEqual(problems, ['harn.boundaries.registryPath Invalid input: expected string, received null; using the default']);
  });

  test('the result is a copy: changing it leaves the defaults alone', () => {
    const first = readSettings({});
    first.settings.boundaries.rustGlobs.push('extra/*.rs');
    first.settings.artifacts.runRecordGlobs.length = 0;
    assert.deepEqual(readSettings({}).settings, DEFAULTS);
  });

  test('harn.diagnostics.scope: workspace or openFiles; anything else is reported and defaults to workspace', () => {
    assert.deepEqual(readSettings({ diagnostics: { scope: 'openFiles' } }).settings.diagnostics, { scope: 'openFiles' });
    const { settings, problems } = readSettings({ diagnostics: { scope: 'everything' } });
    assert.deepEqual(settings.diagnostics, { scope: 'workspace' });
    assert.deepEqual(problems, ['harn.diagnostics.scope must be one of workspace, openFiles; using the default']);
  });
});
