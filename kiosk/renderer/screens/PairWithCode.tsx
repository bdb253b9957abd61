import { type FormEvent, useRef, useState } from 'react';
import type { KioskDatabase } from '../../src/data/database';
import type { KioskSettings } from '../../src/data/settings';
import { sendsInTheClear } from '../../src/data/cleartext';
import { pairWithCode, readPairingInput } from '../../src/pairing';
import { useHasCamera } from '../camera/useHasCamera';
import { QrScanner } from '../components/QrScanner';

interface PairWithCodeProps {
  device: KioskDatabase;
  serverUrl: string;
  onServerUrl: (serverUrl: string) => void;
  initialCode: string | undefined;
  onPaired: (settings: KioskSettings) => void;
}

/**
 * Server address and the pairing code from the console: Pair exchanges the code for the kiosk's token,
 * site and mode, so no token is typed. A scanner typing the QR code's text into the code field fills both,
 * and so does the device's camera (Scan with camera, where there is one); then the person checks the
 * address and taps Pair, so a QR code of someone else's cannot pair the kiosk with their server unseen.
 */
export function PairWithCode({ device, serverUrl, onServerUrl, initialCode, onPaired }: PairWithCodeProps) {
  const [code, setCode] = useState(initialCode ?? '');
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);
  const hasCamera = useHasCamera();
  const [scanning, setScanning] = useState(false);
  const [scanned, setScanned] = useState(false);
  const pairButton = useRef<HTMLButtonElement>(null);

  const typed = (text: string) => {
    const read = readPairingInput(text);
    if (read.serverUrl !== undefined) onServerUrl(read.serverUrl);
    setCode(read.code);
    setScanned(false);
  };

  const seen = (text: string) => {
    typed(text.trim());
    setScanning(false);
    setScanned(true);
    pairButton.current?.focus();
  };

  const pair = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setMessage(undefined);
    const result = await pairWithCode(
      device,
      { serverUrl, code },
      { fetch: (url, init) => window.fetch(url, init), now: () => Date.now() },
    );
    setBusy(false);
    if (result.ok) onPaired(result.settings);
    else setMessage(result.message);
  };

  const inTheClear = sendsInTheClear(serverUrl);
  return (
    <form className="setup-pair" onSubmit={pair} noValidate autoComplete="off" aria-label="Pair with a code">
      <div className="field">
        <label htmlFor="setup-server">Server address</label>
        <input
          id="setup-server"
          type="url"
          inputMode="url"
          spellCheck={false}
          value={serverUrl}
          placeholder="https://gatehouse.example.com"
          aria-describedby={inTheClear ? 'setup-server-clear' : undefined}
          onChange={(event) => onServerUrl(event.target.value)}
        />
        {inTheClear ? (
          <p id="setup-server-clear" className="field-hint field-warning">
            This address is not encrypted (http): the kiosk token and visitors' names would cross the network readable
            by anyone on it. Use https, unless the server is on a network you trust.
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="setup-code">Pairing code</label>
        <input
          id="setup-code"
          type="text"
          spellCheck={false}
          autoCapitalize="characters"
          value={code}
          placeholder="ABCD 2345"
          aria-describedby="setup-code-hint"
          onChange={(event) => typed(event.target.value)}
        />
        <p id="setup-code-hint" className="field-hint">
          {scanned
            ? 'Read from the camera: check the server address, then Pair.'
            : 'Shown in the console under Kiosks, or scan its QR code.'}
        </p>
        {hasCamera && !scanning ? (
          <button type="button" className="button button-secondary qr-scan-open" onClick={() => setScanning(true)}>
            Scan with camera
          </button>
        ) : null}
        {scanning ? (
          <QrScanner
            hint="Hold the QR code from the console's Kiosks page up to the camera."
            onText={seen}
            onClose={() => setScanning(false)}
          />
        ) : null}
      </div>
      {message ? (
        <p className="form-error" role="alert">
          {message}
        </p>
      ) : null}
      <div className="form-actions">
        <button ref={pairButton} type="submit" className="button button-primary button-wide" disabled={busy}>
          {busy ? 'Pairing…' : 'Pair'}
        </button>
      </div>
    </form>
  );
}
