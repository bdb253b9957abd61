import { useState } from 'react';
import type { Kiosk } from '../../src/kiosk';
import type { PersonVisit } from '../../src/data/types';
import { useWords } from '../language/VisitorLanguage';
import { CheckinConfirmation, refusedMessage } from './CheckinConfirmation';
import { CheckinForm } from './CheckinForm';
import { Confirmation, type ConfirmationMessage } from './Confirmation';
import { FindYourName } from './FindYourName';
import { PassScan, type WelcomePass } from './PassScan';
import { VisitorHome } from './VisitorHome';

// `returned`: home came back after another step (whose focused control is gone), not on opening.
// `offer`: the visit the form found this person already on site with, offered at once on Find your name.
type Step =
  | { step: 'home'; returned: boolean }
  | { step: 'form'; welcome?: WelcomePass }
  | { step: 'pass' }
  | { step: 'find'; intent: 'checkout' | 'break'; offer?: PersonVisit }
  | { step: 'checkedIn'; visit: PersonVisit }
  | { step: 'done'; message: ConfirmationMessage };

/**
 * Visitor mode: home → form, a pass then the form, or find-your-name → confirmation → home. A confirmation
 * ends the visit's turn at the kiosk (`onVisitEnded`: the kiosk goes back to the site's language); Back does not.
 */
export function VisitorScreen({ kiosk, onVisitEnded }: { kiosk: Kiosk; onVisitEnded: () => void }) {
  const words = useWords();
  const [step, setStep] = useState<Step>({ step: 'home', returned: false });
  const home = () => setStep({ step: 'home', returned: true });
  const ended = () => {
    home();
    onVisitEnded();
  };
  switch (step.step) {
    case 'home':
      return (
        <VisitorHome
          takeFocus={step.returned}
          onChoose={(intent) => setStep(intent === 'checkin' ? { step: 'form' } : { step: 'find', intent })}
          onScanPass={() => setStep({ step: 'pass' })}
        />
      );
    case 'pass':
      return (
        <PassScan
          kiosk={kiosk}
          onWelcome={(welcome) => setStep({ step: 'form', welcome })}
          onCheckIn={() => setStep({ step: 'form' })}
          onCancel={home}
        />
      );
    case 'form':
      return (
        <CheckinForm
          // A new form for a pass, so nothing typed for someone else carries over.
          key={step.welcome?.claims.jti ?? 'form'}
          kiosk={kiosk}
          welcome={step.welcome}
          onCancel={home}
          onCheckOut={(visit) => setStep({ step: 'find', intent: 'checkout', offer: visit })}
          onCheckedIn={(visit) => setStep({ step: 'checkedIn', visit })}
          onRefusedBefore={() => setStep({ step: 'done', message: refusedMessage(words) })}
        />
      );
    case 'find':
      return (
        <FindYourName
          kiosk={kiosk}
          intent={step.intent}
          offer={step.offer}
          onCancel={home}
          onDone={(message) => setStep({ step: 'done', message })}
        />
      );
    case 'checkedIn':
      return <CheckinConfirmation kiosk={kiosk} visit={step.visit} onDone={ended} />;
    case 'done':
      return <Confirmation message={step.message} onDone={ended} />;
  }
}
