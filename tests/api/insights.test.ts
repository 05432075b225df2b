import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lesson, StaffCourseDetail } from '../../common/courses.contract.ts';
import type { Engagement } from '../../common/insights.contract.ts';
import { coachingAttendance, coachingRsvps, coachingSeries, coachingSessions, sessions } from '../../db/schema.ts';
import { weeksEndingNow } from '../../server/insights/insights.service.ts';
import { injectAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The Insights tab's engagement half (issue: 'Run the business by its numbers', part 1), against a
// data set whose answer is known: members active by week, lessons completed, the community, live
// sessions' attendance, a course's funnel and members gone quiet; each figure as CSV.

let t: TestApp;
let owner: ViewerHeaders;
let editor: ViewerHeaders;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(() => t.close());

const request = injectAs(() => t);

describe('the engagement figures', () => {
  it('count what members did, week by week, with each course’s funnel and who went quiet', async () => {
    const [thisWeek, , twoWeeksAgo] = weeksEndingNow(3).reverse() as [string, string, string];
    const [ann, ben, cal] = [await t.loginAs('free'), await t.loginAs('bronze'), await t.loginAs('gold')];
    // Cal was last seen 40 days ago (a session of theirs used then): active that week, quiet since.
    await t.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '40 days'` })
      .where(eq(sessions.memberId, cal.memberId));
    await t.db.execute(sql`delete from member_active_weeks where member_id = ${cal.memberId} and week = ${thisWeek}::date`);
    // (The day each member was last seen only moves forward as they come back: Cal's is set back by hand.)
    await t.db.execute(sql`update member_last_seen set seen_on = (now() - interval '40 days')::date where member_id = ${cal.memberId}`);
    // Ben was seen two weeks ago too.
    await t.db.execute(sql`insert into member_active_weeks (week, member_id) values (${twoWeeksAgo}::date, ${ben.memberId})`);

    // A course of four lessons: Ann completes one, Ben all four (and his certificate).
    const created = await request('POST', '/api/admin/courses', owner, {
      title: 'Funnel course',
      description: 'Four steps.',
      category: 'sales',
      tier: 'free',
      instructor: 'Dana Whitfield',
      duration: '1h',
    });
    const courseId = (created.json() as StaffCourseDetail).course.id;
    for (const step of [1, 2, 3, 4]) {
      await request('POST', `/api/admin/courses/${courseId}/lessons`, owner, {
        title: `Step ${step}`,
        duration: '5:00',
        video_url: 'https://videos.example.com/a.mp4',
      });
    }
    expect((await request('POST', `/api/admin/courses/${courseId}/status`, owner, { status: 'published' })).statusCode).toBe(200);
    const lessons = (await request('GET', `/api/courses/${courseId}/lessons`, owner)).json() as Lesson[];
    for (const [member, done] of [
      [ann, 1],
      [ben, 4],
    ] as const) {
      expect((await request('POST', `/api/courses/${courseId}/enrol`, member.headers)).statusCode).toBe(200);
      for (const lesson of lessons.slice(0, done))
        expect((await request('POST', `/api/lessons/${lesson.id}/complete`, member.headers)).statusCode).toBe(200);
    }

    // A discussion and two replies this week (Ann, on the free plan, reads the community only).
    const post = await request('POST', '/api/community/posts', ben.headers, { title: 'Open houses', body: 'Saturday or Sunday?' });
    expect(post.statusCode, post.body).toBe(201);
    for (const day of ['Sunday', 'Saturday']) {
      const reply = await request('POST', `/api/community/posts/${post.json().id}/replies`, ben.headers, {
        body: `${day}, on second thought.`,
      });
      expect(reply.statusCode, reply.body).toBe(201);
    }

    // A live session held two weeks ago: three RSVPs, two of whom joined; one cancelled, not counted.
    const [series] = await t.db
      .insert(coachingSeries)
      .values({
        title: 'Pipeline review',
        hostName: 'Dana',
        timeZone: 'UTC',
        durationMinutes: 60,
        minTier: 'free',
        capacity: 20,
        weekly: false,
        joinUrl: 'https://meet.example.com/x',
        createdBy: 'test',
      })
      .returning();
    const heldAt = new Date(`${twoWeeksAgo}T15:00:00Z`);
    const [held, cancelled] = await t.db
      .insert(coachingSessions)
      .values([
        { seriesId: series!.id, plannedFor: heldAt, startsAt: heldAt, durationMinutes: 60 },
        {
          seriesId: series!.id,
          plannedFor: new Date(heldAt.getTime() + 86_400_000),
          startsAt: new Date(heldAt.getTime() + 86_400_000),
          durationMinutes: 60,
          cancelledAt: heldAt,
        },
      ])
      .returning();
    await t.db.insert(coachingRsvps).values([ann, ben, cal].map((member) => ({ sessionId: held!.id, memberId: member.memberId })));
    await t.db.insert(coachingRsvps).values({ sessionId: cancelled!.id, memberId: ann.memberId });
    await t.db.insert(coachingAttendance).values([ann, ben].map((member) => ({ sessionId: held!.id, memberId: member.memberId })));

    const answer = await request('GET', '/api/admin/insights/engagement?weeks=3', editor);
    expect(answer.statusCode, answer.body).toBe(200);
    const figures = answer.json() as Engagement;
    expect(figures.weeks).toEqual([twoWeeksAgo, expect.any(String), thisWeek]);
    expect(figures.active_members.map((row) => row.members)).toEqual([1, 0, 2]);
    expect(figures.lessons_completed.at(-1)).toEqual({ week: thisWeek, lessons: 5 });
    expect(figures.community.at(-1)).toEqual({ week: thisWeek, discussions: 1, replies: 2 });
    expect(figures.live_sessions[0]).toEqual({ week: twoWeeksAgo, sessions: 1, rsvps: 3, attended: 2 });
    expect(figures.course_funnel).toEqual([
      { course_id: courseId, title: 'Funnel course', started: 2, quarter: 2, half: 1, three_quarters: 1, finished: 1, certified: 1 },
    ]);
    expect(figures.inactive).toEqual({ members: 3, days_14: 1, days_30: 1 });

    const csv = await request('GET', '/api/admin/insights/engagement/course-funnel.csv?weeks=3', owner);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe('"course","started","25%","50%","75%","finished","certified"\r\n"Funnel course","2","2","1","1","1","1"\r\n');
    const weekly = await request('GET', '/api/admin/insights/engagement/active-members.csv?weeks=3', owner);
    expect(weekly.body.split('\r\n')[1]).toBe(`"${twoWeeksAgo}","1"`);
  });

  it('are staff’s: a member is refused, a figure that does not exist is a 400', async () => {
    const member = await t.loginAs('gold');
    expect((await request('GET', '/api/admin/insights/engagement', member.headers)).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/insights/engagement')).statusCode).toBe(401);
    const unknown = await request('GET', '/api/admin/insights/engagement/revenue.csv', owner);
    expect(unknown.statusCode).toBe(400);
    expect((await request('GET', '/api/admin/insights/engagement?weeks=99', owner)).json().detail).toBe('Show at most 52 weeks');
  });
});
