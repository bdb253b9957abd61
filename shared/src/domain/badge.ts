import type { PersonStatus } from './personCheckin';
import { addDays, siteDate, startOfSiteDay } from './siteDay';

/**
 * Visitor badges (docs/running-a-site.md, Badges): the label sizes, when a visit gets one, how long it is
 * valid, and the text of its QR code. Pure: the time is passed in.
 */

/** The label sizes a site may choose, named width x height in millimetres as the badge is read. */
export const badgeSizes = ['62x100', '54x101', '89x36', 'A6'] as const;
export type BadgeSize = (typeof badgeSizes)[number];

/** Each size's page in millimetres, and the label it fits. */
export const badgePages: Record<BadgeSize, { widthMm: number; heightMm: number; label: string }> = {
  '62x100': { widthMm: 62, heightMm: 100, label: 'Brother DK-11202 (62 × 100 mm)' },
  '54x101': { widthMm: 54, heightMm: 101, label: 'DYMO 99014 (54 × 101 mm)' },
  '89x36': { widthMm: 89, heightMm: 36, label: 'DYMO 99012 (89 × 36 mm)' },
  A6: { widthMm: 105, heightMm: 148, label: 'A6 paper (105 × 148 mm)' },
};

/** A new site's badge settings (the database's defaults): off, on the Brother 62 × 100 mm label. */
export const defaultBadgeSettings: { enabled: boolean; size: BadgeSize } = { enabled: false, size: '62x100' };

/** Why a visit in this status gets no badge, or undefined when it gets one (IN and ON_BREAK). */
export function badgeRefusal(
  status: PersonStatus,
): { code: 'CHECKIN_NOT_ADMITTED' | 'CHECKIN_CLOSED'; reason: string } | undefined {
  switch (status) {
    case 'IN':
    case 'ON_BREAK':
      return undefined;
    case 'PENDING':
      return {
        code: 'CHECKIN_NOT_ADMITTED',
        reason: 'is waiting for approval: its badge can be printed once approved',
      };
    case 'STOP':
      return { code: 'CHECKIN_NOT_ADMITTED', reason: 'was not admitted: no badge is printed for it' };
    case 'OUT':
      // A badge for a visit that has ended would let someone back in who has left.
      return { code: 'CHECKIN_CLOSED', reason: 'has checked out: no badge is printed for it' };
  }
}

/**
 * The last instant a badge printed at `printedAt` is valid: the end of that day at the site (its 23:59:59.999
 * in the site's time zone). A visit that goes on past midnight gets a new badge the next day.
 */
export function badgeValidUntil(printedAt: Date, timeZone: string): Date {
  const nextDay = addDays(siteDate(printedAt, timeZone), 1);
  return new Date(startOfSiteDay(nextDay, timeZone).getTime() - 1);
}

/** What a badge's QR code names: the visit, its site, and the visit's random badge code. */
export interface BadgeScan {
  siteId: number;
  checkinId: number;
  code: string;
}

const QR_PREFIX = 'gatehouse://checkout?';
/** Badge codes are base64url: 16 characters (96 random bits) as the server makes them. */
const CODE = /^[A-Za-z0-9_-]{16,64}$/;
const ID = /^[1-9][0-9]{0,15}$/;

/** The text of a badge's QR code: `gatehouse://checkout?site=1&checkin=42&code=…` (docs/api.md, Badges). */
export function badgeQrText(scan: BadgeScan): string {
  return `${QR_PREFIX}site=${scan.siteId}&checkin=${scan.checkinId}&code=${scan.code}`;
}

/** True when typed or scanned text is meant as a badge (even a damaged one), not a name. */
export const looksLikeBadgeScan = (text: string): boolean => text.trim().toLowerCase().startsWith('gatehouse://');

/** Reads a badge's QR text; undefined when it is not one (a name typed, a damaged scan). */
export function parseBadgeQr(text: string): BadgeScan | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith(QR_PREFIX)) return undefined;
  const params = new URLSearchParams(trimmed.slice(QR_PREFIX.length));
  const site = params.get('site') ?? '';
  const checkin = params.get('checkin') ?? '';
  const code = params.get('code') ?? '';
  if (!ID.test(site) || !ID.test(checkin) || !CODE.test(code)) return undefined;
  return { siteId: Number(site), checkinId: Number(checkin), code };
}
