import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/**', 'data/**', 'node_modules/**', '.react-router/**', 'coverage/**', 'public/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    languageOptions: { globals: { process: 'readonly', console: 'readonly', window: 'readonly', document: 'readonly' } },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Layering (STYLE.md): common/ imports nothing of ours; app/ never reaches into server/ or db/;
      // one route never imports another (what two routes share lives in components/ or lib/).
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './common',
              from: ['./app', './server', './db', './tests'],
              message: 'common/ must stay free of app, server and db code.',
            },
            {
              target: './app',
              from: ['./server', './db'],
              message: 'Pages call services through the request context, never by importing the server.',
            },
            { target: './db', from: ['./app', './server'], message: 'The data layer does not depend on the server or the pages.' },
            {
              target: ['./app/components', './app/lib', './app/routes'],
              from: './app/root.tsx',
              message: 'The root is a route module: what pages share with it lives in app/lib (root-data.ts).',
            },
            {
              target: './app/routes/**/*',
              from: './app/routes',
              except: ['./**/+types/**'],
              message: 'A route does not import another route: move what they share to app/components or app/lib.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
