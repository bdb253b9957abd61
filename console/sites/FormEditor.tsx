import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { HOST_FIELD_LABEL } from '../../shared/src/messages/fieldLabels';
import { standardFieldNames } from '../../shared/src/schemas/sites';
import { adminApi } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { useWords } from '../language/ConsoleLanguage';
import { failureWords } from '../words';
import { FieldEditor } from './FieldEditor';
import { FormPreview } from './FormPreview';
import { type Draft, type DraftErrors, checkDraft, draftOf, moved, newField, refuseName } from './formDraft';
import { useFormFollowing } from './useFormFollowing';

const noErrors: DraftErrors = { byField: {}, form: [] };

type Loaded = { draft: Draft; etag: string | null; version: number | null };

/**
 * A site's check-in form: fields added, edited, moved and removed, a live preview, saved as a whole with
 * If-Match, so a change someone else saved meanwhile is refused (412) and shown, never overwritten.
 */
export function FormEditor({ siteId, siteName, onBack }: { siteId: number; siteName: string; onBack: () => void }) {
  const words = useWords();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<DraftErrors>(noErrors);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [newName, setNewName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [added, setAdded] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  // Edited since loaded or saved: leaving asks first, so a change is not lost unnoticed.
  const dirty = draft !== null && loaded !== null && draft !== loaded.draft;

  const load = useCallback(async () => {
    setLoadError(null);
    const outcome = await adminApi.getCheckinConfig(siteId);
    if (outcome.kind === 'ok') {
      const next = { draft: draftOf(outcome.value), etag: outcome.headers.get('ETag'), version: outcome.value.version };
      setLoaded(next);
      setDraft(next.draft);
      setErrors(noErrors);
      setConflict(false);
      setSaveError(null);
    } else if (outcome.kind !== 'notModified') setLoadError(failureWords(words, outcome));
  }, [siteId, words]);

  useEffect(() => {
    void load();
  }, [load]);

  const changedElsewhere = useFormFollowing(siteId, { version: loaded?.version ?? null, dirty, saving: busy, load });

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  if (!draft || !loaded) {
    return (
      <section aria-labelledby="form-title">
        <h1 id="form-title">{words.t('siteForm.title', { site: siteName })}</h1>
        <ErrorMessage text={loadError} />
        {loadError ? null : <p aria-busy="true">{words.t('siteForm.loading')}</p>}
      </section>
    );
  }

  const edit = (next: Draft, fixing?: string) => {
    setDraft(next);
    setSaved(false);
    // A field's message goes once it is touched; Save checks everything again.
    if (fixing !== undefined && errors.byField[fixing] !== undefined) {
      const { [fixing]: _fixed, ...rest } = errors.byField;
      setErrors({ ...errors, byField: rest });
      if (Object.keys(rest).length === 0 && errors.form.length === 0) setSaveError(null);
    }
  };
  const missingStandard = standardFieldNames.filter((name) => !draft.fields.some((field) => field.name === name));

  const addField = (event: FormEvent) => {
    event.preventDefault();
    const name = newName.trim();
    const refused = refuseName(words, draft, name);
    setNameError(refused ?? undefined);
    if (refused) return;
    const field = newField(name);
    edit({ ...draft, fields: [...draft.fields, field] });
    setAdded(field.key);
    setNewName('');
  };

  // One per form, named hostName (docs/notifications.md): a hostName text field becomes the host list.
  const hasHostField = draft.fields.some((field) => field.name === 'hostName' && field.type === 'host');
  const addHostField = () => {
    const existing = draft.fields.find((field) => field.name === 'hostName');
    if (existing) {
      edit({
        ...draft,
        fields: draft.fields.map((field) => (field === existing ? { ...field, type: 'host' } : field)),
      });
      setAdded(existing.key);
      return;
    }
    const field = { ...newField('hostName'), label: HOST_FIELD_LABEL, type: 'host', required: true };
    edit({ ...draft, fields: [...draft.fields, field] });
    setAdded(field.key);
  };

  const save = async () => {
    const checked = checkDraft(words, draft);
    setSaveError(null);
    if (!checked.ok) {
      setErrors(checked.errors);
      const count = Object.keys(checked.errors.byField).length;
      setSaveError(
        [count > 0 ? words.t('siteForm.correctMarked') : '', ...checked.errors.form].filter(Boolean).join(' '),
      );
      return;
    }
    setErrors(noErrors);
    setBusy(true);
    const outcome = await adminApi.putCheckinConfig(siteId, checked.body, loaded.etag ?? undefined);
    setBusy(false);
    if (outcome.kind === 'ok') {
      const etag = outcome.headers.get('ETag');
      // The draft stays as the manager arranged it; only the version to send next changes.
      setLoaded({ draft, etag, version: outcome.value.version });
      setSaved(true);
      if (etag === null) void load();
    } else if (outcome.kind === 'refused' && outcome.status === 412) setConflict(true);
    else if (outcome.kind !== 'notModified') setSaveError(failureWords(words, outcome));
  };

  return (
    <section aria-labelledby="form-title" className="form-editor">
      <div className="page-head">
        <h1 id="form-title">{words.t('siteForm.title', { site: siteName })}</h1>
        <button type="button" onClick={() => (dirty ? setLeaving(true) : onBack())}>
          {words.t('siteForm.back')}
        </button>
      </div>
      {changedElsewhere && !conflict ? (
        <div className="notice" role="status">
          <p>{words.t('siteForm.changedElsewhere')}</p>
          <button type="button" onClick={() => void load()}>
            {words.t('siteForm.loadChanged')}
          </button>
        </div>
      ) : null}
      <div className="editor-columns">
        <div className="editor-main">
          <div className="field checkbox">
            <input
              id="requires-approval"
              type="checkbox"
              checked={draft.requiresApproval}
              onChange={(event) => edit({ ...draft, requiresApproval: event.target.checked })}
            />
            <label htmlFor="requires-approval">{words.t('siteForm.requiresApproval')}</label>
            <span className="hint">{words.t('siteForm.requiresApproval.hint')}</span>
          </div>
          {draft.fields.map((field, index) => (
            <FieldEditor
              key={field.key}
              field={field}
              error={errors.byField[field.key]}
              first={index === 0}
              last={index === draft.fields.length - 1}
              focus={added === field.key}
              onChange={(changed) =>
                edit(
                  { ...draft, fields: draft.fields.map((each) => (each.key === field.key ? changed : each)) },
                  field.key,
                )
              }
              onMove={(by) => edit(moved(draft, index, by))}
              onRemove={() =>
                edit({ ...draft, fields: draft.fields.filter((each) => each.key !== field.key) }, field.key)
              }
            />
          ))}
          <form className="add-field card" onSubmit={addField} noValidate>
            <Field
              label={words.t('siteForm.newName')}
              value={newName}
              onChange={setNewName}
              error={nameError}
              list="standard-fields"
              autoComplete="off"
            />
            <datalist id="standard-fields">
              {missingStandard.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <p className="hint">
              {missingStandard.length > 0
                ? words.t('siteForm.newName.hint', { standard: missingStandard.join(', ') })
                : words.t('siteForm.newName.hintAllIn')}
            </p>
            <div className="buttons start">
              <button type="submit">{words.t('siteForm.addField')}</button>
              {hasHostField ? null : (
                <button type="button" onClick={addHostField}>
                  {words.t('siteForm.addHostField')}
                </button>
              )}
            </div>
          </form>
          {conflict ? (
            <div className="error" role="alert">
              <p>{words.t('siteForm.conflict')}</p>
              <p>{words.t('siteForm.conflict.kept')}</p>
              <button type="button" onClick={() => void load()}>
                {words.t('siteForm.reload')}
              </button>
            </div>
          ) : null}
          <ErrorMessage text={saveError} />
          {saved ? (
            <p className="saved" role="status">
              {words.t('siteForm.saved')}
            </p>
          ) : null}
          <div className="buttons start">
            <button type="button" className="primary" disabled={busy} onClick={() => void save()}>
              {words.t('siteForm.save')}
            </button>
          </div>
        </div>
        <FormPreview fields={draft.fields} />
      </div>
      {leaving ? (
        <Dialog title={words.t('siteForm.leave.title')} onClose={() => setLeaving(false)}>
          <p>{words.t('siteForm.leave.message')}</p>
          <div className="buttons">
            <button type="button" onClick={() => setLeaving(false)}>
              {words.t('common.cancel')}
            </button>
            <button type="button" className="danger" onClick={onBack}>
              {words.t('siteForm.leave')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
