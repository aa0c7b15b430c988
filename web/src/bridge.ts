import {
  envelope,
  HOST_SOURCE,
  isHostMessage,
  PROTOCOL_VERSION,
  type HostMessage,
  type SportsbookEvents,
  type SportsbookEventType,
} from '../../sdk/protocol.ts';
import { launchParams } from './launch.ts';

/**
 * The postMessage bridge to the host page (protocol v1, sdk/protocol.ts).
 *
 * The parent's origin is verified once the tenant's embedOrigins are known:
 * - not framed (window.parent === window): nothing is posted, no command is accepted;
 * - `location.ancestorOrigins[0]` where the browser has it (Chromium, WebKit): the parent origin must be the
 *   sportsbook's own origin or one of the tenant's embedOrigins;
 * - else the `origin` query parameter, which must be allowed the same way and must equal the origin of
 *   document.referrer when the browser gives one (when the host sends no referrer, postMessage's targetOrigin and
 *   event.origin still hold it to that origin);
 * - else the referrer's origin, when it is allowed.
 * Events are posted to that exact origin, never '*'. Commands are accepted only from window.parent at that origin,
 * and only when isHostMessage() reads them; commands that arrive before `ready` are queued and delivered after it.
 */

type Handler = (message: HostMessage) => void;

const framed = window.parent !== window;
let verifiedOrigin: string | null = null;
let connected = false;
/** Events posted before the origin was known (a launch exchange that finished before the config). */
const outbox: Array<() => void> = [];
let handler: Handler | null = null;
let isReady = false;
/** Everything the parent sent before the origin was known and the app was ready. */
const early: MessageEvent[] = [];

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The parent's origin, verified against the allowed list; null when there is no parent to talk to. */
export function resolveParentOrigin(embedOrigins: readonly string[]): string | null {
  if (!framed) return null;
  const allowed = (origin: string | null | undefined): origin is string =>
    !!origin && (origin === location.origin || embedOrigins.includes(origin));
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) {
    const parent = ancestors[0];
    return allowed(parent) ? parent : null;
  }
  const referrer = document.referrer ? originOf(document.referrer) : null;
  const claimed = launchParams.origin ? originOf(launchParams.origin) : null;
  if (claimed) {
    if (!allowed(claimed)) return null;
    if (referrer && referrer !== claimed) return null;
    return claimed;
  }
  return allowed(referrer) ? referrer : null;
}

function accept(event: MessageEvent): void {
  if (!framed || event.source !== window.parent) return;
  if (!isReady || verifiedOrigin === null) {
    if (!isReady && early.length < 100) early.push(event);
    return;
  }
  if (event.origin !== verifiedOrigin) return;
  const data: unknown = event.data;
  if (isHostMessage(data)) {
    handler?.(data);
    return;
  }
  const looksLikeCommand =
    typeof data === 'object' &&
    data !== null &&
    (data as { source?: unknown }).source === HOST_SOURCE &&
    (data as { v?: unknown }).v === PROTOCOL_VERSION;
  if (looksLikeCommand) {
    const type = String((data as { type?: unknown }).type);
    post('error', { code: 'invalid_command', message: `The command ${type} could not be read.` });
  }
}

// Listen from the first moment: a host may send commands as soon as the iframe loads.
window.addEventListener('message', accept);

/** Fixes the parent origin (after /api/v1/config). Until then events wait in order; then they go, or are dropped. */
export function connect(embedOrigins: readonly string[]): string | null {
  verifiedOrigin = resolveParentOrigin(embedOrigins);
  connected = true;
  for (const send of outbox.splice(0)) send();
  return verifiedOrigin;
}

export function parentOrigin(): string | null {
  return verifiedOrigin;
}

/** Posts an event to the verified host origin; nothing when there is none. */
export function post<T extends SportsbookEventType>(type: T, payload: SportsbookEvents[T]): void {
  if (!connected) {
    if (framed) outbox.push(() => post(type, payload));
    return;
  }
  if (!verifiedOrigin) return;
  window.parent.postMessage(envelope(type, payload), verifiedOrigin);
}

/** The app is initialised: `ready` has been posted; queued commands are handled now, in order. */
export function markReady(onCommand: Handler): void {
  handler = onCommand;
  isReady = true;
  for (const event of early.splice(0)) accept(event);
}
