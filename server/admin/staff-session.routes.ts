import type { FastifyInstance } from 'fastify';
import { requireStaff } from '../sessions/session.plugin.ts';

export async function staffSessionRoutes(app: FastifyInstance) {
  // Who the current staff session belongs to; 401 without one, 403 for a member's session.
  app.get('/api/admin/session', async (request) => {
    const staff = await requireStaff(request);
    return { email: staff.email, storage_name: app.storage.displayName };
  });
}
