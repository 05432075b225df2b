import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Paged } from '../../common/paging.ts';

/**
 * A page of a list that the API answers as an array (the spec's shape, and the shape clients
 * already read): the address of the next page goes in `Link: <...>; rel="next"` (RFC 8288).
 */
export function arrayPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Paged<T>,
  param: 'before' | 'after' | 'cursor' = 'before',
): T[] {
  if (page.next_cursor) {
    const next = new URL(request.url, 'http://site.invalid');
    next.searchParams.set(param, page.next_cursor);
    reply.header('link', `<${next.pathname}${next.search}>; rel="next"`);
  }
  return page.items;
}
