import type { SubscribePushRequest } from '@fanpilot/contracts';
import { askPushPermission, PushSetupError, pushFailureText, pushStep } from '@fanpilot/ui/push-failure';
import { useState } from 'react';
import { pushKey, subscribePush, unsubscribePush } from '../lib/api.ts';
import { blocked, choiceKey as key, saveChoice, usePushChoice as useChoice } from './choice.ts';

/** The notification texts: here, not in texts.ts, so they load with this chunk only. */
const texts = {
  pushOfferLabel: 'Notifications',
  pushOffer: (name: string) => `Tell me when ${name} answers`,
  pushOfferHint: 'Get a notification on this device when there is a reply, even after you close the chat.',
  pushPreview: 'Show a short preview of the message',
  pushTurnOn: 'Turn on',
  pushNotNow: 'Not now',
  pushBlocked: 'Notifications are blocked for this site in your browser settings.',
  pushBlockedHow:
    'To get them, allow notifications for this site in your browser’s site settings, then tap Turn on again.',
  pushTurningOn: 'Turning on…',
  pushGotIt: 'Got it',
  pushFailed: 'Notifications could not be turned on:',
  pushOnHint: 'Notifications are on. Tap to turn them off.',
  pushOffHint: 'Notifications are off. Tap to turn them on.',
} as const;

/**
 * Web Push for the fan, loaded only once the fan has asked something (never on page load): the
 * offer after the first question, and the bell in the chat header. The choice is kept per creator
 * in localStorage; the browser's permission prompt follows only a tap.
 */

function keyBytes(base64url: string): Uint8Array {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Asks the browser (after the fan's tap), subscribes this device, and tells the api. */
async function enable(creator: string, fanId: string, preview: boolean) {
  // Each step fails for its own reason, and the fan is told which (pushFailureText).
  await askPushPermission(() => Notification.requestPermission());
  const registration = await pushStep('worker', () => navigator.serviceWorker.ready);
  const { publicKey } = await pushStep('api', () => pushKey());
  const subscription = await pushStep(
    'subscribe',
    async () =>
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey) as BufferSource,
      })),
  );
  await pushStep('api', () =>
    subscribePush({
      creator,
      fanId,
      subscription: subscription.toJSON() as SubscribePushRequest['subscription'],
      preview,
    }),
  );
  saveChoice(creator, 'on');
}

/** The browser blocks notifications for the site: the fan is told how to allow them. */
const isDenied = (err: unknown) =>
  err instanceof PushSetupError && err.step === 'permission' && err.permission !== 'default';

/** Stops this creator's notifications on this device; the browser's subscription goes when no chat uses it. */
async function disable(creator: string) {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  saveChoice(creator, 'off');
  if (!subscription) return;
  await unsubscribePush({ endpoint: subscription.endpoint, creator });
  let others = false;
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i) ?? '';
      if (k.startsWith('fanpilot.push.') && k !== key(creator) && localStorage.getItem(k) === 'on')
        others = true;
    }
  } catch {
    others = false;
  }
  if (!others) await subscription.unsubscribe();
}

interface Props {
  creator: string;
  creatorName: string;
  fanId: string;
}

/** The offer under the header after the fan's first question, until the fan chooses. */
export function PushOffer({ creator, creatorName, fanId }: Props) {
  const choice = useChoice(creator);
  const [preview, setPreview] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(() => (blocked() ? texts.pushBlocked : null));
  if (choice !== null) return null;
  const turnOn = async () => {
    setBusy(true);
    setError(null);
    try {
      await enable(creator, fanId, preview);
    } catch (err) {
      setError(isDenied(err) ? texts.pushBlocked : `${texts.pushFailed} ${pushFailureText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  const denied = error === texts.pushBlocked;
  return (
    <section
      aria-label={texts.pushOfferLabel}
      aria-busy={busy}
      className="shrink-0 border-b border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-800"
    >
      <p className="font-medium text-slate-900">{texts.pushOffer(creatorName)}</p>
      {!denied && <p className="mt-0.5 text-xs text-slate-600">{texts.pushOfferHint}</p>}
      {!denied && (
        <label className="mt-2 flex items-center gap-2 text-xs text-slate-700">
          <input
            type="checkbox"
            checked={preview}
            onChange={(e) => setPreview(e.target.checked)}
            className="size-4 accent-brand-700"
          />
          {texts.pushPreview}
        </label>
      )}
      {error && (
        <p role="alert" className="mt-2 text-xs text-red-700">
          {error}
          {denied && <span className="mt-0.5 block text-slate-700">{texts.pushBlockedHow}</span>}
        </p>
      )}
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          disabled={busy}
          onClick={() => void turnOn()}
          className="inline-flex items-center gap-2 rounded-full bg-brand-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy && (
            <span
              aria-hidden="true"
              className="size-3 animate-spin rounded-full border-2 border-white/40 border-t-white"
            />
          )}
          {busy ? texts.pushTurningOn : texts.pushTurnOn}
        </button>
        <button
          type="button"
          onClick={() => saveChoice(creator, denied ? 'off' : 'later')}
          className="rounded-full border border-slate-300 bg-white px-4 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {denied ? texts.pushGotIt : texts.pushNotNow}
        </button>
      </div>
    </section>
  );
}

/** The bell in the chat header: notifications on (tap: off), or off (tap: on), once the fan chose. */
export function PushToggle({ creator, fanId }: Props) {
  const choice = useChoice(creator);
  const [busy, setBusy] = useState(false);
  if (choice === null || (choice !== 'on' && blocked())) return null;
  const on = choice === 'on';
  const toggle = async () => {
    setBusy(true);
    try {
      if (on) await disable(creator);
      else await enable(creator, fanId, true);
    } catch {
      // The offer's texts explain failures; the bell just stays as it was.
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      aria-pressed={on}
      disabled={busy}
      onClick={() => void toggle()}
      title={on ? texts.pushOnHint : texts.pushOffHint}
      aria-label={on ? texts.pushOnHint : texts.pushOffHint}
      className="shrink-0 rounded-full border border-slate-300 p-2 text-slate-800 hover:bg-slate-50 disabled:opacity-60 aria-pressed:border-brand-700 aria-pressed:text-brand-700"
    >
      <svg
        viewBox="0 0 24 24"
        aria-hidden="true"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 8 3 8H3s3-1 3-8" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        {!on && <path d="M3 3l18 18" />}
      </svg>
    </button>
  );
}
