import { parseBroadcast } from '../../common/broadcast-markup.ts';
import type { AutomationSettings, AutomationView, LifecycleService } from '../../common/lifecycle.contract.ts';
import { AUTOMATION_INFO, LIFECYCLE, type AutomationKey } from '../../common/lifecycle-terms.ts';
import { mayEnterStaffArea, requireStaffArea } from '../../common/policies.ts';
import { badRequest } from '../../common/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import { automationSettings } from './default-mails.ts';
import type { AutomationFigures, AutomationRow } from './lifecycle.repository.ts';

// Lifecycle mail's settings and figures: staff who write broadcasts read how each automation does;
// owners switch each on or off and change its text, delay and (win-back) offer code, audited.

const NO_FIGURES = { sent: 0, opened: 0, returned: 0, upgraded: 0, renewed: 0 };

function view(row: AutomationRow, figures: AutomationFigures | undefined): AutomationView {
  const info = AUTOMATION_INFO[row.key];
  return {
    key: row.key,
    label: info.label,
    delay_label: info.delay,
    enabled: row.enabled,
    subject: row.subject,
    body: row.body,
    delay_days: row.delayDays,
    offer_code: row.offerCode,
    updated_at: row.updatedAt?.toISOString() ?? null,
    figures: figures
      ? { sent: figures.sent, opened: figures.opened, returned: figures.returned, upgraded: figures.upgraded, renewed: figures.renewed }
      : NO_FIGURES,
  };
}

export function createLifecycleService(data: DataAccess, mailer: Pick<Mailer, 'link'>): LifecycleService {
  const since = () => new Date(Date.now() - LIFECYCLE.statsDays * 86_400_000);

  /** The owner's settings, checked: the text must read as a message, the offer code must be a live offer. */
  async function checked(key: AutomationKey, input: AutomationSettings): Promise<AutomationSettings> {
    try {
      parseBroadcast(input.body);
    } catch (problem) {
      throw badRequest(problem instanceof Error ? problem.message : 'The message cannot be read.', 'body');
    }
    if (input.offer_code === null) return input;
    if (key !== 'win-back') throw badRequest('Only the win-back mail carries an offer code.', 'offer_code');
    const offer = await data.offers.findByCode(input.offer_code);
    if (!offer || offer.endedAt || (offer.endsAt && offer.endsAt <= new Date()))
      throw badRequest(`No live offer has the code ${input.offer_code}.`, 'offer_code');
    return { ...input, offer_code: offer.code };
  }

  return {
    async list(viewer) {
      requireStaffArea(viewer, 'broadcasts');
      const [rows, figures] = await Promise.all([data.lifecycle.automations(), data.lifecycle.figures(since())]);
      return {
        automations: automationSettings(rows).map((row) =>
          view(
            row,
            figures.find((each) => each.automation === row.key),
          ),
        ),
        may_edit: mayEnterStaffArea(viewer, 'automations'),
      };
    },

    async save(viewer, key, input) {
      const staff = requireStaffArea(viewer, 'automations');
      const settings = await checked(key, input);
      const saved = await data.transaction(async (tx) => {
        const before = automationSettings(await tx.lifecycle.automations()).find((row) => row.key === key)!;
        const row = await tx.lifecycle.saveAutomation(
          key,
          {
            enabled: settings.enabled,
            subject: settings.subject,
            body: settings.body,
            delayDays: settings.delay_days,
            offerCode: settings.offer_code,
          },
          staff.id,
        );
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'automation.update',
          target: AUTOMATION_INFO[key].label,
          oldValue: { enabled: before.enabled, delay_days: before.delayDays, subject: before.subject, offer_code: before.offerCode },
          newValue: {
            enabled: settings.enabled,
            delay_days: settings.delay_days,
            subject: settings.subject,
            offer_code: settings.offer_code,
          },
        });
        return row;
      });
      const figures = await data.lifecycle.figures(since());
      return view(
        saved,
        figures.find((each) => each.automation === key),
      );
    },

    async follow(mailId, to) {
      await data.lifecycle.opened(mailId);
      return mailer.link(to);
    },
  };
}
