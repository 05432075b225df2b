import { describe, expect, inject, it } from 'vitest';
import { gotoHydrated, linkFromMail, mailTo, newEmail, pageProblems, signInAsStaff, signInAtTier, toast, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('a team plan', () => {
  it('has a broker buy seats and invite an agent, who joins from the email and opens a Silver course', async () => {
    const broker = await signInAtTier(browser, 'free', 'Bea Broker');
    await gotoHydrated(broker.page, '/pricing');
    await broker.page.getByRole('link', { name: 'buy seats for your team online' }).click();
    await broker.page.waitForURL((url) => url.pathname === '/team/new');
    await broker.page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await broker.page.getByLabel('Team name').fill('Hill Country Homes');
    await broker.page.getByLabel('Plan').selectOption('silver');
    await broker.page.getByLabel('Seats').fill('5');
    await broker.page.getByRole('button', { name: 'Buy seats' }).click();
    await broker.page.waitForURL((url) => url.href.startsWith(`${inject('stripeUrl')}/checkout/`));
    await broker.page.getByText('Total due today: $395.00').waitFor();
    await broker.page.getByRole('button', { name: 'Pay and subscribe' }).click();
    await broker.page.waitForURL((url) => url.pathname === '/team');
    // The form is used once the page is alive: a click while it still loads is lost with the load.
    await broker.page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await broker.page.getByTestId('team-plan').getByText('Silver for your agents · 0 of 5 seats taken').waitFor();

    const agentEmail = newEmail('agent');
    await broker.page.getByLabel('Their email addresses (commas or one per line)').fill(agentEmail);
    await broker.page.getByRole('button', { name: 'Send invitations' }).click();
    await broker.page.getByText('1 invitation sent.').waitFor();

    // The agent, new to the site, follows the emailed link on their phone.
    await expect.poll(async () => (await mailTo(agentEmail)).length, { timeout: 15_000 }).toBe(1);
    const [mail] = await mailTo(agentEmail);
    expect(mail!.subject).toBe('Bea Broker invites you to Hill Country Homes on RealtyPocket');
    const link = /https?:\/\/\S+\/team\/join\?token=[A-Za-z0-9_-]+/.exec(mail!.text ?? '')![0];
    const agent = await browser.newPage({ mobile: true });
    await gotoHydrated(agent, new URL(link).pathname + new URL(link).search);
    await agent.getByRole('heading', { name: 'Join Hill Country Homes' }).waitFor();
    await agent.getByRole('link', { name: 'Create your free account' }).click();
    await agent.waitForURL((url) => url.pathname === '/signup');
    await agent.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await agent.getByLabel('Full Name').fill('Alex Agent');
    await agent.getByLabel('Email').fill(agentEmail);
    await agent.getByLabel('Password').fill('agent-password-1');
    await agent.getByRole('checkbox').check();
    await agent.getByRole('button', { name: 'Create Free Account' }).click();
    await agent.waitForURL((url) => url.pathname === '/team/join');
    // A seat is for the owner of the invited address: the agent confirms it from the welcome email, then joins.
    await gotoHydrated(agent, await linkFromMail(agentEmail, `${new URL(agent.url()).origin}/verify-email?token=`));
    await agent.getByRole('button', { name: 'Confirm my email address' }).click();
    await agent.getByText('Thank you: your email address is confirmed.').waitFor();
    await gotoHydrated(agent, new URL(link).pathname + new URL(link).search);
    await agent.getByRole('button', { name: 'Join the team' }).click();
    await agent.waitForURL((url) => url.pathname === '/dashboard');
    await agent.getByText('Welcome to Hill Country Homes: you have Silver membership.').waitFor();

    await gotoHydrated(agent, '/courses/negotiation-strategies');
    await agent.getByRole('button', { name: 'Start Learning' }).waitFor();
    expect(await agent.getByText('Upgrade to Access').count()).toBe(0);

    // The broker sees the agent, and the course they started.
    await agent.getByRole('button', { name: 'Start Learning' }).click();
    // Enrolled before the broker looks (the page they open is made once).
    await toast(agent, 'Enrolled successfully!');
    await gotoHydrated(broker.page, '/team');
    const row = broker.page.locator(`li[data-agent-email="${agentEmail}"]`);
    await row.getByText('Alex Agent').waitFor();
    await row.getByText(/^Advanced Negotiation Strategies: \d+%$/).waitFor();
    await broker.page.getByTestId('team-plan').getByText('Silver for your agents · 1 of 5 seats taken').waitFor();
    expect([...pageProblems(broker.page), ...pageProblems(agent)]).toEqual([]);
  });

  it('has an owner answer a brokerage’s message with a team offer, which the brokerage opens from the email', async () => {
    const email = newEmail('brokerage');
    const visitor = await browser.newPage({ mobile: true });
    expect(
      (
        await visitor.request.post('/api/contact', {
          data: { name: 'Rita Realty', email, subject: 'Team pricing', message: 'We are 12 agents. What would Gold yearly cost us?' },
        })
      ).status(),
    ).toBe(201);

    const owner = await browser.newPage();
    await signInAsStaff(owner);
    await gotoHydrated(owner, '/admin/dashboard/messages');
    const message = owner.locator('li', { hasText: 'We are 12 agents. What would Gold yearly cost us?' });
    await message.getByText('Make a team offer').click();
    await message.getByLabel('Plan').selectOption('gold');
    await message.getByLabel('Billing').selectOption('yearly');
    await message.getByLabel('Price per seat (dollars)').fill('1500');
    await message.getByRole('button', { name: `Mail the offer to ${email}` }).click();
    await message.getByText(`The team offer is mailed to ${email}.`).waitFor();

    await expect.poll(async () => (await mailTo(email)).some((mail) => mail.subject === 'Your team offer from RealtyPocket')).toBe(true);
    const offer = (await mailTo(email)).find((mail) => mail.subject === 'Your team offer from RealtyPocket')!;
    const link = new URL(/https?:\/\/\S+\/team\/new\?quote=[0-9a-f-]{36}/.exec(offer.text ?? '')![0]);
    // Not signed in yet: the link leads through sign-up and back to the offer.
    await gotoHydrated(visitor, link.pathname + link.search);
    await visitor.waitForURL((url) => url.pathname === '/login');
    await visitor.getByRole('link', { name: 'Sign up' }).click();
    await visitor.waitForURL((url) => url.pathname === '/signup');
    await visitor.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await visitor.getByLabel('Full Name').fill('Rita Realty');
    await visitor.getByLabel('Email').fill(email);
    await visitor.getByLabel('Password').fill('brokerage-password-1');
    await visitor.getByRole('checkbox').check();
    await visitor.getByRole('button', { name: 'Create Free Account' }).click();
    await visitor.waitForURL((url) => url.pathname === '/team/new' && url.search === link.search);
    await visitor
      .getByTestId('team-offer')
      .getByText(/^Gold yearly: \$1,500 per seat a year, until /)
      .waitFor();
    expect(await visitor.getByLabel('Plan').count()).toBe(0);
    expect([...pageProblems(owner), ...pageProblems(visitor)]).toEqual([]);
  });
});
