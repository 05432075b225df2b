import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sectionNotFound } from '../../common/content.contract.ts';
import { CONTENT_DEFAULTS } from '../../common/content-sections.ts';
import { contentSections } from '../../db/schema.ts';
import { lastAuditEntry, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// The site's editable texts: anyone reads a section; staff replace it whole, or one field in place.

const t = serviceTestApp();

const content = () => t.app.services.content;
const CONTACT = { phone: '(737) 555-0199', email: 'hello@example.com', address: '1 Main St', hours: 'Always' };

describe('reading a section', () => {
  it('answers a never-saved section with no fields, and an unknown one with a 404 that names it', async () => {
    expect(await content().get('footer_text')).toEqual({});
    // get checks the name before it makes a promise: its refusal is thrown, not rejected.
    expect(await refusal(() => content().get('not_a_section'))).toEqual({
      status: 404,
      message: sectionNotFound('not_a_section'),
    });
  });
});

describe('saving a section', () => {
  it('refuses visitors (401) and members of any tier (403), storing nothing', async () => {
    expect((await refusal(content().save(t.asVisitor(), 'contact_info', CONTACT))).status).toBe(401);
    for (const tier of ['free', 'gold'] as const) {
      expect((await refusal(content().save(await t.asMember(tier), 'contact_info', CONTACT))).status).toBe(403);
    }
    expect(await content().get('contact_info')).toEqual({});
  });

  it('lets an editor replace the whole section, kept as plain text, and records before and after with who saved it', async () => {
    const editor = await t.asStaff('editor');
    await content().save(editor, 'contact_info', CONTACT);
    const changed = { ...CONTACT, hours: '<b>Weekdays</b>' };
    await content().save(editor, 'contact_info', changed);

    expect(await content().get('contact_info')).toEqual(changed);
    const [row] = await t.db.select().from(contentSections).where(eq(contentSections.key, 'contact_info'));
    expect(row?.updatedBy).toBe(editor.staff.email);
    expect(await lastAuditEntry(t, { target: 'contact_info' })).toMatchObject({
      actorEmail: editor.staff.email,
      action: 'content.update',
      oldValue: CONTACT,
      newValue: changed,
    });
  });

  it.each([
    [
      'a field the section does not have',
      { ...CONTACT, fax: '555' },
      '"fax" is not a field of contact_info. Its fields are: phone, email, address, hours.',
    ],
    ['a value that is not text', { ...CONTACT, phone: 5550199 }, 'The value of "phone" must be text.'],
    ['a value over 5000 characters', { ...CONTACT, hours: 'x'.repeat(5001) }, 'The value of "hours" must be at most 5000 characters.'],
    [
      'part of the section',
      { phone: '555' },
      'The section contact_info is missing "email", "address", "hours". Send every field of the section: phone, email, address, hours.',
    ],
    ['something that is not an object', ['555'], 'Send the section as an object of field names and texts.'],
  ])('refuses %s with a 400 that says what is wrong, keeping what was stored', async (_, body, message) => {
    const owner = await t.asStaff('owner');
    const before = await content().get('contact_info');
    expect(await refusal(content().save(owner, 'contact_info', body))).toEqual({ status: 400, message });
    expect(await content().get('contact_info')).toEqual(before);
  });

  it('answers 404 for a section that does not exist', async () => {
    const owner = await t.asStaff('owner');
    expect(await refusal(content().save(owner, 'not_a_section', {}))).toEqual({ status: 404, message: sectionNotFound('not_a_section') });
  });
});

describe('editing one field in place', () => {
  it('saves the section as the page showed it, defaults included, with only that field replaced', async () => {
    const editor = await t.asStaff('editor');
    await content().saveField(editor, { section: 'homepage_hero', field: 'headline', value: 'Close more deals' });
    const saved = { ...CONTENT_DEFAULTS.homepage_hero, headline: 'Close more deals' };
    expect(await content().get('homepage_hero')).toEqual(saved);
    expect(await lastAuditEntry(t, { target: 'homepage_hero' })).toMatchObject({ action: 'content.update', oldValue: {}, newValue: saved });
  });

  it('refuses a member (403), a field the section lacks (400) and an unknown section (404)', async () => {
    const owner = await t.asStaff('owner');
    const member = await t.asMember('gold');
    expect((await refusal(content().saveField(member, { section: 'footer_text', field: 'tagline', value: 'Mine now' }))).status).toBe(403);
    expect(await content().get('footer_text')).toEqual({});
    expect((await refusal(content().saveField(owner, { section: 'footer_text', field: 'slogan', value: 'Hi' }))).status).toBe(400);
    expect(await refusal(content().saveField(owner, { section: 'nope', field: 'tagline', value: 'Hi' }))).toEqual({
      status: 404,
      message: sectionNotFound('nope'),
    });
  });
});
