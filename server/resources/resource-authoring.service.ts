import { badRequest, notFound } from '../../common/errors.ts';
import { requireStaffArea } from '../../common/policies.ts';
import type { ResourceAuthoringService, ResourceInput, StaffResource } from '../../common/resources.contract.ts';
import { slugOf } from '../../common/slug.ts';
import type { DataAccess } from '../repositories.ts';
import { publicShape, type ResourceRow } from './resources.service.ts';

// Staff's side of the resources library: what they author, and the files behind the downloads.

const RESOURCE_NOT_FOUND = 'Resource not found';

export function createResourceAuthoringService(data: DataAccess): ResourceAuthoringService {
  const staffShape = (row: ResourceRow, fileName: string | null): StaffResource => ({
    ...publicShape(row, true),
    file_id: row.fileId,
    file_name: fileName,
    link: row.downloadUrl ?? '',
  });

  async function staffResource(id: string): Promise<StaffResource> {
    const found = (await data.resources.listWithFiles()).find((each) => each.resource.id === id);
    if (!found) throw notFound(RESOURCE_NOT_FOUND);
    return staffShape(found.resource, found.fileName);
  }

  /** The file must be in the library; it is served only through the resource's tier check. */
  async function checkFile(input: ResourceInput) {
    if (input.file_id && !(await data.files.findById(input.file_id))) throw badRequest('The file is not in the file library.', 'file_id');
  }

  const columns = (input: ResourceInput) => ({
    title: input.title,
    description: input.description,
    resourceType: input.resource_type,
    tierRequired: input.tier_required,
    fileId: input.file_id,
    downloadUrl: input.download_url || null,
  });

  return {
    async staffList(viewer) {
      requireStaffArea(viewer, 'content');
      return (await data.resources.listWithFiles()).map(({ resource, fileName }) => staffShape(resource, fileName));
    },

    async create(viewer, input) {
      const staff = requireStaffArea(viewer, 'content');
      await checkFile(input);
      const id = await data.transaction(async (tx) => {
        const base = slugOf(input.title, 'resource');
        let candidate = base;
        for (let attempt = 2; await tx.resources.findById(candidate); attempt++) candidate = `${base}-${attempt}`;
        await tx.resources.insert({ id: candidate, ...columns(input), position: 1000 });
        await tx.audit.record({ actorEmail: staff.email, action: 'resource.create', target: candidate, oldValue: null, newValue: input });
        return candidate;
      });
      return staffResource(id);
    },

    async update(viewer, resourceId, input) {
      const staff = requireStaffArea(viewer, 'content');
      const before = await data.resources.findById(resourceId);
      if (!before) throw notFound(RESOURCE_NOT_FOUND);
      await checkFile(input);
      await data.transaction(async (tx) => {
        await tx.resources.update(resourceId, columns(input));
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'resource.update',
          target: resourceId,
          oldValue: publicShape(before, true),
          newValue: input,
        });
      });
      return staffResource(resourceId);
    },

    // The file stays in the library: it may serve elsewhere, and staff delete files there.
    async remove(viewer, resourceId) {
      const staff = requireStaffArea(viewer, 'content');
      const before = await data.resources.findById(resourceId);
      if (!before) throw notFound(RESOURCE_NOT_FOUND);
      await data.transaction(async (tx) => {
        await tx.resources.remove(resourceId);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'resource.delete',
          target: resourceId,
          oldValue: publicShape(before, true),
          newValue: null,
        });
      });
    },
  };
}
