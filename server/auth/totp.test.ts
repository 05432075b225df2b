import { describe, expect, it } from 'vitest';
import { matchingTotpStep, newTotpSecret, totpCode, totpUri } from './totp.ts';

// RFC 6238 appendix B, SHA-1: the secret "12345678901234567890" in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('makes the codes of RFC 6238 (the last six digits of its eight)', () => {
    expect(totpCode(RFC_SECRET, Math.floor(59 / 30))).toBe('287082');
    expect(totpCode(RFC_SECRET, Math.floor(1111111109 / 30))).toBe('081804');
    expect(totpCode(RFC_SECRET, Math.floor(1234567890 / 30))).toBe('005924');
    expect(totpCode(RFC_SECRET, Math.floor(2000000000 / 30))).toBe('279037');
  });

  it('takes the code of this step or a neighbouring one, and nothing else', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const at = 1_800_000_000_000;
    const step = Math.floor(at / 30_000);
    expect(matchingTotpStep(secret, totpCode(secret, step), at)).toBe(step);
    expect(matchingTotpStep(secret, totpCode(secret, step - 1), at)).toBe(step - 1);
    expect(matchingTotpStep(secret, totpCode(secret, step - 2), at)).toBeNull();
    expect(matchingTotpStep(secret, '12345', at)).toBeNull();
    expect(matchingTotpStep(secret, 'abcdef', at)).toBeNull();
  });

  it('writes the address authenticator apps read', () => {
    expect(totpUri('RealtyPocket', 'owner@example.com', RFC_SECRET)).toBe(
      `otpauth://totp/RealtyPocket%3Aowner%40example.com?secret=${RFC_SECRET}&issuer=RealtyPocket&algorithm=SHA1&digits=6&period=30`,
    );
  });
});
