import { BRAND_NAME } from '../../../common/brand.ts';
import { LEGAL_LAST_UPDATED, LegalPage, type LegalSection } from '../../components/legal/legal-page.tsx';
import { pageMeta } from '../../lib/meta.ts';
import type { PlainPageHandle } from '../../lib/plain-page.tsx';

// Read, not used: a visitor's copy runs without the app (docs/decisions/027).
export const handle = { plainForVisitors: true } satisfies PlainPageHandle;

export const meta = () =>
  pageMeta({ title: 'Terms of Service', description: `The terms that govern your use of ${BRAND_NAME}.`, path: '/terms-of-service' });

// SPEC 2: eleven sections; the claims agree with SPEC 9 (18+, money-back guarantee, cancellation, 30 days' notice).
const SECTIONS: LegalSection[] = [
  {
    title: 'Acceptance of Terms',
    paragraphs: [
      `By creating an account or using the ${BRAND_NAME} website or mobile app you agree to these terms. If you do not agree, please do not use the service.`,
    ],
  },
  {
    title: 'Eligibility',
    paragraphs: ['You must be at least 18 years old to create an account. By signing up you confirm that you are.'],
  },
  {
    title: 'Accounts',
    paragraphs: [
      'You are responsible for the information you give us, for keeping your password secret and for everything done with your account. Accounts are personal and may not be shared.',
      'Tell us right away if you believe someone else has used your account.',
    ],
  },
  {
    title: 'Membership Plans and Payments',
    paragraphs: [
      'We offer a free plan and paid Bronze, Silver and Gold plans, billed monthly or yearly through our card payment provider. Paid plans renew automatically until cancelled.',
      'You may cancel anytime; cancellation takes effect at the end of the current billing period and there are no cancellation fees.',
      'First-time subscribers are covered by a 30-day money-back guarantee: ask within 30 days of your first payment for a full refund.',
      'We will give at least 30 days’ notice before any price increase. Team pricing for 5 or more agents is available on request.',
    ],
  },
  {
    title: 'Intellectual Property',
    paragraphs: [
      `All courses, videos, podcast episodes, templates and other content belong to ${BRAND_NAME} or its licensors. Your membership gives you a personal, non-transferable licence to use them for your own real estate business while your membership is active; you may not resell, share or republish them.`,
    ],
  },
  {
    title: 'Acceptable Use',
    paragraphs: [
      'Do not misuse the service: no harassment or spam in the community, no sharing of other people’s personal information, no attempts to break or overload our systems, and no copying of content in bulk.',
      'We may remove content or suspend accounts that break these rules.',
    ],
  },
  {
    title: 'Disclaimers',
    paragraphs: [
      'Our content is education, not legal, tax or financial advice. Results described by members are their own; we do not promise any particular income or number of transactions. Always follow the laws and rules of your state and brokerage.',
      'The service is provided “as is”; we work to keep it available but cannot guarantee it will be uninterrupted or error-free.',
    ],
  },
  {
    title: 'Indemnification',
    paragraphs: [
      `You agree to defend and indemnify ${BRAND_NAME} against claims arising from your misuse of the service or your breach of these terms.`,
    ],
  },
  {
    title: 'Dispute Resolution',
    paragraphs: [
      'If a dispute arises, contact us first and we will try to resolve it informally within 30 days. Disputes that cannot be resolved are governed by the laws of the State of Texas and its courts.',
    ],
  },
  {
    title: 'Changes to These Terms',
    paragraphs: [
      'We may update these terms. We will tell you of material changes by email or on the site before they take effect; continuing to use the service afterwards means you accept them.',
    ],
  },
  {
    title: 'Contact',
    paragraphs: ['Questions about these terms? Email support@realtypocket.com or use the contact page.'],
  },
];

export default function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      updated={LEGAL_LAST_UPDATED}
      intro={`These terms govern your use of ${BRAND_NAME}, the coaching and training platform for real estate professionals.`}
      sections={SECTIONS}
    />
  );
}
