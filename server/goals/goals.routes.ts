import { GoalInput, GoalList, GoalParams, GoalView, ProgressInput, ReminderInput } from '../../common/goals.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { RecommendationList } from '../../common/recommendations.contract.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function goalsRoutes(app: ZodApp) {
  const { goals, recommendations } = app.services;
  const member = { access: 'member' } as const;

  app.get('/api/recommendations', { config: member, schema: { response: withErrors({ 200: RecommendationList }) } }, async (request) =>
    recommendations.forMember(await request.viewer()),
  );

  app.get('/api/goals', { config: member, schema: { response: withErrors({ 200: GoalList }) } }, async (request) =>
    goals.list(await request.viewer()),
  );

  app.post('/api/goals', { config: member, schema: { body: GoalInput, response: withErrors({ 201: GoalView }) } }, async (request, reply) =>
    reply.status(201).send(await goals.create(await request.viewer(), request.body)),
  );

  app.put(
    '/api/goals/:id/reminder',
    { config: member, schema: { params: GoalParams, body: ReminderInput, response: withErrors({ 200: GoalView }) } },
    async (request) => goals.setReminder(await request.viewer(), request.params.id, request.body),
  );

  app.post(
    '/api/goals/:id/progress',
    { config: member, schema: { params: GoalParams, body: ProgressInput, response: withErrors({ 200: GoalView }) } },
    async (request) => goals.logProgress(await request.viewer(), request.params.id, request.body),
  );

  app.delete(
    '/api/goals/:id',
    { config: member, schema: { params: GoalParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await goals.remove(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );
}
