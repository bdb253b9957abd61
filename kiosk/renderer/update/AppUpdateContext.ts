import { createContext } from 'react';
import type { AppUpdate } from './serviceWorker';

/** The kiosk's service worker updates, where the page runs one (a browser), else undefined (Electron, dev). */
export const AppUpdateContext = createContext<AppUpdate | undefined>(undefined);
