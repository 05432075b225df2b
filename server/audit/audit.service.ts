import type { AuditEntry, AuditService } from '../../common/admin.contract.ts';
import { requireStaff } from '../../common/viewer.ts';
import type { AuditRepository } from './audit.repository.ts';

const ACTIVITY_ROWS = 200;

type AuditRow = Awaited<ReturnType<AuditRepository['latest']>>[number];

/** An entry of the audit log as staff read it. */
export const auditEntryView = (row: AuditRow): AuditEntry => ({
  id: row.id,
  actor_email: row.actorEmail,
  action: row.action,
  target: row.target,
  old_value: row.oldValue,
  new_value: row.newValue,
  created_at: row.createdAt.toISOString(),
});

export function createAuditService(audit: AuditRepository): AuditService {
  return {
    async list(viewer) {
      requireStaff(viewer);
      return (await audit.latest(ACTIVITY_ROWS)).map(auditEntryView);
    },
  };
}
