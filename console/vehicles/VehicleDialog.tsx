import { type FormEvent, useState } from 'react';
import type { VehicleAnswer, VehicleLabelAnswer } from '../../shared/src/client/manage';
import { manageApi, newKey } from '../api';
import { CheckGroup, Checkbox } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { useWrite } from '../components/useWrite';
import { useWords } from '../language/ConsoleLanguage';

const FIELDS = ['licensePlate', 'make', 'model', 'color', 'description', 'labelIds'] as const;
type Text = 'licensePlate' | 'make' | 'model' | 'color' | 'description';

const initial = (vehicle: VehicleAnswer | null): Record<Text, string> => ({
  licensePlate: vehicle?.licensePlate ?? '',
  make: vehicle?.make ?? '',
  model: vehicle?.model ?? '',
  color: vehicle?.color ?? '',
  description: vehicle?.description ?? '',
});

/** Register a vehicle, or edit one (`vehicle` given): plate, details and labels in one form. */
export function VehicleDialog({
  vehicle,
  labels,
  onClose,
  onDone,
}: {
  vehicle: VehicleAnswer | null;
  labels: readonly VehicleLabelAnswer[];
  onClose: () => void;
  onDone: () => void;
}) {
  const words = useWords();
  const [values, setValues] = useState(() => initial(vehicle));
  const [labelIds, setLabelIds] = useState<number[]>(vehicle?.labelIds ?? []);
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const edit = (name: Text) => (value: string) => {
    setValues((before) => ({ ...before, [name]: value }));
    write.clear(name);
  };
  const toggle = (labelId: number, on: boolean) =>
    setLabelIds((ids) => (on ? [...ids, labelId] : ids.filter((id) => id !== labelId)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = (name: Text) => values[name].trim();
    let done: unknown;
    if (vehicle) {
      // A cleared optional field is sent as null (PUT is partial: null clears, docs/api.md Vehicles).
      const optional = (name: Exclude<Text, 'licensePlate'>) => (trimmed(name) === '' ? null : trimmed(name));
      done = await write.run(() =>
        manageApi.updateVehicle(
          vehicle.vehicleId,
          {
            licensePlate: trimmed('licensePlate'),
            make: optional('make'),
            model: optional('model'),
            color: optional('color'),
            description: optional('description'),
            labelIds,
          },
          key,
        ),
      );
    } else {
      const optional = (name: Exclude<Text, 'licensePlate'>) => (trimmed(name) === '' ? undefined : trimmed(name));
      done = await write.run(() =>
        manageApi.createVehicle(
          {
            licensePlate: trimmed('licensePlate'),
            make: optional('make'),
            model: optional('model'),
            color: optional('color'),
            description: optional('description'),
            labelIds,
          },
          key,
        ),
      );
    }
    if (done) onDone();
  };
  const field = (name: Text, label: string) => (
    <Field label={label} value={values[name]} onChange={edit(name)} error={write.fieldErrors[name]} />
  );
  return (
    <Dialog
      title={vehicle ? words.t('vehicles.editNamed', { plate: vehicle.licensePlate }) : words.t('vehicles.add')}
      onClose={onClose}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        {field('licensePlate', words.t('vehicles.field.licensePlate'))}
        {field('make', words.t('vehicles.field.make'))}
        {field('model', words.t('vehicles.field.model'))}
        {field('color', words.t('vehicles.field.color'))}
        {field('description', words.t('vehicles.field.description'))}
        {labels.length > 0 ? (
          <CheckGroup legend={words.t('vehicles.column.labels')} error={write.fieldErrors.labelIds}>
            {labels.map((label) => (
              <Checkbox
                key={label.labelId}
                label={label.blocksEntry ? words.t('vehicles.label.blocks', { name: label.name }) : label.name}
                checked={labelIds.includes(label.labelId)}
                onChange={(on) => toggle(label.labelId, on)}
              />
            ))}
          </CheckGroup>
        ) : null}
        <ErrorMessage text={write.error} />
        <FormButtons
          submit={vehicle ? words.t('common.save') : words.t('common.add')}
          busy={write.busy}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
