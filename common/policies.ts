import { forbidden } from './errors.ts';
import { OWNER_ONLY, requireStaff, type SignedInStaff, type Viewer } from './viewer.ts';

// Who may see, open or do what: every such rule of the product is a named function here, called by
// services, routes and pages alike, on every read (a changed role or tier counts at once).

/** The parts of the admin area, each for the roles whose work it is. */
export type StaffArea = 'content' | 'community' | 'messages' | 'activity' | 'members' | 'billing' | 'staff';

// Editors author content and moderate; members, billing and staff are the owners' alone.
const EDITOR_AREAS: ReadonlySet<StaffArea> = new Set(['content', 'community', 'messages', 'activity']);

/** Whether the viewer is staff whose role includes this area. */
export function mayEnterStaffArea(viewer: Viewer, area: StaffArea): boolean {
  return viewer.staff !== null && (viewer.staff.role === 'owner' || EDITOR_AREAS.has(area));
}

/** The staff account, if its role includes this area: 401 without a staff session, 403 otherwise. */
export function requireStaffArea(viewer: Viewer, area: StaffArea): SignedInStaff {
  const staff = requireStaff(viewer);
  if (!mayEnterStaffArea(viewer, area)) throw forbidden(OWNER_ONLY);
  return staff;
}

/** Audit entries about content (what editors change): courses, lessons, files, the podcast, resources, texts. */
export const CONTENT_AUDIT_ACTIONS = ['content', 'course', 'lesson', 'file', 'podcast', 'resource'] as const;

/**
 * Which entries of the audit log this staff member reads: owners every one; editors only the
 * content changes (no member's email, no billing, no staff change).
 */
export function auditScopeOf(viewer: Viewer): 'everything' | 'content' {
  return requireStaffArea(viewer, 'activity').role === 'owner' ? 'everything' : 'content';
}
