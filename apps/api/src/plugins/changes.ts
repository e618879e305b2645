import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeFeed } from '../services/changes.ts';
import { conditionalGetPlugin } from './conditional-get.ts';
import { lookupsPlugin } from './lookups.ts';

declare module 'fastify' {
  interface FastifyInstance {
    changes: ChangeFeed;
  }
}

/**
 * Everything built on the change feed: the feed itself (`app.changes`), the lookups cached on it
 * (lookups.ts) and conditional GETs answered from its versions (conditional-get.ts).
 */
export const changesPlugin = fp(async (app: FastifyInstance, opts: { feed: ChangeFeed }) => {
  app.decorate('changes', opts.feed);
  await app.register(lookupsPlugin);
  await app.register(conditionalGetPlugin);
});

// The routes name their validators from here.
export {
  byOwnInbox,
  fanChatByParam,
  matches,
  mayFollowAsFan,
  ownChatbotByParam,
  ownInboxByParam,
  ownInboxByQuery,
  publicFaceByParam,
  type VersionedBy,
} from './conditional-get.ts';
export { cachedFanTokenHash, type FanLite, type SessionLite } from './lookups.ts';
