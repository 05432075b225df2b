import type { FastifyInstance } from 'fastify';
import { ContactInput } from '../../common/contact.ts';
import { CONTACT_LIMIT } from '../../common/limits.ts';
import { contactMessages } from '../../db/schema.ts';
import { AttemptLimiter } from '../http/attempt-limiter.ts';
import { parseInput } from '../http/errors.ts';

export async function contactRoutes(app: FastifyInstance) {
  const limiter = new AttemptLimiter(`${app.config.redisKeyPrefix}:limit:contact`, app.redis);

  // SPEC 7: stores the message and answers {success: true}; the staff read it in the admin area.
  app.post('/api/contact', async (request, reply) => {
    const input = parseInput(ContactInput, request.body);
    await limiter.check('address', request.ip, CONTACT_LIMIT);
    await app.database.insert(contactMessages).values({ ...input, ipAddress: request.ip });
    return reply.status(201).send({ success: true });
  });
}
