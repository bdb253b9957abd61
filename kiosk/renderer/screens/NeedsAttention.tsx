import { useState } from 'react';
import type { AttentionItem } from '../../src/data/attention';
import type { Kiosk } from '../../src/kiosk';
import { useObservable } from '../hooks/useObservable';
import { describeRefusal, shortTime } from '../words';
import { fieldErrorText, refusedDetailsAdvice } from './attentionWords';
import { DiscardDialog } from './DiscardDialog';
import type { PinTries } from './pinTries';
import type { SettingsLock } from './SettingsGate';
import './attention.css';

/** One refused action: what it was, why the server said no (down to the details it did not accept), and when. */
function AttentionText({ item }: { item: AttentionItem }) {
  const { action, description, waiting, fieldErrors } = item;
  const { reason, detail } = describeRefusal(action.lastError);
  const advice = refusedDetailsAdvice(item);
  return (
    <div className="attention-text">
      <h2 className="attention-title">{description}</h2>
      <p className="attention-reason">{reason}</p>
      {fieldErrors.length > 0 ? (
        <ul className="attention-fields" aria-label="Details not accepted">
          {fieldErrors.map((line) => (
            <li key={`${line.field}:${line.message}`}>{fieldErrorText(line)}</li>
          ))}
        </ul>
      ) : null}
      {detail ? <p className="attention-detail">Server said: {detail}</p> : null}
      {advice ? <p className="attention-detail">{advice}</p> : null}
      <p className="attention-meta">
        At {shortTime(action.occurredAt)}
        {waiting > 0
          ? ` · ${waiting} later action${waiting === 1 ? '' : 's'} of this visit wait${waiting === 1 ? 's' : ''} behind it`
          : ''}
      </p>
    </div>
  );
}

/**
 * Actions the server refused. Nothing is dropped silently: each stays here (holding back the later
 * actions of its visit) until a person retries it or discards it; a discard is confirmed first.
 */
interface NeedsAttentionProps {
  kiosk: Kiosk;
  /** The Settings lock and its count of wrong PINs, which Discard shares. */
  lock: SettingsLock | undefined;
  pinTries: PinTries;
  onPinTries: (tries: PinTries) => void;
}

export function NeedsAttention({ kiosk, lock, pinTries, onPinTries }: NeedsAttentionProps) {
  const items = useObservable(kiosk.needsAttention);
  const [report, setReport] = useState<string>();
  const [confirming, setConfirming] = useState<number>();

  if (!items) return <p className="loading">Loading…</p>;
  // An action retried or discarded meanwhile (in another window) is no longer asked about.
  const toDiscard = items.find((item) => item.action.seq === confirming);
  const retry = async (seq: number) => {
    setReport((await kiosk.retry(seq)) ? 'Sent again.' : 'This action is no longer waiting.');
  };
  const discard = async (seq: number) => {
    setConfirming(undefined);
    const result = await kiosk.discard(seq);
    setReport(result?.message ?? 'This action is no longer waiting.');
  };
  const askDiscard = (seq: number) => {
    setReport(undefined);
    setConfirming(seq);
  };
  return (
    <div className="attention">
      <div className="screen-head">
        <h1 className="screen-title">Needs attention</h1>
        <p className="screen-count">
          <strong>{items.length}</strong> refused {items.length === 1 ? 'action' : 'actions'}
        </p>
      </div>
      {report ? (
        <p className="notice" role="alert">
          {report}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="empty">Nothing needs attention. Every action was accepted or is on its way.</p>
      ) : null}
      <ul className="attention-list">
        {items.map((item) => (
          <li key={item.action.seq} className="attention-item">
            <AttentionText item={item} />
            <div className="attention-actions">
              <button type="button" className="button button-strong" onClick={() => void retry(item.action.seq)}>
                Retry
              </button>
              <button type="button" className="button button-danger" onClick={() => askDiscard(item.action.seq)}>
                Discard
              </button>
            </div>
          </li>
        ))}
      </ul>
      {toDiscard ? (
        <DiscardDialog
          key={toDiscard.action.seq}
          item={toDiscard}
          lock={lock}
          tries={pinTries}
          onTries={onPinTries}
          onConfirm={() => void discard(toDiscard.action.seq)}
          onCancel={() => setConfirming(undefined)}
        />
      ) : null}
    </div>
  );
}
