import { z } from 'zod';

/** Staff roles: an owner runs the business (staff, members' tiers, billing); an editor authors content. */
export const STAFF_ROLES = ['owner', 'editor'] as const;
export const StaffRole = z.enum(STAFF_ROLES, { error: 'Role must be owner or editor' });
export type StaffRole = z.infer<typeof StaffRole>;
