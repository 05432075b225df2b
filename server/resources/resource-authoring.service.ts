import { z } from 'zod';
import { badRequest, notFound } from '../../common/errors.ts';
import { PAGE_SIZE } from '../../common/limits.ts';
import { requireStaffArea } from '../../common/policies.ts';
import type { ResourceAuthoringService, ResourceInput, StaffResource } from '../../common/resources.contract.ts';
import { slugOf } from '../../common/slug.ts';
import { decodeCursor, INVALID_CURSOR, pageOf } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';
import type { ResourceListKey } from './resources.repository.ts';
import { publicShape, type ResourceRecord } from './resources.service.ts';

// Staff's side of the resources library: what they author, and the files behind the downloads.

const RESOURCE_NOT_FOUND = 'Resource not found';

/** The staff's list of resources goes on after a resource: its position and id (its title is read back). */
const ResourceListCursor = z.tuple([z.number().int().min(-2_147_483_648).max(2_147_483_647), z.string().min(1).max(100)]);

export function createResourceAuthoringService(data: DataAccess): ResourceAuthoringService {
  const staffShape = (row: ResourceRecord, fileName: string | null): StaffResource => ({
    ...publicShape(row, true),
    file_id: row.fileId,
    file_name: fileName,
    link: row.downloadUrl ?? '',
  });

  async function staffResource(id: string): Promise<StaffResource> {
    const found = await data.resources.findWithFile(id);
    if (!found) throw notFound(RESOURCE_NOT_FOUND);
    return staffShape(found.resource, found.fileName);
  }

  /**
   * Where the page a link names starts: the resource it names, read back for its title (a title is
   * too long for a page link). A resource that is gone or moved makes the link out of date.
   */
  async function listKeyOf(cursor: string): Promise<ResourceListKey> {
    const [position, id] = decodeCursor(cursor, ResourceListCursor);
    const key = await data.resources.staffListKey(id);
    if (!key || key.position !== position) throw badRequest(INVALID_CURSOR);
    return key;
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
    async staffList(viewer, query = {}) {
      requireStaffArea(viewer, 'content');
      const rows = await data.resources.staffPage(PAGE_SIZE.staffList + 1, query.before ? await listKeyOf(query.before) : undefined);
      return pageOf(
        rows,
        PAGE_SIZE.staffList,
        ({ resource }) => [resource.position, resource.id],
        ({ resource, fileName }) => staffShape(resource, fileName),
      );
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
