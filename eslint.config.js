import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/**', 'data/**', 'node_modules/**', '.react-router/**', 'coverage/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    languageOptions: { globals: { process: 'readonly', console: 'readonly', window: 'readonly', document: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Layering (STYLE.md): common/ imports nothing of ours; app/ never reaches into server/ or db/.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './common', from: ['./app', './server', './db', './tests'], message: 'common/ must stay free of app, server and db code.' },
            { target: './app', from: ['./server', './db'], message: 'Pages talk to the server through the API, never by importing it.' },
            { target: './db', from: ['./app', './server'], message: 'The data layer does not depend on the server or the pages.' },
          ],
        },
      ],
    },
  },
);
