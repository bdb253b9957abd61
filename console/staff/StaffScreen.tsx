import { useCallback, useEffect, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { manageApi, newKey } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { since } from '../components/time';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { EditUserDialog, InviteDialog, ResetLinkDialog } from './UserDialogs';

type Open = { kind: 'invite' } | { kind: 'edit' | 'reset' | 'disable'; user: StaffUserAnswer } | null;

/** The account's staff (owners only): invite, role and sites, disable or enable, password reset links. */
export function StaffScreen() {
  const { user: me } = useSession();
  const words = useWords();
  const sites = useLive().sites ?? [];
  const [users, setUsers] = useState<StaffUserAnswer[] | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const load = useAction();
  const enable = useAction();
  const { run } = load;
  const reload = useCallback(() => {
    // The API answers every user at once (docs/api.md, Staff): no pages to load here.
    void run(() => manageApi.listUsers()).then((list) => {
      if (list) setUsers(list.data);
    });
  }, [run]);
  useEffect(reload, [reload]);
  const siteNames = (user: StaffUserAnswer) =>
    user.allSites
      ? words.t('common.allSites')
      : user.siteIds
          .map(
            (id) =>
              sites.find((site) => site.siteId === id)?.name ?? words.t('common.siteNumbered', { id: String(id) }),
          )
          .join(', ') || words.t('common.none');
  const doEnable = async (user: StaffUserAnswer) => {
    if (await enable.run(() => manageApi.updateUser(user.userId, { disabled: false }, newKey()))) reload();
  };
  const close = () => setOpen(null);
  const closeAndReload = () => {
    setOpen(null);
    reload();
  };

  return (
    <section aria-labelledby="staff-title">
      <div className="page-head">
        <h1 id="staff-title">{words.t('nav.staff')}</h1>
        <button type="button" className="primary" onClick={() => setOpen({ kind: 'invite' })}>
          {words.t('staff.invite')}
        </button>
      </div>
      <ErrorMessage text={load.error ?? enable.error} />
      {users ? (
        <ListTable
          rows={users}
          rowKey={(user) => user.userId}
          columns={[
            { header: words.t('staff.column.name'), cell: (user) => user.name },
            { header: words.t('staff.column.email'), cell: (user) => user.email },
            { header: words.t('staff.column.role'), cell: (user) => user.role },
            { header: words.t('common.sites'), cell: (user) => siteNames(user) },
            {
              header: words.t('staff.column.lastSignIn'),
              cell: (user) => (user.lastSignInAt ? since(user.lastSignInAt) : words.t('common.never')),
            },
            {
              header: words.t('staff.column.status'),
              cell: (user) => (user.disabled ? words.t('staff.disabled') : words.t('staff.active')),
            },
          ]}
          actions={(user) => (
            <>
              <button
                type="button"
                onClick={() => setOpen({ kind: 'edit', user })}
                aria-label={words.t('staff.editNamed', { name: user.name })}
              >
                {words.t('common.edit')}
              </button>
              <button
                type="button"
                onClick={() => setOpen({ kind: 'reset', user })}
                aria-label={words.t('staff.resetNamed', { name: user.name })}
              >
                {words.t('staff.reset')}
              </button>
              {user.userId === me.userId ? null : user.disabled ? (
                <button
                  type="button"
                  className="go"
                  disabled={enable.busy}
                  onClick={() => void doEnable(user)}
                  aria-label={words.t('staff.enableNamed', { name: user.name })}
                >
                  {words.t('staff.enable')}
                </button>
              ) : (
                <button
                  type="button"
                  className="danger"
                  onClick={() => setOpen({ kind: 'disable', user })}
                  aria-label={words.t('staff.disableNamed', { name: user.name })}
                >
                  {words.t('staff.disable')}
                </button>
              )}
            </>
          )}
        />
      ) : null}
      {open?.kind === 'invite' ? <InviteDialog onClose={close} onDone={reload} /> : null}
      {open?.kind === 'edit' ? <EditUserDialog user={open.user} onClose={close} onDone={closeAndReload} /> : null}
      {open?.kind === 'reset' ? <ResetLinkDialog user={open.user} onClose={close} /> : null}
      {open?.kind === 'disable' ? (
        <ConfirmDialog
          title={words.t('staff.disableNamed', { name: open.user.name })}
          message={words.t('staff.disableMessage', { name: open.user.name })}
          confirm={words.t('staff.disable')}
          onClose={close}
          action={(key) => manageApi.updateUser(open.user.userId, { disabled: true }, key)}
          onDone={closeAndReload}
        />
      ) : null}
    </section>
  );
}
