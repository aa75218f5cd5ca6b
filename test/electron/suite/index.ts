// The entry point VS Code's extension host loads through --extensionTestsPath (bundled into
// dist/electron/index.js by scripts/build-electron.mjs): runs dist/electron/scenarios.test.js with
// mocha and fails the run when a test fails. mocha stays outside the bundle (it loads test files
// with require); it resolves from the repository's node_modules.
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: true, timeout: 120_000 });
  mocha.addFile(path.join(__dirname, 'scenarios.test.js'));
  return new Promise<void>((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} electron test(s) failed`)) : resolve()));
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
