import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const ROUTES_CALL_SERVICES =
  'A route calls its feature service (app.services), never a repository or the database: the rules live in the service.';
const SERVICES_HOLD_RULES =
  'A service (and any file holding rules beside it) reaches the database through the DataAccess it is given (server/repositories.ts) and never imports routes, plugins or the HTTP layer.';
const ANSWERS_TYPED_BY_ROUTES =
  "Read action and loader answers through the route's generated types (Route.ComponentProps, useFetcher<typeof action>(), useActionData<typeof action>(), importing the type of another route's action), not a cast or a type written by hand; a shared component types its prop so the answer fits (Answer in components/admin/outcome.tsx).";
const REPOSITORIES_HOLD_QUERIES =
  'A repository holds queries over db/ and common/: it imports nothing above it (services, caches, routes, plugins, the HTTP layer).';

// Layering (STYLE.md): common/ imports nothing of ours; app/ never reaches into server/ or db/;
// one route never imports another (what two routes share lives in components/ or lib/).
const LAYER_ZONES = [
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
  // Inside server/ (docs/architecture.md): routes -> services -> repositories -> db/. A zone's
  // `from` is either all globs or all plain paths, hence two zones for some layers.
  { target: './server/**/*.routes.ts', from: ['./server/**/*.repository.ts', './db/**'], message: ROUTES_CALL_SERVICES },
  { target: './server/**/*.routes.ts', from: './server/repositories.ts', message: ROUTES_CALL_SERVICES },
  {
    target: './server/**/*.repository.ts',
    from: [
      './server/**/*.service.ts',
      './server/**/*.routes.ts',
      './server/**/*.plugin.ts',
      './server/http/**',
      './server/pages/**',
      './server/cache/**',
    ],
    message: REPOSITORIES_HOLD_QUERIES,
  },
  {
    target: './server/**/*.repository.ts',
    from: ['./server/app.ts', './server/services.ts', './server/repositories.ts'],
    message: REPOSITORIES_HOLD_QUERIES,
  },
];

// The rules of the product live in services and in the files beside them that hold rules under
// other names (the minute jobs, the waiting list, early access, the broadcasts' sending, a member's
// export, data retention, the views services build...): every file of server/ but these.
const RULE_FILES = ['server/**/*.ts'];
const NOT_RULE_FILES = [
  // Layers with zones of their own, and tests.
  'server/**/*.routes.ts',
  'server/**/*.repository.ts',
  'server/**/*.plugin.ts',
  'server/**/*.test.ts',
  // The process (wiring, configuration, start), the HTTP layer, the pages' adapter, caches, lists'
  // cursors, the mail's delivery, backups and command lines.
  'server/*.ts',
  'server/{http,pages,cache,lists,mail,backup,cli}/**',
  // Drivers of what the server talks to, and the routes' helpers for sending files and cookies.
  'server/files/{storage,s3-storage,create-storage,send-file,artwork}.ts',
  'server/billing/stripe-gateway.ts',
  'server/sessions/session-cookies.ts',
  // The first staff account, made at the first start over repositories it builds (as services.ts does).
  'server/staff/bootstrap.ts',
];
const RULE_ZONES = [
  {
    target: './server',
    from: ['./server/**/*.routes.ts', './server/**/*.plugin.ts', './server/http/**', './server/pages/**', './db/**'],
    // The attempt limiter counts attempts for a rule; services are handed it like the DataAccess.
    except: ['**/server/http/attempt-limiter.ts'],
    message: SERVICES_HOLD_RULES,
  },
  { target: './server', from: ['./server/app.ts', './server/services.ts'], message: SERVICES_HOLD_RULES },
];

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
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
    },
  },
  {
    // Services and the other files holding rules get repositories as DataAccess (server/services.ts
    // builds them): they may import a repository's types, never its values (a factory, a helper, a
    // constant); and nothing of routes, plugins, the HTTP layer or db/.
    files: RULE_FILES,
    ignores: NOT_RULE_FILES,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...LAYER_ZONES, ...RULE_ZONES] }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(\\.repository|/repositories)(\\.ts)?$',
              allowTypeImports: true,
              message: 'A service uses the DataAccess it is given: import only types from a repository (`import type`).',
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
    // An action's or loader's answer is typed by the route's generated types; a cast, or a type
    // written by hand, would hide an answer the action no longer gives, or a new one it gives.
    files: ['app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `TSAsExpression:matches(${[
            "[expression.type='MemberExpression'][expression.property.name='data']", // fetcher.data as ...
            "[expression.type='Identifier'][expression.name='data']", // const { data } = fetcher; data as ...
            '[expression.callee.name=/^use(ActionData|LoaderData|RouteLoaderData|Fetcher)$/]', // useActionData() as ...
            ':has(TSTypeReference[typeName.name=/^(Answer|FormErrors|RequestFailed)$/])', // ... as Answer
            "[typeAnnotation.type='TSTypeLiteral']:has(TSPropertySignature[key.name=/^(ok|formError|fieldErrors)$/])", // ... as { ok: true }
          ].join(', ')})`,
          message: ANSWERS_TYPED_BY_ROUTES,
        },
        {
          // useFetcher<{ ok: boolean }>(), useLoaderData<Data>(): the answer's type is the route's own.
          selector:
            'CallExpression[callee.name=/^use(ActionData|LoaderData|Fetcher)$/] > TSTypeParameterInstantiation > :not(TSTypeQuery[exprName.name=/^(action|loader|clientAction|clientLoader)$/])',
          message: ANSWERS_TYPED_BY_ROUTES,
        },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
