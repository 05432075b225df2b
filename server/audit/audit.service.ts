import type { AuditService } from '../../common/admin.contract.ts';
import { requireStaff } from '../../common/viewer.ts';
import type { AuditRepository } from './audit.repository.ts';

const ACTIVITY_ROWS = 200;

export function createAuditService(audit: AuditRepository): AuditService {
  return {
    async list(viewer) {
      requireStaff(viewer);
      const rows = await audit.latest(ACTIVITY_ROWS);
      return rows.map((row) => ({
        id: row.id,
        actor_email: row.actorEmail,
        action: row.action,
        target: row.target,
        old_value: row.oldValue,
        new_value: row.newValue,
        created_at: row.createdAt.toISOString(),
      }));
    },
  };
}
