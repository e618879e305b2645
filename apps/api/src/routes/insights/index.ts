import { createChatModel, type ModelEnv } from '@fanpilot/answers';
import { calls, type Insights } from '@fanpilot/contracts';
import {
  type GapRow,
  gapRows,
  groupNewQuestions,
  INSIGHT_PERIODS,
  type InsightPeriod,
  insightsReport,
  keywordEmbedder,
  openGapsVersion,
  type TopicEmbedder,
  type TopicNamer,
  topicNamingModel,
  ungroupedQuestions,
} from '@fanpilot/core';
import { embedderFor } from '@fanpilot/knowledge';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { insightsTable } from './csv.ts';

/**
 * How long a creator's computed Insights (without the gaps, always read fresh) are served as they
 * are; older ones are still served while fresh ones are computed in the background.
 */
const CACHE_MS = 60_000;
/** Creator-periods kept in memory. */
const CACHE_ENTRIES = 3_000;
/** Questions grouped per background run started by a visit (the rest by the next visit). */
const GROUP_PER_RUN = 2_000;

/** Cosine at which a question joins a topic, per embedder kind (record 0081). */
export function topicEmbedder(env: ModelEnv): TopicEmbedder {
  const embedder = embedderFor(env);
  if (!embedder) return keywordEmbedder;
  return {
    id: embedder.model,
    similarity: embedder.model.startsWith('local:') ? 0.55 : 0.5,
    embed: (texts) => embedder.embedDocuments(texts),
  };
}

/** The configured chat model names a topic in a few words; null when no model is configured. */
export function topicNamer(env: ModelEnv, model: string): TopicNamer | null {
  return async (examples) => {
    const chat = await createChatModel(model, env, { temperature: 0, maxTokens: 20, timeoutMs: 15_000 });
    if (!chat) return null;
    const reply = await chat.invoke([
      [
        'system',
        'You name a group of fan questions for the creator in 2 to 5 words (a topic, e.g. "Ukulele tuning"). Reply with the name only.',
      ],
      ['human', examples.map((e) => `- ${e}`).join('\n')],
    ]);
    const text = typeof reply.content === 'string' ? reply.content : '';
    // Checked by the grouping (topicName): anything but a short name leaves the key words.
    return text.trim() || null;
  };
}

type Cached = Omit<Insights, 'gaps' | 'ungrouped'>;

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  // A cell starting like a formula is quoted as text (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
export const toCsv = (rows: unknown[][]) => `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;

/**
 * Insights (record 0081): what fans want for the last 7, 30 or 90 days, and each table as CSV. The
 * signed-in creator's own only. A visit starts grouping the questions not grouped yet in the
 * background (never on the fans' answer path) and says how many wait; computed numbers are kept a
 * minute per creator and period.
 */
export async function insightsRoutes(app: FastifyInstance, opts: { env: ModelEnv }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = new Map<string, { at: number; value: Cached }>();
  const gapCache = new Map<string, { version: string; rows: GapRow[] }>();
  const embedder = topicEmbedder(opts.env);

  const startGrouping = (creatorId: string, model: string, log: FastifyBaseLogger) => {
    groupNewQuestions(app.db, creatorId, embedder, {
      namer: topicNamer(opts.env, model),
      maxQuestions: GROUP_PER_RUN,
    })
      .then((grouped) => {
        // New groups: the creator's numbers are computed anew (served stale meanwhile).
        if (grouped > 0)
          for (const p of INSIGHT_PERIODS) if (cache.has(`${creatorId}:${p}`)) refresh(creatorId, p, log);
      })
      .catch((err: unknown) => log.warn({ err }, 'grouping questions into topics failed'));
  };

  const compute = async (creatorId: string, period: InsightPeriod): Promise<Cached> => {
    const full = await insightsReport(app.db, creatorId, period);
    return {
      period: full.period,
      from: full.from.toISOString(),
      to: full.to.toISOString(),
      bucket: full.bucket,
      topics: full.topics.map((t) => ({
        ...t,
        examples: t.examples.map((e) => ({ ...e, askedAt: e.askedAt.toISOString() })),
      })),
      funnel: full.funnel.map((f) => ({ ...f, start: f.start.toISOString() })),
      quality: full.quality.map((q) => ({ ...q, start: q.start.toISOString() })),
    };
  };
  const remember = (key: string, value: Cached) => {
    const entry = { at: Date.now(), value };
    cache.delete(key);
    cache.set(key, entry);
    // The oldest go first past CACHE_ENTRIES (a Map keeps insertion order).
    for (const old of cache.keys()) {
      if (cache.size <= CACHE_ENTRIES) break;
      cache.delete(old);
    }
    return entry;
  };
  const refreshing = new Set<string>();
  const refresh = (creatorId: string, period: InsightPeriod, log: FastifyBaseLogger) => {
    const key = `${creatorId}:${period}`;
    if (refreshing.has(key)) return;
    refreshing.add(key);
    compute(creatorId, period)
      .then((value) => remember(key, value))
      .catch((err: unknown) => log.warn({ err }, 'computing insights failed'))
      .finally(() => refreshing.delete(key));
  };

  const report = async (
    creatorId: string,
    period: InsightPeriod,
    log: FastifyBaseLogger,
  ): Promise<Insights> => {
    const ungrouped = await ungroupedQuestions(app.db, creatorId);
    if (ungrouped > 0) {
      startGrouping(creatorId, (await topicNamingModel(app.db, creatorId)) ?? '', log);
    }
    const key = `${creatorId}:${period}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = remember(key, await compute(creatorId, period));
      // The other periods are one click away: computed now, in the background.
      for (const other of INSIGHT_PERIODS) if (other !== period) refresh(creatorId, other, log);
    } else if (Date.now() - hit.at > CACHE_MS) {
      // Stale: served as it is while a fresh one is computed in the background.
      refresh(creatorId, period, log);
    }
    // The gaps are read anew whenever one was asked, answered or set aside (or grouping moved on).
    const version = `${await openGapsVersion(app.db, creatorId)}|${ungrouped}|${hit.at}`;
    let gaps = gapCache.get(key);
    if (gaps?.version !== version) {
      gaps = { version, rows: await gapRows(app.db, creatorId, new Date(hit.value.from), new Date()) };
      gapCache.delete(key);
      gapCache.set(key, gaps);
      for (const old of gapCache.keys()) {
        if (gapCache.size <= CACHE_ENTRIES) break;
        gapCache.delete(old);
      }
    }
    return {
      ...hit.value,
      ungrouped,
      gaps: gaps.rows.map((g) => ({ ...g, lastAskedAt: g.lastAskedAt.toISOString() })),
    };
  };

  r.get(calls.insights.path, { schema: calls.insights.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    reply.header('cache-control', 'no-store');
    return report(creator.id, request.query.period, request.log);
  });

  r.get(calls.insightsCsv.path, { schema: calls.insightsCsv.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    const { table } = request.params;
    const data = await report(creator.id, request.query.period, request.log);
    const rows = insightsTable(data, table);
    reply
      .header('cache-control', 'no-store')
      .header(
        'content-disposition',
        `attachment; filename="${creator.username}-insights-${table}-${data.period}d.csv"`,
      )
      .type('text/csv; charset=utf-8');
    return toCsv(rows);
  });
}
