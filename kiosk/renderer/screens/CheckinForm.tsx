import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type CheckinFormInput, validateCheckinForm } from '../../../shared/src/domain';
import { type ConfigField, defaultCheckinConfig } from '../../../shared/src/schemas/sites';
import type { Kiosk } from '../../src/kiosk';
import { type EarlierVisit, earlierVisit } from '../../src/data/earlierVisit';
import type { PersonVisit } from '../../src/data/types';
import type { KioskHost } from '../../src/sync/siteHosts';
import { FormField } from '../components/FormField';
import { type FormValues, errorsByField, formInput } from '../../../shared/src/domain/formValues';
import { visitorFieldWords } from '../fieldWords';
import type { WelcomePass } from './PassScan';
import { namedTitle } from '../language/namedTitle';
import { type KioskWords, useWords } from '../language/VisitorLanguage';
import { visitStatusText, visitorReason, visitorTime } from '../language/visitorWords';

interface CheckinFormProps {
  kiosk: Kiosk;
  onCheckedIn: (visit: PersonVisit) => void;
  /** The person matches a visit the site refused (STOP): they see what a refused check-in shows, nothing more. */
  onRefusedBefore: () => void;
  /** The person is already on site (as `visit`) and chose to check out instead. */
  onCheckOut: (visit: PersonVisit) => void;
  onCancel: () => void;
  /** A pass this kiosk honoured: the visitor is greeted by name and asked only what the pass lacks. */
  welcome?: WelcomePass;
}

/** What a pass says of the visitor, so the form does not ask it again. */
const fromPass = (welcome: WelcomePass | undefined): FormValues =>
  welcome ? { firstName: welcome.claims.firstName, lastName: welcome.claims.lastName } : {};

/**
 * The check-in form, generated from the site's configuration (the cached copy when offline, the server's
 * default fields if none was ever fetched). It is checked with the same rules the server applies, and the
 * errors are shown under each field before anything is queued. Someone who looks already on site is
 * asked first (see AlreadyCheckedIn).
 */
export function CheckinForm({ kiosk, onCheckedIn, onRefusedBefore, onCheckOut, onCancel, welcome }: CheckinFormProps) {
  const words = useWords();
  const fieldWords = visitorFieldWords(words);
  const [fields, setFields] = useState<ConfigField[]>();
  const [hosts, setHosts] = useState<KioskHost[]>([]);
  const [values, setValues] = useState<FormValues>(() => fromPass(welcome));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The banner above the form: `fields` when it only counts the fields marked below (so it follows them).
  const [formError, setFormError] = useState<{ text: string; fields: boolean }>();
  const [saving, setSaving] = useState(false);
  const [alreadyIn, setAlreadyIn] = useState<PersonVisit>();
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    let current = true;
    const fallback = defaultCheckinConfig.fields;
    kiosk.siteConfig().then(
      (result) => {
        if (!current) return;
        const shown = result?.config.fields ?? fallback;
        setFields(shown);
        // Only a form that asks for a host needs the list (kept on the device like the form, for offline).
        if (shown.some((field) => field.type === 'host'))
          void kiosk.siteHosts().then(
            (list) => current && setHosts(list),
            () => undefined,
          );
      },
      () => current && setFields(fallback),
    );
    return () => {
      current = false;
    };
  }, [kiosk]);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, [fields]);

  if (!fields) return <p className="loading">{words.t('form.loading')}</p>;

  const check = (next: FormValues) =>
    errorsByField(fields, validateCheckinForm(fields, formInput(fields, next), fieldWords));
  const focusFirstError = (shown: Record<string, string>) => {
    const first = fields.find((field) => shown[field.name] !== undefined);
    if (first) form.current?.querySelector<HTMLElement>(`#field-${first.name}`)?.focus();
  };

  const change = (name: string, value: string | boolean) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // Other details may be someone else: the question is asked again on the next Check in.
    setAlreadyIn(undefined);
    // A field already marked wrong is re-checked as the person types, so the message goes once it is right.
    if (errors[name] !== undefined) {
      const { [name]: _fixed, ...rest } = errors;
      const now = check(next)[name];
      const remaining = now === undefined ? rest : { ...rest, [name]: now };
      setErrors(remaining);
      // Once every marked field is right, the banner that asked for it goes too.
      const left = Object.keys(remaining).length;
      if (left === 0) setFormError(undefined);
      else if (formError?.fields) setFormError({ text: correctText(words, left), fields: true });
    }
  };

  // On leaving a field that has something in it, say at once if it is malformed; "required" waits for submit.
  const blur = (name: string) => {
    const value = values[name];
    if (value === undefined || value === '' || value === false) return;
    const message = check(values)[name];
    if (message !== undefined) setErrors({ ...errors, [name]: message });
  };

  const save = async (input: CheckinFormInput) => {
    setAlreadyIn(undefined);
    setSaving(true);
    // The visitor's language goes with the check-in: the badge is printed in it (docs/languages.md).
    const withLanguage = { ...input, language: words.language };
    const pass = welcome && { token: welcome.token, claims: welcome.claims };
    const result = await kiosk.checkIn(pass ? { ...withLanguage, pass } : withLanguage);
    setSaving(false);
    if (result.ok) {
      onCheckedIn(result.value);
      return;
    }
    // The command's own messages are the API's (English): the fields are checked again in the visitor's words.
    const again = result.code === 'VALIDATION_FAILED' ? check(values) : {};
    const shown = Object.keys(again).length > 0 ? again : errorsByField(fields, result.errors ?? []);
    setErrors(shown);
    const marked = Object.keys(again).length;
    setFormError({
      text: marked > 0 ? correctText(words, marked) : visitorReason(words, result.code),
      fields: marked > 0,
    });
    focusFirstError(shown);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const input = withHostName(formInput(fields, values), hosts);
    const problems = validateCheckinForm(fields, input, fieldWords);
    if (problems.length > 0) {
      const shown = errorsByField(fields, problems);
      setErrors(shown);
      setFormError({ text: correctText(words, problems.length), fields: true });
      focusFirstError(shown);
      return;
    }
    // A person who thinks the first try failed would open a second visit: ask before adding one. Busy
    // meanwhile, so a second tap cannot slip a check-in past the question.
    setSaving(true);
    const earlier = await earlierVisitOf(kiosk, input);
    if (earlier?.kind === 'refused') {
      onRefusedBefore();
      return;
    }
    if (earlier) {
      setSaving(false);
      setFormError(undefined);
      setAlreadyIn(earlier.visit);
      return;
    }
    await save(input);
  };

  return (
    <form
      ref={form}
      className="checkin-form"
      noValidate
      autoComplete="off"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="checkin-title"
    >
      <h1 id="checkin-title" className="screen-title">
        {welcome ? namedTitle(words, 'pass.welcome', welcome.claims.firstName) : words.t('form.title')}
      </h1>
      {formError ? (
        <p className="form-error" role="alert">
          {formError.text}
        </p>
      ) : null}
      {alreadyIn ? (
        <AlreadyCheckedIn
          visit={alreadyIn}
          onCheckOut={() => onCheckOut(alreadyIn)}
          onCheckInAnyway={() => void save(withHostName(formInput(fields, values), hosts))}
        />
      ) : null}
      <div className="fields">
        {fields
          .filter((field) => !(field.name in fromPass(welcome)))
          .map((field) => (
            <FormField
              key={field.name}
              field={field}
              value={values[field.name]}
              error={errors[field.name]}
              onChange={(value) => change(field.name, value)}
              onBlur={() => blur(field.name)}
              hosts={hosts}
            />
          ))}
      </div>
      <div className="form-actions form-actions-sticky">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {words.t('form.back')}
        </button>
        <button type="submit" className="button button-primary button-wide" disabled={saving}>
          {words.t('form.submit')}
        </button>
      </div>
    </form>
  );
}

/** The chosen host's name beside its id, for this kiosk's own record of the visit (the server keeps its own). */
const withHostName = (input: CheckinFormInput, hosts: readonly KioskHost[]): CheckinFormInput => {
  const host = hosts.find((candidate) => candidate.hostId === input.hostId);
  return host ? { ...input, hostName: host.name } : input;
};

const correctText = (words: KioskWords, count: number) => words.t('form.correct', { count });

/** What this kiosk knows of the person from an earlier visit at the site, if anything (see earlierVisit). */
async function earlierVisitOf(kiosk: Kiosk, input: CheckinFormInput): Promise<EarlierVisit | undefined> {
  // If the lookup fails, the check-in goes ahead: the kiosk's watchlist digest and the server still decide.
  return earlierVisit(kiosk.db, kiosk.siteId, input.person).catch(() => undefined);
}

interface AlreadyCheckedInProps {
  visit: PersonVisit;
  onCheckOut: () => void;
  onCheckInAnyway: () => void;
}

/**
 * Shown instead of checking in when the same name is already on site. It asks rather than refuses (two
 * people can share a name), and sits above the form, away from the Check in button a second tap would hit.
 * A visit waiting for approval cannot be checked out: only Check in anyway is offered then. (A visit the
 * site refused never gets here: see earlierVisit.)
 */
function AlreadyCheckedIn({ visit, onCheckOut, onCheckInAnyway }: AlreadyCheckedInProps) {
  const words = useWords();
  const title = useRef<HTMLParagraphElement>(null);
  const canLeave = visit.status === 'IN' || visit.status === 'ON_BREAK';
  // Focus moves here, so a screen reader reads the question and the choices come next.
  useEffect(() => {
    title.current?.focus();
  }, [visit.visitId]);
  const time = visitorTime(words, visit.entryAt);
  return (
    <div className="form-notice">
      <p ref={title} className="form-notice-title" role="alert" tabIndex={-1}>
        {canLeave
          ? words.t('already.since', { time })
          : words.t('already.sinceWithStatus', { time, status: visitStatusText(words, visit.status) })}
      </p>
      <p className="form-notice-detail">
        {words.t(canLeave ? 'already.mayLeave' : 'already.waiting')} {words.t('already.someoneElse')}
      </p>
      <div className="form-notice-actions">
        {canLeave ? (
          <button type="button" className="button button-secondary" onClick={onCheckOut}>
            {words.t('already.checkOut')}
          </button>
        ) : null}
        <button type="button" className="button button-strong" onClick={onCheckInAnyway}>
          {words.t('already.checkInAnyway')}
        </button>
      </div>
    </div>
  );
}
