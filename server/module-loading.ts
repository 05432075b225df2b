import module from 'node:module';

// How the production server loads its 1,300 modules quickly (docs/decisions/021). Imported by
// server/main.ts before anything else, so the whole server is loaded this way.

const projectRoot = new URL('../', import.meta.url);

/**
 * Node's compile cache: each module's stripped and compiled code is kept between starts (a third
 * of the loading time); `npm run build` fills it (scripts/prepare-start.ts).
 */
export function enableCompileCache(): void {
  module.enableCompileCache?.(new URL('node_modules/.cache/compile', projectRoot).pathname);
}

/**
 * drizzle-orm's package.json is 180 KB (an export for each of its 450 entry points), and Node reads
 * it again, whole, to learn the format of each of the 110 drizzle modules the server imports: a
 * third of a second. Its modules are all ES modules (`"type": "module"`), so a relative `.js`
 * import inside it is resolved here directly, and each `drizzle-orm/...` entry point once.
 */
export function resolveDrizzleQuickly(): void {
  const drizzleRoot = new URL('node_modules/drizzle-orm/', projectRoot).href;
  const entryPoints = new Map<string, module.ResolveFnOutput>();
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (context.parentURL?.startsWith(drizzleRoot) && /^\.\.?\/.*\.js$/.test(specifier))
        return { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true };
      if (specifier !== 'drizzle-orm' && !specifier.startsWith('drizzle-orm/')) return nextResolve(specifier, context);
      const key = `${specifier}\0${context.conditions.join(',')}`;
      let entryPoint = entryPoints.get(key);
      if (!entryPoint) entryPoints.set(key, (entryPoint = nextResolve(specifier, context)));
      return { ...entryPoint, shortCircuit: true };
    },
  });
}
