import type { FanPlanSettings, FanPlanState, PayoutState } from '@fanpilot/contracts';
import { findReachableCreator } from '../creators.ts';
import type { Db } from '../db.ts';
import { fansRepository } from '../fans.ts';
import type { CreatorRequester } from '../knowledge-use-cases.ts';
import type { FanRequester } from '../rights.ts';
import { captureLead, fanPlanStateOf, ownFan } from './fan-state.ts';
import { fanPlanOf, payoutStateOf, planIsLive, saveFanPlan } from './settings.ts';

/**
 * The fan-plan use cases (issue 35): each takes (ports, requester, input). A creator's use case
 * acts on the signed-in creator's own plan only (the requester's id is the key); a fan's checks
 * that the creator is reachable and that this browser may act for the fan.
 */

export interface FanPlanPorts {
  db: Db;
  /** The public address of a stored picture (the api's object route), or null without one. */
  imageUrl(key: string | null): string | null;
}

/** The creator's plan card: the plan, the payout account's state, and whether fans can subscribe. */
export interface FanPlanCard {
  plan: FanPlanSettings | null;
  payouts: PayoutState;
  live: boolean;
}

export async function readFanPlanSettings(
  ports: Pick<FanPlanPorts, 'db'>,
  who: CreatorRequester,
): Promise<FanPlanCard> {
  return {
    plan: await fanPlanOf(ports.db, who.creatorId),
    payouts: await payoutStateOf(ports.db, who.creatorId),
    live: await planIsLive(ports.db, who.creatorId),
  };
}

/** Saves the creator's plan (refused outside the contract's bounds) and answers the card. */
export async function updateFanPlanSettings(
  ports: Pick<FanPlanPorts, 'db'>,
  who: CreatorRequester,
  input: FanPlanSettings,
): Promise<FanPlanCard> {
  await saveFanPlan(ports.db, who.creatorId, input);
  return readFanPlanSettings(ports, who);
}

/**
 * What the fan app shows of a creator's plan to this browser: the offer, free answers left, the
 * paywall, the subscription. A fan with no conversation yet sees the offer; a conversation this
 * browser may not act for is refused.
 */
export async function readFanPlanState(
  ports: FanPlanPorts,
  who: FanRequester,
  input: { creator: string; fanKey: string },
): Promise<FanPlanState> {
  const creator = await findReachableCreator(ports.db, input.creator);
  const found = await fansRepository(ports.db).findByKey(creator.id, input.fanKey);
  const fan = found ? await ownFan(ports.db, who, creator.id, input.fanKey) : undefined;
  return fanPlanStateOf(
    ports.db,
    { id: creator.id, name: creator.name, imageUrl: ports.imageUrl(creator.profile_image_key) },
    fan,
  );
}

/** The fan gives an email before the paywall (lead capture), for their own conversation only. */
export async function captureFanLead(
  ports: Pick<FanPlanPorts, 'db'>,
  who: FanRequester,
  input: { creator: string; fanKey: string; email: string },
): Promise<void> {
  const creator = await findReachableCreator(ports.db, input.creator);
  const fan = await ownFan(ports.db, who, creator.id, input.fanKey);
  await captureLead(ports.db, fan.id, input.email);
}
