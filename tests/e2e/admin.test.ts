import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { adminPage, baseUrl, collectAlerts, gotoHydrated, mailTo, openTab, useBrowser, usePutBack } from './browser.ts';

const browser = useBrowser();

const putBack = usePutBack();

describe('staff sign-in', () => {
  it('shows the login screen, refuses a wrong password inline, and guards the dashboard', async () => {
    const page = await browser.newPage();
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/admin/login');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
    await page.getByText('RealtyPocket Coaching Admin Panel').waitFor();
    await page.getByLabel('Email').fill(inject('adminEmail'));
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Login' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Invalid email or password');
    expect(page.url()).toMatch(/\/admin\/login$/);

    await page.getByLabel('Password').fill(inject('adminPassword'));
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    const admin = page;
    const tabs = admin.getByRole('navigation', { name: 'Admin sections' }).getByRole('link');
    expect(await tabs.allTextContents()).toEqual([
      'Podcasts',
      'File Upload',
      'Content',
      'Courses',
      'Resources',
      'Coaching',
      'Members',
      'Staff',
      'Community',
      'Messages',
      'Broadcasts',
      'Automations',
      'Offers',
      'Activity',
      'Insights',
      'Security',
    ]);
    // Podcasts is the dashboard's default tab.
    expect(new URL(admin.url()).pathname).toBe('/admin/dashboard');
    expect(await tabs.getByText('Podcasts').getAttribute('aria-current')).toBe('page');
    await admin.getByRole('heading', { name: 'Manage Podcast Episodes' }).waitFor();
    // The open tab is a link of its own and survives a reload.
    await openTab(admin, 'Messages', '/admin/dashboard/messages');
    await admin.reload();
    await admin.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await admin.getByRole('heading', { name: 'Messages', exact: true }).waitFor();
    expect(await tabs.getByText('Messages').getAttribute('aria-current')).toBe('page');
    await admin.getByRole('button', { name: 'Logout' }).click();
    await admin.waitForURL('**/admin/login');
    await admin.goto('/admin/dashboard');
    await admin.waitForURL('**/admin/login');
  });
});

describe('podcasts tab', () => {
  it('adds, edits and deletes episodes with Save All Changes, and the podcast page shows the result', async () => {
    const page = await adminPage(browser);
    const alerts = collectAlerts(page);
    const original = await (await page.request.get('/api/admin/podcast/list')).json();
    putBack(async () => {
      await page.request.post('/api/admin/podcast/update', { data: original });
    });
    await page.getByRole('heading', { name: 'Manage Podcast Episodes' }).waitFor();
    const items = page.locator('[data-episode-id]');
    expect(await items.count()).toBe(original.length);

    await items.nth(0).getByLabel('Title').fill('Negotiating in a Buyer’s Market');
    await items
      .nth(original.length - 1)
      .getByRole('button', { name: 'Delete' })
      .click();
    const form = page.locator('form', { hasText: 'Add New Episode' });
    await form.getByLabel('Title').fill('Brand New Episode');
    await form.getByLabel('Spotify Episode URL').fill('https://open.spotify.com/episode/1A2b3C4d5E6f7G8h9I0jKl');
    await form.getByLabel('Description').fill('Fresh from the studio.');
    await form.getByRole('button', { name: 'Add Episode' }).click();
    await page.getByRole('button', { name: 'Save All Changes' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-episode-id]').length > 0 && !document.body.textContent?.includes('Saving...'),
    );
    await expect.poll(() => alerts).toEqual(['Podcasts updated successfully!']);

    const saved = (await (await page.request.get('/api/admin/podcast/list')).json()) as {
      id: string;
      title: string;
      duration: string;
      audio_url: string;
      spotify_url: string;
    }[];
    expect(saved).toHaveLength(original.length);
    const added = saved.find((episode) => episode.title === 'Brand New Episode')!;
    expect(added).toMatchObject({ duration: '45:00', audio_url: added.spotify_url });
    expect(Number(added.id)).toBeGreaterThan(1_700_000_000_000);
    expect(saved.some((episode) => episode.title === 'Negotiating in a Buyer’s Market')).toBe(true);
    expect(saved.some((episode) => episode.id === original[original.length - 1].id)).toBe(false);

    const site = await browser.newPage();
    await gotoHydrated(site, '/podcast');
    await site.getByRole('heading', { name: 'Brand New Episode' }).waitFor();
    expect(await site.locator('iframe').first().getAttribute('src')).toBe('https://open.spotify.com/embed/episode/1A2b3C4d5E6f7G8h9I0jKl');
  });
});

describe('file upload tab', () => {
  it('uploads a members-only file into a folder, lists it, and its View link serves it to staff only', async () => {
    const page = await adminPage(browser);
    const alerts = collectAlerts(page);
    await openTab(page, 'File Upload', '/admin/dashboard/files');
    await page.getByRole('heading', { name: 'Upload Files to Local Storage' }).waitFor();
    const button = page.getByRole('button', { name: 'Upload File' });
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByLabel('Folder').inputValue()).toBe('course-materials');
    // Who may open a file follows its folder: members (Bronze and above) for templates, everyone for images.
    await page.getByLabel('Folder').selectOption('images');
    expect(await page.getByLabel('Who can open it').inputValue()).toBe('public');
    await page.getByLabel('Folder').selectOption('templates');
    expect(await page.getByLabel('Who can open it').inputValue()).toBe('bronze');
    await page
      .getByLabel('File')
      .setInputFiles({ name: 'Open House Sign-In.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Email,Phone\n') });
    await button.click();
    await expect.poll(() => alerts.length).toBe(1);
    expect(alerts[0]).toMatch(/^File uploaded successfully! URL: \/api\/files\/[0-9a-f-]{36}$/);
    const list = page.getByTestId('uploaded-files');
    await list.getByText('Open House Sign-In.csv').waitFor();
    expect(await button.isDisabled()).toBe(true);
    const item = list.locator('li', { hasText: 'Open House Sign-In.csv' });
    expect(await item.getByLabel('Who may open Open House Sign-In.csv').inputValue()).toBe('bronze');
    const link = item.getByRole('link', { name: 'View' });
    expect(await link.getAttribute('target')).toBe('_blank');
    const href = (await link.getAttribute('href'))!;
    // Staff open it; a visitor does not.
    const served = await page.request.get(href);
    expect(served.status()).toBe(200);
    expect(await served.text()).toBe('Name,Email,Phone\n');
    expect((await fetch(`${baseUrl()}${href}`)).status).toBe(401);
  });
});

describe('members and activity tabs', () => {
  it("changes a member's tier, which changes what the member may open, and the activity log shows it", async () => {
    const member = await browser.newPage();
    const email = `tier-${Date.now()}@example.com`;
    const registered = await member.request.post('/api/auth/register', { data: { name: 'Tier Member', email, password: 'secret12' } });
    expect(registered.status()).toBe(201);
    await gotoHydrated(member, '/courses/luxury-market');
    await member.getByRole('link', { name: 'Upgrade to Access' }).waitFor();

    const page = await adminPage(browser);
    await openTab(page, 'Members', '/admin/dashboard/members');
    await page.getByPlaceholder('Search by name or email').fill(email);
    const select = page.getByLabel(`Tier of ${email}`);
    await select.waitFor();
    await select.selectOption('gold');
    await expect
      .poll(async () => (await (await page.request.get(`/api/admin/members?search=${email}`)).json())[0].membership_tier)
      .toBe('gold');

    await gotoHydrated(member, '/courses/luxury-market');
    await member.getByRole('button', { name: 'Start Learning' }).waitFor();

    await openTab(page, 'Activity', '/admin/dashboard/activity');
    const entry = page.getByTestId('activity').locator('li', { hasText: `member.tier · ${email}` });
    await entry.waitFor();
    expect(await entry.textContent()).toContain(inject('adminEmail'));
    await entry.getByText('Old and new value').click();
    await entry.getByText('Old: free').waitFor();
    await entry.getByText('New: gold').waitFor();
  });
});

describe('staff accounts', () => {
  it('has the owner invite an editor by email; the editor chooses a password, authors, and cannot manage staff or members', async () => {
    const owner = await adminPage(browser);
    await openTab(owner, 'Staff', '/admin/dashboard/staff');
    const email = `editor-${Date.now()}@example.com`;
    await owner.getByLabel('Email', { exact: true }).fill(email);
    await owner.getByLabel('Role', { exact: true }).selectOption('editor');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(`Invitation sent to ${email}.`).waitFor();
    await owner.locator(`li[data-staff-email="${email}"]`).waitFor();

    await expect.poll(async () => (await mailTo(email)).length).toBe(1);
    const [mail] = await mailTo(email);
    expect(mail!.subject).toBe('You are invited to the RealtyPocket admin');
    const link = new URL(/https?:\/\/\S+\/admin\/reset-password\?token=[\w-]+/.exec(mail!.text!)![0]);

    const editor = await browser.newPage();
    await gotoHydrated(editor, `${link.pathname}${link.search}`);
    await editor.getByLabel('New password').fill('editor-password-1');
    await editor.getByRole('button', { name: 'Set new password' }).click();
    await editor.getByText('Your password was changed. Sign in with your new password.').waitFor();
    await gotoHydrated(editor, '/admin/login');
    await editor.getByLabel('Email').fill(email);
    await editor.getByLabel('Password').fill('editor-password-1');
    await editor.getByRole('button', { name: 'Login' }).click();
    await editor.waitForURL((url) => url.pathname === '/admin/dashboard');

    const nav = editor.getByRole('navigation', { name: 'Admin sections' });
    await nav.getByRole('link', { name: 'Courses' }).waitFor();
    const tabs = await nav.getByRole('link').allTextContents();
    expect(tabs).toContain('Courses');
    expect(tabs).not.toContain('Staff');
    expect(tabs).not.toContain('Members');
    expect(tabs).not.toContain('Offers');
    await openTab(editor, 'Courses', '/admin/dashboard/courses');
    await editor.getByRole('heading', { name: 'New course' }).waitFor();
    await gotoHydrated(editor, '/admin/dashboard/staff');
    await editor.getByText(/Only an owner can do this/).waitFor();
    expect((await editor.request.get('/api/admin/staff')).status()).toBe(403);
    expect((await editor.request.get('/api/admin/members')).status()).toBe(403);

    // The owner removes the editor: signed out at once.
    owner.once('dialog', (dialog) => void dialog.accept());
    await gotoHydrated(owner, '/admin/dashboard/staff');
    await owner.getByRole('button', { name: `Remove ${email}` }).click();
    await owner.locator(`li[data-staff-email="${email}"]`).waitFor({ state: 'detached' });
    expect((await editor.request.get('/api/admin/session')).status()).toBe(401);
  });
});
