import type { CreatorRow, NoticeRow } from '@fanpilot/db';
import { aiRefusal } from '../answer-policy.ts';
import { creatorsRepository, reachableCreator } from '../creators.ts';
import { creatorsFan, fansRepository } from '../fans.ts';
import { messagesRepository } from '../messages.ts';
import { noticesRepository } from '../notices.ts';
import { type FanRequester, readableConversations } from '../rights.ts';
import type { ConversationPorts } from './ports.ts';

/** How much of a fan's history the chat page gets (the latest messages). */
export const FAN_HISTORY_LIMIT = 500;
/** How many messages a creator's chat log and one conversation show. */
export const CREATOR_CHATLOG_LIMIT = 2000;

type MessageRows = Awaited<ReturnType<ReturnType<typeof messagesRepository>['conversation']>>;

/**
 * A fan's own chat log (issue 35: the read the route composed): the conversations under `fanId`
 * this browser holds (or the signed-in creator's own fans), with the creator they are with, its
 * notice and whether its AI answers. A fan id nobody used reads as a new fan's empty chat; one that
 * is someone else's is refused (403) without showing anything of it.
 */
export async function readFanChatlog(
  ports: ConversationPorts,
  who: FanRequester,
  input: { fanId: string; creatorUsername?: string },
): Promise<{
  messages: MessageRows;
  creator: CreatorRow | undefined;
  notice: NoticeRow | undefined;
  aiAnswers: boolean;
}> {
  const creators = creatorsRepository(ports.db);
  let creator = input.creatorUsername
    ? reachableCreator(await creators.findByUsername(input.creatorUsername), input.creatorUsername)
    : undefined;
  const fans = fansRepository(ports.db);
  const rows = creator
    ? [await fans.findByKey(creator.id, input.fanId)].filter((row) => row !== undefined)
    : await fans.findAllByKey(input.fanId);
  const readable = readableConversations(who, rows);
  const messages = await messagesRepository(ports.db).conversation(
    readable.map((row) => row.id),
    FAN_HISTORY_LIMIT,
  );
  if (!creator && readable[0]) creator = await creators.findById(readable[0].creator_id);
  const [notice, refusal] = creator
    ? await Promise.all([noticesRepository(ports.db).current(creator.id), aiRefusal(ports.db, creator.id)])
    : [undefined, null];
  return { messages, creator, notice, aiAnswers: refusal === null };
}

/** The signed-in creator's latest messages over all fans, oldest first. */
export async function readCreatorChatlog(
  ports: ConversationPorts,
  who: { creatorId: string },
): Promise<MessageRows> {
  const latest = await messagesRepository(ports.db).latestForCreator(who.creatorId, CREATOR_CHATLOG_LIMIT);
  return latest.reverse();
}

/** One of the creator's fans' conversation (refused 404 when the fan is not theirs). */
export async function readFanConversation(
  ports: ConversationPorts,
  who: { creatorId: string },
  input: { fanId: string },
): Promise<MessageRows> {
  const fan = await creatorsFan(ports.db, who.creatorId, input.fanId);
  return messagesRepository(ports.db).conversation([fan.id], CREATOR_CHATLOG_LIMIT);
}
