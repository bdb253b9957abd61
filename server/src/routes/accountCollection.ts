import type { z } from 'zod';
import { PageQuery, page } from '../../../shared/src/schemas/common';
import type { Scope } from '../../../shared/src/schemas/admin';
import type { AccountCollection } from '../db/accountCollection';
import { queryOne, queryRows } from '../db/query';
import { notFound } from '../errors/problem';
import { afterId, cursorScope, idPage } from '../queries/cursor';
import { type Route, defineRoute } from './define';

interface CollectionRouteSpec {
  path: string;
  summary: string;
  tag: string;
  scope: Scope;
  /** The schema of one item, as `present` makes it. */
  item: z.ZodType;
}

/** GET the collection, oldest first: a keyset page by id. */
export function listByIdRoute<Row extends { id: number }>(collection: AccountCollection<Row>, spec: CollectionRouteSpec): Route {
  const list = `SELECT ${collection.columns} FROM ${collection.table} WHERE account_id = $1 AND id > $2 ORDER BY id LIMIT $3`;
  const { item, ...route } = spec;
  return defineRoute({
    method: 'GET',
    ...route,
    auth: 'token',
    query: PageQuery,
    responses: { 200: page(item) },
    handler: async ({ db, principal, query }) => {
      const scope = cursorScope(collection.table, { accountId: principal.accountId });
      const rows = await queryRows<Row>(db, list, [principal.accountId, afterId(query.cursor, scope), query.limit + 1]);
      return { status: 200, body: idPage(rows, query.limit, collection.present, scope) };
    },
  });
}

/** GET one item by the id in the path (`idOf`), 404 when the account has none with it. */
export function readByIdRoute<Row extends { id: number }, P extends z.ZodType>(
  collection: AccountCollection<Row>,
  spec: CollectionRouteSpec & { params: P; idOf: (params: z.infer<P>) => number },
): Route {
  const read = `SELECT ${collection.columns} FROM ${collection.table} WHERE account_id = $1 AND id = $2`;
  const { idOf, item, ...route } = spec;
  return defineRoute({
    method: 'GET',
    ...route,
    auth: 'token',
    responses: { 200: item },
    handler: async ({ db, principal, params }) => {
      const id = idOf(params as z.infer<P>);
      const row = await queryOne<Row>(db, read, [principal.accountId, id]);
      if (!row) throw notFound(`${collection.noun[0]?.toUpperCase()}${collection.noun.slice(1)} ${id} does not exist.`);
      return { status: 200, body: collection.present(row) };
    },
  });
}
