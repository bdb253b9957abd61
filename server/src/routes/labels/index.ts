import { CreatePersonLabelRequest, PersonLabel, UpdatePersonLabelRequest } from '../../../../shared/src/schemas/labels';
import { createPersonLabel, deletePersonLabel, personLabels, updatePersonLabel } from '../../commands/personLabels';
import { listByIdRoute, readByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';
import { personLabelExample } from '../examples';
import { LabelParams } from '../params';
import { auditParam, auditReply } from '../../audit/targets';

const tag = 'Person labels';

export const labelRoutes = [
  defineRoute({
    method: 'POST',
    path: '/labels/people',
    summary: 'Create a person label',
    description:
      'Creates a label of the account for person check-ins. Names are unique in the account, compared case-insensitively.',
    examples: { request: { name: 'Contractor', color: '#1a2b3c' }, response: personLabelExample },
    conflict: { codes: ['LABEL_NAME_TAKEN: the account has a person label of that name'], current: PersonLabel },
    tag,
    auth: 'token',
    scope: 'labels:write',
    body: CreatePersonLabelRequest,
    responses: { 201: PersonLabel },
    audit: auditReply('person_label.created', 'person_label', 'labelId'),
    handler: async ({ db, principal, body, now }) => ({
      status: 201,
      body: await createPersonLabel(db, { accountId: principal.accountId, request: body, now }),
    }),
  }),
  listByIdRoute(personLabels, {
    path: '/labels/people',
    summary: 'List person labels (oldest first)',
    description: 'The person labels of the account, oldest first.',
    example: personLabelExample,
    tag,
    scope: 'checkins:read',
    item: PersonLabel,
  }),
  readByIdRoute(personLabels, {
    path: '/labels/people/:labelId',
    summary: 'Read a person label',
    description: 'One person label of the account.',
    example: personLabelExample,
    tag,
    scope: 'checkins:read',
    item: PersonLabel,
    params: LabelParams,
    idOf: (params) => params.labelId,
  }),
  defineRoute({
    method: 'PATCH',
    path: '/labels/people/:labelId',
    summary: 'Rename or recolor a person label (null clears the color)',
    description:
      'Changes only the fields sent; `color: null` clears the color. Names are unique in the account, compared case-insensitively.',
    examples: { request: { color: null }, response: { ...personLabelExample, color: null } },
    conflict: { codes: ['LABEL_NAME_TAKEN: the account has a person label of that name'], current: PersonLabel },
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    body: UpdatePersonLabelRequest,
    responses: { 200: PersonLabel },
    audit: auditReply('person_label.updated', 'person_label', 'labelId'),
    handler: async ({ db, principal, params, body, now }) => ({
      status: 200,
      body: await updatePersonLabel(db, {
        accountId: principal.accountId,
        labelId: params.labelId,
        request: body,
        now,
      }),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/labels/people/:labelId',
    summary: 'Delete a person label (it is taken off every check-in that carries it)',
    description: 'Deletes the label and takes it off every check-in that carries it.',
    examples: { response: null },
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    responses: { 204: null },
    audit: auditParam('person_label.deleted', 'person_label', 'labelId'),
    handler: async ({ db, principal, params }) => {
      await deletePersonLabel(db, { accountId: principal.accountId, labelId: params.labelId });
      return { status: 204 };
    },
  }),
];
