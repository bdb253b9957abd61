import { type FormEvent, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { VehicleAnswer, VehicleLabelAnswer } from '../../shared/src/client/manage';
import { manageApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { LoadMore } from '../components/LoadMore';
import { usePaged } from '../components/usePaged';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { LabelDialog } from './LabelDialog';
import { LabelsSection } from './LabelsSection';
import { VehicleDialog } from './VehicleDialog';

type Editing<T> = { item: T | null } | null;

/** Registered vehicles (search by plate) and their labels; security and managers change them. */
export function VehiclesScreen() {
  const { can } = useSession();
  const words = useWords();
  const { streaming } = useLive();
  // The stream's `vehicles` event re-reads both lists after a write (console/live/followPages.ts); without it, now.
  const afterWrite = (...lists: Array<{ reload: () => void }>) => {
    if (!streaming) for (const list of lists) list.reload();
  };
  const [typed, setTyped] = useState('');
  const [plate, setPlate] = useState('');
  const vehicles = usePaged(['vehicles', plate], (cursor) =>
    manageApi.listVehicleProfiles({ cursor, limit: 50, licensePlate: plate === '' ? undefined : plate }),
  );
  const labels = usePaged(['labels'], (cursor) => manageApi.listVehicleLabels({ cursor, limit: 200 }));
  const [vehicle, setVehicle] = useState<Editing<VehicleAnswer>>(null);
  const [label, setLabel] = useState<Editing<VehicleLabelAnswer>>(null);
  const [deleting, setDeleting] = useState<VehicleAnswer | null>(null);
  const labelOf = (id: number) => labels.items?.find((item) => item.labelId === id);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPlate(typed.trim());
  };

  return (
    <section aria-labelledby="vehicles-title">
      <div className="page-head">
        <h1 id="vehicles-title">{words.t('nav.vehicles')}</h1>
        {can.manageVehicles ? (
          <button type="button" className="primary" onClick={() => setVehicle({ item: null })}>
            {words.t('vehicles.add')}
          </button>
        ) : null}
      </div>
      <form className="filters" role="search" onSubmit={search}>
        <Field
          label={words.t('vehicles.search')}
          value={typed}
          onChange={setTyped}
          placeholder={words.t('vehicles.search.example')}
        />
        <div className="filter-buttons">
          <button type="submit">{words.t('vehicles.search.submit')}</button>
          {plate !== '' ? (
            <button
              type="button"
              onClick={() => {
                setTyped('');
                setPlate('');
              }}
            >
              {words.t('vehicles.showAll')}
            </button>
          ) : null}
        </div>
      </form>
      <ErrorMessage text={vehicles.error} />
      {vehicles.items?.length === 0 ? (
        <p className="empty">
          {plate === '' ? words.t('vehicles.empty') : words.t('vehicles.noneWithPlate', { plate })}
        </p>
      ) : null}
      {vehicles.items && vehicles.items.length > 0 ? (
        <ListTable
          rows={vehicles.items}
          rowKey={(item) => item.vehicleId}
          columns={[
            { header: words.t('vehicles.column.plate'), cell: (item) => item.licensePlate, className: () => 'plate' },
            {
              header: words.t('vehicles.column.vehicle'),
              cell: (item) =>
                `${[item.color, item.make, item.model].filter(Boolean).join(' ') || '—'}${item.description ? ` · ${item.description}` : ''}`,
            },
            {
              header: words.t('vehicles.column.labels'),
              cell: (item) =>
                item.labelIds.length === 0
                  ? '—'
                  : item.labelIds.map((id) => {
                      const found = labelOf(id);
                      return (
                        <span key={id} className={found?.blocksEntry ? 'tag blocks' : 'tag'}>
                          {found
                            ? found.blocksEntry
                              ? words.t('vehicles.label.blocks', { name: found.name })
                              : found.name
                            : words.t('vehicles.label.numbered', { id: String(id) })}
                        </span>
                      );
                    }),
            },
          ]}
          actions={(item) =>
            can.manageVehicles ? (
              <>
                <button
                  type="button"
                  onClick={() => setVehicle({ item })}
                  aria-label={words.t('vehicles.editNamed', { plate: item.licensePlate })}
                >
                  {words.t('common.edit')}
                </button>
                <button
                  type="button"
                  className="danger"
                  onClick={() => setDeleting(item)}
                  aria-label={words.t('vehicles.deleteNamed', { plate: item.licensePlate })}
                >
                  {words.t('common.delete')}
                </button>
              </>
            ) : null
          }
        />
      ) : null}
      <LoadMore hasMore={vehicles.hasMore} busy={vehicles.busy} onClick={vehicles.loadMore} />
      <LabelsSection
        labels={labels.items}
        error={labels.error}
        hasMore={labels.hasMore}
        busy={labels.busy}
        loadMore={labels.loadMore}
        changed={() => afterWrite(labels, vehicles)}
        mayEdit={can.manageVehicles}
        onEdit={(item) => setLabel({ item })}
      />
      {vehicle ? (
        <VehicleDialog
          vehicle={vehicle.item}
          labels={labels.items ?? []}
          onClose={() => setVehicle(null)}
          onDone={() => {
            setVehicle(null);
            afterWrite(vehicles);
          }}
        />
      ) : null}
      {label ? (
        <LabelDialog
          label={label.item}
          onClose={() => setLabel(null)}
          onDone={() => {
            setLabel(null);
            afterWrite(labels);
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={words.t('vehicles.deleteNamed', { plate: deleting.licensePlate })}
          message={words.t('vehicles.deleteMessage')}
          confirm={words.t('common.delete')}
          onClose={() => setDeleting(null)}
          action={(key) => manageApi.deleteVehicle(deleting.vehicleId, key)}
          onDone={() => {
            setDeleting(null);
            afterWrite(vehicles);
          }}
        />
      ) : null}
    </section>
  );
}
