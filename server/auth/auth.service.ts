import { eq, sql } from 'drizzle-orm';
import { EMAIL_TAKEN, INVALID_CREDENTIALS, type LoginInput, type RegisterInput } from '../../common/auth.ts';
import type { Database } from '../../db/client.ts';
import { members } from '../../db/schema.ts';
import { conflict, unauthorized } from '../http/errors.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../sessions/passwords.ts';

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } };
  return candidate?.code === UNIQUE_VIOLATION || candidate?.cause?.code === UNIQUE_VIOLATION;
}

export function createAuthService(db: Database) {
  return {
    /** Creates a free member; an email already taken (in any letter case) is a 409. */
    async register(input: RegisterInput): Promise<{ id: string }> {
      const passwordHash = await hashPassword(input.password);
      try {
        const [member] = await db
          .insert(members)
          .values({ name: input.name, email: input.email, passwordHash, membershipTier: 'free' })
          .returning({ id: members.id });
        return member;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
        throw error;
      }
    },

    /** The member for these credentials; the same answer and timing for an unknown email and a wrong password. */
    async authenticate(input: LoginInput): Promise<{ id: string }> {
      const [member] = await db
        .select({ id: members.id, passwordHash: members.passwordHash })
        .from(members)
        .where(eq(sql`lower(${members.email})`, input.email.toLowerCase()))
        .limit(1);
      const valid = member ? await verifyPassword(member.passwordHash, input.password) : await verifyAgainstDecoy(input.password);
      if (!member || !valid) throw unauthorized(INVALID_CREDENTIALS);
      return { id: member.id };
    },
  };
}
