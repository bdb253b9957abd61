import { z } from 'zod';

/** Positive integer identifier (siteId, checkinId, …). */
export const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** An id kept in a PostgreSQL `integer` column (sites, labels, accounts, tokens, watchlist entries): a larger one names nothing. */
export const IntId = Id.max(2_147_483_647);

/** RFC 3339 UTC timestamp with milliseconds, as the API writes them. */
export const Timestamp = z.iso.datetime({ precision: 3 });

/** An RFC 3339 instant a client sends (any offset, any precision). */
export const Instant = z.iso.datetime({ offset: true });

/** A search's overlap range (`overlapsFrom`, `overlapsTo`) may not end before it starts. */
export const overlapInOrder = (body: { overlapsFrom?: string; overlapsTo?: string }): boolean =>
  !body.overlapsFrom || !body.overlapsTo || Date.parse(body.overlapsFrom) <= Date.parse(body.overlapsTo);

export const sources = ['API', 'KIOSK', 'QR_CODE', 'WORKFORCE', 'MANUAL', 'OTHER'] as const;
export const Source = z.enum(sources);
export type Source = z.infer<typeof Source>;

export const channels = ['API', 'KIOSK'] as const;
export const Channel = z.enum(channels);
export type Channel = z.infer<typeof Channel>;

/** Text that is refused when blank (trimmed first), so a document can say so (`pattern: \S`). */
export const nonBlankTexts = z.registry<{ nonBlank: true }>();

/** Non-empty trimmed text of bounded length. */
export const Text = (max: number) => {
  const text = z.string().trim().min(1).max(max);
  nonBlankTexts.add(text, { nonBlank: true });
  return text;
};

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export const Limit = z.number().int().min(1).max(MAX_PAGE_SIZE);
export const Cursor = z.string().min(1).max(512);
/**
 * A cursor in a search body: any string here, checked by the server as it decodes it, so a malformed one
 * is a 400 INVALID_QUERY as in a query string (docs/api.md, Pagination), not a body validation error.
 */
export const BodyCursor = z.string();

/** `limit` and `cursor` as they arrive in a query string. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: Cursor.optional(),
});

/** The list envelope (docs/api.md, Pagination). */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable() });

/** Each comma-separated query value and the values it takes, so a document can describe it as the array it reads as. */
export const commaLists = z.registry<{ values: readonly string[] }>();

/** A comma-separated query value (`status=IN,ON_BREAK`) read as an array of enum values. */
export const commaList = <T extends readonly [string, ...string[]]>(values: T) => {
  const list = z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .pipe(z.array(z.enum(values)).min(1));
  commaLists.add(list, { values });
  return list;
};

/** RFC 9457 problem details as every error response carries them (docs/api.md, Errors). */
export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  code: z.string(),
  instance: z.string(),
  requestId: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  current: z.unknown().optional(),
});
export type Problem = z.infer<typeof Problem>;
