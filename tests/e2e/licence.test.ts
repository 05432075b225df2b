import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addDays, localDateOf } from '../../common/time-zones.ts';
import { PDF_BYTES } from '../helpers/multipart.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { gotoHydrated, pageProblems, signInAsStaff, signInAtTier, toast, useBrowser } from './browser.ts';

// The CE ledger on a phone: a member records their Texas licence, sees the hours the state asks for,
// adds a course taken elsewhere with its certificate, and downloads the transcript for the commission.

const browser = useBrowser();

describe('the licence ledger', () => {
  it('records a licence, takes outside CE with its certificate and downloads the transcript, on a 360 px phone', async () => {
    // What Texas asks of a salesperson, as staff keep it.
    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const kept = await staff.request.put('/api/admin/ce-requirements/TX/salesperson', {
      data: {
        hours_per_cycle: 18,
        cycle_months: 24,
        topics: [
          { topic: 'legal_update', min_hours: 8 },
          { topic: 'contracts', min_hours: 3 },
        ],
        note: 'Legal Update I and II (4 hours each) and 3 hours of contracts; the rest elective.',
        commission_address: 'Texas Real Estate Commission, 1700 N. Congress Ave., Austin, TX 78701',
        check_with_commission: true,
      },
    });
    expect(kept.status(), await kept.text()).toBe(200);
    await staff.close();

    const { page: phone } = await signInAtTier(browser, 'free', 'Lena Licensee', { mobile: true });
    await gotoHydrated(phone, '/dashboard');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.getByRole('link', { name: 'Licence', exact: true }).click();
    await phone.getByRole('heading', { name: 'My Licence', level: 1 }).waitFor();
    await phone.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');

    const today = localDateOf(new Date(), 'UTC');
    const addLicence = phone.getByRole('region', { name: 'Add a licence' });
    await addLicence.getByLabel('State').selectOption('TX');
    await addLicence.getByLabel('Licence number (only you see it)').fill('SP-0601');
    await addLicence.getByLabel('Renews on').fill(addDays(today, 300));
    await addLicence.getByRole('button', { name: 'Add licence' }).click();
    await toast(phone, 'Your Texas licence is recorded.');
    const licence = phone.getByRole('listitem').filter({ has: phone.getByRole('heading', { name: 'Texas salesperson licence' }) });
    await licence.getByText('18 hours to go').waitFor();
    await licence.getByText('We are confirming this requirement with the commission: check it there too.').waitFor();

    // A contracts course taken elsewhere, with its certificate.
    await licence.getByText('Add CE taken elsewhere').click();
    await licence.getByLabel('Provider').fill('Lone Star Real Estate School');
    await licence.getByLabel('Course name').fill('Contracts in practice');
    await licence.getByLabel('Hours').fill('3');
    await licence.getByLabel('Topic').selectOption('contracts');
    await licence.getByLabel(/^Certificate/).setInputFiles({ name: 'contracts.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES });
    await licence.getByRole('button', { name: 'Add to my ledger' }).click();
    await toast(phone, '3 hours of Contracts added to your ledger.');
    await licence.getByText('15 hours to go').waitFor();
    await licence.getByRole('row', { name: /Contracts \(at least 3\) 3 Done/ }).waitFor();
    await licence.getByRole('link', { name: 'Certificate: contracts.pdf' }).waitFor();

    // For the commission: the cycle's transcript.
    const [download] = await Promise.all([
      phone.waitForEvent('download'),
      licence.getByRole('link', { name: 'Download for the commission (PDF)' }).click(),
    ]);
    const pdf = fs.readFileSync((await download.path())!);
    const text = pdfText(pdf);
    expect(text).toContain('Licence: Texas, Salesperson, number SP-0601');
    expect(text).toContain('Contracts in practice');
    expect(text).toContain('Hours completed: 3; still missing: 15');

    // The dashboard shows it too.
    await gotoHydrated(phone, '/dashboard');
    await phone.getByTestId('licence-card').getByText('15 CE hours to go').waitFor();
    expect(pageProblems(phone)).toEqual([]);
  });
});
