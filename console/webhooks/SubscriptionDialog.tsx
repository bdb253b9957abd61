import { type FormEvent, useState } from 'react';
import type { WebhookSubscriptionAnswer } from '../../shared/src/client/manage';
import { isKnown } from '../../shared/src/client/answers';
import { webhookEventKinds } from '../../shared/src/schemas/webhooks';
import { manageApi, newKey } from '../api';
import { CheckGroup, Checkbox } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { ShownOnceDialog } from '../components/ShownOnce';
import { useWrite } from '../components/useWrite';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { type SiteChoice, SitesChoice } from '../staff/SitesChoice';

const FIELDS = ['url', 'description', 'events', 'siteIds', 'enabled'] as const;

/** "PERSON_CHECKIN_ENTERED" → "Person check-in entered": an event kind in words; one a newer server added, as its code. */
export const eventWords = (words: ConsoleWords, kind: string): string =>
  isKnown(webhookEventKinds, kind) ? words.t(`webhookEvent.${kind}`) : kind;

/** Create a subscription (its signing secret then shown once), or edit one (`subscription` given). */
export function SubscriptionDialog({
  subscription,
  onClose,
  onDone,
}: {
  subscription: WebhookSubscriptionAnswer | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const words = useWords();
  const sites = useLive().sites ?? [];
  const [url, setUrl] = useState(subscription?.url ?? '');
  const [description, setDescription] = useState(subscription?.description ?? '');
  const [events, setEvents] = useState<string[]>(subscription?.events ?? []);
  const [choice, setChoice] = useState<SiteChoice>({
    allSites: subscription ? subscription.siteIds === null : true,
    siteIds: subscription?.siteIds ?? [],
  });
  const [enabled, setEnabled] = useState(subscription?.enabled ?? true);
  const [secret, setSecret] = useState<string | null>(null);
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const toggle = (kind: string, on: boolean) => {
    setEvents((before) => (on ? [...before, kind] : before.filter((item) => item !== kind)));
    write.clear('events');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = webhookEventKinds.filter((kind) => events.includes(kind));
    if (chosen.length === 0) {
      write.setError(words.t('webhooks.noEvent'));
      return;
    }
    const trimmed = description.trim();
    if (subscription) {
      const body = {
        url: url.trim(),
        events: chosen,
        description: trimmed === '' ? null : trimmed,
        siteIds: choice.allSites ? null : choice.siteIds,
        enabled,
      };
      if (await write.run(() => manageApi.updateWebhook(subscription.subscriptionId, body, key))) onDone();
      return;
    }
    const body = {
      url: url.trim(),
      events: chosen,
      description: trimmed === '' ? undefined : trimmed,
      siteIds: choice.allSites ? undefined : choice.siteIds,
    };
    const created = await write.run(() => manageApi.createWebhook(body, key));
    if (created) {
      setSecret(created.secret);
      onDone();
    }
  };

  if (secret) {
    return (
      <ShownOnceDialog
        title={words.t('webhooks.added')}
        label={words.t('webhooks.added.secret')}
        value={secret}
        onClose={onClose}
      >
        <p>{words.t('webhooks.added.explain')}</p>
      </ShownOnceDialog>
    );
  }
  return (
    <Dialog title={subscription ? words.t('webhooks.edit') : words.t('webhooks.add')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={words.t('webhooks.field.url')}
          type="url"
          value={url}
          onChange={(value) => {
            setUrl(value);
            write.clear('url');
          }}
          error={write.fieldErrors.url}
          placeholder={words.t('webhooks.field.urlExample')}
        />
        <Field
          label={words.t('webhooks.field.description')}
          value={description}
          onChange={(value) => {
            setDescription(value);
            write.clear('description');
          }}
          error={write.fieldErrors.description}
          maxLength={500}
        />
        <CheckGroup legend={words.t('webhooks.field.events')} error={write.fieldErrors.events}>
          {webhookEventKinds.map((kind) => (
            <Checkbox
              key={kind}
              label={eventWords(words, kind)}
              checked={events.includes(kind)}
              onChange={(on) => toggle(kind, on)}
            />
          ))}
        </CheckGroup>
        <SitesChoice sites={sites} value={choice} onChange={setChoice} error={write.fieldErrors.siteIds} />
        {subscription ? (
          <Checkbox label={words.t('webhooks.field.enabled')} checked={enabled} onChange={setEnabled} />
        ) : null}
        <ErrorMessage text={write.error} />
        <FormButtons
          submit={subscription ? words.t('common.save') : words.t('common.add')}
          busy={write.busy}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
