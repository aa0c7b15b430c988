import { type ApiError, call, connectSession, type ApiRequest, type ApiResponse } from './api.ts';
import { Value } from './store.ts';

export type Staff = ApiResponse<'staffMe'>['staff'];
export type Role = Staff['role'];
export type Enrolment = Extract<ApiResponse<'staffLogin'>, { enrolment: unknown }>['enrolment'];

/** Why the console shows the sign-in page with a message: the staff member signed out, or the session ended. */
export type EndReason = 'signed_out' | 'idle' | 'expired' | 'revoked';

/** Without a request or a key press, a session ends after this long (the API ends it too, STAFF_IDLE in the API). */
const IDLE_FALLBACK_MS = 30 * 60 * 1000;

interface SignedIn {
  token: string;
  staff: Staff;
}

/**
 * The staff session. The token lives in this module's memory only: never in localStorage, sessionStorage, a cookie
 * or an address, so a reload or a new tab signs in again (documented in docs/admin-console.md).
 */
export const session = new Value<SignedIn | null>(null);
export const ended = new Value<EndReason | null>(null);

let lastActivity = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

connectSession({
  token: () => session.get()?.token ?? null,
  ended: (error) => endLocally(reasonOf(error)),
  used: () => noteActivity(),
});

function reasonOf(error: ApiError): EndReason {
  const reason = error.details.reason;
  return reason === 'idle' || reason === 'revoked' ? reason : 'expired';
}

/** Password (and code) checked: either a session, or the enrolment of an authenticator comes first. */
export async function signIn(
  body: ApiRequest<'staffLogin'>,
): Promise<{ signedIn: true } | { signedIn: false; enrolment: Enrolment }> {
  const answer = await call('staffLogin', 'POST', '/api/v1/admin/auth/login', { body, anonymous: true });
  if ('enrolment' in answer) return { signedIn: false, enrolment: answer.enrolment };
  await begin(answer.token);
  return { signedIn: true };
}

/** The first code of a new authenticator finishes the enrolment and signs in. */
export async function finishEnrolment(body: ApiRequest<'staffEnrol'>): Promise<void> {
  const answer = await call('staffEnrol', 'POST', '/api/v1/admin/auth/enrol', { body, anonymous: true });
  await begin(answer.token);
}

async function begin(token: string): Promise<void> {
  const { staff } = await call('staffMe', 'GET', '/api/v1/admin/me', { token });
  ended.set(null);
  session.set({ token, staff });
  noteActivity();
}

/** Signs out: the API revokes the token; the console forgets it even if the API cannot be reached. */
export async function signOut(reason: EndReason = 'signed_out'): Promise<void> {
  const current = session.get();
  endLocally(reason);
  if (!current) return;
  await fetch('/api/v1/admin/auth/logout', {
    method: 'POST',
    headers: { authorization: `Bearer ${current.token}` },
    cache: 'no-store',
  }).catch(() => undefined);
}

function endLocally(reason: EndReason): void {
  clearTimeout(idleTimer);
  if (session.get() === null) return;
  session.set(null);
  ended.set(reason);
}

/** A request or a key press or click: the idle clock starts again. */
export function noteActivity(): void {
  if (!session.get()) return;
  lastActivity = performance.now();
  clearTimeout(idleTimer);
  idleTimer = setTimeout(checkIdle, idleMs());
}

function checkIdle(): void {
  const left = idleMs() - (performance.now() - lastActivity);
  if (left > 0) {
    idleTimer = setTimeout(checkIdle, left);
    return;
  }
  void signOut('idle');
}

function idleMs(): number {
  const seconds = session.get()?.staff.idleTimeoutSeconds;
  return seconds ? seconds * 1000 : IDLE_FALLBACK_MS;
}
