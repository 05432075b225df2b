import { z } from 'zod';
import { isContentSectionKey, withContentDefaults } from '../../../common/content-sections.ts';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { staffPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/edit-content';

const InPlaceEdit = z.object({ section: z.string().max(64), field: z.string().max(64), value: z.string() });

/**
 * SPEC 4 / 7: an in-place edit saves the current section with the one changed field replaced.
 * The whole section goes through the same checks as the Content tab's save.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = parseForm(InPlaceEdit, await request.formData());
  if (!form.ok) return invalid(form);
  const { section, field, value } = form.data;
  const saved = await attempt(async () => {
    const current = await services.content.get(section);
    // What the page showed: the stored texts, with defaults where none is stored yet.
    const shown = isContentSectionKey(section) ? withContentDefaults(section, current) : current;
    await services.content.save(viewer, section, { ...shown, [field]: value });
  });
  if (!saved.ok) return saved.refusal;
  return { ok: true as const };
}
