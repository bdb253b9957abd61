import type { ReactNode } from 'react';
import { Dialog } from './Dialog';
import { ErrorMessage } from './ErrorMessage';

interface ConfirmDialogProps {
  title: string;
  /** The button that does it (its name is the action: "Revoke"). */
  confirm: string;
  busy: boolean;
  error: string | null;
  onConfirm(): void;
  onClose(): void;
  children: ReactNode;
}

/** "Are you sure?" for what cannot be undone: says what happens, then Cancel or the action itself. */
export function ConfirmDialog({ title, confirm, busy, error, onConfirm, onClose, children }: ConfirmDialogProps) {
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ErrorMessage text={error} />
      <div className="buttons">
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>{confirm}</button>
      </div>
    </Dialog>
  );
}
