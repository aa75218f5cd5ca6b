#!/usr/bin/env node
// Bundles the @vscode/test-electron suite (test/electron/suite) into dist/electron/ with esbuild:
// index.js (the --extensionTestsPath entry, which runs mocha) and scenarios.test.js (the tests).
// `vscode` is provided by the extension host; mocha is required from node_modules at run time.
import * as esbuild from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const electronOutDir = join(repoRoot, 'dist', 'electron');

export async function buildElectronSuite() {
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: { index: 'test/electron/suite/index.ts', 'scenarios.test': 'test/electron/suite/scenarios.test.ts' },
    outdir: electronOutDir,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    sourcemap: true,
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return join(electronOutDir, 'index.js');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`[build-electron] ${await buildElectronSuite()}`);
}
