import { useEffect, useRef } from 'react';
import { Icon } from '../components/Icon';

export type VisitorIntent = 'checkin' | 'checkout' | 'break';

/**
 * The lobby screen: three large choices, nothing else to read. `takeFocus` when coming back from a step
 * whose focused control is gone, so focus lands on the first choice instead of the page.
 */
export function VisitorHome({
  onChoose,
  onScanPass,
  takeFocus = false,
}: {
  onChoose: (intent: VisitorIntent) => void;
  /** Scan a pass: a visitor invited ahead shows the QR code of their invitation (CONTRACT §21). */
  onScanPass?: () => void;
  takeFocus?: boolean;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (takeFocus) first.current?.focus();
  }, [takeFocus]);
  return (
    <div className="visitor-home">
      <h1 className="hero-title">Welcome</h1>
      <p className="hero-lead">Please check in when you arrive and check out when you leave.</p>
      <div className="tiles">
        <button ref={first} type="button" className="tile tile-primary" onClick={() => onChoose('checkin')}>
          <Icon name="arrive" size={56} />
          <span className="tile-label">Check in</span>
        </button>
        <button type="button" className="tile" onClick={() => onChoose('break')}>
          <Icon name="cup" size={56} />
          <span className="tile-label">Break</span>
        </button>
        <button type="button" className="tile" onClick={() => onChoose('checkout')}>
          <Icon name="leave" size={56} />
          <span className="tile-label">Check out</span>
        </button>
      </div>
      {onScanPass ? (
        <button type="button" className="button button-secondary pass-scan-open" onClick={onScanPass}>
          Scan a pass
        </button>
      ) : null}
    </div>
  );
}
