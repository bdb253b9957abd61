/**
 * A length of time as a person would say it: whole minutes below `hoursFrom` minutes, then about so many
 * hours below `daysFrom` hours, then about so many days. Each screen picks where it stops counting finer.
 */
export function roughDuration(ms: number, switchAt: { hoursFrom: number; daysFrom: number }): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < switchAt.hoursFrom) return `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours < switchAt.daysFrom ? `about ${hours} hours` : `about ${Math.round(hours / 24)} days`;
}
