import type { Channel } from '../../../shared/src/schemas/common';
import { type Executor, queryRows } from '../db/query';
import { empty, sql } from '../db/sql';
import { type TokenRecord, type TokenRow, tokenSelect, toTokenRecord } from './tokenRows';
import { beforeId, cursorScope, idPage } from './cursor';

/** A page of an account's live tokens, newest first (keyset on the id), optionally of one channel. */
export async function listTokens(
  db: Executor,
  input: { accountId: number; channel?: Channel; limit: number; cursor?: string },
): Promise<{ data: TokenRecord[]; nextCursor: string | null }> {
  const scope = cursorScope('tokens', { accountId: input.accountId, channel: input.channel ?? null });
  const before = beforeId(input.cursor, scope);
  const rows = await queryRows<TokenRow>(
    db,
    tokenSelect(
      sql`t.account_id = ${input.accountId} ${input.channel ? sql`AND t.channel = ${input.channel}` : empty}
          ${before === null ? empty : sql`AND t.id < ${before}`}`,
      input.limit + 1,
    ),
  );
  return idPage(rows, input.limit, toTokenRecord, scope);
}
