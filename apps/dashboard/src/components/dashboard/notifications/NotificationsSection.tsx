import {
  ALERT_KIND_LABELS,
  ALERT_KINDS,
  type AlertKind,
  type NotificationSettings,
  type NotificationSettingsResponse,
} from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { askPushPermission, pushFailureText, pushStep } from '@fanpilot/ui/push-failure';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Ref, useEffect, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { ClockIcon } from '../../icons.tsx';
import { Card } from '../Card.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { NOTIFICATIONS_TEXT } from './texts.ts';

const t = NOTIFICATIONS_TEXT;

/** The service worker that shows pushes and opens their link (the fan app's: one per site). */
const SW_URL = '/fan/sw.js';

function keyBytes(base64url: string): Uint8Array {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

const pushSupported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  typeof Notification !== 'undefined';

/** Subscribes this browser to the creator's alerts (after their click), and tells the api. */
async function pushOnThisBrowser(username: string) {
  // Each step fails for its own reason, and the toast says which (pushFailureText).
  await askPushPermission(() => Notification.requestPermission());
  const registration = await pushStep('worker', async () => {
    const registered =
      (await navigator.serviceWorker.getRegistration('/')) ??
      (await navigator.serviceWorker.register(SW_URL, { scope: '/' }));
    await navigator.serviceWorker.ready;
    return registered;
  });
  const { publicKey } = await pushStep('api', () => api.call('pushKey', {}));
  const subscription = await pushStep(
    'subscribe',
    async () =>
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey) as BufferSource,
      })),
  );
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  return pushStep('api', () =>
    api.call('creatorPushSubscribe', { params: { username }, body: { subscription: json } }),
  );
}

const settingsKey = (username: string) => ['creators', username, 'notifications'];

/**
 * Notifications (record 0061), a section of its own since record 0082 (on a phone too): what the
 * creator hears of, and how.
 */
export function NotificationsSection({
  username,
  headingRef,
}: {
  username: string;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: settingsKey(username),
    queryFn: () => api.call('notificationSettings', { params: { username } }),
  });
  const [form, setForm] = useState<NotificationSettings | null>(null);
  useEffect(() => {
    if (current.data && !form) setForm(toForm(current.data));
  }, [current.data, form]);
  const save = useMutation({
    mutationFn: (body: NotificationSettings) =>
      api.call('updateNotificationSettings', { params: { username }, body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKey(username), saved);
      setForm(toForm(saved));
      toast({ title: t.saved, variant: 'success' });
    },
    onError: (error) =>
      toast({ title: t.saveFailed, description: serverMessage(error) ?? '', variant: 'error' }),
  });
  const device = useMutation({
    mutationFn: () => pushOnThisBrowser(username),
    onSuccess: ({ pushDevices }) => {
      queryClient.setQueryData(settingsKey(username), (old: NotificationSettingsResponse | undefined) =>
        old ? { ...old, pushDevices } : old,
      );
      toast({ title: t.pushOn, variant: 'success' });
    },
    onError: (error) =>
      toast({
        title: t.pushFailed,
        description: pushFailureText(error),
        variant: 'error',
      }),
  });

  const data = current.data;
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  const setKind = (kind: AlertKind, channel: 'email' | 'push', on: boolean) =>
    form && setForm({ ...form, kinds: { ...form.kinds, [kind]: { ...form.kinds[kind], [channel]: on } } });

  return (
    <>
      <SectionHeading headingRef={headingRef} title={t.heading} lead={t.sectionLead} />
      <Card title={t.cardHeading} Icon={ClockIcon} className="max-w-4xl">
        {!data || !form ? (
          <p role="status" className="text-sm text-slate-600">
            {current.isError ? t.loadFailed : t.loading}
          </p>
        ) : (
          <form
            aria-label={t.heading}
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate(form);
            }}
            className="space-y-5"
          >
            <p className="text-sm text-slate-600">{t.lead(data.email)}</p>
            {data.bounce && (
              <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
                {t.bounced(data.email, data.bounce.reason)}
              </p>
            )}
            {/* On a phone the table reflows: each alert on its own line, its two boxes labelled below. */}
            <table className="w-full text-sm max-sm:block">
              <thead className="max-sm:sr-only">
                <tr className="text-left text-slate-600">
                  <th scope="col" className="py-1 font-semibold">
                    {t.kind}
                  </th>
                  <th scope="col" className="py-1 font-semibold">
                    {t.email}
                  </th>
                  <th scope="col" className="py-1 font-semibold">
                    {t.push}
                  </th>
                </tr>
              </thead>
              <tbody className="max-sm:block">
                {ALERT_KINDS.map((kind) => (
                  <tr
                    key={kind}
                    className="border-t border-slate-100 max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-6 max-sm:py-1"
                  >
                    <th
                      scope="row"
                      className="py-1.5 text-left font-normal text-slate-900 max-sm:block max-sm:w-full"
                    >
                      {ALERT_KIND_LABELS[kind]}
                    </th>
                    {(['email', 'push'] as const).map((channel) => (
                      <td key={channel} className="py-0.5 max-sm:block">
                        <label className="inline-flex min-h-11 min-w-11 cursor-pointer items-center gap-2">
                          <input
                            type="checkbox"
                            className="size-5"
                            aria-label={`${ALERT_KIND_LABELS[kind]}: ${channel === 'email' ? t.email : t.push}`}
                            checked={form.kinds[kind][channel]}
                            onChange={(event) => setKind(kind, channel, event.target.checked)}
                          />
                          <span aria-hidden="true" className="text-slate-700 sm:hidden">
                            {channel === 'email' ? t.email : t.push}
                          </span>
                        </label>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="grid gap-4 sm:grid-cols-2">
              <label className="block text-sm font-semibold text-slate-900">
                {t.waitMinutes}
                <input
                  type="number"
                  min={5}
                  max={10080}
                  value={form.waitMinutes}
                  onChange={(event) => setForm({ ...form, waitMinutes: Number(event.target.value) })}
                  className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2"
                />
              </label>
              <label className="block text-sm font-semibold text-slate-900">
                {t.timeZone}
                <select
                  value={form.timeZone}
                  onChange={(event) => setForm({ ...form, timeZone: event.target.value })}
                  className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2"
                >
                  {[...new Set([form.timeZone, ...zones])].map((zone) => (
                    <option key={zone} value={zone}>
                      {zone}
                    </option>
                  ))}
                </select>
              </label>
              <fieldset className="text-sm">
                <legend className="font-semibold text-slate-900">{t.quietHours}</legend>
                <label className="mt-1 flex min-h-11 items-center gap-2">
                  <input
                    type="checkbox"
                    className="size-5"
                    checked={form.quietHours !== null}
                    onChange={(event) =>
                      setForm({
                        ...form,
                        quietHours: event.target.checked ? { start: '22:00', end: '07:00' } : null,
                      })
                    }
                  />
                  {t.quietOn}
                </label>
                {form.quietHours && (
                  <div className="mt-2 flex flex-wrap items-center gap-2">
                    <input
                      type="time"
                      aria-label={t.quietFrom}
                      value={form.quietHours.start}
                      onChange={(event) =>
                        form.quietHours &&
                        setForm({ ...form, quietHours: { ...form.quietHours, start: event.target.value } })
                      }
                      className="rounded-lg border border-slate-300 px-2 py-1"
                    />
                    <span>{t.to}</span>
                    <input
                      type="time"
                      aria-label={t.quietTo}
                      value={form.quietHours.end}
                      onChange={(event) =>
                        form.quietHours &&
                        setForm({ ...form, quietHours: { ...form.quietHours, end: event.target.value } })
                      }
                      className="rounded-lg border border-slate-300 px-2 py-1"
                    />
                  </div>
                )}
                <p className="mt-1 text-slate-600">{t.quietNote}</p>
              </fieldset>
              <div className="text-sm">
                <label htmlFor={`${id}-digest`} className="block font-semibold text-slate-900">
                  {t.digest}
                </label>
                <div className="mt-1 flex flex-wrap gap-2">
                  <select
                    id={`${id}-digest`}
                    value={form.digest}
                    onChange={(event) =>
                      setForm({ ...form, digest: event.target.value as NotificationSettings['digest'] })
                    }
                    className="rounded-lg border border-slate-300 px-3 py-2"
                  >
                    <option value="daily">{t.daily}</option>
                    <option value="weekly">{t.weekly}</option>
                    <option value="off">{t.off}</option>
                  </select>
                  <select
                    aria-label={t.digestHour}
                    value={form.digestHour}
                    disabled={form.digest === 'off'}
                    onChange={(event) => setForm({ ...form, digestHour: Number(event.target.value) })}
                    className="rounded-lg border border-slate-300 px-3 py-2"
                  >
                    {Array.from({ length: 24 }, (_, h) => (
                      <option key={h} value={h}>
                        {`${String(h).padStart(2, '0')}:00`}
                      </option>
                    ))}
                  </select>
                </div>
                <p className="mt-1 text-slate-600">{t.digestNote}</p>
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? t.saving : t.save}
              </Button>
              {pushSupported() && (
                <Button
                  type="button"
                  variant="secondary"
                  disabled={device.isPending}
                  onClick={() => device.mutate()}
                >
                  {t.pushThisBrowser}
                </Button>
              )}
              <span className="text-sm text-slate-600">{t.pushDevices(data.pushDevices)}</span>
            </div>
          </form>
        )}
      </Card>
    </>
  );
}

function toForm(s: NotificationSettingsResponse): NotificationSettings {
  return {
    kinds: s.kinds,
    waitMinutes: s.waitMinutes,
    quietHours: s.quietHours,
    timeZone: s.timeZone,
    digest: s.digest,
    digestHour: s.digestHour,
  };
}
