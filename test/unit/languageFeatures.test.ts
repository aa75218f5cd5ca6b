// harn.languageFeatures: the manifest declares it (and none of upstream's settings), the client resolves
// auto | on | off with upstream's extension installed or not, the server reads what it is sent.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import {
  inForceDetail,
  inForceLabel,
  LANGUAGE_FEATURES_MODES,
  LANGUAGE_FEATURES_SECTION,
  resolveLanguageFeatures,
  UPSTREAM_EXTENSION_ID,
} from '../../client/src/languageFeatures';
import { LanguageFeatureSwitch, readLanguageFeatures } from '../../server/src/features/languageFeatures';
import { WorkbenchSettingsSchema } from '../../server/src/workspace/settings';
import { REPO_ROOT } from '../support/lspClient';
import { RUN_SECTION, RUN_SETTING_KEYS } from '../../client/src/runSettings';

interface DeclaredSetting {
  scope?: string;
  type?: string;
  enum?: string[];
  enumDescriptions?: string[];
  default?: unknown;
  markdownDescription?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, DeclaredSetting> }; commands: { command: string }[] };
};
const declared = manifest.contributes.configuration.properties;

describe('package.json settings', () => {
  test("upstream's settings are never declared by us", () => {
    // burin-labs.harn-lang owns these: declaring them too would clash in the Settings editor and in settings.json.
    for (const theirs of ['harn.path', 'harn.lspPath', 'harn.dapPath']) assert.equal(declared[theirs], undefined, `${theirs} is declared`);
  });

  test('every harn.* setting declared is one the server or the client reads', () => {
    const read = new Set<string>([
      // vscode-languageclient reads `<client id>.trace.server` itself (the client's id is `harn`).
      'harn.trace.server',
      `harn.${LANGUAGE_FEATURES_SECTION}`,
      // Read by the client's Run Pipeline command.
      ...RUN_SETTING_KEYS.map((key) => `harn.${RUN_SECTION}.${key}`),
      ...Object.entries(WorkbenchSettingsSchema.shape).flatMap(([group, schema]) => Object.keys(schema.shape).map((key) => `harn.${group}.${key}`)),
    ]);
    const unread = Object.keys(declared).filter((key) => !read.has(key));
    assert.deepEqual(unread, [], 'declared but read by nobody');
    assert.ok(
      Object.keys(declared).every((key) => key.startsWith('harn.')),
      'every setting is under harn.',
    );
  });

  test('harn.languageFeatures: auto | on | off, auto by default, window scope, each value described', () => {
    const setting = declared[`harn.${LANGUAGE_FEATURES_SECTION}`];
    assert.ok(setting, 'declared');
    assert.equal(setting.scope, 'window');
    assert.equal(setting.type, 'string');
    assert.deepEqual(setting.enum, [...LANGUAGE_FEATURES_MODES]);
    assert.equal(setting.default, 'auto');
    assert.equal(setting.enumDescriptions?.length, LANGUAGE_FEATURES_MODES.length);
    assert.match(setting.markdownDescription ?? '', new RegExp(UPSTREAM_EXTENSION_ID.replace('.', '\\.')));
    assert.ok(
      manifest.contributes.commands.some((c) => c.command === 'harn.chooseLanguageFeatures'),
      'the switch command is declared',
    );
  });
});

describe('resolveLanguageFeatures', () => {
  test('auto steps back when upstream is installed, and serves when it is not', () => {
    const beside = resolveLanguageFeatures('auto', true);
    assert.equal(beside.enabled, false);
    assert.equal(beside.inForce, 'upstream');
    assert.match(beside.reason, /auto and burin-labs\.harn-lang is installed/);
    const alone = resolveLanguageFeatures('auto', false);
    assert.equal(alone.enabled, true);
    assert.equal(alone.inForce, 'ours');
  });

  test('on and off hold whatever is installed', () => {
    for (const installed of [true, false]) {
      assert.deepEqual([resolveLanguageFeatures('on', installed).enabled, resolveLanguageFeatures('on', installed).inForce], [true, 'ours']);
      assert.deepEqual([resolveLanguageFeatures('off', installed).enabled, resolveLanguageFeatures('off', installed).inForce], [false, 'off']);
    }
  });

  test('an unset value is auto; a value that is not a mode is auto too, and said', () => {
    assert.deepEqual(resolveLanguageFeatures(undefined, true), resolveLanguageFeatures('auto', true));
    const odd = resolveLanguageFeatures('yes', true);
    assert.equal(odd.mode, 'auto');
    assert.equal(odd.enabled, false);
    assert.equal(odd.invalid, '"yes"');
    assert.match(odd.reason, /"yes" is not auto, on or off: auto is used/);
    assert.equal(resolveLanguageFeatures(false, false).invalid, 'false');
  });

  test('the status item names who is in force', () => {
    assert.equal(inForceLabel('ours'), 'Harn Workbench');
    assert.equal(inForceLabel('upstream'), "upstream's harn-lsp (burin-labs.harn-lang)");
    assert.equal(inForceLabel('off'), 'off');
    assert.equal(inForceDetail(resolveLanguageFeatures('auto', true)), 'harn.languageFeatures: auto');
    assert.equal(inForceDetail(resolveLanguageFeatures(7, true)), 'harn.languageFeatures: 7 is not a mode, auto used');
  });
});

describe("the server's side", () => {
  test('readLanguageFeatures takes { enabled, reason } and says what is wrong otherwise', () => {
    assert.deepEqual(readLanguageFeatures({ enabled: false, reason: 'r' }), { value: { enabled: false, reason: 'r' } });
    assert.deepEqual(readLanguageFeatures({ enabled: 'no', reason: 'r' }), {
      problem: 'expected { enabled: boolean, reason: string } (enabled): Invalid input: expected boolean, received string',
    });
    assert.ok('problem' in readLanguageFeatures(null));
    assert.ok('problem' in readLanguageFeatures({ enabled: true }));
  });

  test('the switch starts from initializationOptions, on by default, and reports changes of enabled only', () => {
    const logged: string[] = [];
    const log = { info: (m: string) => logged.push(`info: ${m}`), warn: (m: string) => logged.push(`warn: ${m}`) };
    const off = new LanguageFeatureSwitch(() => ({ languageFeatures: { enabled: false, reason: 'upstream' } }), log);
    assert.equal(off.enabled, false);
    assert.equal(off.set({ enabled: false, reason: 'still upstream' }), false);
    assert.equal(off.set({ enabled: true, reason: 'on' }), true);
    assert.equal(off.enabled, true);
    assert.deepEqual(logged, ['info: Harn language features on .harn files: off (upstream)']);
    assert.equal(new LanguageFeatureSwitch(() => undefined, log).enabled, true);
  });
});
