import type { Catalogs } from '../translator';
import ar from './ar.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import zh from './zh.json';

/** The kiosk's visitor screens (and the frame around them: tabs, status bar, PIN prompt). */
export type KioskMessage = keyof typeof en;

export const kioskCatalogs: Catalogs<KioskMessage> = { en, de, fr, es, zh, ar };
