import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type VisitAction, createVisitClient, currentVisitOf } from '../shared/src/client/visit';
import type { HttpOutcome } from '../shared/src/client/http';
import type { VisitCheckin, VisitCheckinRequest, VisitSite } from '../shared/src/schemas/visit';
import { type StoredVisit, forgetVisit, loadVisit, newIdempotencyKey, newVisitKey, saveVisit } from './visitStore';
import { words } from './words';

/** How often the page asks again: a visit waiting for a decision, one on site, the server while unreachable. */
const PENDING_POLL_MS = 4_000;
const ON_SITE_POLL_MS = 30_000;
const RETRY_MS = 3_000;

export type SiteState =
  { kind: 'loading' } | { kind: 'unknown' } | { kind: 'unreachable' } | { kind: 'ready'; site: VisitSite };

export interface CheckinRefusal {
  message: string;
  fieldErrors: Array<{ path: string; message: string }>;
}

/**
 * The phone's visit: the site of the code, the visit its stored key opens (asked again now and then),
 * and the requests that change it. Every request is stored with its Idempotency-Key before it is sent and
 * sent again as it was until it is answered (a reload included), so nothing happens twice.
 */
export function useVisit(code: string) {
  const client = useMemo(
    () =>
      createVisitClient(
        { baseUrl: '', fetch: (url, init) => fetch(url, init), timeoutMs: 15_000, now: () => Date.now() },
        code,
      ),
    [code],
  );
  const [site, setSite] = useState<SiteState>({ kind: 'loading' });
  const [stored, setStoredState] = useState<StoredVisit | undefined>(() => loadVisit(code));
  const [visit, setVisit] = useState<VisitCheckin | undefined>();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<CheckinRefusal | undefined>();
  const retry = useRef<number | undefined>(undefined);

  const store = useCallback(
    (next: StoredVisit | undefined) => {
      if (next) saveVisit(code, next);
      else forgetVisit(code);
      setStoredState(next);
    },
    [code],
  );

  useEffect(() => {
    let stopped = false;
    const load = async () => {
      const outcome = await client.site();
      if (stopped) return;
      if (outcome.kind === 'ok') setSite({ kind: 'ready', site: outcome.value });
      else if (outcome.kind === 'refused' && outcome.status === 404) setSite({ kind: 'unknown' });
      else {
        setSite({ kind: 'unreachable' });
        window.setTimeout(() => void load(), RETRY_MS);
      }
    };
    void load();
    return () => {
      stopped = true;
    };
  }, [client]);

  const answered = useCallback(
    (outcome: HttpOutcome<VisitCheckin>, key: string): boolean => {
      if (outcome.kind === 'ok') {
        setVisit(outcome.value);
        setMessage(undefined);
        // A visit that ended is forgotten: opening the page again starts a new check-in.
        store(outcome.value.status === 'OUT' ? undefined : { key, checkinId: outcome.value.checkinId });
        return true;
      }
      return false;
    },
    [store],
  );

  const checkIn = useCallback(
    async (body: VisitCheckinRequest, again?: StoredVisit) => {
      const entry = again ?? { key: newVisitKey(), pendingCheckin: { idempotencyKey: newIdempotencyKey(), body } };
      const pending = entry.pendingCheckin;
      if (!pending) return;
      store(entry);
      setBusy(true);
      setRefusal(undefined);
      const outcome = await client.checkIn(pending.body, entry.key, pending.idempotencyKey);
      if (answered(outcome, entry.key)) {
        setBusy(false);
        return;
      }
      if (outcome.kind === 'unreachable' || outcome.kind === 'malformed' || isRetryable(outcome)) {
        setMessage(words.unreachable);
        window.clearTimeout(retry.current);
        retry.current = window.setTimeout(() => void checkIn(pending.body, entry), RETRY_MS);
        return;
      }
      setBusy(false);
      store(undefined);
      const problem = outcome.kind === 'refused' ? outcome.problem : null;
      if (outcome.kind === 'refused' && outcome.status === 404) setSite({ kind: 'unknown' });
      else if (problem?.code === 'SITE_ARCHIVED' && site.kind === 'ready')
        setSite({ kind: 'ready', site: { ...site.site, archived: true } });
      else
        setRefusal({
          message:
            problem?.code === 'VALIDATION_FAILED'
              ? words.fixBelow
              : problem?.code === 'RATE_LIMITED'
                ? words.tooMany
                : words.refused,
          fieldErrors: problem?.errors ?? [],
        });
    },
    [answered, client, site, store],
  );

  const act = useCallback(
    async (action: VisitAction, again?: StoredVisit) => {
      const current = again ?? stored;
      if (!current?.checkinId) return;
      const pending = current.pendingAction ?? { action, idempotencyKey: newIdempotencyKey() };
      const entry = { ...current, pendingAction: pending };
      store(entry);
      setBusy(true);
      const outcome = await client.act(current.checkinId, pending.action, current.key, pending.idempotencyKey);
      if (answered(outcome, current.key)) {
        setBusy(false);
        return;
      }
      if (outcome.kind === 'unreachable' || outcome.kind === 'malformed' || isRetryable(outcome)) {
        setMessage(words.unreachable);
        window.clearTimeout(retry.current);
        retry.current = window.setTimeout(() => void act(pending.action, entry), RETRY_MS);
        return;
      }
      setBusy(false);
      const now = outcome.kind === 'refused' ? currentVisitOf(outcome.problem) : undefined;
      if (now) {
        // Reception changed the visit meanwhile: show it as it is.
        answered({ kind: 'ok', status: 200, value: now, replayed: false, headers: new Headers() }, current.key);
      } else if (outcome.kind === 'refused' && (outcome.status === 404 || outcome.status === 401)) {
        store(undefined);
        setVisit(undefined);
      } else {
        store({ key: current.key, checkinId: current.checkinId });
        setMessage(words.actionFailed);
      }
    },
    [answered, client, store, stored],
  );

  // Once the site is known: send again what was not answered, or read the stored visit.
  const ready = site.kind === 'ready';
  useEffect(() => {
    if (!ready || !stored) return;
    if (stored.pendingCheckin && !busy) void checkIn(stored.pendingCheckin.body, stored);
    else if (stored.pendingAction && !busy) void act(stored.pendingAction.action, stored);
    // Only on arrival: later changes are made by these very functions.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per site load, not per stored change
  }, [ready]);

  // The stored visit as the server has it now: at once, then often while it waits for a decision.
  const checkinId = stored?.checkinId;
  const key = stored?.key;
  const status = visit?.status;
  useEffect(() => {
    if (!ready || checkinId === undefined || key === undefined || status === 'OUT' || status === 'STOP') return;
    let stopped = false;
    const read = async () => {
      const outcome = await client.read(checkinId, key);
      if (stopped) return;
      if (outcome.kind === 'ok') {
        setVisit(outcome.value);
        // Checked out elsewhere (reception, a kiosk): the phone forgets the visit, as after its own checkout.
        if (outcome.value.status === 'OUT') store(undefined);
      } else if (outcome.kind === 'refused' && (outcome.status === 404 || outcome.status === 401)) {
        store(undefined);
        setVisit(undefined);
      }
    };
    if (status === undefined) void read();
    const timer = window.setInterval(() => void read(), status === 'PENDING' ? PENDING_POLL_MS : ON_SITE_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [client, checkinId, key, ready, status, store]);

  const startOver = useCallback(() => {
    store(undefined);
    setVisit(undefined);
    setMessage(undefined);
  }, [store]);

  return { site, visit, busy, message, refusal, checkIn, act, startOver, waitingForVisit: checkinId !== undefined };
}

/** 409 IDEMPOTENCY_KEY_IN_USE (still being answered) and 5xx: the same request goes again, as it was. */
function isRetryable(outcome: HttpOutcome<unknown>): boolean {
  if (outcome.kind !== 'refused') return false;
  if (outcome.status >= 500) return true;
  return outcome.status === 409 && outcome.problem?.code === 'IDEMPOTENCY_KEY_IN_USE';
}
