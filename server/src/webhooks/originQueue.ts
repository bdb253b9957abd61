interface Lane<T> {
  active: number;
  /** In arrival order (a Set keeps it, and drops an item from the middle in O(1)). */
  waiting: Set<T>;
}

/**
 * Hands items to `start` at most `perOrigin` at a time per origin, as many as the HTTP agent keeps
 * connections to it; the rest wait here in arrival order. They wait here and not in undici's queue because
 * an attempt that waited too long must be dropped unsent, and undici can only cancel a queued request once
 * it reaches a connection, by destroying that connection.
 */
export class OriginQueue<T> {
  private readonly lanes = new Map<string, Lane<T>>();

  constructor(
    private readonly perOrigin: number,
    private readonly start: (item: T) => void,
  ) {}

  /** Starts `item` now if its origin has a free slot, else queues it behind the others. */
  enter(origin: string, item: T): void {
    let lane = this.lanes.get(origin);
    if (!lane) {
      lane = { active: 0, waiting: new Set() };
      this.lanes.set(origin, lane);
    }
    if (lane.active < this.perOrigin) {
      lane.active += 1;
      this.start(item);
    } else {
      lane.waiting.add(item);
    }
  }

  /** `item` is done (settled after starting, or given up while waiting): frees its slot or its place, and starts the next. */
  leave(origin: string, item: T): void {
    const lane = this.lanes.get(origin);
    if (!lane) return;
    if (!lane.waiting.delete(item)) {
      lane.active -= 1;
      this.startWaiting(lane);
    }
    // Origins come and go with subscriptions: keep no lane that holds nothing.
    if (lane.active === 0 && lane.waiting.size === 0) this.lanes.delete(origin);
  }

  private startWaiting(lane: Lane<T>): void {
    while (lane.active < this.perOrigin) {
      const next = lane.waiting.values().next();
      if (next.done) return;
      lane.waiting.delete(next.value);
      lane.active += 1;
      this.start(next.value);
    }
  }
}
