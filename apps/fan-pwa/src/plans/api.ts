import { ApiError, clientIn, type FanPlanState, fanRoutes } from '@fanpilot/contracts';

// The fan's calls about the creator's plan (record 0043), by name.
const client = clientIn(fanRoutes);

export type { FanPlanState };

/** The plan card, free answers left, the paywall, this fan's subscription; null before a first message elsewhere. */
export async function fetchFanPlan(fanId: string, creator: string): Promise<FanPlanState | null> {
  try {
    return await client.call('fanPlanState', { params: { fanId }, query: { creator } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return null;
    throw err;
  }
}

export const startSubscription = (creator: string, fanId: string, interval: 'month' | 'year') =>
  client.call('fanSubscribe', { body: { creator, fanId, interval } });
export const confirmSubscription = (creator: string, fanId: string, sessionId: string) =>
  client.call('confirmFanSubscription', { body: { creator, fanId, sessionId } });
export const openPortal = (creator: string, fanId: string) =>
  client.call('fanSubscriptionPortal', { body: { creator, fanId } });
export const askRestoreLink = (creator: string, fanId: string, email: string) =>
  client.call('requestRestoreLink', { body: { creator, fanId, email } });
export const redeemRestoreLink = (token: string) => client.call('redeemRestoreLink', { body: { token } });
export const giveEmail = (creator: string, fanId: string, email: string) =>
  client.call('captureLead', { body: { creator, fanId, email } });

/** The token of a restore link (`…#restore=<token>`), or null. */
export function readRestoreToken(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('restore')?.trim();
  return token && /^[A-Za-z0-9_-]{1,100}$/.test(token) ? token : null;
}

/** The Checkout session the fan came back from (`?subscribed=cs_…`), or null. */
export function readReturnedSession(search: string): string | null {
  const id = new URLSearchParams(search).get('subscribed')?.trim();
  return id && /^[A-Za-z0-9_]{1,200}$/.test(id) ? id : null;
}
