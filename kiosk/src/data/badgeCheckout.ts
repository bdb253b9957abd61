import { parseBadgeQr } from '../../../shared/src/domain/badge';
import { type CommandContext, type CommandResult, refused } from './command';
import { checkOut } from './personCommands';
import type { PersonVisit } from './types';

/**
 * Checks out the visit whose badge was scanned (docs/api.md, Badges), from the kiosk's own data, so it works
 * offline: the badge must be of this kiosk's site and carry the code the server gave that visit, so a
 * badge of another site, a guessed id or a damaged scan checks out nobody. The checkout is then the same
 * queued action as one chosen by name.
 */
export async function checkOutByBadge(
  ctx: CommandContext,
  siteId: number,
  scanned: string,
): Promise<CommandResult<PersonVisit>> {
  const badge = parseBadgeQr(scanned);
  if (!badge)
    return refused(
      'BADGE_UNREADABLE',
      'This code is not a visitor badge of ours. Please try again, or find your name.',
    );
  if (badge.siteId !== siteId)
    return refused(
      'BADGE_OTHER_SITE',
      'This badge is for another site. Please check out where you checked in, or ask at reception.',
    );
  const visit = await ctx.db.people.where('serverId').equals(badge.checkinId).first();
  // The code is compared, not just the id: an id is easy to guess, the code is not.
  const matches =
    visit !== undefined &&
    visit.siteId === siteId &&
    !!visit.confirmed?.badgeCode &&
    visit.confirmed.badgeCode === badge.code;
  if (matches && visit.status === 'OUT')
    return refused('CHECKIN_CLOSED', 'This visit is already checked out. Goodbye!');
  // Only a visit on site is checked out by its badge (a badge is printed for no other): a PENDING or STOP
  // visit reads as unknown, as on the Check out search.
  if (!matches || (visit.status !== 'IN' && visit.status !== 'ON_BREAK'))
    return refused(
      'BADGE_UNKNOWN',
      'This badge does not belong to anyone on site now. Please find your name, or ask at reception.',
    );
  return checkOut(ctx, visit.visitId);
}
