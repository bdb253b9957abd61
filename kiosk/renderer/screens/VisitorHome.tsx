import { useEffect, useRef } from 'react';
import { Icon } from '../components/Icon';
import { LanguageChooser } from '../language/LanguageChooser';
import { useWords } from '../language/VisitorLanguage';

export type VisitorIntent = 'checkin' | 'checkout' | 'break';

/**
 * The lobby screen: three large choices and the language, nothing else to read. `takeFocus` when coming
 * back from a step whose focused control is gone, so focus lands on the first choice instead of the page.
 */
export function VisitorHome({
  onChoose,
  onScanPass,
  takeFocus = false,
}: {
  onChoose: (intent: VisitorIntent) => void;
  /**
   * Scan a pass: a visitor invited ahead shows the QR code of their invitation
   * (docs/invitations.md, The kiosk).
   */
  onScanPass?: () => void;
  takeFocus?: boolean;
}) {
  const words = useWords();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (takeFocus) first.current?.focus();
  }, [takeFocus]);
  return (
    <div className="visitor-home">
      <LanguageChooser />
      <h1 className="hero-title">{words.t('home.title')}</h1>
      <p className="hero-lead">{words.t('home.lead')}</p>
      <div className="tiles">
        <button ref={first} type="button" className="tile tile-primary" onClick={() => onChoose('checkin')}>
          <Icon name="arrive" size={56} />
          <span className="tile-label">{words.t('home.checkIn')}</span>
        </button>
        <button type="button" className="tile" onClick={() => onChoose('break')}>
          <Icon name="cup" size={56} />
          <span className="tile-label">{words.t('home.break')}</span>
        </button>
        <button type="button" className="tile" onClick={() => onChoose('checkout')}>
          <Icon name="leave" size={56} />
          <span className="tile-label">{words.t('home.checkOut')}</span>
        </button>
      </div>
      {onScanPass ? (
        <button type="button" className="button button-secondary pass-scan-open" onClick={onScanPass}>
          {words.t('home.scanPass')}
        </button>
      ) : null}
    </div>
  );
}
