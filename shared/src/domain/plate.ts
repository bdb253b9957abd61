/** Longest normalized plate (docs/api.md, License plates), counted in characters (code points), not UTF-16 units. */
export const MAX_PLATE_LENGTH = 16;

// What a gate, a fleet system and a person typing may put between the parts of one plate: `AB-123 CD`,
// `AB.123.CD`, `AB·123·CD` are all `AB123CD`. Any white space counts as a space (a scanner may send a tab).
const SEPARATORS = /[\s\-.·]/gu;

// After upper-casing: A–Z, 0–9, and letters of any other script (Ä, Ж, 品 …); nothing else.
const NORMALIZED = new RegExp(`^(?:[A-Z0-9]|\\p{L}){1,${MAX_PLATE_LENGTH}}$`, 'u');

/**
 * The form plates are compared in (docs/api.md, License plates). NFKC before the separators go (a full-width
 * hyphen is a hyphen) and again after upper-casing; idempotent, and the server and the kiosk share it.
 */
export function normalizePlate(plate: string): string {
  return plate.normalize('NFKC').replace(SEPARATORS, '').toUpperCase().normalize('NFKC');
}

/** Why a plate as entered cannot be a plate, or undefined when it can. */
export function plateProblem(plate: string): string | undefined {
  const normalized = normalizePlate(plate);
  if (normalized === '') return 'A license plate needs at least one letter or digit';
  if ([...normalized].length > MAX_PLATE_LENGTH) {
    return `A license plate has at most ${MAX_PLATE_LENGTH} letters and digits (separators not counted)`;
  }
  if (!NORMALIZED.test(normalized)) {
    return 'A license plate holds letters, digits 0-9, spaces, "-", "." and "·" only';
  }
  return undefined;
}

/** True when the plate, once normalized, is 1–16 of A–Z, 0–9 or letters of other scripts. */
export function isValidPlate(plate: string): boolean {
  return plateProblem(plate) === undefined;
}
