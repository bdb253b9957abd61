import { randomBytes } from 'node:crypto';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { hashSessionId } from '../../server/src/auth/sessions';
import { generateToken, hashToken } from '../../server/src/auth/tokenFormat';
import { type Executor, queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';

/** One site of the fleet and what its three clients sign in with. */
export interface FleetSite {
  siteId: number;
  accountId: number;
  requiresApproval: boolean;
  visitorToken: string;
  gateToken: string;
  /** The console's session cookie value (a reception user of this site alone). */
  sessionId: string;
  /** Plates registered in the account that this site's gate sees arrive. */
  plates: string[];
}

export interface SeedOptions {
  sites: number;
  sitesPerAccount: number;
  /** Share of sites whose form requires approval (their visits wait for the console). */
  approvalShare: number;
  platesPerSite: number;
  /** People and vehicles already on each site when the peak starts. */
  peopleOnSite: number;
  vehiclesOnSite: number;
}

const hex = (buffer: Buffer) => buffer.toString('hex');

/**
 * The fleet in bulk statements (thousands of sites in seconds): accounts of `sitesPerAccount` sites, each
 * site with a paired visitor kiosk and gate kiosk (KIOSK tokens and kiosk rows), a reception user with a
 * session, registered vehicles, and the people and vehicles on site at the start of the peak.
 */
export async function seedFleet(db: Executor, options: SeedOptions): Promise<FleetSite[]> {
  const fleet: FleetSite[] = [];
  // In chunks: each statement's triggers take one advisory lock per site (the people feed) or account (the
  // vehicle feed) until commit, and the lock table holds a few thousand.
  const chunk = options.sitesPerAccount * 20;
  while (fleet.length < options.sites) {
    fleet.push(...(await seedChunk(db, { ...options, sites: Math.min(chunk, options.sites - fleet.length) })));
  }
  return fleet;
}

async function seedChunk(db: Executor, options: SeedOptions): Promise<FleetSite[]> {
  const accountCount = Math.ceil(options.sites / options.sitesPerAccount);
  const accounts = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO accounts (name) SELECT 'Fleet ' || g FROM generate_series(1, ${accountCount}) g RETURNING id`,
  );
  const accountOf = Array.from(
    { length: options.sites },
    (_, index) => accounts[Math.floor(index / options.sitesPerAccount)]?.id ?? 0,
  );
  const approvalEvery = options.approvalShare > 0 ? Math.round(1 / options.approvalShare) : 0;
  const configs = accountOf.map((_, index) =>
    JSON.stringify({ ...defaultCheckinConfig, requiresApproval: approvalEvery > 0 && index % approvalEvery === 0 }),
  );
  const sites = await queryRows<{ id: number; account_id: number; approval: boolean }>(
    db,
    sql`INSERT INTO sites (account_id, name, checkin_config)
        SELECT a, 'Fleet site ' || n, c::jsonb FROM unnest(${accountOf}::int[], ${configs}::text[]) WITH ORDINALITY AS s(a, c, n)
        ORDER BY n RETURNING id, account_id, (checkin_config->>'requiresApproval')::boolean AS approval`,
  );
  const tokens = sites.flatMap(() => [generateToken(), generateToken()]);
  const tokenIds = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO api_tokens (account_id, name, token_hash, all_sites, scopes, channel)
        SELECT a, 'Fleet kiosk', decode(h, 'hex'), false,
          CASE WHEN n % 2 = 1 THEN ARRAY['kiosk:visitor'] ELSE ARRAY['kiosk:gate'] END, 'KIOSK'
        FROM unnest(${sites.flatMap((site) => [site.account_id, site.account_id])}::int[], ${tokens.map((token) => hex(hashToken(token)))}::text[])
          WITH ORDINALITY AS t(a, h, n)
        ORDER BY n RETURNING id`,
  );
  const siteOfToken = sites.flatMap((site) => [site.id, site.id]);
  const accountOfToken = sites.flatMap((site) => [site.account_id, site.account_id]);
  const ids = tokenIds.map((row) => row.id);
  await queryRows(
    db,
    sql`INSERT INTO token_sites (account_id, token_id, site_id)
        SELECT * FROM unnest(${accountOfToken}::int[], ${ids}::int[], ${siteOfToken}::int[])`,
  );
  await queryRows(
    db,
    sql`INSERT INTO kiosks (account_id, site_id, mode, name, token_id, created_at, paired_at)
        SELECT a, s, CASE WHEN n % 2 = 1 THEN 'visitor' ELSE 'gate' END, 'Fleet kiosk', t, now(), now()
        FROM unnest(${accountOfToken}::int[], ${siteOfToken}::int[], ${ids}::int[]) WITH ORDINALITY AS k(a, s, t, n)`,
  );
  const users = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO staff_users (account_id, email, name, role, created_at)
        SELECT a, 'reception' || n || '.' || ${randomBytes(4).toString('hex')} || '@fleet.example', 'Reception ' || n, 'reception', now()
        FROM unnest(${sites.map((site) => site.account_id)}::int[]) WITH ORDINALITY AS u(a, n) ORDER BY n RETURNING id`,
  );
  const userIds = users.map((row) => row.id);
  await queryRows(
    db,
    sql`INSERT INTO staff_user_sites (account_id, user_id, site_id)
        SELECT * FROM unnest(${sites.map((site) => site.account_id)}::int[], ${userIds}::int[], ${sites.map((site) => site.id)}::int[])`,
  );
  const sessionIds = sites.map(() => randomBytes(32).toString('base64url'));
  await queryRows(
    db,
    sql`INSERT INTO staff_sessions (id_hash, account_id, user_id, created_at, last_seen_at)
        SELECT decode(h, 'hex'), a, u, now(), now()
        FROM unnest(${sessionIds.map((id) => hex(hashSessionId(id)))}::text[], ${sites.map((site) => site.account_id)}::int[], ${userIds}::int[]) AS s(h, a, u)`,
  );
  const plates = sites.map((site) =>
    Array.from({ length: options.platesPerSite }, (_, index) => `F${site.id}-${index + 1}`),
  );
  await queryRows(
    db,
    sql`INSERT INTO vehicles (account_id, license_plate, plate_norm, make, created_at, updated_at)
        SELECT a, p, replace(p, '-', ''), 'Fleet', now(), now()
        FROM unnest(${sites.flatMap((site, index) => plates[index]?.map(() => site.account_id) ?? [])}::int[], ${plates.flat()}::text[]) AS v(a, p)`,
  );
  await seedOnSite(db, sites, plates, options);
  return sites.map((site, index) => ({
    siteId: site.id,
    accountId: site.account_id,
    requiresApproval: site.approval,
    visitorToken: tokens[index * 2] ?? '',
    gateToken: tokens[index * 2 + 1] ?? '',
    sessionId: sessionIds[index] ?? '',
    plates: plates[index] ?? [],
  }));
}

/** The people and registered vehicles on each site as the peak begins (entered during the last hours). */
async function seedOnSite(
  db: Executor,
  sites: Array<{ id: number; account_id: number }>,
  plates: string[][],
  options: SeedOptions,
): Promise<void> {
  await queryRows(
    db,
    sql`INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, company, entry_source, entry_at,
          last_event_at, created_at, updated_at)
        SELECT s.a, s.s, 'IN', 'Early' || g, 'Visitor', 'Fleet Ltd', 'KIOSK', now() - g * interval '7 minutes',
          now() - g * interval '7 minutes', now(), now()
        FROM unnest(${sites.map((site) => site.account_id)}::int[], ${sites.map((site) => site.id)}::int[]) AS s(a, s),
          generate_series(1, ${options.peopleOnSite}) g`,
  );
  const onSite = sites.flatMap((site, index) =>
    (plates[index] ?? []).slice(0, options.vehiclesOnSite).map((plate) => ({ site, plate })),
  );
  await queryRows(
    db,
    sql`INSERT INTO vehicle_checkins (account_id, site_id, vehicle_id, license_plate, plate_norm, status, entry_source,
          entry_at, last_event_at, created_at, updated_at)
        SELECT v.a, v.s, x.id, v.p, x.plate_norm, 'IN', 'KIOSK', now() - interval '1 hour', now() - interval '1 hour', now(), now()
        FROM unnest(${onSite.map((item) => item.site.account_id)}::int[], ${onSite.map((item) => item.site.id)}::int[],
          ${onSite.map((item) => item.plate)}::text[]) AS v(a, s, p)
        JOIN vehicles x ON x.account_id = v.a AND x.license_plate = v.p`,
  );
}
