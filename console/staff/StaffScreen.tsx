import { useCallback, useEffect, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { manageApi, newKey } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { since } from '../components/time';
import { useAction } from '../components/useAction';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { EditUserDialog, InviteDialog, ResetLinkDialog } from './UserDialogs';

type Open = { kind: 'invite' } | { kind: 'edit' | 'reset' | 'disable'; user: StaffUserAnswer } | null;

/** The account's staff (owners only): invite, role and sites, disable or enable, password reset links. */
export function StaffScreen() {
  const { user: me } = useSession();
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
      ? 'All sites'
      : user.siteIds.map((id) => sites.find((site) => site.siteId === id)?.name ?? `Site ${id}`).join(', ') || 'None';
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
        <h1 id="staff-title">Staff</h1>
        <button type="button" className="primary" onClick={() => setOpen({ kind: 'invite' })}>
          Invite
        </button>
      </div>
      <ErrorMessage text={load.error ?? enable.error} />
      {users ? (
        <ListTable
          rows={users}
          rowKey={(user) => user.userId}
          columns={[
            { header: 'Name', cell: (user) => user.name },
            { header: 'Email', cell: (user) => user.email },
            { header: 'Role', cell: (user) => user.role },
            { header: 'Sites', cell: (user) => siteNames(user) },
            { header: 'Last sign-in', cell: (user) => (user.lastSignInAt ? since(user.lastSignInAt) : 'Never') },
            { header: 'Status', cell: (user) => (user.disabled ? 'Disabled' : 'Active') },
          ]}
          actions={(user) => (
            <>
              <button type="button" onClick={() => setOpen({ kind: 'edit', user })} aria-label={`Edit ${user.name}`}>
                Edit
              </button>
              <button
                type="button"
                onClick={() => setOpen({ kind: 'reset', user })}
                aria-label={`Password reset link for ${user.name}`}
              >
                Password reset link
              </button>
              {user.userId === me.userId ? null : user.disabled ? (
                <button
                  type="button"
                  className="go"
                  disabled={enable.busy}
                  onClick={() => void doEnable(user)}
                  aria-label={`Enable ${user.name}`}
                >
                  Enable
                </button>
              ) : (
                <button
                  type="button"
                  className="danger"
                  onClick={() => setOpen({ kind: 'disable', user })}
                  aria-label={`Disable ${user.name}`}
                >
                  Disable
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
          title={`Disable ${open.user.name}`}
          message={`${open.user.name} is signed out everywhere at once and cannot sign in until enabled again.`}
          confirm="Disable"
          onClose={close}
          action={(key) => manageApi.updateUser(open.user.userId, { disabled: true }, key)}
          onDone={closeAndReload}
        />
      ) : null}
    </section>
  );
}
