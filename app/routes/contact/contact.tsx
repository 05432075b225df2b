import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { requestServicesContext } from '#request-context';
import { CONTACT_LIMITS } from '../../../common/contact.ts';
import { withContentDefaults, type ContentData } from '../../../common/content-sections.ts';
import { EditableText } from '../../components/editable/editable-text.tsx';
import { inputClass } from '../../components/auth/auth-card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { postJson } from '../../lib/api-client.ts';
import { pageMeta } from '../../lib/meta.ts';
import type { Route } from './+types/contact';

export const meta = () =>
  pageMeta({
    title: 'Contact Us',
    description: 'Questions about courses, coaching or your membership? Contact the RealtyPocket team.',
    path: '/contact',
  });

export async function loader({ context }: Route.LoaderArgs) {
  const info = await context.get(requestServicesContext).api<{ data: ContentData }>('/api/content/contact_info');
  return { contactInfo: info.ok ? info.data.data : {} };
}

type FormState = 'idle' | 'sending' | 'success' | 'error';

export default function ContactPage({ loaderData }: Route.ComponentProps) {
  const info = withContentDefaults('contact_info', loaderData.contactInfo);
  const [state, setState] = useState<FormState>('idle');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = Object.fromEntries(new FormData(form));
    setState('sending');
    try {
      const result = await postJson<{ success?: boolean }>('/api/contact', fields);
      if (!result.ok || !result.data.success) throw new Error(result.data.detail ?? `contact answered ${result.status}`);
      form.reset();
      setState('success');
      window.alert("Thank you for your message! We'll get back to you soon.");
    } catch (error) {
      console.warn('Sending the contact message failed', error);
      setState('error');
      window.alert(`There was an error sending your message. Please try again or email us directly at ${info.email}`);
    }
  }

  return (
    <>
      <PageHeader title="Contact Us" subtitle="Have questions? We're here to help you succeed." />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 lg:grid-cols-3">
        <section className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm lg:col-span-2">
          <h2 className="text-2xl font-bold text-gray-900">Send Us a Message</h2>
          {state === 'success' && (
            <p role="status" className="mt-4 rounded-lg bg-green-50 px-4 py-3 text-green-800">
              Thank you for your message! We'll get back to you soon.
            </p>
          )}
          <form onSubmit={onSubmit} className="mt-6 grid gap-5 sm:grid-cols-2">
            <label className="block text-sm font-medium text-gray-700">
              Your Name
              <input name="name" type="text" required maxLength={CONTACT_LIMITS.name} autoComplete="name" className={inputClass} />
            </label>
            <label className="block text-sm font-medium text-gray-700">
              Email Address
              <input name="email" type="email" required maxLength={CONTACT_LIMITS.email} autoComplete="email" className={inputClass} />
            </label>
            <label className="block text-sm font-medium text-gray-700 sm:col-span-2">
              Subject
              <input name="subject" type="text" required maxLength={CONTACT_LIMITS.subject} className={inputClass} />
            </label>
            <label className="block text-sm font-medium text-gray-700 sm:col-span-2">
              Message
              <textarea name="message" required rows={6} maxLength={CONTACT_LIMITS.message} className={inputClass} />
            </label>
            <div className="sm:col-span-2">
              <button
                type="submit"
                disabled={state === 'sending'}
                className="rounded-lg bg-brand-800 px-6 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
              >
                {state === 'sending' ? 'Sending...' : 'Send Message'}
              </button>
            </div>
          </form>
        </section>

        <aside className="space-y-4">
          <h2 className="text-2xl font-bold text-gray-900">Get in Touch</h2>
          <div className="rounded-2xl border border-gray-200 bg-white p-5">
            <h3 className="font-semibold text-gray-900">Email</h3>
            <EditableText section="contact_info" field="email" value={info.email} as="p" className="mt-1 text-gray-700" />
          </div>
          <div className="rounded-2xl border border-gray-200 bg-white p-5">
            <h3 className="font-semibold text-gray-900">Phone</h3>
            <EditableText section="contact_info" field="phone" value={info.phone} as="p" className="mt-1 text-gray-700" />
            <EditableText section="contact_info" field="hours" value={info.hours} as="p" className="mt-1 text-sm text-gray-500" />
          </div>
          <div className="rounded-2xl border border-gray-200 bg-white p-5">
            <h3 className="font-semibold text-gray-900">Office</h3>
            <EditableText section="contact_info" field="address" value={info.address} as="p" className="mt-1 text-gray-700" />
          </div>
          <div className="rounded-2xl bg-brand-50 p-5">
            <h3 className="font-semibold text-gray-900">Need Immediate Help?</h3>
            <p className="mt-1 text-sm text-gray-700">Check out our Help Center for instant answers to common questions.</p>
            <Link
              to="/#faq"
              className="mt-3 inline-block rounded-lg bg-brand-800 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              Visit Help Center
            </Link>
          </div>
        </aside>
      </div>
      <div className="mx-auto max-w-6xl px-4 pb-12">
        <Link to="/" className="font-semibold text-brand-800 hover:text-brand-600">
          ← Back to Home
        </Link>
      </div>
    </>
  );
}
