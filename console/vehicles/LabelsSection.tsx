import { useState } from 'react';
import type { VehicleLabelAnswer } from '../../shared/src/client/manage';
import { manageApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';

interface LabelsProps {
  labels: readonly VehicleLabelAnswer[] | null;
  error: string | null;
  hasMore: boolean;
  busy: boolean;
  loadMore: () => void;
  changed: () => void;
  mayEdit: boolean;
  onEdit: (label: VehicleLabelAnswer | null) => void;
}

/** The account's vehicle labels; those that block entry say so. */
export function LabelsSection({ labels, error, hasMore, busy, loadMore, changed, mayEdit, onEdit }: LabelsProps) {
  const [deleting, setDeleting] = useState<VehicleLabelAnswer | null>(null);
  return (
    <section className="sub" aria-labelledby="labels-title">
      <div className="page-head">
        <h2 id="labels-title">Vehicle labels</h2>
        {mayEdit ? (
          <button type="button" onClick={() => onEdit(null)}>
            Add a label
          </button>
        ) : null}
      </div>
      <ErrorMessage text={error} />
      {labels?.length === 0 ? <p className="empty">No labels yet.</p> : null}
      <ul className="cards">
        {(labels ?? []).map((label) => (
          <li key={label.labelId} className="card-row">
            <div className="card-main">
              <strong>
                {label.color ? (
                  <span aria-hidden="true" style={{ color: label.color }}>
                    ●{' '}
                  </span>
                ) : null}
                {label.name}
              </strong>
              <span className={label.blocksEntry ? 'tag blocks' : 'muted'}>
                {label.blocksEntry ? 'Blocks entry' : 'Does not block entry'}
              </span>
            </div>
            {mayEdit ? (
              <div className="buttons">
                <button type="button" onClick={() => onEdit(label)} aria-label={`Edit label ${label.name}`}>
                  Edit
                </button>
                <button
                  type="button"
                  className="danger"
                  onClick={() => setDeleting(label)}
                  aria-label={`Delete label ${label.name}`}
                >
                  Delete
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <LoadMore hasMore={hasMore} busy={busy} onClick={loadMore} />
      {deleting ? (
        <ConfirmDialog
          title={`Delete label ${deleting.name}`}
          message="The label is taken off every vehicle that has it."
          confirm="Delete"
          onClose={() => setDeleting(null)}
          action={(key) => manageApi.deleteVehicleLabel(deleting.labelId, key)}
          onDone={() => {
            setDeleting(null);
            changed();
          }}
        />
      ) : null}
    </section>
  );
}
