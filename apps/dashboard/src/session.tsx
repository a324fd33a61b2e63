import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { User } from './types.ts';

export interface SessionContextValue {
  user: User;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in app');
  return value;
}
