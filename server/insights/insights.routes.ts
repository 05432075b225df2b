import {
  Engagement,
  FigureParams,
  InsightsQuery,
  Retention,
  Revenue,
  RevenueFigureParams,
  RevenueQuery,
} from '../../common/insights.contract.ts';
import type { FastifyReply } from 'fastify';
import { withErrors, type ZodApp } from '../http/zod.ts';

/** A figure as a spreadsheet download, never kept by a browser or a proxy. */
const sendCsv = (reply: FastifyReply, name: string, csv: string) =>
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .header('cache-control', 'private, no-store')
    .send(csv);

export async function insightsRoutes(app: ZodApp) {
  const { insights } = app.services;
  const staff = { access: 'staff' } as const;

  app.get(
    '/api/admin/insights/engagement',
    { config: staff, schema: { querystring: InsightsQuery, response: withErrors({ 200: Engagement }) } },
    async (request) => insights.engagement(await request.viewer(), request.query),
  );

  // CSV, not JSON: only the input is declared.
  app.get(
    '/api/admin/insights/engagement/:figure.csv',
    { config: staff, schema: { params: FigureParams, querystring: InsightsQuery } },
    async (request, reply) =>
      sendCsv(
        reply,
        request.params.figure,
        await insights.engagementCsv(await request.viewer(), request.params.figure, request.query.weeks),
      ),
  );

  // Every staff member's: the paying share in it is left out for those who may not see billing.
  app.get(
    '/api/admin/insights/retention',
    { config: staff, schema: { querystring: RevenueQuery, response: withErrors({ 200: Retention }) } },
    async (request) => insights.retention(await request.viewer(), request.query),
  );

  app.get('/api/admin/insights/retention.csv', { config: staff, schema: { querystring: RevenueQuery } }, async (request, reply) =>
    sendCsv(reply, 'retention', await insights.retentionCsv(await request.viewer(), request.query.months)),
  );

  const owners = { access: { area: 'billing' } } as const;
  app.get(
    '/api/admin/insights/revenue',
    { config: owners, schema: { querystring: RevenueQuery, response: withErrors({ 200: Revenue }) } },
    async (request) => insights.revenue(await request.viewer(), request.query),
  );

  app.get(
    '/api/admin/insights/revenue/:figure.csv',
    { config: owners, schema: { params: RevenueFigureParams, querystring: RevenueQuery } },
    async (request, reply) =>
      sendCsv(reply, request.params.figure, await insights.revenueCsv(await request.viewer(), request.params.figure, request.query.months)),
  );
}
