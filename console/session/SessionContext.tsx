import { createContext, useContext } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import type { Permissions } from './permissions';

export interface Session {
  user: StaffUserAnswer;
  can: Permissions;
  /** After a 401 from any request, or Sign out: back to the sign-in page. */
  signedOut: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}
