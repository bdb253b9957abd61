import { randomBytes } from 'node:crypto';

/**
 * A new visit's badge code: 96 random bits, base64url (16 characters). Its badge's QR code carries it, so a
 * kiosk checks out only the visit whose badge was scanned, never one whose id was guessed (docs/api.md, Badges).
 */
export const newBadgeCode = (): string => randomBytes(12).toString('base64url');
