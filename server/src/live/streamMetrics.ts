import { Gauge, type Registry } from 'prom-client';
import type { LiveEventHub } from './eventHub';

/** `gatehouse_event_streams`: the event streams this instance holds open now. */
export function countStreams(registry: Registry, hub: LiveEventHub): void {
  new Gauge({
    name: 'gatehouse_event_streams',
    help: 'Event streams (GET /v1/events) open on this instance',
    registers: [registry],
    collect() {
      this.set(hub.streams);
    },
  });
}
