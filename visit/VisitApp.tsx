import { type ReactNode, useEffect, useState } from 'react';
import { type FormValues, errorsByField, formInput, otherErrors } from '../shared/src/domain/formValues';
import { validateCheckinForm } from '../shared/src/domain/checkinForm';
import type { VisitSite } from '../shared/src/schemas/visit';
import { CheckinForm } from './CheckinForm';
import { VisitStatus } from './VisitStatus';
import { useVisit } from './useVisit';
import { fieldWords, pageLanguage, words } from './words';

/** The page a site's QR poster opens: its form, then the visit on this phone. */
export function VisitApp({ code }: { code: string }) {
  const { site, visit, busy, message, refusal, checkIn, act, startOver, waitingForVisit } = useVisit(code);
  const [values, setValues] = useState<FormValues>({});
  const [checked, setChecked] = useState<Record<string, string>>({});
  const siteName = site.kind === 'ready' ? site.site.siteName : undefined;
  useEffect(() => {
    if (siteName) document.title = words.pageTitle(siteName);
  }, [siteName]);

  if (site.kind === 'loading') return <Page>{<p role="status">{words.loading}</p>}</Page>;
  if (site.kind === 'unreachable')
    return (
      <Page>
        <p role="status">{words.unreachable}</p>
      </Page>
    );
  if (site.kind === 'unknown')
    return (
      <Page>
        <h1>{words.unknownCodeTitle}</h1>
        <p>{words.unknownCode}</p>
      </Page>
    );
  if (visit)
    return (
      <Page title={site.site.siteName}>
        <VisitStatus
          visit={visit}
          busy={busy}
          message={message}
          onAction={(action) => void act(action)}
          onNewCheckin={startOver}
        />
      </Page>
    );
  if (waitingForVisit)
    return (
      <Page title={site.site.siteName}>
        <p role="status">{message ?? words.loading}</p>
      </Page>
    );
  if (site.site.archived)
    return (
      <Page title={site.site.siteName}>
        <h2>{words.archivedTitle}</h2>
        <p>{words.archived(site.site.siteName)}</p>
      </Page>
    );
  const submit = (form: VisitSite) => {
    const input = formInput(form.fields, values);
    const errors = validateCheckinForm(form.fields, input, fieldWords);
    setChecked(errorsByField(form.fields, errors));
    // Errors of fields the page does not show (none today) would only come back from the server: send then.
    if (errors.length > otherErrors(form.fields, errors).length) return;
    // The language the visitor read the form in: their badge and record carry it (docs/languages.md).
    void checkIn({ ...input, formVersion: form.formVersion, language: pageLanguage.language });
  };
  const serverErrors = refusal ? errorsByField(site.site.fields, refusal.fieldErrors) : {};
  return (
    <Page title={site.site.siteName}>
      <CheckinForm
        site={site.site}
        values={values}
        errors={{ ...serverErrors, ...checked }}
        message={busy ? message : (refusal?.message ?? (Object.keys(checked).length > 0 ? words.fixBelow : undefined))}
        busy={busy}
        onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
        onSubmit={() => submit(site.site)}
      />
    </Page>
  );
}

function Page({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <main>
      {title ? <h1>{title}</h1> : null}
      {children}
    </main>
  );
}
