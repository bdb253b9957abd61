import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { VisitApp } from './VisitApp';
import { codeOfPath } from './visitStore';
import './visit.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <VisitApp code={codeOfPath(window.location.pathname)} />
  </StrictMode>,
);
