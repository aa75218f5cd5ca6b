// "Harn: Export Training Example" as the manifest contributes it (palette, explorer and editor menus on .json files;
// the server decides whether the file is a run record), its setting, and where the example is written.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { trainingExampleTarget } from '../../server/src/features/trainingExample';
import { readSettings } from '../../server/src/workspace/settings';

interface MenuItem {
  command: string;
  when?: string;
}
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, MenuItem[]>;
    configuration: { properties: Record<string, { type: string; default: unknown; scope?: string }> };
  };
};
const COMMAND = 'harn.exportTrainingExample';

describe('Export Training Example: contributions', () => {
  test('the command is "Harn: Export Training Example", in the palette, the explorer and editor menus of .json files', () => {
    const declared = manifest.contributes.commands.find((c) => c.command === COMMAND);
    assert.deepEqual(declared, { command: COMMAND, title: 'Export Training Example', category: 'Harn' });
    for (const menu of ['commandPalette', 'explorer/context', 'editor/context']) {
      const item = manifest.contributes.menus[menu]?.find((m) => m.command === COMMAND);
      assert.equal(item?.when, 'resourceExtname == .json', menu);
    }
  });

  test('harn.training.projectionDiagnostics: a boolean, on by default, per folder, as the server reads it', () => {
    const setting = manifest.contributes.configuration.properties['harn.training.projectionDiagnostics'];
    assert.deepEqual([setting?.type, setting?.default, setting?.scope], ['boolean', true, 'resource']);
    assert.equal(readSettings(undefined).settings.training.projectionDiagnostics, setting?.default);
  });

  test('the example is written beside the run record: a final .json replaced by .training.json', () => {
    assert.equal(trainingExampleTarget('/w/runs/r9/run.json'), '/w/runs/r9/run.training.json');
    assert.equal(trainingExampleTarget('/w/runs/r9.run.json'), '/w/runs/r9.run.training.json');
    assert.equal(trainingExampleTarget('/w/runs/record'), '/w/runs/record.training.json');
  });
});
