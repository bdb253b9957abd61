import type { Catalogs } from '../translator';
import en from './en.json';

/** The staff console's words (docs/languages.md, The console): English; a translation is one more file here. */
export type ConsoleMessage = keyof typeof en;

export const consoleCatalogs: Catalogs<ConsoleMessage> = { en };
