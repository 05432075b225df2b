/** Dates as the site shows them: 'Oct 13, 2025', the same on the server and in every browser. */
export function formatDate(iso: string | Date, month: 'short' | 'long' = 'short'): string {
  return new Date(iso).toLocaleDateString('en-US', { month, day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/** Date and time for staff lists: 'Oct 13, 2025, 4:05 PM UTC'. */
export function formatDateTime(iso: string | Date): string {
  return `${new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })} UTC`;
}

/** An amount in the smallest unit of its currency, as '$79.00'. */
export function formatMoney(cents: number, currency = 'usd'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
