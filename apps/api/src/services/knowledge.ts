import type { KnowledgeProgress } from '@fanpilot/contracts';
import { type KnowledgePorts, type KnowledgeSources, ownChatbot, progressCounts } from '@fanpilot/core';
import type { ChatbotRow, CreatorRow, KnowledgeItemRow } from '@fanpilot/db';
import {
  detectKnowledgeFile,
  fetchYoutubeTitle,
  type IngestEnv,
  IngestError,
  MIME_BY_KIND,
  parseWebUrl,
  parseYoutubeUrl,
} from '@fanpilot/knowledge';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toKnowledgeItem } from '../serializers.ts';

/** The signed-in creator's chatbot `id`: 401 signed out, 404 unknown, 403 someone else's. */
export async function ownedChatbot(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
): Promise<{ creator: CreatorRow; chatbot: ChatbotRow }> {
  const creator = await app.requireCreator(request);
  return { creator, chatbot: await ownChatbot(app.db, creator.id, id) };
}

const reasonOf = (err: unknown, fallback: string) => (err instanceof IngestError ? err.reason : fallback);

/**
 * The ingestion package's readers of a source, as core's knowledge use cases ask for them (core
 * cannot import the package, which builds on core). `ingest` sets how long a video's title is
 * waited for; without it no title is asked for (the worker finds it).
 */
export function knowledgeSources(ingest?: IngestEnv): KnowledgeSources {
  return {
    youtube(raw) {
      try {
        const link = parseYoutubeUrl(raw);
        return { ok: true, value: { url: link.url, videoId: link.videoId } };
      } catch (err) {
        return { ok: false, reason: reasonOf(err, 'This is not a YouTube video link.') };
      }
    },
    web(raw) {
      try {
        return { ok: true, value: parseWebUrl(raw).toString() };
      } catch (err) {
        return { ok: false, reason: reasonOf(err, 'This is not a valid web address.') };
      }
    },
    async fileType(bytes, fileName) {
      try {
        return { ok: true, value: MIME_BY_KIND[await detectKnowledgeFile(bytes, fileName)] };
      } catch (err) {
        if (err instanceof IngestError) return { ok: false, reason: err.reason };
        throw err;
      }
    },
    youtubeTitle: async (videoId) =>
      ingest
        ? fetchYoutubeTitle(videoId, {
            origin: ingest.INGEST_YOUTUBE_ORIGIN,
            timeoutMs: Math.min(5_000, ingest.INGEST_FETCH_TIMEOUT_MS),
          })
        : null,
  };
}

/** What core's knowledge use cases work with, from the app. */
export const knowledgePorts = (app: FastifyInstance, ingest?: IngestEnv): KnowledgePorts => ({
  db: app.db,
  storage: app.storage,
  sources: knowledgeSources(ingest),
});

/** The progress summary as the api answers it. */
export const progressOf = (items: KnowledgeItemRow[]): KnowledgeProgress => ({
  ...progressCounts(items),
  items: items.map(toKnowledgeItem),
});
