import { type FormEvent, useState } from 'react';
import type { VehicleLabelAnswer } from '../../shared/src/client/manage';
import { manageApi, newKey } from '../api';
import { Checkbox } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { useWrite } from '../components/useWrite';
import { useWords } from '../language/ConsoleLanguage';

const FIELDS = ['name', 'color', 'blocksEntry'] as const;

/** Make a vehicle label, or edit one (`label` given). A label that blocks entry stops its vehicles at the gate. */
export function LabelDialog({
  label,
  onClose,
  onDone,
}: {
  label: VehicleLabelAnswer | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const words = useWords();
  const [name, setName] = useState(label?.name ?? '');
  const [color, setColor] = useState(label?.color ?? '');
  const [blocksEntry, setBlocksEntry] = useState(label?.blocksEntry ?? false);
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmedColor = color.trim();
    const done = label
      ? await write.run(() =>
          manageApi.updateVehicleLabel(
            label.labelId,
            { name: name.trim(), color: trimmedColor === '' ? null : trimmedColor, blocksEntry },
            key,
          ),
        )
      : await write.run(() =>
          manageApi.createVehicleLabel(
            { name: name.trim(), color: trimmedColor === '' ? undefined : trimmedColor, blocksEntry },
            key,
          ),
        );
    if (done) onDone();
  };
  return (
    <Dialog title={label ? words.t('labels.editNamed', { name: label.name }) : words.t('labels.add')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={words.t('labels.field.name')}
          value={name}
          onChange={(value) => {
            setName(value);
            write.clear('name');
          }}
          error={write.fieldErrors.name}
          maxLength={64}
        />
        <Field
          label={words.t('labels.field.color')}
          value={color}
          onChange={(value) => {
            setColor(value);
            write.clear('color');
          }}
          error={write.fieldErrors.color}
          placeholder={words.t('labels.field.colorExample')}
        />
        <Checkbox label={words.t('labels.blocksEntry')} checked={blocksEntry} onChange={setBlocksEntry} />
        <p className="hint">{words.t('labels.blocksEntry.hint')}</p>
        <ErrorMessage text={write.error} />
        <FormButtons
          submit={label ? words.t('common.save') : words.t('common.add')}
          busy={write.busy}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
