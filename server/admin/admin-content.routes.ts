import type { FastifyInstance } from 'fastify';
import { CONTENT_VALUE_MAX } from '../../common/admin.ts';
import { CONTENT_SECTIONS, isContentSectionKey, type ContentData, type ContentSectionKey } from '../../common/content-sections.ts';
import { createContentRepository } from '../content/content.repository.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { requireStaff } from '../sessions/session.plugin.ts';
import { recordAudit } from './audit.ts';

function sectionOf(section: string): ContentSectionKey {
  if (!isContentSectionKey(section)) throw notFound(`There is no content section called "${section}".`);
  return section;
}

/** Only the section's own fields, each plain text within the length cap. */
function validSectionData(section: ContentSectionKey, body: unknown): ContentData {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('Send the section as an object of field names and texts.');
  const allowed: readonly string[] = CONTENT_SECTIONS[section].fields;
  const data: ContentData = {};
  for (const [field, value] of Object.entries(body)) {
    if (!allowed.includes(field)) throw badRequest(`"${field}" is not a field of ${section}. Its fields are: ${allowed.join(', ')}.`);
    if (typeof value !== 'string') throw badRequest(`The value of "${field}" must be text.`);
    if (value.length > CONTENT_VALUE_MAX) throw badRequest(`The value of "${field}" must be at most ${CONTENT_VALUE_MAX} characters.`);
    data[field] = value;
  }
  return data;
}

export async function adminContentRoutes(app: FastifyInstance) {
  const content = createContentRepository(app.database);

  app.get<{ Params: { section: string } }>('/api/admin/content/:section', async (request) => ({
    data: await content.find(sectionOf(request.params.section)),
  }));

  // SPEC 7: the body is the whole section object; values are stored and shown as plain text.
  app.post<{ Params: { section: string } }>('/api/admin/content/:section', async (request) => {
    const staff = await requireStaff(request);
    const section = sectionOf(request.params.section);
    const data = validSectionData(section, request.body);
    await app.database.transaction(async (tx) => {
      const repository = createContentRepository(tx);
      const before = await repository.find(section);
      await repository.save(section, data, staff.email);
      await recordAudit(tx, { actorEmail: staff.email, action: 'content.update', target: section, oldValue: before, newValue: data });
    });
    return { success: true };
  });
}
