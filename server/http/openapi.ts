import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { BRAND_NAME } from '../../common/brand.ts';

// The API's description (OpenAPI 3.1), made from what the routes declare as they are registered:
// their zod contracts (common/*.contract.ts) for paths, queries, bodies and answers, and who may
// call each. Nothing in it is written by hand, so it cannot drift from what the server checks.

type RouteEntry = FastifyInstance['routeAccess'][number];

/** JSON Schema (2020-12, which OpenAPI 3.1 uses) of a zod contract; a shape JSON cannot state is left open. */
function jsonSchemaOf(schema: unknown, io: 'input' | 'output'): Record<string, unknown> | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return rest;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minimum?: number;
  minLength?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

const EXAMPLE_TEXT: Record<string, string> = {
  email: 'agent@example.com',
  uuid: '3f2b8c1e-5d4a-4e7b-9c2f-1a6d8e9b0c4d',
  'date-time': '2026-11-29T15:00:00.000Z',
  date: '2026-11-29',
  uri: 'https://example.com/',
};

/**
 * An example of a value a schema allows, made from the schema (so it cannot drift): its default or
 * first allowed value, the least number, one item of a list, every required field of an object.
 */
function exampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.length) return exampleOf(choice.find((each) => each.type !== 'null') ?? choice[0], depth + 1);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((each) => exampleOf(each, depth + 1)));
  const type = Array.isArray(schema.type) ? (schema.type.find((each) => each !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'string':
      return EXAMPLE_TEXT[schema.format ?? ''] ?? 'text'.padEnd(Math.max(4, schema.minLength ?? 0), '.');
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 0);
    case 'boolean':
      return true;
    case 'array':
      return [exampleOf(schema.items, depth + 1)];
    case 'object': {
      const required = new Set(schema.required ?? []);
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([name]) => required.has(name))
          .map(([name, property]) => [name, exampleOf(property, depth + 1)]),
      );
    }
    default:
      return null;
  }
}

/** The path or query parameters of a route, each with its own schema. */
function parametersOf(schema: unknown, where: 'path' | 'query') {
  const json = jsonSchemaOf(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return Object.entries(json?.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json?.required ?? []).includes(name),
    schema: property,
  }));
}

/** Who may call a route, in words and as the security it needs. */
function accessOf(access: RouteEntry['access']) {
  if (!access) return { who: 'anyone (a signed-in viewer may see more)', security: [{}, { session: [] }, { bearer: [] }] };
  if (access === 'member') return { who: 'a signed-in member', security: [{ session: [] }, { bearer: [] }] };
  if (access === 'staff-sign-in') return { who: 'staff signing in', security: [{ session: [] }, { bearer: [] }] };
  if (access === 'staff') return { who: 'signed-in staff', security: [{ session: [] }, { bearer: [] }] };
  return { who: `staff whose role opens the ${access.area} area`, security: [{ session: [] }, { bearer: [] }] };
}

/** What each status answers: the route's own shapes, and `{detail}` for every refusal and failure. */
function responsesOf(response: unknown) {
  const declared = (response ?? {}) as Record<string, unknown>;
  const answers: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(declared)) {
    const code = status.replace(/xx$/i, 'XX');
    const json = jsonSchemaOf(schema, 'output');
    answers[code] = {
      description: code.startsWith('2') ? 'Done.' : 'Refused or failed: `detail` says why, in words a person understands.',
      ...(json && { content: { 'application/json': { schema: json, example: exampleOf(json as JsonSchema) } } }),
    };
  }
  if (Object.keys(answers).length === 0) answers['200'] = { description: 'Done (a file, a redirect or a document; see the summary).' };
  return answers;
}

/** The OpenAPI 3.1 document of every `/api` route registered on the app. */
export function openApiDocument(routes: readonly RouteEntry[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (!route.url.startsWith('/api/') || route.url.includes('*')) continue;
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const schema = (route.schema ?? {}) as { params?: unknown; querystring?: unknown; body?: unknown; response?: unknown };
    const { who, security } = accessOf(route.access);
    const body = jsonSchemaOf(schema.body, 'input');
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: {
        operationId: `${route.method.toLowerCase()} ${route.url}`,
        summary: `${route.method} ${route.url}`,
        description: `Who may call it: ${who}.`,
        security,
        parameters: [...parametersOf(schema.params, 'path'), ...parametersOf(schema.querystring, 'query')],
        ...(body && {
          requestBody: { required: true, content: { 'application/json': { schema: body, example: exampleOf(body as JsonSchema) } } },
        }),
        responses: responsesOf(schema.response),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${BRAND_NAME} API`,
      version,
      description:
        'The API the site, the installed app and other clients use. Sign in with `POST /api/auth/login` (a session cookie) or use the token it answers as `Authorization: Bearer <token>`. Every refusal answers `{ "detail": "..." }`.',
    },
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: '__Host-rp_session',
          description: 'The session cookie set at sign-in (`__Host-rp_staff` for staff; without `__Host-` on a server not in production).',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'The token answered at sign-in.' },
      },
    },
    paths,
  };
}
