/** How people are compared with the watchlist (CONTRACT §5): email case-insensitive, phone by digits, full name case-insensitive. */
export function normalizeEmail(email: string | undefined | null): string | null {
  const value = email?.trim().toLowerCase();
  return value ? value : null;
}

export function normalizePhone(phone: string | undefined | null): string | null {
  const digits = phone?.replace(/\D/g, '');
  return digits ? digits : null;
}

export function normalizeName(firstName: string | undefined | null, lastName: string | undefined | null): string | null {
  const first = firstName?.trim().toLowerCase().replace(/\s+/g, ' ');
  const last = lastName?.trim().toLowerCase().replace(/\s+/g, ' ');
  return first && last ? `${first} ${last}` : null;
}
