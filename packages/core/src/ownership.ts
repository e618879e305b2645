import { isUuid } from '@fanpilot/contracts';
import { chatbotsRepository } from './chatbots.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { knowledgeRepository } from './knowledge.ts';

// A creator acts only on their own data: what is not there is not found, what is someone else's
// is refused. (An id that is not a UUID is simply not there.)

/** The refusal when a creator reaches for someone else's data. */
export const notYours = () =>
  new DomainError('forbidden', 'forbidden', 'You can only act on your own account.');

/** The creator's chatbot `id`: not_found when there is none, forbidden when it is another's. */
export async function ownChatbot(db: Db, creatorId: string, id: string) {
  const chatbot = isUuid(id) ? await chatbotsRepository(db).findById(id) : undefined;
  if (!chatbot) throw new DomainError('not_found', 'not_found', 'No chatbot with this id.');
  if (chatbot.creator_id !== creatorId) throw notYours();
  return chatbot;
}

/** The creator's knowledge item `id`, by the same rule. */
export async function ownKnowledgeItem(db: Db, creatorId: string, id: string) {
  const item = isUuid(id) ? await knowledgeRepository(db).findById(id) : undefined;
  if (!item) throw new DomainError('not_found', 'not_found', 'No knowledge item with this id.');
  if (item.creator_id !== creatorId) throw notYours();
  return item;
}

/** The creator's knowledge file `id` (ownKnowledgeItem's rule), with its stored key; 400 for a page or video. */
export async function ownKnowledgeFile(db: Db, creatorId: string, id: string) {
  const item = await ownKnowledgeItem(db, creatorId, id);
  if (item.type !== 'file' || !item.file_key) {
    throw new DomainError(
      'invalid',
      'not_a_file',
      'Only a file can be opened here; open a page or video at its address.',
    );
  }
  return { ...item, file_key: item.file_key };
}
