import { describe, expect, it } from 'vitest';
import { forEachName, mailTemplates } from './templates.ts';

const notification = (name: string) =>
  mailTemplates.notification({
    name,
    headline: 'Dana also replied in “Offers & counters”',
    body: 'Send the <b>numbers</b> first.',
    url: 'https://site.test/community/1?from=mail&x=1',
    settingsUrl: 'https://site.test/notifications/settings',
    unsubscribeUrl: 'https://site.test/unsubscribe?token=minted-when-sent',
  });

describe('one message for many recipients', () => {
  it('is the same, part for part, as the message rendered for each name on its own', async () => {
    const each = await forEachName(notification);
    for (const name of ['Pat Plain', `Quinn "Q" O'Hara & <Co>`, 'Zoë Ñúñez']) {
      expect(await each(name)).toEqual(await notification(name));
    }
  });

  it('renders each copy on its own when the template changes the name (its stand-in would not come out whole)', async () => {
    let renders = 0;
    const shouting = async (name: string) => {
      renders += 1;
      return { subject: 'Hello', html: `<p>Hi ${name.toUpperCase()}</p>`, text: `Hi ${name.toUpperCase()}` };
    };
    const each = await forEachName(shouting);
    expect(await each('Pat')).toEqual({ subject: 'Hello', html: '<p>Hi PAT</p>', text: 'Hi PAT' });
    expect(await each('Ana')).toEqual({ subject: 'Hello', html: '<p>Hi ANA</p>', text: 'Hi ANA' });
    expect(renders).toBe(3);
  });
});
