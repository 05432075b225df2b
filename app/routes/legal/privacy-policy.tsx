import { BRAND_NAME } from '../../../common/brand.ts';
import { DATA_KEPT_AFTER_CANCELLATION_DAYS } from '../../../common/limits.ts';
import { LEGAL_LAST_UPDATED, LegalPage, type LegalSection } from '../../components/legal/legal-page.tsx';
import { pageMeta } from '../../lib/meta.ts';
import type { PlainPageHandle } from '../../lib/plain-page.tsx';

// Read, not used: a visitor's copy runs without the app (docs/decisions/027).
export const handle = { plainForVisitors: true } satisfies PlainPageHandle;

export const meta = () =>
  pageMeta({
    title: 'Privacy Policy',
    description: `How ${BRAND_NAME} collects, uses and protects your information.`,
    path: '/privacy-policy',
  });

// SPEC 2: ten sections; the claims agree with SPEC 9 (18+, the retention of DATA_KEPT_AFTER_CANCELLATION_DAYS, card payment provider, cloud storage).
const SECTIONS: LegalSection[] = [
  {
    title: 'Information We Collect',
    paragraphs: [
      'Account information you give us: your name, email address and password (which we store only as a secure hash), and your membership tier.',
      'Learning activity: the courses you enrol in, the lessons you complete, the certificates you earn and the messages you send us through the contact form.',
      'Technical information: your device and browser type, IP address and the pages you visit, which we use to keep the service secure and working well.',
      'Payment details are entered with our card payment provider; we never see or store your full card number.',
    ],
  },
  {
    title: 'How We Use Your Information',
    paragraphs: [
      'To provide your membership: to sign you in, give you access to the content of your tier, track your progress and issue certificates.',
      'To communicate with you about your account, new content, coaching sessions and changes to our plans, and to answer your questions.',
      'To personalize content recommendations and goal reminders, and to improve our courses and features.',
    ],
  },
  {
    title: 'How We Share Your Information',
    paragraphs: [
      'We do not sell your personal information.',
      'We share information only with service providers who help us run the platform, such as our card payment provider, our cloud storage and hosting providers and our email provider, under contracts that require them to protect it.',
      'We may disclose information when the law requires it or to protect the rights and safety of our members and our business.',
    ],
  },
  {
    title: 'Data Security',
    paragraphs: [
      'We protect your information with encryption in transit, hashed passwords, access controls and regular reviews of our systems. Files are kept in secure cloud storage.',
      'No system is perfectly secure; please use a strong password and tell us right away if you suspect unauthorized use of your account.',
    ],
  },
  {
    title: 'Your Privacy Rights',
    paragraphs: [
      'You may access, correct, download or delete your personal information, and opt out of marketing emails at any time.',
      `When you cancel your membership, we keep your account data for ${DATA_KEPT_AFTER_CANCELLATION_DAYS} days so you can come back without losing your progress, and then delete it, except where the law requires us to keep records longer.`,
      'To exercise these rights, contact us using the details below.',
    ],
  },
  {
    title: 'Cookies',
    paragraphs: [
      'We use a secure session cookie to keep you signed in, and a small number of cookies to understand how the site is used. You can control cookies in your browser; without the session cookie you cannot stay signed in.',
    ],
  },
  {
    title: 'Children Under 18',
    paragraphs: [
      `${BRAND_NAME} is intended for real estate professionals aged 18 or older. We do not knowingly collect information from anyone under 18; if we learn that we have, we delete it.`,
    ],
  },
  {
    title: 'International Data Transfers',
    paragraphs: [
      'We are based in the United States and our providers may process information in other countries. When we transfer information, we use safeguards that protect it as this policy describes.',
    ],
  },
  {
    title: 'Changes to This Policy',
    paragraphs: [
      'We may update this policy from time to time. When we make material changes we will tell you by email or on the site before they take effect, and the date above shows the latest version.',
    ],
  },
  {
    title: 'Contact Us',
    paragraphs: [
      'Questions about this policy or your information? Email support@realtypocket.com or write to us through the contact page, and we will answer within two business days.',
    ],
  },
];

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated={LEGAL_LAST_UPDATED}
      intro={`This policy explains what information ${BRAND_NAME} collects when you use our website and mobile app, how we use it and the choices you have.`}
      sections={SECTIONS}
    />
  );
}
