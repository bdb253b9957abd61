import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { InvitationAnswer } from '../../shared/src/client/invitations';
import type { Site } from '../../shared/src/schemas/sites';
import { invitationsApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { atSite } from '../components/time';
import { useLoaded } from '../components/useLoaded';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';
import { putInvitation } from '../live/followPages';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { InviteDialog } from './InviteDialog';
import { bySite, dayWindow, today } from './expectedDay';

const time = (iso: string, site: Site) => atSite(iso, site.timezone).replace(/^.*, /, '');

/** Whether they have arrived, in words (docs/invitations.md, The console: Expected). */
function statusWords(words: ConsoleWords, invitation: InvitationAnswer, site: Site): string {
  if (invitation.status === 'arrived')
    return invitation.arrivedAt
      ? words.t('expected.status.arrivedAt', { time: time(invitation.arrivedAt, site) })
      : words.t('expected.status.arrived');
  if (invitation.status === 'cancelled') return words.t('expected.status.cancelled');
  if (invitation.status === 'expired') return words.t('expected.status.expired');
  return words.t('expected.status.notYet');
}

type Confirming = { kind: 'cancel' | 'resend'; invitation: InvitationAnswer };

/**
 * An expected invitation becomes expired when its validity ends, which no event tells: the day is read
 * again at the soonest such moment among those shown.
 */
function useExpiryReading(invitations: readonly InvitationAnswer[] | undefined, reload: () => Promise<void>) {
  const soonest = Math.min(
    ...(invitations ?? [])
      .filter((item) => item.status === 'expected')
      .map((item) => Date.parse(item.validUntil))
      .filter((at) => at > Date.now()),
  );
  useEffect(() => {
    // setTimeout takes at most 2^31 - 1 ms (24.8 days); the page is read afresh long before.
    if (!Number.isFinite(soonest) || soonest - Date.now() > 2 ** 31 - 1) return;
    const timer = setTimeout(() => void reload(), soonest - Date.now() + 1_000);
    return () => clearTimeout(timer);
  }, [soonest, reload]);
}

/**
 * Expected (docs/invitations.md, The console: Expected): the chosen day's invitations of the
 * user's sites (today by default, each on its site's clock), by site, whether each has arrived; Invite a
 * visitor, and Cancel or Resend a pass.
 */
export function ExpectedScreen() {
  const words = useWords();
  const sites = useLive().sites ?? [];
  const { can } = useSession();
  const [day, setDay] = useState(today);
  const [inviting, setInviting] = useState(false);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const queryClient = useQueryClient();
  // Arrivals and changes come by the event stream (console/live/followPages.ts): no timer of its own.
  const read = useCallback(() => invitationsApi.list(dayWindow(day)), [day]);
  const list = useLoaded(['invitations', day], read);
  const groups = list.value ? bySite(list.value.data, sites, day) : null;
  useExpiryReading(list.value?.data, list.reload);
  const name = (item: InvitationAnswer) => `${item.person.firstName} ${item.person.lastName}`;
  return (
    <section aria-labelledby="expected-title">
      <div className="page-head">
        <h1 id="expected-title">{words.t('expected.title')}</h1>
        {can.invite ? (
          <div className="buttons">
            <button type="button" className="primary" onClick={() => setInviting(true)} disabled={sites.length === 0}>
              {words.t('expected.invite')}
            </button>
          </div>
        ) : null}
      </div>
      <Field label={words.t('expected.day')} type="date" value={day} onChange={(value) => value && setDay(value)} />
      <ErrorMessage text={list.error} />
      {groups?.length === 0 ? <p className="empty">{words.t('expected.empty')}</p> : null}
      {groups?.map(({ site, invitations }) => (
        <section key={site.siteId} aria-label={site.name}>
          <h2>{site.name}</h2>
          <table className="rows">
            <thead>
              <tr>
                <th scope="col">{words.t('expected.column.visitor')}</th>
                <th scope="col">{words.t('expected.column.expected')}</th>
                <th scope="col">{words.t('expected.column.host')}</th>
                <th scope="col">{words.t('expected.column.arrived')}</th>
                <th scope="col">
                  <span className="visually-hidden">{words.t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((item) => (
                <tr key={item.invitationId}>
                  <th scope="row">
                    {name(item)}
                    {item.person.company ? <span className="muted"> · {item.person.company}</span> : null}
                  </th>
                  <td data-label={words.t('expected.column.expected')}>{time(item.expectedAt, site)}</td>
                  <td data-label={words.t('expected.column.host')}>{item.hostName ?? '—'}</td>
                  <td data-label={words.t('expected.column.arrived')}>{statusWords(words, item, site)}</td>
                  <td className="actions">
                    {can.invite && item.status === 'expected' ? (
                      <div className="buttons">
                        {item.person.email ? (
                          <button type="button" onClick={() => setConfirming({ kind: 'resend', invitation: item })}>
                            {words.t('expected.resend')}
                          </button>
                        ) : null}
                        <button
                          type="button"
                          className="danger"
                          onClick={() => setConfirming({ kind: 'cancel', invitation: item })}
                        >
                          {words.t('common.cancel')}
                        </button>
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      {inviting ? (
        <InviteDialog
          sites={sites}
          day={day}
          onClose={() => setInviting(false)}
          onDone={(created) => {
            setInviting(false);
            putInvitation(queryClient, created);
          }}
        />
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={
            confirming.kind === 'cancel'
              ? words.t('expected.cancelTitle', { name: name(confirming.invitation) })
              : words.t('expected.resendTitle', { name: name(confirming.invitation) })
          }
          message={
            confirming.kind === 'cancel'
              ? words.t('expected.cancelMessage')
              : confirming.invitation.person.email
                ? words.t('expected.resendMessage', { email: confirming.invitation.person.email })
                : words.t('expected.resendMessageNoEmail')
          }
          confirm={confirming.kind === 'cancel' ? words.t('expected.cancelConfirm') : words.t('expected.resend')}
          onClose={() => setConfirming(null)}
          action={async (key) => {
            const { invitationId } = confirming.invitation;
            const outcome =
              confirming.kind === 'cancel'
                ? await invitationsApi.cancel(invitationId, key)
                : await invitationsApi.resend(invitationId, key);
            if (outcome.kind === 'ok') putInvitation(queryClient, outcome.value);
            return outcome;
          }}
          onDone={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
