import { useState } from 'react';
import type { Kiosk } from '../../src/kiosk';
import { useObservable } from '../hooks/useObservable';
import { describeRefusal, shortTime } from '../words';

/**
 * Actions the server refused. Nothing is dropped silently: each stays here (holding back the later
 * actions of its visit) until a person retries it or discards it.
 */
export function NeedsAttention({ kiosk }: { kiosk: Kiosk }) {
  const items = useObservable(kiosk.needsAttention);
  const [report, setReport] = useState<string>();

  if (!items) return <p className="loading">Loading…</p>;
  const retry = async (seq: number) => {
    setReport((await kiosk.retry(seq)) ? 'Sent again.' : 'This action is no longer waiting.');
  };
  const discard = async (seq: number) => {
    const result = await kiosk.discard(seq);
    setReport(result?.message ?? 'This action is no longer waiting.');
  };
  return (
    <div className="attention">
      <div className="screen-head">
        <h1 className="screen-title">Needs attention</h1>
        <p className="screen-count"><strong>{items.length}</strong> refused {items.length === 1 ? 'action' : 'actions'}</p>
      </div>
      {report ? <p className="notice" role="alert">{report}</p> : null}
      {items.length === 0 ? <p className="empty">Nothing needs attention. Every action was accepted or is on its way.</p> : null}
      <ul className="attention-list">
        {items.map(({ action, description, waiting }) => {
          const { reason, detail } = describeRefusal(action.lastError);
          return (
            <li key={action.seq} className="attention-item">
              <div className="attention-text">
                <h2 className="attention-title">{description}</h2>
                <p className="attention-reason">{reason}</p>
                {detail ? <p className="attention-detail">Server said: {detail}</p> : null}
                <p className="attention-meta">
                  At {shortTime(action.occurredAt)}
                  {waiting > 0 ? ` · ${waiting} later action${waiting === 1 ? '' : 's'} of this visit wait${waiting === 1 ? 's' : ''} behind it` : ''}
                </p>
              </div>
              <div className="attention-actions">
                <button type="button" className="button button-strong" onClick={() => void retry(action.seq)}>Retry</button>
                <button type="button" className="button button-danger" onClick={() => void discard(action.seq)}>Discard</button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
