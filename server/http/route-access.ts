import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with who may call it, as declared (`config.access`): what an access review reads. */
    routeAccess: { method: string; url: string; access: FastifyContextConfig['access']; schema: FastifySchema | undefined }[];
  }
}

/**
 * Keeps the access and the contract each route declares as it is registered, so one list answers
 * "who may call what" and describes the API (server/http/openapi.ts).
 */
export function recordRouteAccess(app: FastifyInstance): void {
  const routes: FastifyInstance['routeAccess'] = [];
  app.decorate('routeAccess', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, access: route.config?.access, schema: route.schema });
    }
  });
}
