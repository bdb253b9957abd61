import type { z } from 'zod';
import type { Scope } from '../../../shared/src/schemas/admin';
import { auditParam, auditReply } from '../audit/targets';
import type { LabelKind } from '../commands/labelNames';
import type { Executor } from '../db/query';
import { listByIdRoute, readByIdRoute } from './accountCollection';
import { type Route, type RouteExamples, defineRoute } from './define';
import { LabelParams } from './params';

/** What a kind's label endpoints say and run where they differ (people's labels, vehicles'). */
export interface LabelRoutesSpec<Row extends { id: number }, C extends z.ZodType, U extends z.ZodType> {
  kind: LabelKind<Row>;
  path: '/labels/people' | '/labels/vehicles';
  tag: string;
  /** Who may read the labels: whoever reads what carries them. */
  readScope: Scope;
  label: z.ZodType;
  example: unknown;
  /** The audit log's name of one (docs/api.md, Audit log). */
  target: 'person_label' | 'vehicle_label';
  create: {
    summary: string;
    description: string;
    examples: RouteExamples<C>;
    body: C;
    run: (db: Executor, input: { accountId: number; request: z.infer<C>; now: Date }) => Promise<unknown>;
  };
  update: {
    summary: string;
    examples: RouteExamples<U>;
    body: U;
    run: (
      db: Executor,
      input: { accountId: number; labelId: number; request: z.infer<U>; now: Date },
    ) => Promise<unknown>;
  };
  remove: {
    summary: string;
    description: string;
    run: (db: Executor, input: { accountId: number; labelId: number }) => Promise<void>;
  };
}

/**
 * The five endpoints of a kind of label (create, list, read, change, delete): the same rules for people's
 * and vehicles' (names unique in the account whatever their case, `labels:write` to change them).
 */
export function labelRoutesOf<Row extends { id: number }, C extends z.ZodType, U extends z.ZodType>(
  spec: LabelRoutesSpec<Row, C, U>,
): Route[] {
  const { kind, path, tag, label, example, target, create, update, remove } = spec;
  const conflict = { codes: [`LABEL_NAME_TAKEN: the account has a ${kind.noun} of that name`], current: label };
  const item = `${path}/:labelId`;
  return [
    defineRoute({
      method: 'POST',
      path,
      summary: create.summary,
      description: create.description,
      examples: create.examples,
      conflict,
      tag,
      auth: 'token',
      scope: 'labels:write',
      body: create.body,
      responses: { 201: label },
      audit: auditReply(`${target}.created`, target, 'labelId'),
      handler: async ({ db, principal, body, now }) => ({
        status: 201,
        body: await create.run(db, { accountId: principal.accountId, request: body as z.infer<C>, now }),
      }),
    }),
    listByIdRoute(kind, {
      path,
      summary: `List ${kind.noun}s (oldest first)`,
      description: `The ${kind.noun}s of the account, oldest first.`,
      example,
      tag,
      scope: spec.readScope,
      item: label,
    }),
    readByIdRoute(kind, {
      path: item,
      summary: `Read a ${kind.noun}`,
      description: `One ${kind.noun} of the account.`,
      example,
      tag,
      scope: spec.readScope,
      item: label,
      params: LabelParams,
      idOf: (params) => params.labelId,
    }),
    defineRoute({
      method: 'PATCH',
      path: item,
      summary: update.summary,
      description:
        'Changes only the fields sent; `color: null` clears the color. Names are unique in the account, compared case-insensitively.',
      examples: update.examples,
      conflict,
      tag,
      auth: 'token',
      scope: 'labels:write',
      params: LabelParams,
      body: update.body,
      responses: { 200: label },
      audit: auditReply(`${target}.updated`, target, 'labelId'),
      handler: async ({ db, principal, params, body, now }) => ({
        status: 200,
        body: await update.run(db, {
          accountId: principal.accountId,
          labelId: params.labelId,
          request: body as z.infer<U>,
          now,
        }),
      }),
    }),
    defineRoute({
      method: 'DELETE',
      path: item,
      summary: remove.summary,
      description: remove.description,
      examples: { response: null },
      tag,
      auth: 'token',
      scope: 'labels:write',
      params: LabelParams,
      responses: { 204: null },
      audit: auditParam(`${target}.deleted`, target, 'labelId'),
      handler: async ({ db, principal, params }) => {
        await remove.run(db, { accountId: principal.accountId, labelId: params.labelId });
        return { status: 204 };
      },
    }),
  ];
}
