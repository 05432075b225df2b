import { parseContentSection, sectionNotFound, type ContentService } from '../../common/content.contract.ts';
import { isContentSectionKey, withContentDefaults, type ContentSectionKey } from '../../common/content-sections.ts';
import { notFound } from '../../common/errors.ts';
import { requireStaffArea } from '../../common/policies.ts';
import type { DataAccess } from '../repositories.ts';

function sectionOf(section: string): ContentSectionKey {
  if (!isContentSectionKey(section)) throw notFound(sectionNotFound(section));
  return section;
}

export function createContentService(data: DataAccess): ContentService {
  return {
    get: async (section) => data.content.find(sectionOf(section)),

    async saveField(viewer, { section, field, value }) {
      const key = sectionOf(section);
      const shown = withContentDefaults(key, await data.content.find(key));
      await this.save(viewer, key, { ...shown, [field]: value });
    },

    // SPEC 7: the body is the whole section object; values are stored and shown as plain text.
    async save(viewer, section, body) {
      const staff = requireStaffArea(viewer, 'content');
      const key = sectionOf(section);
      const fields = parseContentSection(key, body);
      await data.transaction(async (tx) => {
        const before = await tx.content.find(key);
        await tx.content.save(key, fields, staff.email);
        await tx.audit.record({ actorEmail: staff.email, action: 'content.update', target: key, oldValue: before, newValue: fields });
      });
    },
  };
}
