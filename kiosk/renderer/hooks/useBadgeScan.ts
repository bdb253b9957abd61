import { type KeyboardEvent, useState } from 'react';
import { looksLikeBadgeScan } from '../../../shared/src/domain/badge';
import type { Kiosk } from '../../src/kiosk';
import type { PersonVisit } from '../../src/data/types';
import { useWords } from '../language/VisitorLanguage';
import { visitorReason } from '../language/visitorWords';

/**
 * A badge's QR code scanned into the Check out search: a keyboard-wedge scanner types its text
 * (`gatehouse://checkout?…`) and Enter, and the visit it names is checked out at once, offline too
 * (kiosk/src/data/badgeCheckout.ts). What is typed by hand is a name, searched as before.
 */
export function useBadgeScan(kiosk: Kiosk, typed: string, onCheckedOut: (visit: PersonVisit) => void) {
  const words = useWords();
  const [scanError, setScanError] = useState<string>();
  const scanning = looksLikeBadgeScan(typed);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, clear: () => void) => {
    if (event.key !== 'Enter' || !scanning) return;
    event.preventDefault();
    // The field is emptied for the next scan whatever the answer; the answer is said below it.
    clear();
    void kiosk.checkOutByBadge(typed).then((result) => {
      if (result.ok) onCheckedOut(result.value);
      else setScanError(visitorReason(words, result.code));
    });
  };
  return { scanning, scanError, clearScanError: () => setScanError(undefined), onKeyDown };
}
