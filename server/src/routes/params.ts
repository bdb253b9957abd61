import { z } from 'zod';
import { Id, IntId } from '../../../shared/src/schemas/common';

/**
 * Path parameters shared by the route groups; a value that is not a positive integer is a 404. Ids kept in
 * `integer` columns are bounded by that type, so an id past it is a 404 too (not a database error).
 */
export const SiteParams = z.object({ siteId: IntId });
export const CheckinParams = z.object({ siteId: IntId, checkinId: Id });
export const LabelParams = z.object({ labelId: IntId });
export const AccountParams = z.object({ accountId: IntId });
export const TokenParams = z.object({ tokenId: IntId });
