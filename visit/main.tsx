import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { VisitApp } from './VisitApp';
import { codeOfPath } from './visitStore';
import { pageLanguage } from './words';
import './visit.css';

// The page speaks the phone's language: a screen reader reads it so, and Arabic runs right to left.
document.documentElement.lang = pageLanguage.tag;
document.documentElement.dir = pageLanguage.dir;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <VisitApp code={codeOfPath(window.location.pathname)} />
  </StrictMode>,
);
