#!/usr/bin/env node
// `npm run package`: builds the bundles, then packages the extension as dist/harn-workbench.vsix
// (dependencies are bundled by esbuild, so --no-dependencies) and prints the .vsix size.
// No shell: every child process gets an argument array.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const vsixPath = join(repoRoot, 'dist', 'harn-workbench.vsix');

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`[package] node ${args.join(' ')} exited with ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

const started = performance.now();
run([join(repoRoot, 'esbuild.mjs')]);
const require = createRequire(import.meta.url);
const vsce = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
// --allow-missing-repository keeps vsce from prompting (there is no stdin in CI).
run([vsce, 'package', '--no-dependencies', '--allow-missing-repository', '-o', vsixPath]);
const bytes = statSync(vsixPath).size;
console.log(`[package] ${vsixPath}: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
