import type { StaffService } from '../../common/admin.contract.ts';
import { requireStaff } from '../../common/viewer.ts';

export function createStaffService(deps: { storageName: string }): StaffService {
  return {
    // Who the current staff session belongs to, and where uploads go.
    session(viewer) {
      return { email: requireStaff(viewer).email, storage_name: deps.storageName };
    },
  };
}
