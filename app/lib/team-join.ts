/**
 * The team page a visitor was on before signing in or up (?join=): an invitation
 * (/team/join?token=...) or an owner's offer to their brokerage (/team/new?quote=...). They go back
 * to it afterwards. Only those pages, so the parameter can lead nowhere else.
 */
export function teamJoinPageOf(request: Request): string | null {
  const join = new URL(request.url).searchParams.get('join');
  return join && /^\/team\/(join\?token=[A-Za-z0-9_-]{20,200}|new\?quote=[0-9a-f-]{36})$/.test(join) ? join : null;
}
