import type { QueryClient } from '@tanstack/react-query';
import type { StreamMessage } from '../../shared/src/client/eventStream';
import type { InvitationAnswer } from '../../shared/src/client/invitations';
import { HostsEvent, InvitationEvent, VehiclesEvent } from '../../shared/src/schemas/events';
import { invitationsApi } from '../api';
import { dayWindow } from '../invitations/expectedDay';
import { expectEcho, isOwnEcho } from './ownEchoes';

/**
 * The pages that follow the stream besides the live views (docs/event-stream-clients.md, Each change), by
 * their entries in the query cache: Expected (`['invitations', day]`), Hosts, Vehicles (`['vehicles', plate]`)
 * and the vehicle labels. Only the entries of an open page are read again; the others are read when opened.
 */
export const pageKeys = {
  invitations: ['invitations'],
  hosts: ['hosts'],
  vehicles: ['vehicles'],
  labels: ['labels'],
} as const;

/** A burst of events for one list (an import, a host on many sites) costs one reading of it. */
const COALESCE_MS = 200;
const due = new Map<string, ReturnType<typeof setTimeout>>();

function readSoon(queryClient: QueryClient, key: readonly string[]): void {
  const name = key.join('/');
  if (due.has(name)) return;
  due.set(
    name,
    setTimeout(() => {
      due.delete(name);
      // A reading under way (a Load more, say) is not cancelled by this one: this one waits for it to end.
      if (queryClient.isFetching({ queryKey: key }) > 0) readSoon(queryClient, key);
      else void queryClient.invalidateQueries({ queryKey: key });
    }, COALESCE_MS),
  );
}

type InvitationList = { data: InvitationAnswer[]; nextCursor: string | null };

const invitationEcho = (invitationId: number, status: string) => `invitation:${invitationId}:${status}`;

/** Puts one invitation as it now reads in each day's list that holds its expected time, and out of the others. */
function placeInvitation(queryClient: QueryClient, invitationId: number, invitation: InvitationAnswer | null): void {
  for (const [key, list] of queryClient.getQueriesData<InvitationList>({ queryKey: pageKeys.invitations })) {
    const day = key[1];
    if (!list || typeof day !== 'string') continue;
    const others = list.data.filter((item) => item.invitationId !== invitationId);
    const { from, to } = dayWindow(day);
    const at = invitation ? Date.parse(invitation.expectedAt) : NaN;
    const inDay = invitation !== null && at >= Date.parse(from) && at < Date.parse(to);
    queryClient.setQueryData<InvitationList>(key, { ...list, data: inDay ? [...others, invitation] : others });
  }
}

/** The answer of the console's own write of an invitation: shown at once, and its event then skipped. */
export function putInvitation(queryClient: QueryClient, invitation: InvitationAnswer): void {
  placeInvitation(queryClient, invitation.invitationId, invitation);
  expectEcho(invitationEcho(invitation.invitationId, invitation.status));
}

// The newest read asked of each invitation: an older answer that comes back later is dropped.
const reads = new Map<number, number>();

/** An `invitation` event: the one invitation it names read again, if an Expected page is open. */
async function followInvitation(queryClient: QueryClient, invitationId: number, status: string): Promise<void> {
  if (isOwnEcho(invitationEcho(invitationId, status))) return;
  const shown = queryClient.getQueryCache().findAll({ queryKey: pageKeys.invitations, type: 'active' });
  if (shown.length === 0) return;
  // A reading of the day under way may have missed this change: read it again when it ends.
  if (queryClient.isFetching({ queryKey: pageKeys.invitations }) > 0) {
    void queryClient.invalidateQueries({ queryKey: pageKeys.invitations });
    return;
  }
  const mine = (reads.get(invitationId) ?? 0) + 1;
  reads.set(invitationId, mine);
  const outcome = await invitationsApi.get(invitationId);
  if (reads.get(invitationId) !== mine) return;
  reads.delete(invitationId);
  if (outcome.kind === 'ok') placeInvitation(queryClient, invitationId, outcome.value);
  else if (outcome.kind === 'refused' && outcome.status === 404) placeInvitation(queryClient, invitationId, null);
  // Any other failure: the day's list read whole says it, in words, on the page.
  else void queryClient.invalidateQueries({ queryKey: pageKeys.invitations });
}

const json = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};

/** What the pages do about one event of the stream (the live views' own steps are liveSteps.ts). */
export function followPageEvent(queryClient: QueryClient, message: StreamMessage): void {
  const data = json(message.data);
  if (message.event === 'invitation') {
    const event = InvitationEvent.safeParse(data);
    if (event.success) void followInvitation(queryClient, event.data.invitationId, event.data.status);
  } else if (message.event === 'hosts') {
    if (HostsEvent.safeParse(data).success) readSoon(queryClient, pageKeys.hosts);
  } else if (message.event === 'vehicles') {
    if (!VehiclesEvent.safeParse(data).success) return;
    readSoon(queryClient, pageKeys.vehicles);
    readSoon(queryClient, pageKeys.labels);
  }
}

/**
 * The pages read afresh (the open ones; the others when opened): on the stream's `reset`, skipping those
 * read since `since` (the connection's start), and on each tick of the fallback poll (no `since`).
 */
export function readPagesAfresh(queryClient: QueryClient, since?: number): void {
  for (const key of Object.values(pageKeys)) {
    void queryClient.invalidateQueries(
      { queryKey: key, predicate: (query) => since === undefined || query.state.dataUpdatedAt < since },
      // A Load more under way is not cancelled: the next tick reads what it may have missed.
      { cancelRefetch: false },
    );
  }
}
