import { forbidden, unauthorized } from './errors.ts';
import type { StaffRole } from './staff-roles.ts';
import type { Tier } from './tiers.ts';

// Who is asking: resolved once per request from the Bearer token or the session cookies, then
// passed to every service, which decides what this viewer may see and do.

export interface MemberIdentity {
  id: string;
  name: string;
  email: string;
  membershipTier: Tier;
  createdAt: Date;
  emailVerifiedAt: Date | null;
  /** Set while staff have suspended the member from posting in the community. */
  communitySuspendedAt: Date | null;
}

export interface StaffIdentity {
  id: string;
  email: string;
  role: StaffRole;
  /** The staff member signs in with a code from an authenticator app too. */
  twoFactorEnabled: boolean;
  /** Owners require every staff member to: until they set it up, they may only do that. */
  twoFactorRequired: boolean;
}

export type SignedInMember = MemberIdentity & { sessionId: string };
export type SignedInStaff = StaffIdentity & { sessionId: string };

interface ClientInfo {
  /** The client's address (the socket's, or the proxy's report when TRUST_PROXY is set). */
  address: string;
  userAgent: string | undefined;
}

export interface Viewer {
  member: SignedInMember | null;
  staff: SignedInStaff | null;
  client: ClientInfo;
}

/** The signed-in member, or a 401; a staff session is not a member session. */
export function requireMember(viewer: Viewer): SignedInMember {
  if (!viewer.member) throw unauthorized();
  return viewer.member;
}

export const TWO_FACTOR_SETUP_FIRST = 'Owners require two-factor sign-in for staff: set it up under Security first.';

/** The signed-in staff account, whatever it may do yet; 401 without a session, 403 for a member's session. */
export function requireStaffSignIn(viewer: Viewer): SignedInStaff {
  if (viewer.staff) return viewer.staff;
  if (viewer.member) throw forbidden('This needs an administrator account.');
  throw unauthorized('Please sign in as an administrator.');
}

/** The signed-in staff account, ready to work: with two-factor sign-in set up where owners require it. */
export function requireStaff(viewer: Viewer): SignedInStaff {
  const staff = requireStaffSignIn(viewer);
  if (staff.twoFactorRequired && !staff.twoFactorEnabled) throw forbidden(TWO_FACTOR_SETUP_FIRST);
  return staff;
}

export const OWNER_ONLY = 'Only an owner can do this: editors author content, owners manage staff, members and billing.';

/** A staff member with the owner role: staff, members' tiers and billing are theirs alone. */
export function requireOwner(viewer: Viewer): SignedInStaff {
  const staff = requireStaff(viewer);
  if (staff.role !== 'owner') throw forbidden(OWNER_ONLY);
  return staff;
}

/** What the browser may know of the viewer: no ids, no session. */
export interface PublicViewer {
  member: { name: string; email: string; membership_tier: Tier } | null;
  staff: { email: string } | null;
}

export function publicViewer(viewer: Viewer): PublicViewer {
  return {
    member: viewer.member ? { name: viewer.member.name, email: viewer.member.email, membership_tier: viewer.member.membershipTier } : null,
    staff: viewer.staff ? { email: viewer.staff.email } : null,
  };
}
