import { type FormEvent, useState } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { type Role, roles } from '../../shared/src/schemas/staff';
import { manageApi, newKey } from '../api';
import { Select } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { ShownOnce } from '../components/ShownOnce';
import { useWrite } from '../components/useWrite';
import { useLive } from '../live/LiveData';
import { type SiteChoice, SitesChoice, sitesBody } from './SitesChoice';

const FIELDS = ['email', 'name', 'role', 'siteIds', 'allSites'] as const;
const roleNames: Record<Role, string> = {
  owner: 'Owner',
  manager: 'Manager',
  reception: 'Reception',
  security: 'Security',
};
const roleWords: Record<Role, string> = {
  owner: 'Everything, on every site: staff, tokens, kiosks, sites, webhooks.',
  manager: 'On their sites: site forms, kiosks, watchlist, vehicles, approvals, history, audit log.',
  reception: 'On their sites: on site now, approvals of people, check-in and checkout, alerts.',
  security: 'On their sites: on site now, approvals of people and vehicles, vehicles, watchlist, alerts.',
};

function RoleSelect({ value, onChange, error }: { value: Role; onChange: (role: Role) => void; error?: string }) {
  return (
    <>
      <Select
        label="Role"
        value={value}
        onChange={(next) => onChange(roles.find((role) => role === next) ?? 'reception')}
        error={error}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {roleNames[role]}
          </option>
        ))}
      </Select>
      <p className="hint role-hint">{roleWords[value]}</p>
    </>
  );
}

// Without a site, anyone but an owner would see an empty console.
const NO_SITES = 'Choose at least one site, or All sites.';
const noSites = (role: Role, choice: SiteChoice) => role !== 'owner' && !choice.allSites && choice.siteIds.length === 0;

/** Invite a staff member: the invitation link is shown once, for the owner to pass on. */
export function InviteDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const sites = useLive().sites ?? [];
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('reception');
  const [choice, setChoice] = useState<SiteChoice>({ allSites: false, siteIds: [] });
  const [link, setLink] = useState<string | null>(null);
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (noSites(role, choice)) {
      write.setError(NO_SITES);
      return;
    }
    const created = await write.run(() =>
      manageApi.inviteUser({ email: email.trim(), name: name.trim(), role, ...sitesBody(role, choice) }, key),
    );
    if (created) {
      setLink(created.invitationUrl);
      onDone();
    }
  };
  if (link) {
    return (
      <Dialog title={`${name.trim()} is invited`} onClose={onClose}>
        <p>Send this link to {email.trim()}. It works once, for 72 hours.</p>
        <ShownOnce label="Invitation link" value={link} />
        <div className="buttons">
          <button type="button" className="primary" onClick={onClose}>
            Done
          </button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title="Invite a staff member" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label="Email"
          type="email"
          value={email}
          onChange={(value) => {
            setEmail(value);
            write.clear('email');
          }}
          error={write.fieldErrors.email}
        />
        <Field
          label="Name"
          value={name}
          onChange={(value) => {
            setName(value);
            write.clear('name');
          }}
          error={write.fieldErrors.name}
        />
        <RoleSelect value={role} onChange={setRole} error={write.fieldErrors.role} />
        {role === 'owner' ? null : (
          <SitesChoice
            sites={sites}
            value={choice}
            onChange={setChoice}
            error={write.fieldErrors.siteIds ?? write.fieldErrors.allSites}
          />
        )}
        <ErrorMessage text={write.error} />
        <FormButtons submit="Invite" busy={write.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** Change a user's role and sites (their sessions end, so they sign in again with the new rights). */
export function EditUserDialog({
  user,
  onClose,
  onDone,
}: {
  user: StaffUserAnswer;
  onClose: () => void;
  onDone: () => void;
}) {
  const sites = useLive().sites ?? [];
  const [role, setRole] = useState<Role>(roles.find((known) => known === user.role) ?? 'reception');
  const [choice, setChoice] = useState<SiteChoice>({ allSites: user.allSites, siteIds: user.siteIds });
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (noSites(role, choice)) {
      write.setError(NO_SITES);
      return;
    }
    if (await write.run(() => manageApi.updateUser(user.userId, { role, ...sitesBody(role, choice) }, key))) onDone();
  };
  return (
    <Dialog title={`Edit ${user.name}`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <RoleSelect value={role} onChange={setRole} error={write.fieldErrors.role} />
        {role === 'owner' ? null : (
          <SitesChoice
            sites={sites}
            value={choice}
            onChange={setChoice}
            error={write.fieldErrors.siteIds ?? write.fieldErrors.allSites}
          />
        )}
        <ErrorMessage text={write.error} />
        <FormButtons submit="Save" busy={write.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** A new one-time password reset link for a user, shown once. */
export function ResetLinkDialog({ user, onClose }: { user: StaffUserAnswer; onClose: () => void }) {
  const [link, setLink] = useState<string | null>(null);
  const [key] = useState(newKey);
  const write = useWrite([]);
  const make = async () => {
    const made = await write.run(() => manageApi.passwordResetLink(user.userId, key));
    if (made) setLink(made.resetUrl);
  };
  return (
    <Dialog title={`Password reset link for ${user.name}`} onClose={onClose}>
      {link ? (
        <ShownOnce label="Password reset link" value={link} />
      ) : (
        <p>Make a link that lets {user.name} choose a new password. It works once.</p>
      )}
      <ErrorMessage text={write.error} />
      <div className="buttons">
        <button type="button" onClick={onClose}>
          {link ? 'Done' : 'Cancel'}
        </button>
        {link ? null : (
          <button type="button" className="primary" disabled={write.busy} onClick={() => void make()}>
            Make the link
          </button>
        )}
      </div>
    </Dialog>
  );
}
