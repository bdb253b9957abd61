import { type FormEvent, useState } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import { type Role, roles } from '../../shared/src/schemas/staff';
import { manageApi, newKey } from '../api';
import { Select } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { ShownOnce, ShownOnceDialog } from '../components/ShownOnce';
import { useWrite } from '../components/useWrite';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { type SiteChoice, SitesChoice, sitesBody } from './SitesChoice';

const FIELDS = ['email', 'name', 'role', 'siteIds', 'allSites'] as const;
const roleNames: Record<Role, ConsoleMessage> = {
  owner: 'staff.role.owner',
  manager: 'staff.role.manager',
  reception: 'staff.role.reception',
  security: 'staff.role.security',
};
const roleWords: Record<Role, ConsoleMessage> = {
  owner: 'staff.role.owner.may',
  manager: 'staff.role.manager.may',
  reception: 'staff.role.reception.may',
  security: 'staff.role.security.may',
};

function RoleSelect({ value, onChange, error }: { value: Role; onChange: (role: Role) => void; error?: string }) {
  const words = useWords();
  return (
    <>
      <Select
        label={words.t('staff.field.role')}
        value={value}
        onChange={(next) => onChange(roles.find((role) => role === next) ?? 'reception')}
        error={error}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {words.t(roleNames[role])}
          </option>
        ))}
      </Select>
      <p className="hint role-hint">{words.t(roleWords[value])}</p>
    </>
  );
}

/** The rights a user is given: a role and, but for an owner (who has every site), the sites. */
function RightsFields({
  role,
  onRole,
  choice,
  onChoice,
  errors,
}: {
  role: Role;
  onRole: (role: Role) => void;
  choice: SiteChoice;
  onChoice: (choice: SiteChoice) => void;
  errors: Record<string, string>;
}) {
  const sites = useLive().sites ?? [];
  return (
    <>
      <RoleSelect value={role} onChange={onRole} error={errors.role} />
      {role === 'owner' ? null : (
        <SitesChoice sites={sites} value={choice} onChange={onChoice} error={errors.siteIds ?? errors.allSites} />
      )}
    </>
  );
}

// Without a site, anyone but an owner would see an empty console.
const noSites = (role: Role, choice: SiteChoice) => role !== 'owner' && !choice.allSites && choice.siteIds.length === 0;

/** Invite a staff member: the invitation link is shown once, for the owner to pass on. */
export function InviteDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const words = useWords();
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
      write.setError(words.t('common.noSitesChosen'));
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
      <ShownOnceDialog
        title={words.t('staff.invited', { name: name.trim() })}
        label={words.t('staff.invited.link')}
        value={link}
        onClose={onClose}
      >
        <p>{words.t('staff.invited.send', { email: email.trim() })}</p>
      </ShownOnceDialog>
    );
  }
  return (
    <Dialog title={words.t('staff.inviteTitle')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={words.t('staff.field.email')}
          type="email"
          value={email}
          onChange={(value) => {
            setEmail(value);
            write.clear('email');
          }}
          error={write.fieldErrors.email}
        />
        <Field
          label={words.t('staff.field.name')}
          value={name}
          onChange={(value) => {
            setName(value);
            write.clear('name');
          }}
          error={write.fieldErrors.name}
        />
        <RightsFields role={role} onRole={setRole} choice={choice} onChoice={setChoice} errors={write.fieldErrors} />
        <ErrorMessage text={write.error} />
        <FormButtons submit={words.t('staff.invite')} busy={write.busy} onCancel={onClose} />
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
  const words = useWords();
  const [role, setRole] = useState<Role>(roles.find((known) => known === user.role) ?? 'reception');
  const [choice, setChoice] = useState<SiteChoice>({ allSites: user.allSites, siteIds: user.siteIds });
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (noSites(role, choice)) {
      write.setError(words.t('common.noSitesChosen'));
      return;
    }
    if (await write.run(() => manageApi.updateUser(user.userId, { role, ...sitesBody(role, choice) }, key))) onDone();
  };
  return (
    <Dialog title={words.t('staff.editNamed', { name: user.name })} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <RightsFields role={role} onRole={setRole} choice={choice} onChoice={setChoice} errors={write.fieldErrors} />
        <ErrorMessage text={write.error} />
        <FormButtons submit={words.t('common.save')} busy={write.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** A new one-time password reset link for a user, shown once. */
export function ResetLinkDialog({ user, onClose }: { user: StaffUserAnswer; onClose: () => void }) {
  const words = useWords();
  const [link, setLink] = useState<string | null>(null);
  const [key] = useState(newKey);
  const write = useWrite([]);
  const make = async () => {
    const made = await write.run(() => manageApi.passwordResetLink(user.userId, key));
    if (made) setLink(made.resetUrl);
  };
  return (
    <Dialog title={words.t('staff.resetNamed', { name: user.name })} onClose={onClose}>
      {link ? (
        <ShownOnce label={words.t('staff.reset')} value={link} />
      ) : (
        <p>{words.t('staff.reset.explain', { name: user.name })}</p>
      )}
      <ErrorMessage text={write.error} />
      <div className="buttons">
        <button type="button" onClick={onClose}>
          {link ? words.t('common.done') : words.t('common.cancel')}
        </button>
        {link ? null : (
          <button type="button" className="primary" disabled={write.busy} onClick={() => void make()}>
            {words.t('staff.reset.make')}
          </button>
        )}
      </div>
    </Dialog>
  );
}
