import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's recommended minimums (19 MiB, 2 passes, 1 lane).
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// A fixed hash to verify against when no account matches, so a missing account takes as long as a
// wrong password and sign-in timing does not reveal which emails exist.
let decoyHash: Promise<string> | undefined;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy-password-for-timing');
  await verifyPassword(await decoyHash, password);
  return false;
}
