import type { FanRow } from '@fanpilot/db';
import { fansRepository } from '../fans.ts';
import { mayActAsFan } from '../rights.ts';
import { notThisBrowsers } from './fan-access.ts';
import type { ConversationPorts } from './ports.ts';

/** The browser a question comes from, as far as claiming a fan needs it. */
export interface AskingBrowser {
  /** The hash of the fan cookie token it sent, or null when it sent none. */
  cookieHash: string | null;
  /** Gives this browser a fan cookie (when it holds none) and returns its token's hash. */
  bindCookie: () => string;
}

/**
 * The fan behind `fanKey` for this creator, for a question. A fan id new to this creator becomes a
 * fan bound to this browser's fan cookie (issued when it holds none), after `beforeNewFan` (the
 * brake on new fans per address) let it. A fan that exists is only this browser's when its cookie
 * is the one the fan is bound to (forbidden otherwise, and nothing is written).
 */
export async function claimFan(
  ports: ConversationPorts,
  input: {
    creatorId: string;
    fanKey: string;
    fanName: string | undefined;
    browser: AskingBrowser;
    beforeNewFan: () => Promise<void>;
    /** The allowed site whose widget asks (allowedWidgetSite); a new fan's conversation is marked with it. */
    widgetSite?: string | null;
  },
): Promise<FanRow> {
  const fans = fansRepository(ports.db);
  const existing = await fans.findByKey(input.creatorId, input.fanKey);
  if (existing?.cookie_hash) {
    if (!mayActAsFan({ cookieHash: input.browser.cookieHash, creatorId: null }, existing, 'write')) {
      throw notThisBrowsers();
    }
    return existing;
  }
  if (!existing) await input.beforeNewFan();
  const hash = input.browser.bindCookie();
  // Two first contacts may race: the row (or the bind) decides who owns the fan id. A row with no
  // cookie (made before fans had one) is bound by its first question.
  const row = existing
    ? await fans.bindIfUnbound(existing.id, hash)
    : await fans.insertOrGet({
        creatorId: input.creatorId,
        fanKey: input.fanKey,
        name: input.fanName ?? null,
        cookieHash: hash,
        widgetSite: input.widgetSite ?? null,
      });
  if (row.cookie_hash !== hash) throw notThisBrowsers();
  return row;
}
