import { sql } from 'kysely';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

/** One fan question the AI could not ground in the creator's knowledge. */
export interface GapQuestion {
  id: string;
  body: string;
  fanId: string | null;
  askedAt: Date;
  /** The question's words as the full-text index sees them (stemmed, no stop words). */
  lexemes: string[];
}

/** Questions that ask the same thing, with how many times and by how many fans. */
export interface GapGroup {
  /** The newest question's wording. */
  question: string;
  count: number;
  fans: number;
  lastAskedAt: Date;
  /** Every question in the group, newest first. */
  questionIds: string[];
}

/** Two questions ask the same thing when they share at least this share of their words (Jaccard). */
export const GAP_SIMILARITY = 0.5;
/** How far back the card looks, and how many questions it reads. */
export const GAP_WINDOW_DAYS = 90;
export const GAP_QUESTIONS_READ = 1000;

const jaccard = (a: Set<string>, b: Set<string>) => {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
};

/**
 * Groups questions, newest first, greedily: each joins the first group whose first (newest)
 * question it resembles, else starts its own. Groups come back most asked first, then most recent.
 */
export function groupGaps(questions: GapQuestion[]): GapGroup[] {
  const sorted = [...questions].sort((a, b) => b.askedAt.getTime() - a.askedAt.getTime());
  const groups: { words: Set<string>; members: GapQuestion[] }[] = [];
  for (const q of sorted) {
    const words = new Set(q.lexemes.length > 0 ? q.lexemes : q.body.toLowerCase().split(/\s+/));
    const home = groups.find((g) => jaccard(g.words, words) >= GAP_SIMILARITY);
    if (home) home.members.push(q);
    else groups.push({ words, members: [q] });
  }
  return groups
    .map(({ members }) => ({
      question: members[0]!.body,
      count: members.length,
      fans: new Set(members.map((m) => m.fanId ?? `anonymous:${m.id}`)).size,
      lastAskedAt: members[0]!.askedAt,
      questionIds: members.map((m) => m.id),
    }))
    .sort((a, b) => b.count - a.count || b.lastAskedAt.getTime() - a.lastAskedAt.getTime());
}

/** A creator's open knowledge gaps (newest GAP_QUESTIONS_READ of the last GAP_WINDOW_DAYS), grouped. */
export async function openKnowledgeGaps(db: Db, creatorId: string, now = new Date()): Promise<GapGroup[]> {
  const since = new Date(now.getTime() - GAP_WINDOW_DAYS * 86_400_000);
  const rows = await db
    .selectFrom('messages')
    .select([
      'id',
      'body',
      'fan_id',
      'knowledge_gap_at',
      sql<string[]>`array(select lexeme from unnest(to_tsvector('english', left(body, 2000))))`.as('lexemes'),
    ])
    .where('creator_id', '=', creatorId)
    .where('knowledge_gap_at', 'is not', null)
    .where('gap_closed_at', 'is', null)
    .where('knowledge_gap_at', '>=', since)
    .orderBy('knowledge_gap_at', 'desc')
    .limit(GAP_QUESTIONS_READ)
    .execute();
  return groupGaps(
    rows.map((r) => ({
      id: String(r.id),
      body: r.body,
      fanId: r.fan_id,
      askedAt: new Date(r.knowledge_gap_at as Date | string),
      lexemes: r.lexemes ?? [],
    })),
  );
}

/**
 * Closes gaps (answered from the card, or set aside): only the creator's own open ones. Returns the
 * questions closed, with their fans.
 */
export async function closeKnowledgeGaps(
  db: Db,
  creatorId: string,
  questionIds: string[],
): Promise<{ id: string; fanId: string | null }[]> {
  if (questionIds.length === 0) return [];
  const rows = await db
    .updateTable('messages')
    .set({ gap_closed_at: new Date() })
    .where('creator_id', '=', creatorId)
    .where('id', 'in', questionIds)
    .where('knowledge_gap_at', 'is not', null)
    .where('gap_closed_at', 'is', null)
    .returning(['id', 'fan_id'])
    .execute();
  return rows.map((r) => ({ id: String(r.id), fanId: r.fan_id }));
}

/** Which of `questionIds` are the creator's gaps still open (neither answered from the card nor set aside). */
export async function openGapIds(db: Db, creatorId: string, questionIds: string[]): Promise<string[]> {
  if (questionIds.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .select('id')
    .where('creator_id', '=', creatorId)
    .where('id', 'in', questionIds)
    .where('knowledge_gap_at', 'is not', null)
    .where('gap_closed_at', 'is', null)
    .execute();
  return rows.map((m) => String(m.id));
}

/** Of `questionIds`, the creator's gaps still open; refused (no_open_gaps) when none is. */
export async function requireOpenGaps(db: Db, creatorId: string, questionIds: string[]): Promise<string[]> {
  const open = await openGapIds(db, creatorId, questionIds);
  if (open.length === 0) {
    throw new DomainError('invalid', 'no_open_gaps', 'These questions are no longer open. Reload the list.');
  }
  return open;
}
