// The demo's administrator (`evcal serve --demo`): an account kept in the storage like any
// other, with a bearer token stored only as its hash. It is made once, when the storage has no
// administrator yet, and its token printed then; later starts keep both, so the token printed
// by the first `npm start` keeps working.
import type { Accounts } from '@evcal/core';

/** The demo administrator's name, as `evcal tokens create --user admin` names it. */
export const DEMO_ADMINISTRATOR = 'admin';

export interface DemoAdministrator {
  readonly id: number;
  readonly name: string;
  /** The bearer token, when it was made by this call; undefined when the storage already had an administrator. */
  readonly token?: string;
}

/**
 * The storage's administrator: the first one it has, else a new user `admin` (`demo-admin`
 * when that name is taken; id 1 when free, the author of the demo's records) with a new
 * bearer token.
 */
export async function ensureDemoAdministrator(accounts: Accounts): Promise<DemoAdministrator> {
  const users = await accounts.users.list();
  const existing = users.find((u) => u.role === 'administrator');
  if (existing) return { id: existing.id, name: existing.name };
  const name = users.some((u) => u.name.toLowerCase() === DEMO_ADMINISTRATOR) ? `demo-${DEMO_ADMINISTRATOR}` : DEMO_ADMINISTRATOR;
  const user = await accounts.users.add({ name, role: 'administrator', ...(users.some((u) => u.id === 1) ? {} : { id: 1 }) });
  const { token } = await accounts.tokens.create({ user: user.id, label: 'demo (evcal serve --demo)' });
  return { id: user.id, name: user.name, token };
}
