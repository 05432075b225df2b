import { useEffect, useRef } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import { ContactInput } from '../../../common/contact.contract.ts';
import { TEXT_MAX } from '../../../common/limits.ts';
import { EditableText } from '../../components/editable/editable-text.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Textarea } from '../../components/ui/field.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { attempt, invalid, parseForm, orRequestFailed, unlessRequestFailed } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageContent, pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/contact';

export const meta = () =>
  pageMeta({
    title: 'Contact Us',
    description: 'Questions about courses, coaching or your membership? Contact the RealtyPocket team.',
    path: '/contact',
  });

export async function loader({ context, request }: Route.LoaderArgs) {
  // A link may fill in the subject, such as the pricing page's 'Contact us for team pricing'.
  const subject = new URL(request.url).searchParams.get('subject')?.slice(0, TEXT_MAX.contactSubject) ?? '';
  return {
    subject,
    contactInfo: await pageContent(pageServices(context).services, 'contact_info', 'the contact details'),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(ContactInput, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const sent = await attempt(() => services.contact.send(viewer, form.data));
  if (!sent.ok) return sent.refusal;
  return { ok: true as const };
}

// In the browser, a request that fails on the way still gets its alert (SPEC 8).
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => orRequestFailed(() => serverAction());
export const shouldRevalidate = unlessRequestFailed;

const THANK_YOU = "Thank you for your message! We'll get back to you soon.";
const sendingFailed = (email: string) => `There was an error sending your message. Please try again or email us directly at ${email}`;

/** A phone number as a tel: link wants it: digits and a leading +, nothing else. */
const telNumber = (phone: string) => phone.replace(/[^\d+]/g, '');

export default function ContactPage({ loaderData }: Route.ComponentProps) {
  const info = loaderData.contactInfo;
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formAction === '/contact';
  const form = useRef<HTMLFormElement>(null);
  const errors = result && !result.ok ? result.fieldErrors : {};

  // SPEC 4 / 8: success clears the fields and confirms; a failure is logged and explained.
  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      form.current?.reset();
      window.alert(THANK_YOU);
    } else {
      console.warn('Sending the contact message failed:', result.formError ?? 'the request failed');
      window.alert(sendingFailed(info.email));
    }
  }, [result, info.email]);

  return (
    <>
      <PageHeader title="Contact Us" subtitle="Have questions? We're here to help you succeed." />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 lg:grid-cols-3">
        <Card as="section" className="p-6 lg:col-span-2">
          <h2 className="text-2xl font-bold text-gray-900">Send Us a Message</h2>
          {result?.ok && (
            <p role="status" className="mt-4 rounded-lg bg-green-50 px-4 py-3 text-green-800">
              {THANK_YOU}
            </p>
          )}
          {result && !result.ok && (
            <p role="alert" className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-red-800">
              {result.formError ?? sendingFailed(info.email)}
            </p>
          )}
          <Form method="post" ref={form} className="mt-6 grid gap-5 sm:grid-cols-2">
            <Input label="Your Name" name="name" type="text" required maxLength={TEXT_MAX.name} autoComplete="name" error={errors.name} />
            <Input
              label="Email Address"
              name="email"
              type="email"
              required
              maxLength={TEXT_MAX.email}
              autoComplete="email"
              error={errors.email}
            />
            <Input
              label="Subject"
              name="subject"
              type="text"
              required
              maxLength={TEXT_MAX.contactSubject}
              defaultValue={loaderData.subject}
              className="sm:col-span-2"
              error={errors.subject}
            />
            <Textarea
              label="Message"
              name="message"
              required
              rows={6}
              maxLength={TEXT_MAX.contactMessage}
              className="sm:col-span-2"
              error={errors.message}
            />
            <div className="sm:col-span-2">
              <Button type="submit" disabled={sending}>
                {sending ? 'Sending...' : 'Send Message'}
              </Button>
            </div>
          </Form>
        </Card>

        <aside className="space-y-4">
          <h2 className="text-2xl font-bold text-gray-900">Get in Touch</h2>
          <Card>
            <h3 className="font-semibold text-gray-900">Email</h3>
            <EditableText
              section="contact_info"
              field="email"
              value={info.email}
              href={`mailto:${info.email.trim()}`}
              as="p"
              className="mt-1 text-gray-700"
            />
          </Card>
          <Card>
            <h3 className="font-semibold text-gray-900">Phone</h3>
            <EditableText
              section="contact_info"
              field="phone"
              value={info.phone}
              href={`tel:${telNumber(info.phone)}`}
              as="p"
              className="mt-1 text-gray-700"
            />
            <EditableText section="contact_info" field="hours" value={info.hours} as="p" className="mt-1 text-sm text-gray-500" />
          </Card>
          <Card>
            <h3 className="font-semibold text-gray-900">Office</h3>
            <EditableText section="contact_info" field="address" value={info.address} as="p" className="mt-1 text-gray-700" />
          </Card>
          <div className="rounded-2xl bg-brand-50 p-5">
            <h3 className="font-semibold text-gray-900">Need Immediate Help?</h3>
            <p className="mt-1 text-sm text-gray-700">Check out our Help Center for instant answers to common questions.</p>
            <ButtonLink to="/help" size="sm" className="mt-3">
              Visit Help Center
            </ButtonLink>
          </div>
        </aside>
      </div>
      <div className="mx-auto max-w-6xl px-4 pb-12">
        <Link to="/" className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600">
          ← Back to Home
        </Link>
      </div>
    </>
  );
}
