import { EMAIL_TAKEN } from '../../common/auth.contract.ts';
import { conflict } from '../../common/errors.ts';
import { TAKEN_ADDRESS_LIMIT } from '../../common/limits.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';

/**
 * 'This address is taken' (at sign-up, or changing one's email) tells who is a member, so a client
 * address hears it a few times a quarter hour, then gets 429: a script cannot read the member list.
 */
export async function refuseTakenAddress(limiter: AttemptLimiter, viewer: Viewer): Promise<never> {
  await limiter.check('taken-address:address', viewer.client.address, TAKEN_ADDRESS_LIMIT);
  throw conflict(EMAIL_TAKEN);
}
