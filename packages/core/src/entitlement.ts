import { AI_SENDER, SUBSCRIPTION_GRACE_DAYS } from '@fanpilot/contracts';
import { type RawBuilder, sql } from 'kysely';

// A fan's entitlement (record 0069): does a subscription open the chat, whose subscription is it,
// and how much of the free allowance is used. Written ONCE, here, in two renderings side by side
// (TypeScript over rows in memory, and the same rules as SQL over columns), as the answer policy
// is; entitlement.test.ts proves the two agree on a table of cases against a real database, and
// answer-policy-scan.test.ts fails if a subscription's access or a fan's circle is decided anywhere
// else. Every reader uses it: the answer policy (and so the ask forecast, the answer handler, the
// locked write and the sweep), the fan plan, subscribe and the portal, restore links, earnings,
// the inbox's subscriber mark and the digest.
//
// Identity: a conversation belongs to a browser (its fan cookie, or the fan token where a cookie
// cannot go), never to the fan id a client chose. A fan's CIRCLE with a creator is every
// conversation of the same browser with that creator, and every one whose PROVED email is the
// same (an emailed one-time link opened, or the payment provider's customer email on the fan's own
// Checkout). A typed email (lead capture) is contact information: it is in no circle.

/** A subscription's state as its row keeps it (fan_subscriptions). */
export interface SubscriptionState {
  status: string;
  current_period_end: Date | string | null;
  grace_until: Date | string | null;
  ended_at: Date | string | null;
  ended_reason: string | null;
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

/**
 * Until when a subscription opens the chat (null: it never did). Paid or trialing: to the period's
 * end (cancelling at period end included). A failed renewal: to the grace's end, 7 days from the
 * failure (a successful payment makes it active again), never through the unpaid period. Cancelled:
 * to the end the provider gave. Refunded or disputed: to that moment.
 */
export function accessUntil(sub: SubscriptionState): Date | null {
  if (sub.ended_reason) return date(sub.ended_at);
  switch (sub.status) {
    case 'active':
    case 'trialing':
      return date(sub.current_period_end);
    case 'past_due':
      return date(sub.grace_until);
    case 'canceled':
      return date(sub.ended_at) ?? date(sub.current_period_end);
    default:
      return null;
  }
}

/** The subscription opens the chat at `now` (subscribed, trialing, or in grace). */
export function accessOpen(sub: SubscriptionState, now: Date): boolean {
  const until = accessUntil(sub);
  return until !== null && until > now;
}

/** When the grace of a renewal that failed at `failedAt` ends. */
export function graceEnd(failedAt: Date): Date {
  return new Date(failedAt.getTime() + SUBSCRIPTION_GRACE_DAYS * 86_400_000);
}

/** accessUntil as SQL over the subscription relation `s`. */
export function accessUntilSql(s: string): RawBuilder<Date | null> {
  const c = (column: string) => sql.ref(`${s}.${column}`);
  return sql<Date | null>`(case
    when ${c('ended_reason')} is not null then ${c('ended_at')}
    when ${c('status')} in ('active', 'trialing') then ${c('current_period_end')}
    when ${c('status')} = 'past_due' then ${c('grace_until')}
    when ${c('status')} = 'canceled' then coalesce(${c('ended_at')}, ${c('current_period_end')})
    else null end)`;
}

/** accessOpen as SQL over the subscription relation `s`. */
export function accessOpenSql(s: string, now: Date): RawBuilder<boolean> {
  return sql<boolean>`coalesce(${accessUntilSql(s)} > ${now}, false)`;
}

/** What a fan's identity is, as far as entitlement needs it. */
export interface FanIdentity {
  id: string;
  creator_id: string;
  /** The browser the conversation is bound to (hash of its fan token). */
  cookie_hash: string | null;
  /** The email this browser proved (lower case), or null. */
  proved_email: string | null;
}

/** Whether `other` is in `fan`'s circle: the same creator, and the same fan, browser or proved email. */
export function inCircle(fan: FanIdentity, other: FanIdentity): boolean {
  if (other.creator_id !== fan.creator_id) return false;
  return (
    other.id === fan.id ||
    (fan.cookie_hash !== null && other.cookie_hash === fan.cookie_hash) ||
    (fan.proved_email !== null && other.proved_email === fan.proved_email)
  );
}

/** The subscription's holder as its row names it: the conversation it was bought from, and its email. */
export interface SubscriptionHolder {
  creator_id: string;
  fan_id: string | null;
  email: string | null;
}

/**
 * Whether a subscription is this fan's: bought from a conversation in the fan's circle, or under an
 * email a conversation of the circle proved. `circle` is the creator's fans (inCircle filters them).
 */
export function holdsSubscription(
  fan: FanIdentity,
  circle: readonly FanIdentity[],
  sub: SubscriptionHolder,
): boolean {
  if (sub.creator_id !== fan.creator_id) return false;
  const members = circle.filter((other) => inCircle(fan, other));
  const email = sub.email?.toLowerCase() ?? null;
  return members.some((g) => g.id === sub.fan_id || (email !== null && g.proved_email === email));
}

/**
 * The ids of the fans in the circle of the fan `fan` (an SQL expression of a fans.id), as SQL: one
 * index probe per kind of tie (the fan, its browser, its proved email), never a scan of the
 * creator's fans (the answer sweep asks it once per waiting question).
 */
export function circleSql(fan: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(select f.id from fans f where f.id = ${fan}
    union select g.id from fans f join fans g on g.creator_id = f.creator_id and g.cookie_hash = f.cookie_hash
      where f.id = ${fan}
    union select g.id from fans f join fans g on g.creator_id = f.creator_id and g.proved_email = f.proved_email
      where f.id = ${fan})`;
}

/** holdsSubscription as SQL: the subscription relation `s` is the fan `fan`'s. */
export function holdsSubscriptionSql(s: string, fan: RawBuilder<unknown>): RawBuilder<boolean> {
  const c = (column: string) => sql.ref(`${s}.${column}`);
  return sql<boolean>`(${c('fan_id')} in ${circleSql(fan)}
    or exists (select 1 from fans g where g.id in ${circleSql(fan)} and g.creator_id = ${c('creator_id')}
      and g.proved_email = lower(${c('email')})))`;
}

/** The fan `fan` holds a subscription that opens the chat at `now`, as SQL. */
export function fanSubscribedSql(fan: RawBuilder<unknown>, now: Date): RawBuilder<boolean> {
  return sql<boolean>`(exists (select 1 from ${circleSql(fan)} as c (id) join fan_subscriptions s on s.fan_id = c.id
      where ${accessOpenSql('s', now)})
    or exists (select 1 from ${circleSql(fan)} as c (id) join fans g on g.id = c.id join fan_subscriptions s
        on s.creator_id = g.creator_id and lower(s.email) = g.proved_email
      where ${accessOpenSql('s', now)}))`;
}

/** Midnight UTC on the 1st of `now`'s month: a fan's free allowance starts afresh then. */
export function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** The AI answers the fan's circle got this month (the free allowance used), as SQL. */
export function circleAnswersThisMonthSql(fan: RawBuilder<unknown>, now: Date): RawBuilder<number> {
  return sql<number>`(select coalesce(sum((select count(*) from messages a
    where a.fan_id = c.id and a.sender = ${AI_SENDER} and a.created_at >= ${startOfUtcMonth(now)})), 0)
    from ${circleSql(fan)} as c (id))`;
}

/**
 * The circle's questions still waiting for the AI that were asked before the question `questionId`
 * of the fan `fanId` (SQL expressions): queued questions use the allowance too.
 */
export function circleAheadSql(
  questionId: RawBuilder<unknown>,
  fanId: RawBuilder<unknown>,
): RawBuilder<number> {
  // Each member's own waiting questions, counted by member (a scalar subquery is never flattened, so
  // the creator's whole queue is never read, whatever the statistics say).
  return sql<number>`(select coalesce(sum((select count(*) from messages p
      where p.fan_id = c.id and p.status = 'pending' and p.sender = 'fan' and p.id < ${questionId}
        and p.ai_handed_over_at is null)), 0) from ${circleSql(fanId)} as c (id))`;
}

/** What the free allowance rule reads: the fan's plan and what the circle used. */
export interface AllowanceState {
  /** Free AI answers per fan per month while the creator's plan is live; null: no paywall. */
  freeAllowance: number | null;
  /** The fan holds a subscription that opens the chat now. */
  fanSubscribed: boolean;
  /** AI answers the fan's circle got this month. */
  fanAnswersThisMonth: number;
  /** The circle's questions waiting ahead of this one. */
  fanAhead: number;
}

/** Whether the fan is past the free allowance without a subscription (the paywall). */
export function pastFreeAllowance(s: AllowanceState): boolean {
  return (
    s.freeAllowance !== null && !s.fanSubscribed && s.fanAnswersThisMonth + s.fanAhead >= s.freeAllowance
  );
}

/** pastFreeAllowance as SQL over the same fields as SQL expressions. */
export function pastFreeAllowanceSql(s: { [K in keyof AllowanceState]: RawBuilder<unknown> }) {
  return sql<boolean>`(${s.freeAllowance} is not null and not ${s.fanSubscribed} and ${s.fanAnswersThisMonth} + ${s.fanAhead} >= ${s.freeAllowance})`;
}

/** Free answers left this month (null: no allowance applies: no plan, or subscribed). */
export function freeAnswersLeft(s: Omit<AllowanceState, 'fanAhead'>): number | null {
  if (s.freeAllowance === null || s.fanSubscribed) return null;
  return Math.max(0, s.freeAllowance - s.fanAnswersThisMonth);
}
