import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AppUpdateContext } from './update/AppUpdateContext';
import { startServiceWorker } from './update/serviceWorker';
import './styles.css';
import './phone.css';

// Ask the browser to keep this origin's storage under disk pressure: the outbox must never be evicted.
// Chromium grants it to installed apps and Electron; a tab may be refused, which changes nothing else.
void navigator.storage?.persist?.().catch(() => false);

// Served over http(s), the whole app is kept on the device, so it opens offline (docs/kiosk-tablet.md).
const update = startServiceWorker(window);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppUpdateContext.Provider value={update}>
      <App />
    </AppUpdateContext.Provider>
  </StrictMode>,
);
