// Dates and amounts as the site shows them, the same on the server and in every browser. Each
// formatter is made once, when first used: making one costs far more than using it, and a page that
// only imports this module (a phone coming alive) does not pay for formatters it never uses.

const made: Record<string, Intl.DateTimeFormat> = {};
const dateFormat = (key: string, options: Intl.DateTimeFormatOptions) =>
  (made[key] ??= new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }));
const MONEY = new Map<string, Intl.NumberFormat>();

/** 'Oct 13, 2025', or 'October 13, 2025' with `long`. */
export function formatDate(iso: string | Date, month: 'short' | 'long' = 'short'): string {
  return dateFormat(month, { month, day: 'numeric', year: 'numeric' }).format(new Date(iso));
}

/** Date and time for staff lists: 'Oct 13, 2025, 4:05 PM UTC'. */
export function formatDateTime(iso: string | Date): string {
  return `${dateFormat('date-time', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(iso))} UTC`;
}

/** An amount in the smallest unit of its currency, as '$79.00'. */
export function formatMoney(cents: number, currency = 'usd'): string {
  const code = currency.toUpperCase();
  let format = MONEY.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    MONEY.set(code, format);
  }
  return format.format(cents / 100);
}
