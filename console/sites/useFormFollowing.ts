import { useCallback, useEffect, useRef, useState } from 'react';
import { ConfigEvent } from '../../shared/src/schemas/events';
import { adminApi } from '../api';
import { useLiveEvents } from '../live/LiveData';

const json = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};

/** What the editor holds: the version it loaded or saved last, whether it has unsaved edits, and how to load. */
interface Held {
  version: number | null;
  dirty: boolean;
  /** A save is under way: its own `config` event may come before its answer. */
  saving: boolean;
  load: () => Promise<void>;
}

/**
 * The form editor follows its site's `config` events (docs/event-stream-clients.md): a newer version than
 * the one held was saved elsewhere. Without unsaved edits it is loaded at once; with them nothing is
 * overwritten: the answer is true, and the editor says so and offers to load it (a save meanwhile is
 * refused by If-Match, 412). The echo of its own save names the version its answer brings: nothing to do.
 * On the fallback poll's tick, and after a `reset`, the form is asked for its version instead.
 */
export function useFormFollowing(siteId: number, held: Held): boolean {
  const [newest, setNewest] = useState<number | null>(null);
  const seen = useCallback((version: number | null) => {
    if (version !== null) setNewest((before) => (before === null || version > before ? version : before));
  }, []);
  // When the version held was loaded: a `reset` of a connection opened before needs no second reading.
  const heldSince = useRef(0);
  useEffect(() => {
    heldSince.current = Date.now();
  }, [held.version]);

  useLiveEvents((message, connectedAt) => {
    if (message === null || message.event === 'reset') {
      if (held.version === null || (message !== null && connectedAt !== undefined && heldSince.current > connectedAt))
        return;
      void adminApi.getCheckinConfig(siteId).then((outcome) => {
        if (outcome.kind === 'ok') seen(outcome.value.version);
      });
      return;
    }
    if (message.event !== 'config') return;
    const event = ConfigEvent.safeParse(json(message.data));
    if (event.success && event.data.siteId === siteId) seen(event.data.version);
  });

  const { version, dirty, saving, load } = held;
  const behind = newest !== null && version !== null && newest > version;
  useEffect(() => {
    if (behind && !dirty && !saving) void load();
  }, [behind, dirty, saving, load]);
  return behind && dirty && !saving;
}
