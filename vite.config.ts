import { fastifyReactRouterDev } from '@mcansh/react-router-fastify/vite';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    rolldownOptions: {
      // Building a zod schema has no side effects: a page that uses only the plain constants of a
      // contract module (tier names, limits) then ships without zod.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  plugins: [
    tailwindcss(),
    reactRouter(),
    fastifyReactRouterDev({
      entry: './server/dev-server.ts',
      // The server fills this context per request; the built pages must import the very same module.
      externalizeServerEntryImports: ['#request-context'],
    }),
  ],
});
