import { type FormEvent, useState } from 'react';
import type { HostImportAnswer } from '../../shared/src/client/hosts';
import { hostsApi, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useWrite } from '../components/useWrite';
import { useWords } from '../language/ConsoleLanguage';
import { richWords } from '../language/richWords';

/** Import hosts from a CSV file (`name,email,phone,sites`): each line creates a host or updates the one with its email. */
export function ImportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const words = useWords();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<HostImportAnswer | null>(null);
  const [key, setKey] = useState(newKey);
  const write = useWrite([]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      write.setError(words.t('hosts.import.noFile'));
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
    <Dialog title={words.t('hosts.import.title')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="hint">{richWords(words, 'hosts.import.hint', { code: (chunks) => <code>{chunks}</code> })}</p>
        <div className="field">
          <label htmlFor="host-import-file">{words.t('hosts.import.file')}</label>
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
              {words.t('hosts.import.result', {
                created: result.created,
                updated: result.updated,
                failed: result.errors.length,
              })}
            </p>
            {result.errors.length > 0 ? (
              <ul className="import-errors">
                {result.errors.map((error) => (
                  <li key={error.line}>
                    {words.t('hosts.import.lineError', { line: String(error.line), detail: error.detail })}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <ErrorMessage text={write.error} />
        <FormButtons submit={words.t('hosts.import.submit')} busy={write.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
