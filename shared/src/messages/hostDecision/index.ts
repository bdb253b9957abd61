import type { Catalogs } from '../translator';
import ar from './ar.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import zh from './zh.json';

/** The page a host's Approve or Deny link opens (docs/languages.md, Hosts), in the host's language. */
export type HostDecisionMessage = keyof typeof en;

export const hostDecisionCatalogs: Catalogs<HostDecisionMessage> = { en, de, fr, es, zh, ar };
