import { z } from 'zod';
import type { AuditEntry, AuditService } from '../../common/admin.contract.ts';
import { PAGE_SIZE } from '../../common/limits.ts';
import { auditScopeOf, CONTENT_AUDIT_ACTIONS } from '../../common/policies.ts';
import { decodeCursor, pageOf } from '../lists/keyset.ts';
import type { AuditRepository } from './audit.repository.ts';

/** A page of the activity log starts before this entry. */
export const AuditCursor = z.tuple([z.number().int().positive()]);

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
    async list(viewer, query = {}) {
      const scope = auditScopeOf(viewer);
      const before = query.before ? decodeCursor(query.before, AuditCursor)[0] : undefined;
      const rows = await audit.latest(PAGE_SIZE.staffList + 1, before, scope === 'content' ? CONTENT_AUDIT_ACTIONS : undefined);
      return pageOf(rows, PAGE_SIZE.staffList, (row) => [row.id], auditEntryView);
    },
  };
}
