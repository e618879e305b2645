import type { PushJob } from '@fanpilot/contracts';
import type { Db } from './db.ts';
import { noticesRepository } from './notices.ts';

// What a push is about and who receives it (docs/decisions/0018-push-within-reason.md): a creator's
// or the AI's message goes to the devices of the fan it was sent to, an announcement sent with a
// push to every device subscribed to its creator. A fan's own message is never pushed.

/** What a notification tells: a message to a fan, or an announcement; null when there is nothing to tell. */
export type PushSubject =
  | { kind: 'message'; id: string; sender: 'creator' | 'ai'; body: string; name: string; username: string }
  | { kind: 'notice'; id: string; message: string; name: string; username: string };

/** The message or announcement a push job names, as its notification tells it. */
export async function pushSubject(db: Db, job: Pick<PushJob, 'kind' | 'id'>): Promise<PushSubject | null> {
  if (job.kind === 'message') {
    const row = await db
      .selectFrom('messages')
      .innerJoin('creators', 'creators.id', 'messages.creator_id')
      .select(['messages.id', 'messages.sender', 'messages.body', 'creators.name', 'creators.username'])
      .where('messages.id', '=', job.id)
      .executeTakeFirst();
    if (!row || row.sender === 'fan') return null;
    return {
      kind: 'message',
      id: String(row.id),
      sender: row.sender === 'creator' ? 'creator' : 'ai',
      body: row.body,
      name: row.name,
      username: row.username,
    };
  }
  const notice = await db
    .selectFrom('notices')
    .innerJoin('creators', 'creators.id', 'notices.creator_id')
    .select(['notices.id', 'notices.message', 'creators.name', 'creators.username'])
    .where('notices.id', '=', job.id)
    .executeTakeFirst();
  if (!notice) return null;
  return {
    kind: 'notice',
    id: notice.id,
    message: notice.message,
    name: notice.name,
    username: notice.username,
  };
}

/**
 * The devices (push subscription ids) a push job goes to: the fan's for a message to them, the
 * creator's subscribers for an announcement (marked as pushed). None for a fan's own message.
 */
export async function pushRecipients(db: Db, job: Pick<PushJob, 'kind' | 'id'>): Promise<string[]> {
  let query = db.selectFrom('push_subscriptions').select('push_subscriptions.id');
  if (job.kind === 'message') {
    const message = await db
      .selectFrom('messages')
      .select(['fan_id', 'sender'])
      .where('id', '=', job.id)
      .executeTakeFirst();
    if (!message?.fan_id || message.sender === 'fan') return [];
    query = query.where('fan_id', '=', message.fan_id);
  } else {
    const notice = await noticesRepository(db).markPushed(job.id);
    if (!notice) return [];
    query = query.where('creator_id', '=', notice.creator_id);
  }
  return (await query.execute()).map((row) => row.id);
}

/** One push subscription (a device), or undefined when it is gone. */
export function findPushSubscription(db: Db, id: string) {
  return db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}
