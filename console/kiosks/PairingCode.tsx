import { useEffect, useState } from 'react';
import type { PairingCodeAnswer } from '../../shared/src/client/administration';
import { useWords } from '../language/ConsoleLanguage';
import { richWords } from '../language/richWords';
import { pairingQr } from './pairingQr';

/** "ABCD EFGH": two halves, easier to read aloud and to type (the kiosk ignores the space). */
const grouped = (code: string) => (code.length === 8 ? `${code.slice(0, 4)} ${code.slice(4)}` : code);
const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * A pairing code as the kiosk's setup screen takes it: typed into Pairing code, or its QR scanned there
 * (the QR's text carries this server's address too). Shown once: the server keeps only its hash.
 */
export function PairingCode({ code }: { code: PairingCodeAnswer }) {
  const words = useWords();
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
      <p className="hint">{words.t('kiosks.pairing.hint')}</p>
      <p className="pairing-label">{words.t('kiosks.pairing.code')}</p>
      <p className="pairing-code">{grouped(code.pairingCode)}</p>
      <p>
        {richWords(words, 'kiosks.pairing.server', {
          server: window.location.origin,
          b: (chunks) => <strong className="pairing-server">{chunks}</strong>,
        })}
      </p>
      <p>
        {richWords(words, 'kiosks.pairing.once', {
          until: clock(code.pairingExpiresAt),
          b: (chunks) => <strong>{chunks}</strong>,
        })}
      </p>
      {qr ? <img className="pairing-qr" src={qr} alt={words.t('kiosks.pairing.qr')} width={220} height={220} /> : null}
      {qrFailed ? <p className="muted">{words.t('kiosks.pairing.qrFailed')}</p> : null}
    </div>
  );
}
