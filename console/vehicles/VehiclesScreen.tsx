import { type FormEvent, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { VehicleAnswer, VehicleLabelAnswer } from '../../shared/src/client/manage';
import { manageApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { LoadMore } from '../components/LoadMore';
import { usePaged } from '../components/usePaged';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { LabelDialog } from './LabelDialog';
import { LabelsSection } from './LabelsSection';
import { VehicleDialog } from './VehicleDialog';

type Editing<T> = { item: T | null } | null;

/** Registered vehicles (search by plate) and their labels; security and managers change them. */
export function VehiclesScreen() {
  const { can } = useSession();
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
        <h1 id="vehicles-title">Vehicles</h1>
        {can.manageVehicles ? (
          <button type="button" className="primary" onClick={() => setVehicle({ item: null })}>
            Add a vehicle
          </button>
        ) : null}
      </div>
      <form className="filters" role="search" onSubmit={search}>
        <Field label="Search by plate" value={typed} onChange={setTyped} placeholder="Whole plate, like AB-123-CD" />
        <div className="filter-buttons">
          <button type="submit">Search</button>
          {plate !== '' ? (
            <button
              type="button"
              onClick={() => {
                setTyped('');
                setPlate('');
              }}
            >
              Show all
            </button>
          ) : null}
        </div>
      </form>
      <ErrorMessage text={vehicles.error} />
      {vehicles.items?.length === 0 ? (
        <p className="empty">{plate === '' ? 'No vehicles registered yet.' : `No vehicle with plate ${plate}.`}</p>
      ) : null}
      {vehicles.items && vehicles.items.length > 0 ? (
        <ListTable
          rows={vehicles.items}
          rowKey={(item) => item.vehicleId}
          columns={[
            { header: 'Plate', cell: (item) => item.licensePlate, className: () => 'plate' },
            {
              header: 'Vehicle',
              cell: (item) =>
                `${[item.color, item.make, item.model].filter(Boolean).join(' ') || '—'}${item.description ? ` · ${item.description}` : ''}`,
            },
            {
              header: 'Labels',
              cell: (item) =>
                item.labelIds.length === 0
                  ? '—'
                  : item.labelIds.map((id) => {
                      const found = labelOf(id);
                      return (
                        <span key={id} className={found?.blocksEntry ? 'tag blocks' : 'tag'}>
                          {found?.name ?? `Label ${id}`}
                          {found?.blocksEntry ? ' (blocks entry)' : ''}
                        </span>
                      );
                    }),
            },
          ]}
          actions={(item) =>
            can.manageVehicles ? (
              <>
                <button type="button" onClick={() => setVehicle({ item })} aria-label={`Edit ${item.licensePlate}`}>
                  Edit
                </button>
                <button
                  type="button"
                  className="danger"
                  onClick={() => setDeleting(item)}
                  aria-label={`Delete ${item.licensePlate}`}
                >
                  Delete
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
          title={`Delete ${deleting.licensePlate}`}
          message="The vehicle is no longer registered. Past visits keep their plate."
          confirm="Delete"
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
