import { ContentResponse, ContentSectionBody, SectionParams } from '../../common/content.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function contentRoutes(app: ZodApp) {
  const { content } = app.services;
  const schema = { params: SectionParams, response: withErrors({ 200: ContentResponse }) };

  // SPEC 7: `{data: {...}}`, an empty object when the section was never saved.
  app.get('/api/content/:section', { config: visitors, schema }, async (request) => ({ data: await content.get(request.params.section) }));
  app.get('/api/admin/content/:section', { config: { access: 'staff' }, schema }, async (request) => ({
    data: await content.get(request.params.section),
  }));

  app.post(
    '/api/admin/content/:section',
    {
      config: { access: 'staff' },
      schema: { params: SectionParams, body: ContentSectionBody, response: withErrors({ 200: SuccessResponse }) },
    },
    async (request) => {
      await content.save(await request.viewer(), request.params.section, request.body);
      return { success: true as const };
    },
  );
}
