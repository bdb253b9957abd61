let nextId = 1;

/** A person check-in as the API answers it, for the stub servers of kiosk tests (each with an id of its own). */
export function stubPersonCheckin(firstName: string, lastName: string, changes: Record<string, unknown> = {}) {
  const at = new Date().toISOString();
  return {
    checkinId: nextId++,
    siteId: 1,
    status: 'IN',
    person: { firstName, lastName, email: null, phone: null, company: null },
    hostName: null,
    purpose: null,
    customFields: {},
    labelIds: [],
    entry: { source: 'KIOSK', at },
    exit: null,
    denyReason: null,
    breaks: [],
    createdAt: at,
    updatedAt: at,
    ...changes,
  };
}

/**
 * The people change feed of a stub server over the list a test holds: each answer what changed since the
 * last one (a visit no longer listed comes as OUT), as the real feed answers a kiosk that keeps its cursor.
 */
export function stubPeopleFeed(list: () => ReadonlyArray<{ checkinId: number }>): () => Response {
  let served = new Map<number, string>();
  return () => {
    const current = new Map(list().map((visit) => [visit.checkinId, JSON.stringify(visit)]));
    const data: unknown[] = [];
    for (const [checkinId, text] of current) if (served.get(checkinId) !== text) data.push(JSON.parse(text));
    for (const [checkinId, text] of served)
      if (!current.has(checkinId)) data.push({ ...(JSON.parse(text) as object), status: 'OUT' });
    served = current;
    const body = { data, nextCursor: `c${served.size}`, hasMore: false };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}
