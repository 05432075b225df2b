import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import { helpTopics, searchHelp, type HelpTopic } from '../../../common/help-center.ts';
import { EditableText } from '../../components/editable/editable-text.tsx';
import { HOME_FAQS } from '../../components/home/home-content.ts';
import { Accordion } from '../../components/ui/accordion.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/field.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { pageContent, pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/help';

export const meta = () =>
  pageMeta({
    title: 'Help Center',
    description: `Answers to common questions about your ${BRAND_NAME} account, billing, courses and the app.`,
    path: '/help',
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = pageServices(context);
  return { fields: await pageContent(services, 'help_center', 'the Help Center') };
}

const answerCount = (topics: HelpTopic[]) => topics.reduce((sum, topic) => sum + topic.answers.length, 0);

/** A topic's questions: folded while browsing, open while searching (the match is what was asked for). */
function Topic({ topic, searching }: { topic: HelpTopic; searching: boolean }) {
  return (
    <section aria-labelledby={`help-${topic.id}`} className="mt-10">
      <h2 id={`help-${topic.id}`} className="text-xl font-bold text-gray-900">
        {topic.title}
      </h2>
      {searching ? (
        <div className="mt-4 space-y-4">
          {topic.answers.map((entry) => (
            <Card as="article" key={entry.question}>
              <h3 className="font-semibold text-gray-900">{entry.question}</h3>
              <p className="mt-2 whitespace-pre-line text-gray-700">{entry.answer}</p>
            </Card>
          ))}
        </div>
      ) : (
        <Accordion
          className="mt-4"
          items={topic.answers.map((entry) => ({
            key: entry.question,
            header: entry.question,
            body: <p className="whitespace-pre-line">{entry.answer}</p>,
          }))}
        />
      )}
    </section>
  );
}

// Lessons whose videos answer the question too, found on the server once a search is typed.
const VideoMomentsFound = lazy(() =>
  import('../../components/learning/video-moments-found.tsx').then((module) => ({ default: module.VideoMomentsFound })),
);

export default function HelpCenterPage({ loaderData }: Route.ComponentProps) {
  const { fields } = loaderData;
  const topics = helpTopics(fields, HOME_FAQS);
  // The search is a GET form, so /help?q=refund works without the page's script; with it, results follow each key.
  const [searchParams] = useSearchParams();
  const [query, setQuery] = useState(searchParams.get('q') ?? '');
  const found = searchHelp(topics, query);
  const searching = query.trim() !== '';
  return (
    <>
      <PageHeader title="Help Center">
        <EditableText
          section="help_center"
          field="intro"
          value={fields.intro}
          as="p"
          className="mx-auto mt-4 max-w-2xl text-base text-gold-100 sm:text-lg"
        />
      </PageHeader>
      <div className="mx-auto max-w-3xl px-4 py-10">
        <form method="get" role="search" className="flex items-end gap-3" onSubmit={(event) => event.preventDefault()}>
          <Input
            className="flex-1"
            label="Search the Help Center"
            type="search"
            name="q"
            value={query}
            placeholder="For example: cancel, certificate, offline"
            onChange={(event) => setQuery(event.target.value)}
          />
          <Button type="submit">Search</Button>
        </form>
        <p role="status" className="mt-3 min-h-6 text-sm text-gray-600">
          {searching && (answerCount(found) === 1 ? '1 answer found' : `${answerCount(found)} answers found`)}
        </p>
        {searching && found.length === 0 && (
          <p className="mt-6 text-gray-700">
            {`No answers match "${query.trim()}". Try another word, or `}
            <Link to="/contact" className="font-semibold text-brand-800 underline">
              ask us directly
            </Link>
            .
          </p>
        )}
        {found.map((topic) => (
          <Topic key={topic.id} topic={topic} searching={searching} />
        ))}
        {searching && (
          <Suspense fallback={null}>
            <VideoMomentsFound words={query} />
          </Suspense>
        )}
        <Card className="mt-12 text-center">
          <h2 className="text-lg font-bold text-gray-900">Still need help?</h2>
          <p className="mt-1 text-gray-600">Write to us and we will answer within one business day.</p>
          <ButtonLink to="/contact" size="sm" className="mt-4">
            Contact Us
          </ButtonLink>
        </Card>
      </div>
    </>
  );
}
