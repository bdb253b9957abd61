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
