import { createContext } from 'react-router';
import type { Tier } from '../../common/tiers.ts';

// Shared by the server (which fills it per request) and route loaders (which read it). Imported
// through the package import '#request-context' so both sides hold the same context token.

export interface ViewerMember {
  name: string;
  email: string;
  membership_tier: Tier;
}

export interface Viewer {
  member: ViewerMember | null;
  staff: { email: string } | null;
}

export interface ApiResponse<T> {
  status: number;
  ok: boolean;
  data: T;
}

export interface RequestServices {
  viewer: Viewer;
  /** Calls this server's own JSON API with the visitor's credentials, without a network hop. */
  api<T>(path: string): Promise<ApiResponse<T>>;
}

export const requestServicesContext = createContext<RequestServices>();
