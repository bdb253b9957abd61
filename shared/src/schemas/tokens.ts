import { z } from 'zod';
import { Channel, Id, PageQuery, Text, page } from './common';
import { Scope, Token } from './admin';

/** `GET /v1/tokens`: the account's tokens that are not revoked, newest first; optionally of one channel. */
export const TokenListQuery = PageQuery.extend({ channel: Channel.optional() });
export type TokenListQuery = z.infer<typeof TokenListQuery>;

export const TokenPage = page(Token);
export type TokenPage = z.infer<typeof TokenPage>;

/**
 * `POST /v1/tokens`: an `API` token, for sites and scopes the caller has itself (least privilege); without
 * `scopes`, the API defaults the caller has. Kiosk tokens are made by `POST /v1/kiosks`.
 */
export const CreateApiTokenRequest = z
  .strictObject({
    name: Text(200),
    siteIds: z.array(Id).max(1000).optional(),
    allSites: z.boolean().optional(),
    scopes: z.array(Scope).optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((token) => !(token.allSites && token.siteIds), { message: 'Give siteIds or allSites, not both' })
  .refine((token) => token.allSites === true || token.siteIds !== undefined, {
    message: 'Give siteIds or allSites: true',
  });
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;
