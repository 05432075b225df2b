import { z } from 'zod';
import {
  CommunityPostList,
  EditPostInput,
  FeedQuery,
  FeedResponse,
  LikeResponse,
  ModerationInput,
  NewPostInput,
  PostDetail,
  PostParams,
  PostQuery,
  PostView,
  PreviewQuery,
  ReplyInput,
  ReplyModerationInput,
  ReplyNotice,
  ReplyParams,
  ReplyView,
  ReportInput,
  ReportList,
  StaffDiscussionList,
  SuspensionInput,
} from '../../common/community.contract.ts';
import { SuccessResponse, uuidParam } from '../../common/fields.ts';
import { AfterQuery, BeforeQuery, SearchQuery } from '../../common/paging.ts';
import { arrayPage } from '../http/paging.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { keptWhile } from '../cache/own-answers.ts';
import { COMMUNITY_LIST_KEY } from '#request-context';
import { withErrors, type ZodApp } from '../http/zod.ts';

const ok = { success: true as const };

export async function communityRoutes(app: ZodApp) {
  const { community, communityModeration: moderation } = app.services;
  const member = { access: 'member' } as const;
  const staff = { access: 'staff' } as const;

  // SPEC 7: the preview list, as the home page and the community page have always read it: an
  // array, the newest page of it; `Link` names the next page.
  app.get(
    '/api/community/posts',
    { config: visitors, schema: { querystring: PreviewQuery, response: withErrors({ 200: CommunityPostList }) } },
    async (request, reply) => arrayPage(request, reply, await community.preview(await request.viewer(), request.query)),
  );

  app.get(
    '/api/community/feed',
    { config: { ...member, keptForSession: true }, schema: { querystring: FeedQuery, response: withErrors({ 200: FeedResponse }) } },
    async (request) => {
      const feed = await community.feed(await request.viewer(), request.query);
      // The newest, unsearched, change only with the list and the discussions shown; a search or the
      // most liked may change with any discussion (an edit, a like), so they are kept while none does.
      if (feed.sort === 'newest' && feed.q === null) keptWhile(request, [COMMUNITY_LIST_KEY, ...feed.posts.map((post) => post.id)]);
      return feed;
    },
  );

  app.post(
    '/api/community/posts',
    { config: member, schema: { body: NewPostInput, response: withErrors({ 201: PostView }) } },
    async (request, reply) => reply.status(201).send(await community.createPost(await request.viewer(), request.body)),
  );

  app.get(
    '/api/community/posts/:id',
    { config: member, schema: { params: PostParams, querystring: PostQuery, response: withErrors({ 200: PostDetail }) } },
    async (request) => community.post(await request.viewer(), request.params.id, request.query),
  );

  app.patch(
    '/api/community/posts/:id',
    { config: member, schema: { params: PostParams, body: EditPostInput, response: withErrors({ 200: PostView }) } },
    async (request) => community.editPost(await request.viewer(), request.params.id, request.body),
  );

  app.delete(
    '/api/community/posts/:id',
    { config: member, schema: { params: PostParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await community.deletePost(await request.viewer(), request.params.id);
      return ok;
    },
  );

  app.post(
    '/api/community/posts/:id/replies',
    { config: member, schema: { params: PostParams, body: ReplyInput, response: withErrors({ 201: ReplyView }) } },
    async (request, reply) => reply.status(201).send(await community.reply(await request.viewer(), request.params.id, request.body)),
  );

  app.patch(
    '/api/community/replies/:id',
    { config: member, schema: { params: ReplyParams, body: ReplyInput, response: withErrors({ 200: ReplyView }) } },
    async (request) => community.editReply(await request.viewer(), request.params.id, request.body),
  );

  app.delete(
    '/api/community/replies/:id',
    { config: member, schema: { params: ReplyParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await community.deleteReply(await request.viewer(), request.params.id);
      return ok;
    },
  );

  // Liking is a state, not an event: PUT sets it, DELETE clears it, and either may be repeated.
  for (const [method, liked] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/api/community/posts/:id/like',
      config: member,
      schema: { params: PostParams, response: withErrors({ 200: LikeResponse }) },
      handler: async (request) => community.like(await request.viewer(), request.params.id, liked),
    });
  }

  app.post(
    '/api/community/reports',
    { config: member, schema: { body: ReportInput, response: withErrors({ 201: SuccessResponse }) } },
    async (request, reply) => {
      await community.report(await request.viewer(), request.body);
      return reply.status(201).send(ok);
    },
  );

  app.get(
    '/api/me/community/replies',
    { config: member, schema: { querystring: BeforeQuery, response: withErrors({ 200: z.array(ReplyNotice) }) } },
    async (request, reply) => arrayPage(request, reply, await community.repliesToMe(await request.viewer(), request.query)),
  );

  // Staff moderation: lists are a page at a time, the next page named in `Link`.
  app.get(
    '/api/admin/community/reports',
    { config: staff, schema: { querystring: AfterQuery, response: withErrors({ 200: ReportList }) } },
    async (request, reply) => arrayPage(request, reply, await moderation.reports(await request.viewer(), request.query), 'after'),
  );

  app.get(
    '/api/admin/community/posts',
    { config: staff, schema: { querystring: SearchQuery, response: withErrors({ 200: StaffDiscussionList }) } },
    async (request, reply) => arrayPage(request, reply, await moderation.discussions(await request.viewer(), request.query)),
  );

  app.post(
    '/api/admin/community/posts/:id',
    { config: staff, schema: { params: PostParams, body: ModerationInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await moderation.moderatePost(await request.viewer(), request.params.id, request.body.action);
      return ok;
    },
  );

  app.post(
    '/api/admin/community/replies/:id',
    { config: staff, schema: { params: ReplyParams, body: ReplyModerationInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await moderation.moderateReply(await request.viewer(), request.params.id, request.body.action);
      return ok;
    },
  );

  app.post(
    '/api/admin/community/reports/:id/dismiss',
    { config: staff, schema: { params: z.object({ id: uuidParam('Report id') }), response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await moderation.resolveReport(await request.viewer(), request.params.id);
      return ok;
    },
  );

  app.post(
    '/api/admin/members/:id/community-suspension',
    {
      config: staff,
      schema: { params: z.object({ id: uuidParam('Member id') }), body: SuspensionInput, response: withErrors({ 200: SuccessResponse }) },
    },
    async (request) => {
      await moderation.suspend(await request.viewer(), request.params.id, request.body.suspended);
      return ok;
    },
  );
}
