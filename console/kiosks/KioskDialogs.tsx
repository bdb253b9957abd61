import { type FormEvent, useId, useState } from 'react';
import type { PairingCodeAnswer, SiteAnswer } from '../../shared/src/client/administration';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import type { KioskMode } from '../../shared/src/schemas/kiosks';
import { adminApi, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { DoneButton, FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import { PairingCode } from './PairingCode';

export const modeWords: Record<string, ConsoleMessage> = { visitor: 'kiosks.mode.visitor', gate: 'kiosks.mode.gate' };

/** Add a kiosk: Site, Mode, Name, then Add; the answer's pairing code is shown in the same dialog. */
export function AddKioskDialog({
  sites,
  onClose,
  onAdded,
}: {
  sites: readonly SiteAnswer[];
  onClose: () => void;
  onAdded: () => void;
}) {
  const words = useWords();
  const siteId = useId();
  const modeId = useId();
  const [site, setSite] = useState(sites[0]?.siteId ?? 0);
  const [mode, setMode] = useState<KioskMode>('visitor');
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [code, setCode] = useState<PairingCodeAnswer | null>(null);
  const action = useAction();
  const [key] = useState(newKey);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return setNameError(words.t('kiosks.add.noName'));
    setNameError(undefined);
    const created = await action.run(() => adminApi.createKiosk({ siteId: site, mode, name: name.trim() }, key));
    if (created) {
      setCode(created);
      onAdded();
    }
  };

  if (code) return <CodeDialog name={name.trim()} code={code} onClose={onClose} />;
  return (
    <Dialog title={words.t('kiosks.add')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label htmlFor={siteId}>{words.t('common.site')}</label>
          <select id={siteId} value={site} onChange={(event) => setSite(Number(event.target.value))}>
            {sites.map((each) => (
              <option key={each.siteId} value={each.siteId}>
                {each.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={modeId}>{words.t('kiosks.mode')}</label>
          <select
            id={modeId}
            value={mode}
            onChange={(event) => setMode(event.target.value === 'gate' ? 'gate' : 'visitor')}
          >
            <option value="visitor">{words.t('kiosks.mode.visitor')}</option>
            <option value="gate">{words.t('kiosks.mode.gate')}</option>
          </select>
        </div>
        <Field label={words.t('kiosks.add.name')} value={name} onChange={setName} error={nameError} maxLength={200} />
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('common.add')} busy={action.busy || sites.length === 0} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** A pairing code just made for a kiosk (its earlier codes stopped working). */
export function CodeDialog({ name, code, onClose }: { name: string; code: PairingCodeAnswer; onClose: () => void }) {
  const words = useWords();
  return (
    <Dialog title={words.t('kiosks.pairNamed', { name })} onClose={onClose}>
      <PairingCode code={code} />
      <DoneButton onClose={onClose} />
    </Dialog>
  );
}
