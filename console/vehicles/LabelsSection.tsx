import { useState } from 'react';
import type { VehicleLabelAnswer } from '../../shared/src/client/manage';
import { manageApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { useWords } from '../language/ConsoleLanguage';

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
  const words = useWords();
  const [deleting, setDeleting] = useState<VehicleLabelAnswer | null>(null);
  return (
    <section className="sub" aria-labelledby="labels-title">
      <div className="page-head">
        <h2 id="labels-title">{words.t('labels.title')}</h2>
        {mayEdit ? (
          <button type="button" onClick={() => onEdit(null)}>
            {words.t('labels.add')}
          </button>
        ) : null}
      </div>
      <ErrorMessage text={error} />
      {labels?.length === 0 ? <p className="empty">{words.t('labels.empty')}</p> : null}
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
                {label.blocksEntry ? words.t('labels.blocksEntry') : words.t('labels.doesNotBlock')}
              </span>
            </div>
            {mayEdit ? (
              <div className="buttons">
                <button
                  type="button"
                  onClick={() => onEdit(label)}
                  aria-label={words.t('labels.editNamed', { name: label.name })}
                >
                  {words.t('common.edit')}
                </button>
                <button
                  type="button"
                  className="danger"
                  onClick={() => setDeleting(label)}
                  aria-label={words.t('labels.deleteNamed', { name: label.name })}
                >
                  {words.t('common.delete')}
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <LoadMore hasMore={hasMore} busy={busy} onClick={loadMore} />
      {deleting ? (
        <ConfirmDialog
          title={words.t('labels.deleteNamed', { name: deleting.name })}
          message={words.t('labels.deleteMessage')}
          confirm={words.t('common.delete')}
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
