import { InPlaceEditInput } from '../../../common/content.contract.ts';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { staffPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/edit-content';

/** SPEC 4 / 7: an in-place edit saves the current section with the one changed field replaced. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await parseForm(InPlaceEditInput, request);
  if (!form.ok) return invalid(form);
  const saved = await attempt(() => services.content.saveField(viewer, form.data));
  if (!saved.ok) return saved.refusal;
  return { ok: true as const };
}
