// Dates and amounts as the site shows them, the same on the server and in every browser. The
// formatters are made once: building one costs far more than using it.

const DATE = {
  short: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
  long: new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
};
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
});
const MONEY = new Map<string, Intl.NumberFormat>();

/** 'Oct 13, 2025', or 'October 13, 2025' with `long`. */
export function formatDate(iso: string | Date, month: 'short' | 'long' = 'short'): string {
  return DATE[month].format(new Date(iso));
}

/** Date and time for staff lists: 'Oct 13, 2025, 4:05 PM UTC'. */
export function formatDateTime(iso: string | Date): string {
  return `${DATE_TIME.format(new Date(iso))} UTC`;
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
