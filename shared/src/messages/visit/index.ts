import type { Catalogs } from '../translator';
import ar from './ar.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import zh from './zh.json';

/** The visitor's own phone pages at /visit (visit/), in the phone's language. */
export type VisitMessage = keyof typeof en;

export const visitCatalogs: Catalogs<VisitMessage> = { en, de, fr, es, zh, ar };
