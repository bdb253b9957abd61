import { useState } from 'react';
import type { FormValues } from '../../shared/src/domain/formValues';
import { FormField } from '../../kiosk/renderer/components/FormField';
import { useWords } from '../language/ConsoleLanguage';
import { type DraftField, shownField } from './formDraft';

/**
 * The kiosk's check-in form as a visitor would see it, drawn by the kiosk's own field component, so the
 * labels, "optional" hints and controls are the kiosk's. Values typed here go nowhere.
 */
export function FormPreview({ fields }: { fields: readonly DraftField[] }) {
  const words = useWords();
  const [values, setValues] = useState<FormValues>({});
  const shown = fields.flatMap((field) => {
    const config = shownField(field);
    return config ? [config] : [];
  });
  return (
    <section className="preview card" aria-labelledby="preview-title">
      <h2 id="preview-title">{words.t('siteForm.preview')}</h2>
      <p className="hint">{words.t('siteForm.preview.hint')}</p>
      <div className="preview-form" role="group" aria-label={words.t('siteForm.preview.form')}>
        {shown.map((field) => (
          <FormField
            key={field.name}
            field={field}
            value={values[field.name]}
            error={undefined}
            onChange={(value) => setValues((previous) => ({ ...previous, [field.name]: value }))}
            onBlur={() => undefined}
          />
        ))}
      </div>
    </section>
  );
}
