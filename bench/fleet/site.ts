import { randomUUID } from 'node:crypto';
import type { StreamMessage } from '../../shared/src/client/eventStream';
import { type PoolResponse, type RawStream, type RequestPool, openRawStream } from './http';
import type { FleetSite } from './seed';
import type { ClientKind, EventClock, FleetStats, Operation } from './stats';

/** The morning peak per site and hour (CONTRACT §25: 20 % of a day's 100 person and 30 vehicle visits). */
export const PEAK = {
  personArrivals: 20,
  personDepartures: 20,
  breakStarts: 6,
  breakEnds: 6,
  vehicleArrivals: 6,
  vehicleDepartures: 6,
  /** Plates the gate does not know: PENDING, admitted at the gate. */
  unknownPlateShare: 0.3,
} as const;
const HEARTBEAT_MS = 60_000;
/** With its stream open and nothing new to report, a kiosk beats this rarely (docs/event-stream-clients.md, Heartbeats). */
const QUIET_HEARTBEAT_MS = 15 * 60_000;
const PULL_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;

/** What every site's clients share: the request pool, the stats, and whether the fleet is running. */
export interface FleetContext {
  pool: RequestPool;
  host: string;
  port: number;
  origin: string;
  stats: FleetStats;
  /** False while paused (calibration): timers fire but do nothing, and events cause no requests. */
  running: () => boolean;
  /** Each kiosk write, by `kind:checkinId`, until its site's console sees its event. */
  writes: EventClock;
  streams: { open: number };
}

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const exponential = (meanMs: number) => -Math.log(1 - Math.random()) * meanMs;
const jittered = (ms: number) => ms * (0.9 + Math.random() * 0.2);

interface Json {
  [key: string]: unknown;
}
const parse = (response: PoolResponse | undefined): Json | undefined => {
  if (!response || response.status >= 300 || response.body === '') return undefined;
  return JSON.parse(response.body) as Json;
};
const etagOf = (response: PoolResponse | undefined) => /\r\netag:\s*(.+)/i.exec(response?.head ?? '')?.[1]?.trim();

/**
 * One site's three clients, behaving as the new ones will (docs/event-stream-clients.md): a visitor kiosk
 * (check-ins, breaks, check-outs; the people feed), a gate kiosk (entries, admits, exits; one visit re-read
 * per event, the vehicle feed) and an open console (one visit re-read per event, approvals, alerts). Each
 * holds one event stream, reacts to its site's events and pulls every 5 minutes; a kiosk looks every minute
 * whether a heartbeat is due: always while its stream is not open, else every 15 minutes (what it reports,
 * no pending and no attention, never changes here).
 */
export class SiteClients {
  private readonly people = new Map<number, string>();
  private readonly vehicles = new Map<number, { plate: string; status: string }>();
  /** The console's copy: each visit it shows, by `kind:checkinId`, with its status. */
  private readonly consoleKnows = new Map<string, string>();
  private feedCursor: string | undefined;
  private feedPulling = false;
  private feedAgain = false;
  private vehicleCursor: string | undefined;
  private configTag: string | undefined;
  private digestTag: string | undefined;
  private readonly streams = new Map<ClientKind, RawStream>();
  /** The kiosks whose stream is open now: the server counts it as their being seen. */
  private readonly streamOpen = new Set<ClientKind>();
  /** When each kiosk's last heartbeat went: at a random point of the quiet period before the fleet started. */
  private readonly beatAt = new Map<ClientKind, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly site: FleetSite,
    private readonly fleet: FleetContext,
  ) {}

  start(): void {
    for (const kind of ['visitor', 'gate', 'console'] as const) this.follow(kind);
    const perHour = (count: number) => HOUR_MS / count;
    this.poisson(perHour(PEAK.personArrivals), () => void this.arrive());
    this.poisson(perHour(PEAK.personDepartures), () => void this.personAction('checkout', ['IN', 'ON_BREAK']));
    this.poisson(perHour(PEAK.breakStarts), () => void this.personAction('breaks/start', ['IN']));
    this.poisson(perHour(PEAK.breakEnds), () => void this.personAction('breaks/end', ['ON_BREAK']));
    this.poisson(perHour(PEAK.vehicleArrivals), () => void this.enter());
    this.poisson(perHour(PEAK.vehicleDepartures), () => void this.leave());
    for (const kind of ['visitor', 'gate'] as const) {
      // Kiosks that have been on all night: each one's quiet period began at a random moment.
      this.beatAt.set(kind, performance.now() - Math.random() * QUIET_HEARTBEAT_MS);
      this.periodic(HEARTBEAT_MS, () => void this.heartbeatIfDue(kind));
    }
    this.periodic(PULL_MS, () => void this.visitorPull());
    this.periodic(PULL_MS, () => void this.gatePull());
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const stream of this.streams.values()) stream.close();
  }

  // The requests, by client.

  call(operation: Operation, method: string, path: string, body?: unknown): Promise<PoolResponse | undefined> {
    const kind = operation.slice(0, operation.indexOf('.')) as ClientKind;
    const headers: Record<string, string> =
      kind === 'console'
        ? { Cookie: `gh_session=${this.site.sessionId}`, Origin: this.fleet.origin }
        : { Authorization: `Bearer ${kind === 'visitor' ? this.site.visitorToken : this.site.gateToken}` };
    if (method !== 'GET') headers['Idempotency-Key'] = randomUUID();
    return this.fleet.pool.request(method, path, headers, body === undefined ? undefined : JSON.stringify(body)).then(
      (response) => {
        this.fleet.stats.request(operation, response.ms, response.status, response.body);
        return response;
      },
      (error: unknown) => {
        this.fleet.stats.failed(`${operation} ${String(error)}`);
        return undefined;
      },
    );
  }

  private get base(): string {
    return `/v1/sites/${this.site.siteId}`;
  }

  async arrive(): Promise<Json | undefined> {
    const sent = performance.now();
    const response = await this.call('visitor.create', 'POST', `${this.base}/checkins/people`, {
      person: { firstName: 'Peak', lastName: `Visitor ${Math.floor(Math.random() * 1e6)}`, company: 'Fleet Ltd' },
      occurredAt: new Date().toISOString(),
    });
    const created = parse(response);
    if (typeof created?.checkinId === 'number') {
      this.fleet.writes.wrote(`person:${created.checkinId}`, sent);
      // The answer puts the visit on the kiosk's screen; its event, when it comes, is then an echo.
      this.people.set(created.checkinId, String(created.status));
    }
    return created;
  }

  async personAction(action: string, from: string[]): Promise<void> {
    const candidates = [...this.people].filter(([, status]) => from.includes(status)).map(([id]) => id);
    const checkinId = pick(candidates);
    if (checkinId === undefined) return;
    // As the kiosk does: the local copy moves at once; the feed brings the server's word.
    this.people.set(checkinId, action === 'breaks/start' ? 'ON_BREAK' : action === 'checkout' ? 'OUT' : 'IN');
    const operation: Operation =
      action === 'checkout' ? 'visitor.checkout' : `visitor.${action === 'breaks/start' ? 'break' : 'breakEnd'}`;
    const sent = performance.now();
    const response = await this.call(operation, 'POST', `${this.base}/checkins/people/${checkinId}/${action}`, {
      occurredAt: new Date().toISOString(),
    });
    if (response && response.status < 300) this.fleet.writes.wrote(`person:${checkinId}`, sent);
  }

  async enter(): Promise<Json | undefined> {
    const here = new Set([...this.vehicles.values()].filter((item) => item.status !== 'OUT').map((item) => item.plate));
    const known = this.site.plates.filter((plate) => !here.has(plate));
    const plate =
      Math.random() < PEAK.unknownPlateShare || known.length === 0
        ? `U${this.site.siteId}-${Math.floor(Math.random() * 1e6)}`
        : (pick(known) ?? '');
    const sent = performance.now();
    const created = parse(
      await this.call('gate.entry', 'POST', `${this.base}/checkins/vehicles`, {
        licensePlate: plate,
        occurredAt: new Date().toISOString(),
      }),
    );
    if (typeof created?.checkinId !== 'number') return created;
    this.fleet.writes.wrote(`vehicle:${created.checkinId}`, sent);
    this.vehicles.set(created.checkinId, { plate, status: String(created.status) });
    // The guard looks at the unknown car and admits it.
    if (created.status === 'PENDING')
      this.later(3_000 + Math.random() * 12_000, () => void this.admit(Number(created.checkinId)));
    return created;
  }

  /** Visits of the gate's local copy in `status` (for calibration's admits and reads). */
  vehiclesIn(status: string): number[] {
    return [...this.vehicles].filter(([, visit]) => visit.status === status).map(([id]) => id);
  }

  peopleIn(status: string): number[] {
    return [...this.people].filter(([, value]) => value === status).map(([id]) => id);
  }

  get siteId(): number {
    return this.site.siteId;
  }

  get requiresApproval(): boolean {
    return this.site.requiresApproval;
  }

  async admit(checkinId: number): Promise<void> {
    const visit = this.vehicles.get(checkinId);
    if (visit) visit.status = 'IN';
    await this.call('gate.admit', 'POST', `${this.base}/checkins/vehicles/${checkinId}/approve`, {
      occurredAt: new Date().toISOString(),
    });
  }

  async leave(): Promise<void> {
    const checkinId = pick([...this.vehicles].filter(([, visit]) => visit.status === 'IN').map(([id]) => id));
    if (checkinId === undefined) return;
    const visit = this.vehicles.get(checkinId);
    if (visit) visit.status = 'OUT';
    await this.call('gate.exit', 'PATCH', `${this.base}/checkins/vehicles/${checkinId}`, {
      occurredAt: new Date().toISOString(),
    });
  }

  /** As the kiosk decides each minute (kiosk/src/sync/heartbeat.ts): its report never changes here. */
  async heartbeatIfDue(kind: 'visitor' | 'gate'): Promise<void> {
    const quiet = performance.now() - (this.beatAt.get(kind) ?? 0) < QUIET_HEARTBEAT_MS;
    if (this.streamOpen.has(kind) && quiet) return;
    await this.heartbeat(kind);
  }

  async heartbeat(kind: 'visitor' | 'gate'): Promise<void> {
    this.beatAt.set(kind, performance.now());
    await this.call(`${kind}.heartbeat`, 'POST', '/v1/kiosk/heartbeat', {
      pending: 0,
      attention: 0,
      appVersion: 'fleet',
    });
  }

  /** The people feed from the kiosk's cursor until it has nothing more; one pull at a time, again if asked meanwhile. */
  async pullFeed(): Promise<void> {
    if (this.feedPulling) {
      this.feedAgain = true;
      return;
    }
    this.feedPulling = true;
    try {
      for (let more = true; more;) {
        const query = this.feedCursor ? `?cursor=${this.feedCursor}` : '';
        const page = parse(await this.call('visitor.feed', 'GET', `${this.base}/checkins/people/changes${query}`));
        if (!page) return;
        for (const visit of page.data as Array<{ checkinId: number; status: string }>) {
          if (visit.status === 'OUT') this.people.delete(visit.checkinId);
          else this.people.set(visit.checkinId, visit.status);
        }
        this.feedCursor = String(page.nextCursor);
        more = page.hasMore === true;
      }
    } finally {
      this.feedPulling = false;
      if (this.feedAgain) {
        this.feedAgain = false;
        void this.pullFeed();
      }
    }
  }

  async visitorPull(): Promise<void> {
    await this.pullFeed();
    const config = await this.conditional('visitor.config', `${this.base}/checkins/people/config`, this.configTag);
    this.configTag = etagOf(config) ?? this.configTag;
    const digest = await this.conditional('visitor.digest', `${this.base}/kiosk/watchlist-digest`, this.digestTag);
    this.digestTag = etagOf(digest) ?? this.digestTag;
  }

  private conditional(operation: Operation, path: string, tag: string | undefined): Promise<PoolResponse | undefined> {
    const kind = operation.startsWith('gate') ? this.site.gateToken : this.site.visitorToken;
    const headers: Record<string, string> = { Authorization: `Bearer ${kind}` };
    if (tag) headers['If-None-Match'] = tag;
    return this.fleet.pool.request('GET', path, headers).then(
      (response) => {
        this.fleet.stats.request(operation, response.ms, response.status, response.body);
        return response;
      },
      (error: unknown) => {
        this.fleet.stats.failed(`${operation} ${String(error)}`);
        return undefined;
      },
    );
  }

  async pullVehicleFeed(): Promise<void> {
    for (let more = true; more;) {
      const query = this.vehicleCursor ? `&cursor=${this.vehicleCursor}` : '';
      const page = parse(
        await this.call('gate.vehicleFeed', 'GET', `/v1/profiles/vehicles/changes?limit=1000${query}`),
      );
      if (!page) return;
      this.vehicleCursor = String(page.nextCursor);
      more = page.hasMore === true;
    }
  }

  async gatePull(): Promise<void> {
    const list = parse(
      await this.call('gate.list', 'GET', `${this.base}/checkins/vehicles?status=IN,PENDING&limit=200`),
    );
    if (list) {
      this.vehicles.clear();
      for (const visit of list.data as Array<{ checkinId: number; licensePlate: string; status: string }>)
        this.vehicles.set(visit.checkinId, { plate: visit.licensePlate, status: visit.status });
    }
    await this.pullVehicleFeed();
  }

  async consoleLoad(): Promise<void> {
    await this.call('console.list', 'GET', `${this.base}/checkins/people?status=IN,ON_BREAK,PENDING&limit=200`);
    await this.call('console.list', 'GET', `${this.base}/checkins/vehicles?status=IN,PENDING&limit=200`);
    await this.call('console.alerts', 'GET', `/v1/alerts?siteIds=${this.site.siteId}&limit=50`);
  }

  // The streams, and what each client does with an event of its site.

  private follow(kind: ClientKind, lastEventId?: string): void {
    if (this.stopped) return;
    const headers: Record<string, string> =
      kind === 'console'
        ? { Cookie: `gh_session=${this.site.sessionId}` }
        : { Authorization: `Bearer ${kind === 'visitor' ? this.site.visitorToken : this.site.gateToken}` };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    let opened = false;
    const stream = openRawStream({
      host: this.fleet.host,
      port: this.fleet.port,
      headers,
      onOpen: (status) => {
        if (status === 200) {
          opened = true;
          this.streamOpen.add(kind);
          this.fleet.streams.open += 1;
        } else {
          this.fleet.stats.failed(`${kind}.stream ${status}`);
        }
      },
      onMessage: (message) => this.onEvent(kind, message),
      onEnd: () => {
        this.streamOpen.delete(kind);
        if (opened) this.fleet.streams.open -= 1;
        if (this.stopped) return;
        this.fleet.stats.reconnected();
        this.later(
          stream.reader.retryMs ?? 3_000,
          () => this.follow(kind, stream.reader.lastEventId || undefined),
          true,
        );
      },
    });
    this.streams.set(kind, stream);
  }

  private onEvent(kind: ClientKind, message: StreamMessage): void {
    if (message.event === 'reset') {
      if (kind === 'visitor') void this.visitorPull();
      else if (kind === 'gate') void this.gatePull();
      else void this.consoleLoad();
      return;
    }
    if (kind === 'gate' && message.event === 'vehicles' && this.fleet.running()) {
      // The account's vehicles moved past the gate's copy: it pulls (its on-site list and the vehicle feed).
      const { cursor } = JSON.parse(message.data) as { cursor?: string };
      if (cursor !== this.vehicleCursor) void this.gatePull();
      return;
    }
    if (!this.fleet.running() || (message.event !== 'checkin' && message.event !== 'alert')) return;
    const data = JSON.parse(message.data) as { kind: string; checkinId: number; status?: string };
    if (message.event === 'alert') {
      if (kind === 'console')
        void this.call('console.alerts', 'GET', `/v1/alerts?siteIds=${this.site.siteId}&limit=50`);
      return;
    }
    // An event whose status the client's copy already holds is the echo of its own write: no request.
    const echo = (known: string | undefined) => known === data.status || (data.status === 'OUT' && known === undefined);
    if (kind === 'visitor' && data.kind === 'person' && !echo(this.people.get(data.checkinId))) void this.pullFeed();
    if (kind === 'gate' && data.kind === 'vehicle' && !echo(this.vehicles.get(data.checkinId)?.status))
      void this.gateRead(data.checkinId);
    if (kind === 'console') this.consoleSees(data, echo(this.consoleKnows.get(`${data.kind}:${data.checkinId}`)));
  }

  private async gateRead(checkinId: number): Promise<void> {
    const visit = parse(await this.call('gate.read', 'GET', `${this.base}/checkins/vehicles/${checkinId}`));
    if (visit) this.vehicles.set(checkinId, { plate: String(visit.licensePlate), status: String(visit.status) });
  }

  private consoleSees(data: { kind: string; checkinId: number; status?: string }, echo: boolean): void {
    const key = `${data.kind}:${data.checkinId}`;
    this.fleet.writes.seen(key);
    if (echo) return;
    const path = `${this.base}/checkins/${data.kind === 'vehicle' ? 'vehicles' : 'people'}/${data.checkinId}`;
    void this.call('console.read', 'GET', path).then((response) => {
      const visit = parse(response);
      // What the console shows: a visit that has left drops off its views.
      if (visit?.status === 'OUT') this.consoleKnows.delete(key);
      else if (visit) this.consoleKnows.set(key, String(visit.status));
    });
    // Reception decides who waits for approval (vehicles are the gate's).
    if (data.kind === 'person' && data.status === 'PENDING')
      this.later(3_000 + Math.random() * 12_000, () => void this.approve(key, path));
  }

  private async approve(key: string, path: string): Promise<void> {
    this.consoleKnows.set(key, 'IN');
    await this.call('console.approve', 'POST', `${path}/approve`, {});
  }

  // Timers: jittered, and doing nothing while the fleet is paused.

  /** Runs `run` after `ms` (unless stopped); `always`: even while the fleet is paused (reconnecting). */
  private later(ms: number, run: () => void, always = false): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped && (always || this.fleet.running())) run();
    }, ms);
    this.timers.add(timer);
  }

  private poisson(meanMs: number, run: () => void): void {
    const next = () =>
      this.later(
        exponential(meanMs),
        () => {
          if (this.fleet.running()) run();
          next();
        },
        true,
      );
    next();
  }

  private periodic(everyMs: number, run: () => void): void {
    const next = (ms: number) =>
      this.later(
        ms,
        () => {
          if (this.fleet.running()) run();
          next(jittered(everyMs));
        },
        true,
      );
    next(Math.random() * everyMs);
  }
}
