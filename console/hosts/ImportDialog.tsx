import { type FormEvent, useState } from 'react';
import type { HostImportAnswer } from '../../shared/src/client/hosts';
import { hostsApi, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useWrite } from '../components/useWrite';

/** Import hosts from a CSV file (`name,email,phone,sites`): each line creates a host or updates the one with its email. */
export function ImportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<HostImportAnswer | null>(null);
  const [key, setKey] = useState(newKey);
  const write = useWrite([]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      write.setError('Choose a CSV file first.');
      return;
    }
    const text = await file.text();
    const imported = await write.run(() => hostsApi.importHosts(text, key));
    if (imported) {
      setResult(imported);
      // Another file, or the same one changed, is another import.
      setKey(newKey());
      onDone();
    }
  };
  return (
    <Dialog title="Import hosts" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="hint">
          A CSV file whose first line is <code>name,email,phone,sites</code>. Sites are site names or ids separated by{' '}
          <code>;</code>, or <code>*</code> for every site. A host whose email is already listed is updated.
        </p>
        <div className="field">
          <label htmlFor="host-import-file">CSV file</label>
          <input
            id="host-import-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setResult(null);
            }}
          />
        </div>
        {result ? (
          <div role="status">
            <p>
              {result.created} created, {result.updated} updated
              {result.errors.length > 0 ? `, ${result.errors.length} not imported:` : '.'}
            </p>
            {result.errors.length > 0 ? (
              <ul className="import-errors">
                {result.errors.map((error) => (
                  <li key={error.line}>
                    Line {error.line}: {error.detail}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <ErrorMessage text={write.error} />
        <FormButtons submit="Import" busy={write.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
