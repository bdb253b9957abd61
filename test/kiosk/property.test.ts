// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PersonVisit } from '../../kiosk/src/data/types';
import { seededRandom } from '../../kiosk/src/platform/testPlatform';
import { expectServerToMatch } from './day';
import {
  type KioskSite,
  type TestKiosk,
  buildKioskSite,
  drain,
  kioskServerForFile,
  openTestKiosk,
  serverPeople,
} from './harness';

const harness = kioskServerForFile();

type Command =
  | { type: 'checkIn' }
  | { type: 'step'; step: 'startBreak' | 'endBreak' | 'checkOut'; who: number }
  | { type: 'advance'; minutes: number }
  | { type: 'online'; online: boolean }
  | { type: 'faults'; failRequests: number; dropResponses: number }
  | { type: 'sync' }
  | { type: 'run'; ms: number }
  | { type: 'restart' };

const rate = fc.constantFrom(0, 0.1, 0.3, 0.5);
type Faults = { failRequests: number; dropResponses: number };
const faultsArb: fc.Arbitrary<Faults> = fc.record({ failRequests: rate, dropResponses: rate });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Command>({ type: 'checkIn' }) },
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('step' as const),
      step: fc.constantFrom('startBreak' as const, 'endBreak' as const, 'checkOut' as const),
      who: fc.nat(40),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ type: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 60 }) }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('online' as const), online: fc.boolean() }) },
  { weight: 2, arbitrary: faultsArb.map((faults): Command => ({ type: 'faults', ...faults })) },
  { weight: 2, arbitrary: fc.constant<Command>({ type: 'sync' }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('run' as const), ms: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 1, arbitrary: fc.constant<Command>({ type: 'restart' }) },
);

const DAY = 24 * 3_600_000;

/** Runs one generated history against a fresh site; returns when the server and the kiosk agree (or throws). */
async function run(site: KioskSite, commands: Command[], seed: number, initialFaults: Faults): Promise<void> {
  let offsetMs = -2 * DAY;
  let online = true;
  let faults = initialFaults;
  const random = seededRandom(seed);
  const open = (databaseName?: string): TestKiosk => {
    const opened = openTestKiosk(harness.server, site, { databaseName, online, clockOffsetMs: offsetMs, random });
    opened.network.setFaults(faults);
    opened.kiosk.start();
    return opened;
  };
  let current = open();
  const all: TestKiosk[] = [current];
  const visits: PersonVisit[] = [];
  try {
    for (const next of commands) {
      const { kiosk, platform, network } = current;
      if (next.type === 'checkIn') {
        const made = await kiosk.checkIn({ person: { firstName: `P${visits.length}`, lastName: `Seed${seed}` } });
        if (!made.ok) throw new Error(made.message);
        visits.push(made.value);
      } else if (next.type === 'step' && visits.length > 0) {
        const index = next.who % visits.length;
        const visit = visits[index];
        const done = visit ? await kiosk[next.step](visit.visitId) : undefined;
        // A step the state machine refuses (a break while on break…) is refused locally and queues nothing.
        if (done?.ok) visits[index] = done.value;
      } else if (next.type === 'advance') {
        platform.clock.shift(next.minutes * 60_000);
        offsetMs += next.minutes * 60_000;
      } else if (next.type === 'online') {
        online = next.online;
        network.setOnline(online);
      } else if (next.type === 'faults') {
        faults = { failRequests: next.failRequests, dropResponses: next.dropResponses };
        network.setFaults(faults);
      } else if (next.type === 'sync') {
        await kiosk.engine.syncNow();
      } else if (next.type === 'run') {
        await new Promise((resolve) => setTimeout(resolve, next.ms));
      } else if (next.type === 'restart') {
        network.freeze();
        current = open(current.databaseName);
        all.push(current);
      }
    }
    const { kiosk, network } = current;
    // The faults stay on while the queue drains: exactly once must not depend on a good network.
    network.setOnline(true);
    await drain(kiosk);
    network.setFaults({ failRequests: 0, dropResponses: 0 });
    await kiosk.engine.syncNow();

    // Nothing refused, nothing left: every action the kiosk confirmed reached the server exactly once.
    expect(await kiosk.db.outbox.count()).toBe(0);
    const onServer = await serverPeople(site);
    expectServerToMatch(onServer, new Map(visits.map((visit) => [visit.person.firstName, visit])));
    // And the kiosk's own view of who is on site is the server's.
    const local = (await kiosk.findPeople('')).map((visit) => ({
      id: visit.serverId,
      status: visit.status,
      breaks: visit.breaks,
    }));
    const remote = onServer
      .filter((checkin) => checkin.status !== 'OUT')
      .map((checkin) => ({
        id: checkin.checkinId,
        status: checkin.status,
        breaks: checkin.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })),
      }));
    const byId = (a: { id: number | undefined }, b: { id: number | undefined }) => (a.id ?? 0) - (b.id ?? 0);
    expect(local.sort(byId)).toEqual(remote.sort(byId));
  } finally {
    await current.kiosk.close();
  }
}

describe('property: any history of actions and network faults ends with the server equal to the kiosk', () => {
  it('holds for random sequences (restarts, offline spells, lost requests and lost answers included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        faultsArb,
        async (commands, seed, faults) => run(await buildKioskSite(harness.server), commands, seed, faults),
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
