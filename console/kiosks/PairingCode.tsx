import { useEffect, useState } from 'react';
import type { PairingCodeAnswer } from '../../shared/src/client/administration';
import { pairingQr } from './pairingQr';

/** "ABCD EFGH": two halves, easier to read aloud and to type (the kiosk ignores the space). */
const grouped = (code: string) => (code.length === 8 ? `${code.slice(0, 4)} ${code.slice(4)}` : code);
const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * A pairing code as the kiosk's setup screen takes it: typed into Pairing code, or its QR scanned there
 * (the QR's text carries this server's address too). Shown once: the server keeps only its hash.
 */
export function PairingCode({ code }: { code: PairingCodeAnswer }) {
  const [qr, setQr] = useState<string | null>(null);
  const [qrFailed, setQrFailed] = useState(false);
  useEffect(() => {
    let current = true;
    pairingQr(window.location.origin, code.pairingCode).then(
      (image) => current && setQr(image),
      () => current && setQrFailed(true),
    );
    return () => {
      current = false;
    };
  }, [code.pairingCode]);
  return (
    <div className="pairing">
      <p className="hint">
        On the kiosk's setup screen, enter this server's address and the pairing code, or scan the QR code.
      </p>
      <p className="pairing-label">Pairing code</p>
      <p className="pairing-code">{grouped(code.pairingCode)}</p>
      <p>
        Server address: <strong className="pairing-server">{window.location.origin}</strong>
      </p>
      <p>
        Works once, until <strong>{clock(code.pairingExpiresAt)}</strong> (15 minutes). You will not see this code
        again; make a new one if it runs out.
      </p>
      {qr ? <img className="pairing-qr" src={qr} alt="Pairing QR code" width={220} height={220} /> : null}
      {qrFailed ? <p className="muted">The QR code could not be drawn; type the code instead.</p> : null}
    </div>
  );
}
