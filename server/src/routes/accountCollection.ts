import type { z } from 'zod';
import { PageQuery, page } from '../../../shared/src/schemas/common';
import type { Scope } from '../../../shared/src/schemas/admin';
import { type AccountCollection, findInCollection, listCollection } from '../queries/accountCollection';
import { notFound } from '../errors/problem';
import { afterId, cursorScope, idPage } from '../queries/cursor';
import { type Route, defineRoute } from './define';

interface CollectionRouteSpec {
  path: string;
  summary: string;
  description: string;
  /** The item the reference shows (in a page, for a list). */
  example: unknown;
  tag: string;
  scope: Scope;
  /** The schema of one item, as `present` makes it. */
  item: z.ZodType;
}

/** GET the collection, oldest first: a keyset page by id. */
export function listByIdRoute<Row extends { id: number }>(
  collection: AccountCollection<Row>,
  spec: CollectionRouteSpec,
): Route {
  const { item, example, ...route } = spec;
  return defineRoute({
    method: 'GET',
    ...route,
    examples: { response: { data: [example], nextCursor: null } },
    auth: 'token',
    query: PageQuery,
    responses: { 200: page(item) },
    handler: async ({ db, principal, query }) => {
      const scope = cursorScope(collection.table, { accountId: principal.accountId });
      const rows = await listCollection(db, collection, {
        accountId: principal.accountId,
        afterId: afterId(query.cursor, scope),
        limit: query.limit,
      });
      return { status: 200, body: idPage(rows, query.limit, collection.present, scope) };
    },
  });
}

/** GET one item by the id in the path (`idOf`), 404 when the account has none with it. */
export function readByIdRoute<Row extends { id: number }, P extends z.ZodType>(
  collection: AccountCollection<Row>,
  spec: CollectionRouteSpec & { params: P; idOf: (params: z.infer<P>) => number },
): Route {
  const { idOf, item, example, ...route } = spec;
  return defineRoute({
    method: 'GET',
    ...route,
    examples: { response: example },
    auth: 'token',
    responses: { 200: item },
    handler: async ({ db, principal, params }) => {
      const id = idOf(params as z.infer<P>);
      const row = await findInCollection(db, collection, principal.accountId, id);
      if (!row) throw notFound(`${collection.noun[0]?.toUpperCase()}${collection.noun.slice(1)} ${id} does not exist.`);
      return { status: 200, body: collection.present(row) };
    },
  });
}
