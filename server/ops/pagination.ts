/**
 * Pagination of admin list operations (docs/api-overview.md#resources-and-fields): request `{limit?, page?}`,
 * response `{limit, page, offset, total}`; default limit 10.
 */
import type { EntityManager, EntityName, FilterQuery, FindOptions, QueryOrderMap } from '@mikro-orm/core';
import { s, type Static } from './schema.ts';

export const DEFAULT_PAGE_LIMIT = 10;
export const MAX_PAGE_LIMIT = 100;

export const PaginationRequest = s.object('PaginationRequest', {
  page: s.optional(s.int()),
  limit: s.optional(s.int()),
});

export const Pagination = s.object('Pagination', {
  limit: s.int64(),
  page: s.int64(),
  offset: s.int64(),
  total: s.int64(),
});

export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

/** The page to read: limit defaults to 10 and is capped at 100; page counts from 1. */
export function pageOf(input?: Static<typeof PaginationRequest>): PageWindow {
  const limit = input?.limit !== undefined && input.limit >= 1 ? Math.min(input.limit, MAX_PAGE_LIMIT) : DEFAULT_PAGE_LIMIT;
  const page = input?.page !== undefined && input.page >= 1 ? input.page : 1;
  return { page, limit, offset: (page - 1) * limit };
}

/** The response object for a page of `total` rows. */
export function paginationOf(window: PageWindow, total: number): Static<typeof Pagination> {
  return { limit: window.limit, page: window.page, offset: window.offset, total };
}

/** The input of list operations that take nothing but a page (`_verification_requests`, ...). */
export const PaginatedRequest = s.object('PaginatedRequest', {
  pagination: s.optional(PaginationRequest),
});

export interface Page<T> {
  items: T[];
  pagination: Static<typeof Pagination>;
}

/**
 * Reads one page of `entity` matching `where` and counts all matches, for list operations. `orderBy`
 * must end in a unique property (the id) so that pages neither repeat nor skip rows.
 */
export async function paginate<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  request: Static<typeof PaginationRequest> | undefined,
  orderBy: QueryOrderMap<T>,
): Promise<Page<T>> {
  const window = pageOf(request);
  const [items, total] = await em.findAndCount(entity, where as FilterQuery<NoInfer<T>>, {
    limit: window.limit,
    offset: window.offset,
    orderBy: orderBy as FindOptions<T>['orderBy'],
  });
  return { items: items as T[], pagination: paginationOf(window, total) };
}
