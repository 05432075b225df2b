import { data, Link } from 'react-router';
import { CertificateItem, EnrolledCourseItem, LIST_LINK_CLASS, ReplyNoticeItem } from '../../components/dashboard/member-lists.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { attempt } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { listPageOf, memberPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/member-list';

// Every page of a member's own lists, which the dashboard shows the first items of: their courses,
// their certificates, and the replies to their discussions (a page at a time, 'Next page' links).

const LISTS = {
  courses: { title: 'My courses', empty: 'You haven’t enrolled in any courses yet.' },
  certificates: { title: 'My certificates', empty: 'Finish every lesson of a course to earn its certificate.' },
  replies: { title: 'Replies to your posts', empty: 'No replies to your discussions yet.' },
} as const;
type ListName = keyof typeof LISTS;
const isListName = (name: string | undefined): name is ListName => name !== undefined && Object.hasOwn(LISTS, name);

export const meta = ({ params }: Route.MetaArgs) =>
  pageMeta({ title: isListName(params.list) ? LISTS[params.list].title : 'Page not found', description: 'Your RealtyPocket lists.' });

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  const list = params.list;
  if (!isListName(list)) throw data(null, { status: 404 });
  const page = listPageOf(request);
  type Listed =
    | { list: 'courses'; page: Awaited<ReturnType<typeof services.learning.enrolments>> }
    | { list: 'certificates'; page: Awaited<ReturnType<typeof services.learning.certificates>> }
    | { list: 'replies'; page: Awaited<ReturnType<typeof services.community.repliesToMe>> };
  const found = await attempt(async (): Promise<Listed> => {
    if (list === 'courses') return { list, page: await services.learning.enrolments(viewer, page) };
    if (list === 'certificates') return { list, page: await services.learning.certificates(viewer, page) };
    return { list, page: await services.community.repliesToMe(viewer, page) };
  });
  // A broken page link: its message, and the first page is a link away.
  if (!found.ok) throw data(found.message, { status: found.status });
  return found.value;
}

export default function MemberListPage({ loaderData }: Route.ComponentProps) {
  const listed = loaderData;
  const { title, empty } = LISTS[listed.list];
  const { items, next_cursor } = listed.page;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-24 pb-16">
      <Link to="/dashboard" className={LIST_LINK_CLASS}>
        ← Dashboard
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-800">{title}</h1>
      <Card as="section" className="mt-6">
        {items.length === 0 ? (
          <p className="py-6 text-center text-gray-600">{empty}</p>
        ) : (
          <ul className="space-y-4">
            {listed.list === 'courses' && listed.page.items.map((course) => <EnrolledCourseItem key={course.id} course={course} />)}
            {listed.list === 'certificates' &&
              listed.page.items.map((certificate) => <CertificateItem key={certificate.code} certificate={certificate} />)}
            {listed.list === 'replies' && listed.page.items.map((notice) => <ReplyNoticeItem key={notice.reply_id} notice={notice} />)}
          </ul>
        )}
        <Pager param="before" next={next_cursor} />
      </Card>
    </div>
  );
}
