import { z } from 'zod';
import { SiteIdList } from './audit';
import { Instant } from './common';
import { LicensePlate } from './vehicles';

/** A calendar day (read in each site's time zone) or an RFC 3339 instant. */
const DayOrInstant = z.union([z.iso.date(), Instant]);
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

const range = {
  siteIds: SiteIdList.optional(),
  from: DayOrInstant,
  to: DayOrInstant,
};

// Two days, or two instants: `to` may not come before `from` (a day against an instant depends on the site).
const inOrder = ({ from, to }: { from: string; to: string }) =>
  isDay(from) !== isDay(to) ? true : isDay(from) ? from <= to : Date.parse(from) <= Date.parse(to);
const toAfterFrom = { message: '`to` is before `from`', path: ['to'] };

/** The query of a CSV export (docs/api.md, Export): the visits overlapping [from, to] on these sites. */
export const ExportQuery = z.strictObject(range).refine(inOrder, toAfterFrom);
export type ExportQuery = z.infer<typeof ExportQuery>;

/** The people export also takes the search's `q`, so a list and its file hold the same visits. */
export const PersonExportQuery = z
  .strictObject({ ...range, q: z.string().trim().min(1).max(100).optional() })
  .refine(inOrder, toAfterFrom);
export type PersonExportQuery = z.infer<typeof PersonExportQuery>;

/** The body of a 200: CSV text, UTF-8 with a byte order mark. */
export const CsvText = z
  .string()
  .meta({ description: 'RFC 4180 CSV with a header row, UTF-8 with a byte order mark.' });

/** The vehicle export also takes the search's `licensePlate`: that plate's visits only. */
export const VehicleExportQuery = z
  .strictObject({ ...range, licensePlate: LicensePlate.optional() })
  .refine(inOrder, toAfterFrom);
export type VehicleExportQuery = z.infer<typeof VehicleExportQuery>;
