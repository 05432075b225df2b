import type { z } from 'zod';
import { ErrorResponse } from '../../common/fields.ts';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';

/** The server with route schemas from the zod contracts in common/: input validated, output serialized by them. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export function useZodContracts(app: FastifyInstance): ZodApp {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app.withTypeProvider<ZodTypeProvider>();
}

/** A route's answers: its own success shapes, and the `{detail}` every refusal and failure has. */
export function withErrors<Ok extends Record<number, z.ZodType>>(ok: Ok) {
  return { ...ok, '4xx': ErrorResponse, '5xx': ErrorResponse };
}
