/**
 * The team invitation page a visitor was on before signing in or up (?join=/team/join?token=...):
 * they go back to it afterwards to take their seat. Only that page, so the parameter can lead nowhere else.
 */
export function teamJoinPageOf(request: Request): string | null {
  const join = new URL(request.url).searchParams.get('join');
  return join && /^\/team\/join\?token=[A-Za-z0-9_-]{20,200}$/.test(join) ? join : null;
}
