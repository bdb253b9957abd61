import { z } from 'zod';
import { Id } from '../../../shared/src/schemas/common';

/** Path parameters shared by the route groups; a value that is not a positive integer is a 404. */
export const SiteParams = z.object({ siteId: Id });
export const CheckinParams = z.object({ siteId: Id, checkinId: Id });
export const LabelParams = z.object({ labelId: Id });
export const AccountParams = z.object({ accountId: Id });
export const TokenParams = z.object({ tokenId: Id });
