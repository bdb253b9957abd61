import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';
import './phone.css';

// Ask the browser to keep this origin's storage under disk pressure: the outbox must never be evicted.
// Chromium grants it to installed apps and Electron; a tab may be refused, which changes nothing else.
void navigator.storage?.persist?.().catch(() => false);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
