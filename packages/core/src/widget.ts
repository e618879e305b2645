import {
  siteOrigin,
  WIDGET_DEFAULTS,
  WIDGET_POSITIONS,
  type WidgetConfig,
  type WidgetPosition,
  type WidgetSettings,
  type WidgetSettingsResponse,
} from '@fanpilot/contracts';
import type { CreatorRow } from '@fanpilot/db';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

// The website widget (docs/widget.md; docs/decisions/0050-the-website-widget.md): the creator lists
// the sites allowed to embed their chat; everything a widget asks is checked against that list here.

const isPosition = (value: string): value is WidgetPosition =>
  (WIDGET_POSITIONS as readonly string[]).includes(value);

/** The creator's widget settings; a creator who never saved any has the defaults and no site. */
export async function widgetSettingsOf(db: Db, creatorId: string): Promise<WidgetSettings> {
  const row = await db
    .selectFrom('widget_settings')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  if (!row) return { sites: [], ...WIDGET_DEFAULTS };
  const sites = Array.isArray(row.sites) ? row.sites.filter((s): s is string => typeof s === 'string') : [];
  return {
    sites,
    color: row.color,
    position: isPosition(row.position) ? row.position : WIDGET_DEFAULTS.position,
    launcherText: row.launcher_text,
  };
}

/** Refused sites the creator is told about (the newest). */
const REFUSALS_KEPT = 5;

/** The settings as Profile Settings shows them: with the sites refused lately that are still not listed. */
export async function widgetSettingsForCreator(db: Db, creatorId: string): Promise<WidgetSettingsResponse> {
  const settings = await widgetSettingsOf(db, creatorId);
  const refusals = await db
    .selectFrom('widget_refusals')
    .select(['site', 'last_at'])
    .where('creator_id', '=', creatorId)
    .orderBy('last_at', 'desc')
    .limit(REFUSALS_KEPT)
    .execute();
  return {
    ...settings,
    refusedSites: refusals
      .filter((r) => !settings.sites.includes(r.site))
      .map((r) => ({ site: r.site, lastAt: new Date(r.last_at).toISOString() })),
  };
}

/**
 * Notes that `site` asked for the creator's widget and was refused (the loader there shows nothing,
 * so Profile Settings says it). Only a well-formed origin; the newest few per creator are kept.
 */
async function recordRefusal(db: Db, creatorId: string, site: string): Promise<void> {
  if (siteOrigin(site) !== site) return;
  await db
    .insertInto('widget_refusals')
    .values({ creator_id: creatorId, site })
    .onConflict((oc) => oc.columns(['creator_id', 'site']).doUpdateSet({ last_at: new Date() }))
    .execute();
  const kept = db
    .selectFrom('widget_refusals')
    .select('site')
    .where('creator_id', '=', creatorId)
    .orderBy('last_at', 'desc')
    .limit(REFUSALS_KEPT);
  await db
    .deleteFrom('widget_refusals')
    .where('creator_id', '=', creatorId)
    .where('site', 'not in', kept)
    .execute();
}

/** Replaces the creator's widget settings (already checked by the contract's schema). */
export async function saveWidgetSettings(
  db: Db,
  creatorId: string,
  settings: WidgetSettings,
): Promise<WidgetSettingsResponse> {
  const values = {
    sites: JSON.stringify(settings.sites),
    color: settings.color,
    position: settings.position,
    launcher_text: settings.launcherText,
  };
  await db
    .insertInto('widget_settings')
    .values({ creator_id: creatorId, ...values })
    .onConflict((oc) => oc.column('creator_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
  return widgetSettingsForCreator(db, creatorId);
}

/** Words a visitor of a site that is not on the creator's list reads (the loader logs them). */
export const siteNotAllowed = (site: string) =>
  new DomainError(
    'forbidden',
    'site_not_allowed',
    `This chat is not enabled on ${site.slice(0, 200)}. The creator can add the site in Profile Settings.`,
  );

/**
 * The site a widget request comes from, when the creator allows it: `site` is the page's origin
 * (the Origin of the loader's request, or the widget frame's header). Refused when absent or not listed.
 */
export async function allowedWidgetSite(
  db: Db,
  creatorId: string,
  site: string | undefined,
): Promise<string> {
  if (!site) {
    throw new DomainError(
      'forbidden',
      'site_not_allowed',
      'This chat can only be embedded on a site the creator allows.',
    );
  }
  const { sites } = await widgetSettingsOf(db, creatorId);
  if (!sites.includes(site)) throw siteNotAllowed(site);
  return site;
}

/** What the loader on an allowed site draws: the launcher's colour, position and text. */
export async function widgetConfigFor(
  db: Db,
  creator: Pick<CreatorRow, 'id' | 'name'>,
  site: string | undefined,
): Promise<WidgetConfig> {
  try {
    await allowedWidgetSite(db, creator.id, site);
  } catch (err) {
    if (site && err instanceof DomainError) await recordRefusal(db, creator.id, site);
    throw err;
  }
  const settings = await widgetSettingsOf(db, creator.id);
  return {
    name: creator.name,
    color: settings.color,
    position: settings.position,
    launcherText: settings.launcherText,
  };
}

/**
 * The widget's chat as this browser holds it on an allowed site (record 0072): the creator's latest
 * conversation bound to the frame's fan token (`bindCookie`: the hash of its partitioned cookie's, issued once the site is allowed), after
 * moving to it, once, the conversations an old loader's token (`legacyHash`, kept in the site's own
 * storage before) held with this creator: the old token opens nothing afterwards.
 */
export async function openWidgetChat(
  db: Db,
  creatorId: string,
  site: string | undefined,
  input: { bindCookie: () => string; legacyHash?: string | null },
): Promise<{ color: string; fanId: string | null; fanName: string | null; moved: number }> {
  await allowedWidgetSite(db, creatorId, site);
  const cookieHash = input.bindCookie();
  let moved = 0;
  if (input.legacyHash && input.legacyHash !== cookieHash) {
    const result = await db
      .updateTable('fans')
      .set({ cookie_hash: cookieHash })
      .where('creator_id', '=', creatorId)
      .where('cookie_hash', '=', input.legacyHash)
      .executeTakeFirst();
    moved = Number(result.numUpdatedRows);
  }
  const latest = await db
    .selectFrom('fans')
    .select(['fan_key', 'name'])
    .where('creator_id', '=', creatorId)
    .where('cookie_hash', '=', cookieHash)
    .orderBy('last_seen_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const { color } = await widgetSettingsOf(db, creatorId);
  return { color, fanId: latest?.fan_key ?? null, fanName: latest?.name ?? null, moved };
}
