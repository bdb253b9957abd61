import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { PassClaims } from '../../../shared/src/domain/passes';
import type { Kiosk } from '../../src/kiosk';
import { useHasCamera } from '../camera/useHasCamera';
import { QrScanner } from '../components/QrScanner';
import { useScannerFocus } from '../hooks/useScannerFocus';
import { useWords } from '../language/VisitorLanguage';
import { passRefusalWords } from './passWords';
import './passScan.css';

/** A pass this kiosk checked and honours: what the check-in sends, and the name it greets. */
export interface WelcomePass {
  token: string;
  claims: PassClaims;
}

interface PassScanProps {
  kiosk: Kiosk;
  onWelcome: (pass: WelcomePass) => void;
  /** The normal check-in, offered beside a pass that is not honoured. */
  onCheckIn: () => void;
  onCancel: () => void;
}

/**
 * Scan a pass (docs/invitations.md, The kiosk and Verifying a pass): a keyboard-wedge scanner
 * types the pass into the focused field and Enter, or the device's camera reads its QR code where there is
 * one. The pass is checked on this kiosk with its copy of the keys, offline too; one that is not honoured is
 * said in words, and the form is offered.
 */
export function PassScan({ kiosk, onWelcome, onCheckIn, onCancel }: PassScanProps) {
  const [typed, setTyped] = useState('');
  const [refusal, setRefusal] = useState<string>();
  const [checking, setChecking] = useState(false);
  const [camera, setCamera] = useState(false);
  const hasCamera = useHasCamera();
  const words = useWords();
  const input = useRef<HTMLInputElement>(null);
  useScannerFocus(input);
  // Ready for a scanner at once: it types into whatever has focus.
  useEffect(() => input.current?.focus(), []);

  const check = async (text: string) => {
    if (checking || text.trim() === '') return;
    setChecking(true);
    setCamera(false);
    const verdict = await kiosk.checkPass(text).catch(() => undefined);
    setChecking(false);
    // Emptied for the next scan whatever the answer; the answer is said below it.
    setTyped('');
    if (verdict?.ok) onWelcome({ token: text.trim(), claims: verdict.claims });
    else setRefusal(verdict ? passRefusalWords(words, verdict) : words.t('pass.couldNotCheck'));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void check(typed);
  };

  return (
    <form className="find-person pass-scan" noValidate autoComplete="off" onSubmit={submit}>
      <h1 className="screen-title">{words.t('home.scanPass')}</h1>
      <div className="field">
        <label htmlFor="pass-text">{words.t('pass.label')}</label>
        <input
          ref={input}
          id="pass-text"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          placeholder={words.t('pass.placeholder')}
          onChange={(event) => {
            setRefusal(undefined);
            setTyped(event.target.value);
          }}
        />
      </div>
      {hasCamera && !camera ? (
        <button type="button" className="button button-secondary qr-scan-open" onClick={() => setCamera(true)}>
          {words.t('pass.withCamera')}
        </button>
      ) : null}
      {camera ? (
        <QrScanner
          hint={words.t('pass.cameraHint')}
          onText={(text) => void check(text)}
          onClose={() => setCamera(false)}
        />
      ) : null}
      {refusal ? (
        <div className="form-notice">
          <p className="form-notice-title" role="alert">
            {refusal}
          </p>
          <p className="form-notice-detail">{words.t('pass.withoutPass')}</p>
          <div className="form-notice-actions">
            <button type="button" className="button button-strong" onClick={onCheckIn}>
              {words.t('home.checkIn')}
            </button>
          </div>
        </div>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {words.t('form.back')}
        </button>
      </div>
    </form>
  );
}
