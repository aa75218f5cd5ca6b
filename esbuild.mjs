// Builds the bundles: the VS Code client, the language server, the CLI and the run launcher.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  sourcemap: true,
  // jsonc-parser's UMD build (its "main") uses a dynamic require esbuild cannot follow.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
};

const builds = [
  { ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  { ...common, entryPoints: ['server/src/main.ts'], outfile: 'dist/server.js' },
  { ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // Started by Run Pipeline (node, no shell) when harn.run.env lists variables: harn gets exactly those.
  { ...common, entryPoints: ['client/src/runLauncher.ts'], outfile: 'dist/runLauncher.js' },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
