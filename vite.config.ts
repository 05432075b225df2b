import { fastifyReactRouterDev } from '@mcansh/react-router-fastify/vite';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
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
