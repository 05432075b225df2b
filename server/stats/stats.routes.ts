import { ContentStats } from '../../common/stats.contract.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function statsRoutes(app: ZodApp) {
  // SPEC 7: public, read-only counts for the home page's stats (no staff session needed).
  app.get('/api/admin/analytics/content', { schema: { response: withErrors({ 200: ContentStats }) } }, () =>
    app.services.stats.contentStats(),
  );
}
