import { attachmentsRepository } from '../attachments.ts';
import { DomainError } from '../errors.ts';
import { fansRepository } from '../fans.ts';
import { messagesRepository } from '../messages.ts';
import type { ConversationPortsWithFiles } from './ports.ts';

/**
 * Deletes a conversation: the fan with this id (with all its messages and files, and with it every
 * right to the conversation: no browser's cookie and no transfer link reach it again), or else the
 * messages of an anonymous fan (one without an id) known by this name. Returns how many messages
 * went.
 */
export async function deleteConversation(
  ports: ConversationPortsWithFiles,
  input: { creatorId: string; fanIdOrName: string },
): Promise<number> {
  const { creatorId, fanIdOrName } = input;
  const { keys, deleted } = await ports.db.transaction().execute(async (trx) => {
    const fan = await fansRepository(trx).findByKey(creatorId, fanIdOrName);
    if (fan) {
      const keys = await attachmentsRepository(trx).keysForFan(fan.id);
      const deleted = await messagesRepository(trx).countForFan(fan.id);
      await fansRepository(trx).remove(fan.id);
      return { keys, deleted };
    }
    const keys = await attachmentsRepository(trx).keysForAnonymous(creatorId, fanIdOrName);
    const deleted = await messagesRepository(trx).removeAnonymous(creatorId, fanIdOrName);
    if (deleted === 0)
      throw new DomainError('not_found', 'not_found', `No conversation with '${fanIdOrName}'.`);
    return { keys, deleted };
  });
  // The rows are gone; a file left behind by a storage hiccup is unreachable, not exposed.
  await Promise.all(keys.map((key) => ports.storage.remove(key).catch(() => {})));
  return deleted;
}
