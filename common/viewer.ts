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
  /** Where the member is (an IANA zone), once known: times are shown in it. */
  timeZone: string | null;
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

/** What the browser may know of the viewer: no ids, no session. */
export interface PublicViewer {
  member: { name: string; email: string; membership_tier: Tier; time_zone: string | null } | null;
  staff: { email: string; role: StaffRole } | null;
}

export function publicViewer(viewer: Viewer): PublicViewer {
  return {
    member: viewer.member
      ? {
          name: viewer.member.name,
          email: viewer.member.email,
          membership_tier: viewer.member.membershipTier,
          time_zone: viewer.member.timeZone,
        }
      : null,
    staff: viewer.staff ? { email: viewer.staff.email, role: viewer.staff.role } : null,
  };
}
