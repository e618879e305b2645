import {
  siteOrigin,
  WIDGET_LAUNCHER_TEXT_MAX_LENGTH,
  WIDGET_POSITIONS,
  type WidgetPosition,
  type WidgetSettingsResponse,
} from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { copyToClipboard } from '../../../lib/clipboard.ts';
import { textFieldClass } from '../../field-classes.ts';
import { GlobeIcon } from '../../icons.tsx';
import { Card } from '../Card.tsx';
import { WIDGET_TEXT } from './texts.ts';

const t = WIDGET_TEXT;

/** The one line a creator puts on their site (docs/widget.md). */
export function widgetSnippet(origin: string, username: string): string {
  return `<script src="${origin}/widget.js" data-creator="${username}" async></script>`;
}

const widgetQueryKey = (username: string) => ['widget', username.toLowerCase()] as const;

/** Profile Settings: the website widget's snippet, allowed sites, look, and a live preview. */
export function WidgetCard({ username, name }: { username: string; name: string }) {
  const settings = useQuery({
    queryKey: widgetQueryKey(username),
    queryFn: () => api.call('widgetSettings', { params: { username } }),
  });
  return (
    <Card title={t.heading} Icon={GlobeIcon} className="xl:col-span-2">
      <p className="text-sm text-slate-600">{t.lead}</p>
      {settings.data ? (
        <WidgetForm
          key={JSON.stringify(settings.data)}
          username={username}
          name={name}
          saved={settings.data}
        />
      ) : settings.error ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {serverMessage(settings.error) ?? t.loadFailed}
        </p>
      ) : (
        <p className="mt-4 text-sm text-slate-600" role="status">
          {t.loading}
        </p>
      )}
    </Card>
  );
}

function WidgetForm({
  username,
  name,
  saved,
}: {
  username: string;
  name: string;
  saved: WidgetSettingsResponse;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [sitesText, setSitesText] = useState(saved.sites.join('\n'));
  const [color, setColor] = useState(saved.color);
  const [position, setPosition] = useState<WidgetPosition>(saved.position);
  const [launcherText, setLauncherText] = useState(saved.launcherText);
  const snippet = widgetSnippet(window.location.origin, username);
  const sites = sitesText
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const notSites = sites.filter((s) => siteOrigin(s) === null);
  const save = useMutation({
    mutationFn: () =>
      api.call('saveWidgetSettings', {
        params: { username },
        body: { sites, color, position, launcherText },
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(widgetQueryKey(username), next);
      toast({ title: t.saved, variant: 'success' });
    },
    onError: (error) =>
      toast({
        title: t.saveFailed,
        description: serverMessage(error) ?? t.saveFailedFallback,
        variant: 'error',
      }),
  });
  return (
    <div className="mt-4 grid gap-6 lg:grid-cols-2">
      <form
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        {saved.refusedSites.length > 0 && (
          <ul className="space-y-1.5" aria-label={t.refusedLabel}>
            {saved.refusedSites.map((r) => (
              <li key={r.site} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
                {t.refused(r.site)}
              </li>
            ))}
          </ul>
        )}
        {/* The snippet only once a site is allowed and saved: on any other site it would show
            nothing but a console line (docs/widget.md). */}
        {saved.sites.length > 0 ? (
          <div>
            <label htmlFor={`${id}-snippet`} className="block text-sm font-semibold text-slate-900">
              {t.snippetLabel}
            </label>
            <textarea
              id={`${id}-snippet`}
              readOnly
              rows={2}
              value={snippet}
              className="mt-2 block w-full rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button
              type="button"
              size="sm"
              variant="secondary"
              className="mt-2"
              onClick={() => void copyToClipboard(snippet)}
            >
              {t.copySnippet}
            </Button>
          </div>
        ) : (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{t.snippetAfterSite}</p>
        )}
        <div>
          <label htmlFor={`${id}-sites`} className="block text-sm font-semibold text-slate-900">
            {t.sitesLabel}
          </label>
          <textarea
            id={`${id}-sites`}
            rows={3}
            value={sitesText}
            placeholder="https://example.com"
            onChange={(event) => setSitesText(event.target.value)}
            aria-describedby={`${id}-sites-note`}
            aria-invalid={notSites.length > 0}
            className={`mt-2 ${textFieldClass}`}
          />
          <p
            id={`${id}-sites-note`}
            className={`mt-1.5 text-sm ${notSites.length > 0 ? 'text-red-700' : 'text-slate-600'}`}
          >
            {notSites.length > 0 ? t.notASite(notSites[0] ?? '') : t.sitesNote}
          </p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-color`} className="block text-sm font-semibold text-slate-900">
              {t.colorLabel}
            </label>
            <input
              id={`${id}-color`}
              type="color"
              value={color}
              onChange={(event) => setColor(event.target.value)}
              className="mt-2 h-11 w-20 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
            />
          </div>
          <fieldset>
            <legend className="block text-sm font-semibold text-slate-900">{t.positionLabel}</legend>
            <div className="mt-2 flex gap-4">
              {WIDGET_POSITIONS.map((p) => (
                <label key={p} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name={`${id}-position`}
                    value={p}
                    checked={position === p}
                    onChange={() => setPosition(p)}
                  />
                  {t.positions[p]}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <div>
          <label htmlFor={`${id}-text`} className="block text-sm font-semibold text-slate-900">
            {t.launcherTextLabel}
          </label>
          <input
            id={`${id}-text`}
            type="text"
            value={launcherText}
            maxLength={WIDGET_LAUNCHER_TEXT_MAX_LENGTH}
            onChange={(event) => setLauncherText(event.target.value)}
            className={`mt-2 ${textFieldClass}`}
          />
        </div>
        <Button type="submit" size="sm" disabled={save.isPending || notSites.length > 0}>
          {save.isPending ? t.saving : t.save}
        </Button>
      </form>
      <WidgetPreview name={name} color={color} position={position} launcherText={launcherText} />
    </div>
  );
}

/** What a visitor of the creator's site sees: the launcher where and as it is set, and the open chat's frame. */
function WidgetPreview({
  name,
  color,
  position,
  launcherText,
}: {
  name: string;
  color: string;
  position: WidgetPosition;
  launcherText: string;
}) {
  const side = position === 'left' ? 'left-3' : 'right-3';
  return (
    <figure className="min-w-0">
      <figcaption className="text-sm font-semibold text-slate-900">{t.previewLabel}</figcaption>
      <div
        className="relative mt-2 h-80 overflow-hidden rounded-xl border border-slate-200 bg-slate-100"
        data-testid="widget-preview"
      >
        <div className="space-y-2 p-4" aria-hidden="true">
          <div className="h-4 w-2/3 rounded bg-slate-300" />
          <div className="h-3 w-full rounded bg-slate-200" />
          <div className="h-3 w-5/6 rounded bg-slate-200" />
        </div>
        <div className={`absolute bottom-16 ${side} w-52 rounded-lg bg-white p-3 shadow-lg`}>
          <p className="text-sm font-semibold text-slate-900">{name}</p>
          <p className="mt-1 text-xs text-slate-600">{t.previewChat}</p>
        </div>
        <span
          className={`absolute bottom-3 ${side} max-w-[80%] truncate rounded-full px-4 py-2.5 text-sm font-semibold text-white shadow-md`}
          style={{ backgroundColor: color }}
          data-testid="widget-preview-launcher"
        >
          {launcherText.trim() || t.emptyLauncher}
        </span>
      </div>
    </figure>
  );
}
