import { eq, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { siteSettings } from '../../db/schema.ts';

/** The setting owners turn on to require two-factor sign-in of every staff member. */
export const STAFF_TWO_FACTOR_SETTING = 'staff_two_factor_required';

export function createSiteSettingsRepository(db: DatabaseOrTransaction) {
  async function flag(key: string): Promise<boolean> {
    const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, key));
    return row?.value === true;
  }

  async function setFlag(key: string, value: boolean, by: string): Promise<void> {
    await db
      .insert(siteSettings)
      .values({ key, value, updatedBy: by })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedBy: by, updatedAt: sql`now()` } });
  }

  return {
    staffTwoFactorRequired: () => flag(STAFF_TWO_FACTOR_SETTING),
    /** `by`: the owner who changed it. */
    setStaffTwoFactorRequired: (value: boolean, by: string) => setFlag(STAFF_TWO_FACTOR_SETTING, value, by),
  };
}
