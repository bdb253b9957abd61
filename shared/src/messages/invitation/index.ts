import type { Catalogs } from '../translator';
import ar from './ar.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import zh from './zh.json';

/** The visitor's invitation email: its text, the pass's picture and label, the calendar entry (docs/invitations.md). */
export type InvitationMessage = keyof typeof en;

export const invitationCatalogs: Catalogs<InvitationMessage> = { en, de, fr, es, zh, ar };
