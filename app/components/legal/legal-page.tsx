import { Link } from 'react-router';
import { buttonClass } from '../ui/button.tsx';

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

/** A legal document: title, last-updated date, numbered sections and 'Back to Home'. */
export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: string;
  sections: LegalSection[];
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-extrabold text-brand-800 sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-gray-500">Last updated {updated}</p>
      <p className="mt-6 text-gray-700">{intro}</p>
      {sections.map((section, index) => (
        <section key={section.title} className="mt-8">
          <h2 className="text-xl font-bold text-gray-900">
            {index + 1}. {section.title}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-3 text-gray-700">
              {paragraph}
            </p>
          ))}
        </section>
      ))}
      <Link to="/" className={buttonClass({ className: 'mt-12' })}>
        Back to Home
      </Link>
    </article>
  );
}

export const LEGAL_LAST_UPDATED = 'October 13, 2025';
