import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { refreshInsightDays } from './report.ts';

// Insights' topics (record 0081): fans' questions grouped by meaning, incrementally. Each fan
// question is grouped once, after it was asked and never on the fans' answer path: it joins the
// group whose centroid is nearest (cosine at least the embedder's threshold) or starts its own.
// The creator's cursor is the newest message id grouped; a change of embedder regroups from scratch.

/** Turns question texts into vectors (the configured embedder, the local encoder, or key words). */
export interface TopicEmbedder {
  /** Which embedder made the vectors: groups made by another are regrouped. */
  id: string;
  embed: (texts: string[]) => Promise<number[][]>;
  /** Cosine at or above which a question joins a group. */
  similarity: number;
}

/** Names a group from its example questions (the configured chat model); null: key words name it. */
export type TopicNamer = (examples: string[]) => Promise<string | null>;

const STOP = new Set(
  `about above after again also because been before being below between both could does doing down during each
  from further have having here hers herself himself into itself just more most myself once only other ours
  ourselves over same should some such than that their theirs them themselves then there these they this those
  through under until very were what when where which while whom will with would your yours yourself yourselves
  please thanks thank know want like make need tell really think still much many good best well does dont cant
  anyone anything something someone every ever usually often
  how why who can you are the and for was any get got use used using its it's i'm i've`
    .split(/\s+/)
    .filter(Boolean),
);

/** A question's content words (lower case, 4+ letters, plural -s dropped, no small words), each once. */
export function questionWords(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .match(/[a-z][a-z'-]{3,}/g)
        ?.map((w) => w.replace(/'s$/, '').replace(/s$/, ''))
        .filter((w) => w.length >= 4 && !STOP.has(w)) ?? [],
    ),
  ];
}

const KEYWORD_DIMENSIONS = 512;

/** FNV-1a of a word, into the key-word vectors' dimensions. */
const bucket = (word: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return (h >>> 0) % KEYWORD_DIMENSIONS;
};

/** Vectors of key words (hashed, unit length): the grouping when no embedder is configured. */
export const keywordEmbedder: TopicEmbedder = {
  id: 'keywords:fnv-512',
  similarity: 0.5,
  embed: async (texts) =>
    texts.map((t) => {
      const v = new Array<number>(KEYWORD_DIMENSIONS).fill(0);
      for (const w of questionWords(t)) v[bucket(w)]! += 1;
      return unit(v);
    }),
};

function unit(v: number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return n === 0 ? v : v.map((x) => x / n);
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) s += a[i]! * b[i]!;
  return s;
}

/** A group's name from its key words: the two most used, e.g. "Ukulele tuning". */
export function keywordLabel(keywords: Record<string, number>, fallback: string): string {
  const top = Object.entries(keywords)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 2)
    .map(([w]) => w);
  if (top.length === 0) return fallback.replace(/\s+/g, ' ').trim().slice(0, 60) || 'Other';
  const label = top.join(', ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Key words kept per group (the most used). */
const KEYWORDS_KEPT = 24;
/** Questions grouped per run, and per embedding call. */
export const TOPIC_BATCH = 256;
/** Groups named by the model per run (the rest keep their key words until the next run). */
const NAMED_PER_RUN = 5;
/** A group is named by the model once it has this many questions. */
const NAME_AT_SIZE = 3;

interface LiveTopic {
  id: string | null;
  label: string;
  namedBy: string;
  keywords: Record<string, number>;
  centroid: number[];
  size: number;
  dirty: boolean;
  /** Grew in this run: its centroid moved, so it may now be near another group. */
  touched: boolean;
  examples: string[];
}

const inFlight = new Map<string, Promise<number>>();

/**
 * Groups the creator's fan questions not grouped yet, up to `maxQuestions` (a batch at a time).
 * One run per creator at a time in this process (a second caller shares it); returns how many
 * questions were grouped.
 */
export function groupNewQuestions(
  db: Db,
  creatorId: string,
  embedder: TopicEmbedder,
  options: { namer?: TopicNamer | null; maxQuestions?: number } = {},
): Promise<number> {
  const running = inFlight.get(creatorId);
  if (running) return running;
  const run = groupRun(db, creatorId, embedder, options).finally(() => inFlight.delete(creatorId));
  inFlight.set(creatorId, run);
  return run;
}

async function groupRun(
  db: Db,
  creatorId: string,
  embedder: TopicEmbedder,
  options: { namer?: TopicNamer | null; maxQuestions?: number },
): Promise<number> {
  const max = options.maxQuestions ?? 5_000;
  const cursor = await db
    .selectFrom('question_topic_cursors')
    .select(['last_message_id', 'embedder'])
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  let after = cursor ? String(cursor.last_message_id) : '0';
  if (cursor && cursor.embedder !== embedder.id) {
    // Another embedder's vectors do not compare with these: regroup from scratch.
    await db.deleteFrom('question_topics').where('creator_id', '=', creatorId).execute();
    after = '0';
  }
  const stored = await db
    .selectFrom('question_topics')
    .select(['id', 'label', 'named_by', 'keywords', 'centroid', 'size'])
    .where('creator_id', '=', creatorId)
    .execute();
  const topics: LiveTopic[] = stored.map((t) => ({
    id: String(t.id),
    label: t.label,
    namedBy: t.named_by,
    keywords: parseJson<Record<string, number>>(t.keywords, {}),
    centroid: parseJson<number[]>(t.centroid, []),
    size: Number(t.size),
    dirty: false,
    touched: false,
    examples: [],
  }));
  let grouped = 0;
  while (grouped < max) {
    const questions = await db
      .selectFrom('messages')
      .select(['id', 'body', 'created_at'])
      .where('creator_id', '=', creatorId)
      .where('sender', '=', 'fan')
      .where('id', '>', after)
      .orderBy('id')
      .limit(Math.min(TOPIC_BATCH, max - grouped))
      .execute();
    if (questions.length === 0) break;
    const vectors = await embedder.embed(questions.map((q) => q.body.slice(0, 2_000)));
    const members: { message_id: string; topic: LiveTopic; asked_at: Date }[] = [];
    questions.forEach((q, i) => {
      const v = unit(vectors[i] ?? []);
      let best: LiveTopic | null = null;
      let bestScore = -1;
      for (const t of topics) {
        const s = dot(t.centroid, v);
        if (s > bestScore) {
          bestScore = s;
          best = t;
        }
      }
      const words = questionWords(q.body);
      let home = best && bestScore >= embedder.similarity ? best : null;
      if (!home) {
        home = {
          id: null,
          label: '',
          namedBy: 'keywords',
          keywords: {},
          centroid: v,
          size: 0,
          dirty: true,
          touched: true,
          examples: [],
        };
        topics.push(home);
      } else {
        home.centroid = unit(home.centroid.map((x, k) => x * home!.size + (v[k] ?? 0)));
      }
      home.size += 1;
      home.dirty = true;
      home.touched = true;
      if (home.examples.length < 5) home.examples.push(q.body);
      for (const w of words) home.keywords[w] = (home.keywords[w] ?? 0) + 1;
      home.keywords = Object.fromEntries(
        Object.entries(home.keywords)
          .sort((a, b) => b[1] - a[1])
          .slice(0, KEYWORDS_KEPT),
      );
      if (home.namedBy === 'keywords') home.label = keywordLabel(home.keywords, q.body);
      members.push({ message_id: String(q.id), topic: home, asked_at: new Date(q.created_at) });
    });
    after = String(questions[questions.length - 1]!.id);
    grouped += questions.length;
    await saveBatch(db, creatorId, embedder.id, topics, members, after);
  }
  if (grouped > 0) await mergeNearTopics(db, topics, embedder.similarity);
  // The days this run grouped (and the answers, ratings, hand-overs marked since) are recounted
  // here, off the fans' answer path, so the next report has little to recount.
  await refreshInsightDays(db, creatorId);
  if (options.namer)
    await nameTopics(
      db,
      topics.filter((t) => t.size > 0),
      options.namer,
    );
  return grouped;
}

/** Groups merged per run at most (the rest by the next run). */
export const MERGES_PER_RUN = 20;

/**
 * Running means drift: two groups may end up nearer than a question's threshold. Each group that grew
 * in this run (only those moved) is compared with every other; when the nearest is at or above the
 * threshold, the smaller joins the larger (its questions move, the centroid is the size-weighted
 * mean, key words add up; a model's name stays). At most MERGES_PER_RUN merges, one transaction each.
 * Returns how many groups were merged away.
 */
async function mergeNearTopics(db: Db, topics: LiveTopic[], similarity: number): Promise<number> {
  let merges = 0;
  const live = () => topics.filter((t) => t.id !== null && t.size > 0);
  const queue = live()
    .filter((t) => t.touched)
    .sort((a, b) => b.size - a.size);
  while (queue.length > 0 && merges < MERGES_PER_RUN) {
    const t = queue.shift()!;
    if (t.size === 0) continue;
    let near: LiveTopic | null = null;
    let nearScore = -1;
    for (const o of live()) {
      if (o === t) continue;
      const score = dot(t.centroid, o.centroid);
      if (score > nearScore) {
        nearScore = score;
        near = o;
      }
    }
    if (!near || nearScore < similarity) continue;
    const [keep, gone] =
      t.size > near.size || (t.size === near.size && Number(t.id) < Number(near.id)) ? [t, near] : [near, t];
    keep.centroid = unit(keep.centroid.map((x, k) => x * keep.size + (gone.centroid[k] ?? 0) * gone.size));
    keep.size += gone.size;
    for (const [w, n] of Object.entries(gone.keywords)) keep.keywords[w] = (keep.keywords[w] ?? 0) + n;
    keep.keywords = Object.fromEntries(
      Object.entries(keep.keywords)
        .sort((a, b) => b[1] - a[1])
        .slice(0, KEYWORDS_KEPT),
    );
    if (keep.namedBy === 'keywords' && gone.namedBy === 'model' && gone.size > keep.size / 2) {
      keep.label = gone.label;
      keep.namedBy = 'model';
    } else if (keep.namedBy === 'keywords') keep.label = keywordLabel(keep.keywords, keep.label);
    keep.examples = [...keep.examples, ...gone.examples].slice(0, 5);
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable('question_topic_members')
        .set({ topic_id: keep.id! })
        .where('topic_id', '=', gone.id!)
        .execute();
      await tx
        .updateTable('question_topics')
        .set({
          label: keep.label.slice(0, 120),
          named_by: keep.namedBy,
          keywords: JSON.stringify(keep.keywords),
          centroid: JSON.stringify(keep.centroid.map((x) => Math.round(x * 1e6) / 1e6)),
          size: keep.size,
        })
        .where('id', '=', keep.id!)
        .execute();
      await tx.deleteFrom('question_topics').where('id', '=', gone.id!).execute();
    });
    gone.size = 0;
    merges += 1;
    // The survivor moved again: it may be near a third group.
    queue.unshift(keep);
  }
  return merges;
}

async function saveBatch(
  db: Db,
  creatorId: string,
  embedderId: string,
  topics: LiveTopic[],
  members: { message_id: string; topic: LiveTopic; asked_at: Date }[],
  after: string,
) {
  await db.transaction().execute(async (tx) => {
    for (const t of topics) {
      if (!t.dirty) continue;
      const values = {
        label: t.label.slice(0, 120),
        named_by: t.namedBy,
        keywords: JSON.stringify(t.keywords),
        centroid: JSON.stringify(t.centroid.map((x) => Math.round(x * 1e6) / 1e6)),
        size: t.size,
      };
      if (t.id === null) {
        const row = await tx
          .insertInto('question_topics')
          .values({ creator_id: creatorId, embedder: embedderId, ...values })
          .returning('id')
          .executeTakeFirstOrThrow();
        t.id = String(row.id);
      } else {
        await tx.updateTable('question_topics').set(values).where('id', '=', t.id).execute();
      }
      t.dirty = false;
    }
    for (let i = 0; i < members.length; i += 500) {
      await tx
        .insertInto('question_topic_members')
        .values(
          members.slice(i, i + 500).map((m) => ({
            message_id: m.message_id,
            creator_id: creatorId,
            topic_id: m.topic.id!,
            asked_at: m.asked_at,
          })),
        )
        .onConflict((oc) => oc.column('message_id').doNothing())
        .execute();
    }
    await tx
      .insertInto('question_topic_cursors')
      .values({ creator_id: creatorId, last_message_id: after, embedder: embedderId })
      .onConflict((oc) =>
        oc
          .column('creator_id')
          .doUpdateSet({ last_message_id: after, embedder: embedderId, updated_at: new Date() }),
      )
      .execute();
  });
}

/** Longest name kept from the model, in characters and words. */
const NAME_MAX_CHARS = 60;
const NAME_MAX_WORDS = 8;

/**
 * A model's reply as a topic name: quotes, a leading "Name:"/"Topic:" and a trailing full stop
 * dropped; null when it is not a short name (empty, several lines, markup or code, more than 8 words or 60
 * characters), so the key words name the group instead.
 */
export function topicName(reply: string | null | undefined): string | null {
  if (!reply || /\n|```/.test(reply.trim())) return null;
  const text = reply
    .replace(/["“”*_`#]/g, '')
    .replace(/^\s*(topic|name|label)\s*:\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.。]$/, '')
    .trim();
  if (!text || /[{}<>[\]\\|]/.test(text) || !/\p{L}/u.test(text)) return null;
  if (text.length > NAME_MAX_CHARS || text.split(' ').length > NAME_MAX_WORDS) return null;
  return text;
}

async function nameTopics(db: Db, topics: LiveTopic[], namer: TopicNamer) {
  const unnamed = topics
    .filter((t) => t.id !== null && t.namedBy === 'keywords' && t.size >= NAME_AT_SIZE)
    .sort((a, b) => b.size - a.size)
    .slice(0, NAMED_PER_RUN);
  for (const t of unnamed) {
    let examples = t.examples;
    if (examples.length < NAME_AT_SIZE) {
      const rows = await db
        .selectFrom('question_topic_members as m')
        .innerJoin('messages as q', 'q.id', 'm.message_id')
        .select('q.body')
        .where('m.topic_id', '=', t.id!)
        .orderBy('m.asked_at', 'desc')
        .limit(8)
        .execute();
      examples = rows.map((r) => r.body);
    }
    const clean = topicName(await namer(examples.map((e) => e.slice(0, 300))).catch(() => null));
    // Nothing usable (no model, an error, a reply that is not a short name): key words name it.
    if (!clean) continue;
    await db
      .updateTable('question_topics')
      .set({ label: clean, named_by: 'model' })
      .where('id', '=', t.id!)
      .execute();
  }
}

/** Fan questions of the creator not grouped yet. */
export async function ungroupedQuestions(db: Db, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('creator_id', '=', creatorId)
    .where('sender', '=', 'fan')
    .where(
      'id',
      '>',
      sql<string>`coalesce((select last_message_id from question_topic_cursors where creator_id = ${creatorId}), 0)`,
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

function parseJson<T>(value: unknown, fallback: T): T {
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return (value as T) ?? fallback;
}

/** The model the creator's chatbot answers with, which names the topic groups (null: no chatbot). */
export async function topicNamingModel(db: Db, creatorId: string): Promise<string | null> {
  const bot = await db
    .selectFrom('chatbots')
    .select('model')
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  return bot?.model ?? null;
}
