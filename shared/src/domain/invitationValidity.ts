import { addDays, siteDate, startOfSiteDay } from './siteDay';

/** The longest a pass may be valid: a year and a day (a long contract on site), not for ever. */
export const MAX_VALIDITY_DAYS = 366;

/** Whole seconds: a pass states its validity in seconds, so the invitation keeps exactly what the pass says. */
export const toWholeSecond = (at: Date): Date => new Date(Math.floor(at.getTime() / 1000) * 1000);

/**
 * When an invitation's pass is valid (docs/invitations.md, Validity): as asked, or else the expected day at
 * the site (its local midnight to the next), in whole seconds.
 */
export function invitationValidity(input: {
  expectedAt: Date;
  validFrom?: Date;
  validUntil?: Date;
  timezone: string;
}): { validFrom: Date; validUntil: Date } {
  const day = siteDate(input.expectedAt, input.timezone);
  return {
    validFrom: toWholeSecond(input.validFrom ?? startOfSiteDay(day, input.timezone)),
    validUntil: toWholeSecond(input.validUntil ?? startOfSiteDay(addDays(day, 1), input.timezone)),
  };
}

/** Why an invitation's times cannot be, each at its field, or none. `now`: when it is written. */
export function validityErrors(
  times: { expectedAt: Date; validFrom: Date; validUntil: Date },
  now: Date,
): Array<{ path: string; message: string }> {
  const errors: Array<{ path: string; message: string }> = [];
  if (times.validFrom >= times.validUntil)
    errors.push({ path: 'validUntil', message: 'validUntil must be after validFrom' });
  else if (times.validUntil.getTime() - times.validFrom.getTime() > MAX_VALIDITY_DAYS * 86_400_000)
    errors.push({ path: 'validUntil', message: `A pass is valid for at most ${MAX_VALIDITY_DAYS} days` });
  if (times.validUntil <= now)
    errors.push({ path: 'validUntil', message: 'validUntil has passed: the pass would never be valid' });
  if (times.expectedAt < times.validFrom || times.expectedAt >= times.validUntil)
    errors.push({ path: 'expectedAt', message: 'expectedAt must be within validFrom and validUntil' });
  return errors;
}
