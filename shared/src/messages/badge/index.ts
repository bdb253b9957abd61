import type { Catalogs } from '../translator';
import ar from './ar.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import zh from './zh.json';

/** The words printed on a visitor's badge besides their own details (server/src/badges/). */
export type BadgeMessage = keyof typeof en;

export const badgeCatalogs: Catalogs<BadgeMessage> = { en, de, fr, es, zh, ar };
