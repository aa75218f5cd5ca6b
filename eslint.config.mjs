// Lint: typescript-eslint with type information (the promise rules need it), over every TypeScript file.
import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.cache/**', 'node_modules/**', 'test/unit/grammar/**', 'examples/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      // The parser unwinds to its recovery points with ParseError/NestingError: plain classes, no stack trace (speed).
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'file', name: ['ParseError', 'NestingError'] }] }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The client shows notifications, progress titles and input boxes only through client/src/notify.ts, which
    // passes every text through notificationText (a file's name must not become a clickable command link).
    files: ['client/src/**/*.ts'],
    ignores: ['client/src/notify.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'withProgress', 'showInputBox'].map((property) => ({
          property,
          message: `Use client/src/notify.ts (info, warn, error, confirm, progress, inputBox): it shows the text without links. Not vscode.window.${property}.`,
        })),
      ],
    },
  },
  {
    // Only notify.ts's text module escapes: a call site neither escapes nor forgets to.
    files: ['client/src/**/*.ts'],
    ignores: ['client/src/notifyText.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/text/notification'],
              message: 'Show the text through client/src/notify.ts, which escapes it (notifyText.ts): no call site calls notificationText.',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript (build and test scripts): no type information.
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
);
