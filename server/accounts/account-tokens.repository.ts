import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { accountTokens, ACCOUNT_TOKEN_PURPOSES } from '../../db/schema.ts';

export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];
export type TokenOwner = { memberId: string } | { staffId: string };

export function createAccountTokensRepository(db: DatabaseOrTransaction) {
  return {
    async create(values: { purpose: AccountTokenPurpose; owner: TokenOwner; tokenHash: string; expiresAt: Date; newEmail?: string }) {
      await db.insert(accountTokens).values({
        purpose: values.purpose,
        memberId: 'memberId' in values.owner ? values.owner.memberId : null,
        staffId: 'staffId' in values.owner ? values.owner.staffId : null,
        tokenHash: values.tokenHash,
        expiresAt: values.expiresAt,
        newEmail: values.newEmail ?? null,
      });
    },

    /** The token if it could be used now (exists for this purpose, unused, not expired), without using it. */
    async findUsable(purpose: AccountTokenPurpose, tokenHash: string) {
      const [row] = await db
        .select()
        .from(accountTokens)
        .where(
          and(
            eq(accountTokens.tokenHash, tokenHash),
            eq(accountTokens.purpose, purpose),
            isNull(accountTokens.usedAt),
            gt(accountTokens.expiresAt, new Date()),
          ),
        );
      return row ?? null;
    },

    /**
     * Uses a token: marks it used and returns it, only if it exists for this purpose, is unused and
     * has not expired. One statement, so a token can be used once even by two requests at once.
     */
    async consume(purpose: AccountTokenPurpose, tokenHash: string) {
      const [row] = await db
        .update(accountTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(accountTokens.tokenHash, tokenHash),
            eq(accountTokens.purpose, purpose),
            isNull(accountTokens.usedAt),
            gt(accountTokens.expiresAt, new Date()),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Ends the unused tokens of one purpose for an owner (a newer link replaces older ones). */
    async revokeUnused(purpose: AccountTokenPurpose, owner: TokenOwner): Promise<void> {
      const ownerMatch = 'memberId' in owner ? eq(accountTokens.memberId, owner.memberId) : eq(accountTokens.staffId, owner.staffId);
      await db
        .update(accountTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(accountTokens.purpose, purpose), ownerMatch, isNull(accountTokens.usedAt)));
    },
  };
}
