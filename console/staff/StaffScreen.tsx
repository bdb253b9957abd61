import { useCallback, useEffect, useState } from 'react';
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
        <table className="rows">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Sites</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.userId}>
                <th scope="row">{user.name}</th>
                <td data-label="Email">{user.email}</td>
                <td data-label="Role">{user.role}</td>
                <td data-label="Sites">{siteNames(user)}</td>
                <td data-label="Last sign-in">{user.lastSignInAt ? since(user.lastSignInAt) : 'Never'}</td>
                <td data-label="Status">{user.disabled ? 'Disabled' : 'Active'}</td>
                <td className="actions">
                  <div className="buttons">
                    <button
                      type="button"
                      onClick={() => setOpen({ kind: 'edit', user })}
                      aria-label={`Edit ${user.name}`}
                    >
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
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
