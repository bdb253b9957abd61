import type { Catalogs } from '../translator';
import ar from './ar.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import zh from './zh.json';

/** The messages a host is sent about their visitors (docs/notifications.md), in the host's language. */
export type HostNotificationMessage = keyof typeof en;

export const hostNotificationCatalogs: Catalogs<HostNotificationMessage> = { en, de, fr, es, zh, ar };
