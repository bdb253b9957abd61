import type { z } from 'zod';
import { isKnown } from '../../../shared/src/client/answers';
import {
  type CheckinFormInput,
  type FormError,
  type PersonEvent,
  fieldPath,
  initialPersonStatus,
  personStatuses,
  tooLongMessage,
  transitionPerson,
  validateCheckinForm,
} from '../../../shared/src/domain';
import type { PassClaims } from '../../../shared/src/domain/passes';
import type { Language } from '../../../shared/src/messages/languages';
import { CreateCheckinRequest } from '../../../shared/src/schemas/personCheckins';
import { type ConfigField, defaultCheckinConfig } from '../../../shared/src/schemas/sites';
import { type CommandContext, type CommandResult, queued, readStamp, refused } from './command';
import type { PersonVisit } from './types';
import { recordPassUsed } from './passes';
import { personVisits, refreshVisit } from './visitKinds';
import { onWatchlist } from './watchlist';

export interface CheckinInput extends CheckinFormInput {
  labelIds?: number[];
  /** The visitor's pass, checked on this kiosk: sent with the check-in, and never honoured here again. */
  pass?: { token: string; claims: Pick<PassClaims, 'jti' | 'exp'> };
  /** The language the visitor read the form in: the server prints their badge in it. */
  language?: Language;
}

const blankToUndefined = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value;

/** The create body as it will be sent: empty optional fields left out, so the server sees what we validated. */
function createBody(input: CheckinInput, occurredAt: string): unknown {
  const { person } = input;
  return {
    person: {
      firstName: person.firstName,
      lastName: person.lastName,
      email: blankToUndefined(person.email),
      phone: blankToUndefined(person.phone),
      company: blankToUndefined(person.company),
    },
    // A host chosen from the list goes by id: the server records their name as it is then.
    hostName: input.hostId === undefined ? blankToUndefined(input.hostName) : undefined,
    hostId: input.hostId,
    purpose: blankToUndefined(input.purpose),
    customFields: input.customFields && Object.keys(input.customFields).length > 0 ? input.customFields : undefined,
    labelIds: input.labelIds,
    pass: input.pass?.token,
    language: input.language,
    occurredAt,
  };
}

/**
 * A refusal of the request schema as a person reads it: a value over its limit is named by its field's
 * label ("First name can be at most 100 characters"), not in zod's words; anything else as zod says it.
 */
function plainIssue(issue: z.core.$ZodIssue, fields: readonly ConfigField[]): FormError {
  const path = issue.path.join('.');
  if (issue.code === 'too_big' && issue.origin === 'string') {
    const label = fields.find((field) => fieldPath(field.name) === path)?.label ?? 'This value';
    return { path, message: tooLongMessage(label, Number(issue.maximum)) };
  }
  return { path, message: issue.message };
}

/**
 * Checks a person in on this device: validated against the site's cached configuration (the server's
 * defaults if none was ever fetched), then the visit and its create action are written in one
 * transaction. The status shown is the kiosk's prediction until the server answers.
 */
export async function checkIn(
  ctx: CommandContext,
  siteId: number,
  input: CheckinInput,
): Promise<CommandResult<PersonVisit>> {
  const { db } = ctx;
  const { at, deviceAt } = readStamp(ctx);
  const occurredAt = new Date(at).toISOString();
  const parsed = CreateCheckinRequest.safeParse(createBody(input, occurredAt));
  if (!parsed.success) {
    const fields = (await db.siteConfigs.get(siteId))?.config.fields ?? defaultCheckinConfig.fields;
    const errors = parsed.error.issues.map((issue) => plainIssue(issue, fields));
    return refused('VALIDATION_FAILED', 'The check-in is not valid.', errors);
  }
  const body = parsed.data;
  // Decided before the screen confirms, so a watchlisted visitor is never welcomed (the server decides again).
  const watchlisted = await onWatchlist(db, siteId, body.person);
  const result = await db.transaction(
    'rw',
    [db.outbox, db.people, db.siteConfigs, db.meta],
    async (): Promise<CommandResult<PersonVisit>> => {
      const config = (await db.siteConfigs.get(siteId))?.config ?? { siteId, ...defaultCheckinConfig };
      const errors = validateCheckinForm(config.fields, body);
      if (errors.length > 0)
        return refused('VALIDATION_FAILED', 'The check-in does not meet the site configuration.', errors);
      // The form this person filled in, read in the same transaction as it was checked against: a server whose
      // form has moved on since accepts what met it, and tells reception what is missing (docs/api.md).
      const sent = typeof config.version === 'number' ? { ...body, formVersion: config.version } : body;
      const visitId = ctx.randomUUID();
      const predicted = initialPersonStatus({ watchlisted, requiresApproval: config.requiresApproval });
      const { person } = body;
      const visit: PersonVisit = {
        visitId,
        siteId,
        person: {
          firstName: person.firstName ?? '',
          lastName: person.lastName ?? '',
          email: person.email ?? null,
          phone: person.phone ?? null,
          company: person.company ?? null,
        },
        hostName: body.hostName ?? blankToUndefined(input.hostName) ?? null,
        purpose: body.purpose ?? null,
        status: predicted,
        entryAt: occurredAt,
        exitAt: null,
        breaks: [],
        lastEventAt: occurredAt,
        predicted,
        confirmed: null,
        syncedAt: 0,
      };
      await db.people.add(visit);
      await db.outbox.add({
        ...queued(ctx, { visitId, siteId, occurredAt, deviceAt }),
        kind: 'PERSON_CHECKIN',
        body: sent,
      });
      if (input.pass) await recordPassUsed(db, input.pass.claims, ctx.now());
      return { ok: true, value: visit };
    },
  );
  if (result.ok) ctx.onEnqueued?.();
  return result;
}

const kinds = {
  BREAK_START: 'PERSON_BREAK_START',
  BREAK_END: 'PERSON_BREAK_END',
  CHECKOUT: 'PERSON_CHECKOUT',
} as const;

/** Starts a break, ends it, or checks out, if the shared state machine allows it from what the kiosk shows. */
async function personAction(
  ctx: CommandContext,
  visitId: string,
  type: keyof typeof kinds,
): Promise<CommandResult<PersonVisit>> {
  const { db } = ctx;
  const result = await db.transaction('rw', [db.outbox, db.people], async (): Promise<CommandResult<PersonVisit>> => {
    const visit = await db.people.get(visitId);
    if (!visit) return refused('NOT_FOUND', 'This visit is not on this kiosk.');
    const { status } = visit;
    // A status newer than this kiosk: whether the action is allowed, and what it leads to, is unknown here.
    if (!isKnown(personStatuses, status)) {
      return refused(
        'UNKNOWN_STATUS',
        `The server has this visit as ${status}, a status this kiosk does not know: please ask at reception.`,
      );
    }
    const stamp = readStamp(ctx);
    const at = new Date(stamp.at);
    const event: PersonEvent = { type, occurredAt: at };
    const decision = transitionPerson({ status, lastEventAt: new Date(visit.lastEventAt) }, event, at);
    if (!decision.ok) return refused(decision.code, decision.message);
    const occurredAt = at.toISOString();
    const fields = { visitId, siteId: visit.siteId, occurredAt, deviceAt: stamp.deviceAt };
    await db.outbox.add({ ...queued(ctx, fields), kind: kinds[type], body: { occurredAt } });
    const refreshed = await refreshVisit(db, personVisits, visitId);
    return refreshed ? { ok: true, value: refreshed } : refused('NOT_FOUND', 'This visit is not on this kiosk.');
  });
  if (result.ok) ctx.onEnqueued?.();
  return result;
}

export const startBreak = (ctx: CommandContext, visitId: string) => personAction(ctx, visitId, 'BREAK_START');
export const endBreak = (ctx: CommandContext, visitId: string) => personAction(ctx, visitId, 'BREAK_END');
export const checkOut = (ctx: CommandContext, visitId: string) => personAction(ctx, visitId, 'CHECKOUT');
