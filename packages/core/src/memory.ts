import type { FanMemory, FanMemoryItem } from '@fanpilot/contracts';
import { isUuid } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import type { ContextProvider } from './answer-context.ts';
import { findReachableCreator } from './creators.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { fansRepository } from './fans.ts';
import { type FanRequester, requireFanAccess } from './rights.ts';

// Per-fan memory (docs/decisions/0079): the durable facts a fan shared with one creator's chat,
// each with the message it came from. It belongs to the fan row (one fan of one creator), so it
// never crosses fans or creators, moves with the conversation and is deleted with it.

/** A fan's memory keeps at most this many items; the oldest go first. */
export const MEMORY_MAX_ITEMS = 50;
/** A memory item is at most a short sentence. */
export const MEMORY_ITEM_MAX_CHARS = 200;
/** The fan turns one extraction reads at the most (the rest wait for the next). */
export const MEMORY_TURNS_PER_EXTRACTION = 10;

const noItem = () => new DomainError('not_found', 'not_found', 'No such memory item.');

interface ItemRow {
  id: string;
  body: string;
  source_message_id: string | null;
  corrected_by_creator: boolean;
  created_at: Date | string;
}

const toItem = (row: ItemRow): FanMemoryItem => ({
  id: row.id,
  text: row.body,
  sourceMessageId: row.source_message_id === null ? null : String(row.source_message_id),
  correctedByCreator: row.corrected_by_creator,
  createdAt: new Date(row.created_at).toISOString(),
});

const ITEM_COLUMNS = ['id', 'body', 'source_message_id', 'corrected_by_creator', 'created_at'] as const;

/** A fact as it is kept: one line, trimmed, at most MEMORY_ITEM_MAX_CHARS; empty: nothing to keep. */
export function memoryText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MEMORY_ITEM_MAX_CHARS ? `${line.slice(0, MEMORY_ITEM_MAX_CHARS - 1)}…` : line;
}

/** The fan's memory for their creator, oldest first (`enabled` false: memory is off, nothing kept). */
export async function readFanMemory(
  db: Db,
  fanId: string,
  options: { available: boolean },
): Promise<FanMemory> {
  const fan = await db.selectFrom('fans').select('memory_off').where('id', '=', fanId).executeTakeFirst();
  const items = await db
    .selectFrom('fan_memory')
    .select(ITEM_COLUMNS)
    .where('fan_id', '=', fanId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { available: options.available, enabled: !fan?.memory_off, items: items.map(toItem) };
}

/** What the answer context sees of the fan's memory (nothing for no fan, or memory off). */
export function memoryProvider(): ContextProvider<never> {
  return {
    name: 'memory',
    async provide(db, { fanId }) {
      if (!fanId) return {};
      const rows = await db
        .selectFrom('fan_memory as m')
        .innerJoin('fans as f', 'f.id', 'm.fan_id')
        .select(['m.id', 'm.body'])
        .where('m.fan_id', '=', fanId)
        .where('f.memory_off', '=', false)
        .orderBy('m.created_at')
        .orderBy('m.id')
        .execute();
      return { memory: rows.map((r) => ({ id: r.id, text: r.body })) };
    },
  };
}

/** The fan turns memory on or off; off deletes everything kept and keeps nothing more. */
export async function setFanMemoryEnabled(db: Db, fanId: string | null, enabled: boolean): Promise<void> {
  // A fan who has not written yet has no conversation, so no memory to switch.
  if (!fanId)
    throw new DomainError('not_found', 'not_found', 'Write to the chat first: there is no memory yet.');
  await db.updateTable('fans').set({ memory_off: !enabled }).where('id', '=', fanId).execute();
  if (!enabled) await db.deleteFrom('fan_memory').where('fan_id', '=', fanId).execute();
}

/** Deletes one item of this fan's memory (404: none such, or another fan's). */
export async function deleteFanMemoryItem(db: Db, fanId: string | null, itemId: string): Promise<void> {
  if (!fanId || !isUuid(itemId)) throw noItem();
  const gone = await db
    .deleteFrom('fan_memory')
    .where('id', '=', itemId)
    .where('fan_id', '=', fanId)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw noItem();
}

/** The creator's fan `fanKey` (the conversation's fan id, as the dashboard names it), else not found. */
async function creatorsFan(db: Db, creatorId: string, fanKey: string) {
  const fan = await fansRepository(db).findByKey(creatorId, fanKey);
  if (!fan) throw new DomainError('not_found', 'not_found', 'No such fan.');
  return fan;
}

/** The memory of the creator's fan, as the creator sees it beside the conversation. */
export async function creatorFanMemory(
  db: Db,
  input: { creatorId: string; fanId: string; available: boolean },
): Promise<FanMemory> {
  const fan = await creatorsFan(db, input.creatorId, input.fanId);
  return readFanMemory(db, fan.id, { available: input.available });
}

/** The creator corrects an item of their fan's memory (kept as the creator wrote it). */
export async function correctFanMemoryItem(
  db: Db,
  input: { creatorId: string; fanId: string; itemId: string; text: string },
): Promise<FanMemoryItem> {
  const fan = await creatorsFan(db, input.creatorId, input.fanId);
  const text = memoryText(input.text);
  if (!text) throw new DomainError('invalid', 'invalid_input', 'Write what to remember, or delete the item.');
  if (!isUuid(input.itemId)) throw noItem();
  const row = await db
    .updateTable('fan_memory')
    .set({ body: text, corrected_by_creator: true, updated_at: sql`now()` })
    .where('id', '=', input.itemId)
    .where('fan_id', '=', fan.id)
    .returning(ITEM_COLUMNS)
    .executeTakeFirst();
  if (!row) throw noItem();
  return toItem(row);
}

/** The creator deletes an item of their fan's memory. */
export async function deleteCreatorFanMemoryItem(
  db: Db,
  input: { creatorId: string; fanId: string; itemId: string },
): Promise<void> {
  const fan = await creatorsFan(db, input.creatorId, input.fanId);
  await deleteFanMemoryItem(db, fan.id, input.itemId);
}

/** The fan turns memory has not read yet, up to `throughMessageId` (oldest first). */
export async function unreadMemoryTurns(
  db: Db,
  fanId: string,
  throughMessageId: string,
): Promise<{ from: string | null; turns: { id: string; text: string }[] } | null> {
  const fan = await db
    .selectFrom('fans')
    .select(['memory_off', 'memory_through'])
    .where('id', '=', fanId)
    .executeTakeFirst();
  if (!fan || fan.memory_off) return null;
  let query = db
    .selectFrom('messages')
    .select(['id', 'body'])
    .where('fan_id', '=', fanId)
    .where('sender', '=', 'fan')
    .where('id', '<=', throughMessageId);
  if (fan.memory_through !== null) query = query.where('id', '>', fan.memory_through);
  const rows = await query.orderBy('id').limit(MEMORY_TURNS_PER_EXTRACTION).execute();
  return {
    from: fan.memory_through === null ? null : String(fan.memory_through),
    turns: rows.map((r) => ({ id: String(r.id), text: r.body })),
  };
}

/**
 * Keeps the facts extracted from the fan turns after `from` up to `through`, once: a concurrent
 * extraction of the same turns (or memory turned off meanwhile) keeps nothing. The same fact is not
 * kept twice (case, spacing and punctuation aside) and a near duplicate of an item replaces it
 * (sameFact); past MEMORY_MAX_ITEMS the oldest go. Returns how many were kept or replaced.
 */
export async function keepExtractedMemory(
  db: Db,
  input: {
    fanId: string;
    from: string | null;
    through: string;
    facts: { text: string; messageId: string }[];
  },
): Promise<number> {
  const run = async (trx: Db) => {
    let claim = trx
      .updateTable('fans')
      .set({ memory_through: input.through })
      .where('id', '=', input.fanId)
      .where('memory_off', '=', false);
    claim =
      input.from === null
        ? claim.where('memory_through', 'is', null)
        : claim.where('memory_through', '=', input.from);
    const claimed = await claim.returning('creator_id').executeTakeFirst();
    if (!claimed) return 0;
    const kept = await trx
      .selectFrom('fan_memory')
      .select(['id', 'body', 'corrected_by_creator'])
      .where('fan_id', '=', input.fanId)
      .execute();
    const known = kept.map((r) => ({ ...r, words: memoryWords(r.body), fresh: false }));
    const fresh: { body: string; messageId: string }[] = [];
    let replaced = 0;
    for (const fact of input.facts) {
      const body = memoryText(fact.text);
      const words = memoryWords(body);
      if (words.length === 0) continue;
      const same = known.find((k) => sameFact(k.words, words));
      if (same) {
        // The same fact again (case, spacing, punctuation aside): kept once. A near duplicate of an
        // earlier item (a detail added or changed) replaces it, unless the creator corrected it.
        if (same.corrected_by_creator || same.fresh || same.words.join(' ') === words.join(' ')) continue;
        await trx
          .updateTable('fan_memory')
          .set({ body, source_message_id: fact.messageId, updated_at: sql`now()` })
          .where('id', '=', same.id)
          .execute();
        same.words = words;
        same.fresh = true;
        replaced++;
        continue;
      }
      known.push({ id: '', body, corrected_by_creator: false, words, fresh: true });
      fresh.push({ body, messageId: fact.messageId });
    }
    if (fresh.length === 0) return replaced;
    if (fresh.length === 0) return 0;
    await trx
      .insertInto('fan_memory')
      .values(
        fresh.map((f, i) => ({
          fan_id: input.fanId,
          creator_id: claimed.creator_id,
          body: f.body,
          source_message_id: f.messageId,
          // In the order they were said, after everything kept before (also an earlier batch of
          // the last milliseconds, whose items were spread after its own now()).
          created_at: sql<Date>`greatest(now(), (select max(created_at) + interval '1 millisecond' from fan_memory where fan_id = ${input.fanId})) + ${`${i} milliseconds`}::interval`,
        })),
      )
      .execute();
    await trimFanMemory(trx, input.fanId);
    return fresh.length + replaced;
  };
  return db.isTransaction ? run(db) : (db as Kysely<Database>).transaction().execute(run);
}

/** A fact's words for comparing: lower case, accents, punctuation and spacing aside. */
export function memoryWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Whether two facts are the same or a near duplicate: the same words, or at least four in five
 * shared (Jaccard ≥ 0.8 over distinct words), or the shorter's words (three or more) all in the
 * longer one with at most two more ("Trains for a marathon." / "Trains for a marathon in May.").
 */
export function sameFact(a: string[], b: string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  const union = x.size + y.size - shared;
  if (union === 0) return true;
  if (shared / union >= 0.8) return true;
  const small = Math.min(x.size, y.size);
  return small >= 3 && shared === small && Math.max(x.size, y.size) - small <= 2;
}

/** Drops the oldest items past MEMORY_MAX_ITEMS. */
async function trimFanMemory(db: Db, fanId: string): Promise<void> {
  await db
    .deleteFrom('fan_memory')
    .where('fan_id', '=', fanId)
    .where(
      'id',
      'not in',
      db
        .selectFrom('fan_memory')
        .select('id')
        .where('fan_id', '=', fanId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(MEMORY_MAX_ITEMS),
    )
    .execute();
}

// The forget commands, in the languages the answers understand (English, Spanish, French, German,
// Portuguese, Italian; see followup.ts in @fanpilot/answers). Matched on text without accents, in
// lower case, one clause at a time and against the WHOLE clause (after words of politeness), so a
// message that merely mentions forgetting ("I forget everything I read", "don't forget that the
// race is on Sunday", "I don't remember that workout") is not a command.
const FORGET_ALL: RegExp[] = [
  // English
  /^forget (everything|all|all of (it|that|this)|all that|all this|about me|(all|everything) about me|everything you know( about me)?|(everything|all|all that) (that )?i (said|told you|have told you|'ve told you|shared)|what(ever)? i (have |'ve )?(told you|shared)( about me)?)$/,
  /^(erase|delete|clear|wipe|reset) (everything|all) (you know|you remember|you have|you've kept) about me$/,
  /^(erase|delete|clear|wipe|reset) (your|the) memory( of me| about me)?$/,
  // Spanish
  /^(olvida|olvide|olvidad|olvidalo|olvidate de|olvidese de) (todo|todo eso|todo lo que (te |le )?(dije|he dicho|conte|sabes de mi|sabe de mi))$/,
  /^(borra|borre) (todo lo que (sabes|sabe|recuerdas|recuerda) (de|sobre) mi|tu memoria|su memoria)$/,
  // French
  /^(oublie|oubliez) (tout|tout ca|tout cela|tout ce que (je t'ai|je vous ai) (dit|raconte)|tout ce que (tu sais|vous savez) (sur|de) moi)$/,
  /^(efface|effacez) (tout ce que (tu sais|vous savez) (sur|de) moi|ta memoire|votre memoire)$/,
  // German
  /^(vergiss|vergessen sie|vergesst) (alles|alles (was|das) ich (dir |ihnen )?(gesagt|erzahlt) habe|alles uber mich|alles was du uber mich weisst)$/,
  /^(losch|losche|loschen sie) (alles was du uber mich weisst|dein gedachtnis|ihr gedachtnis)$/,
  // Portuguese
  /^(esqueca|esquece|esquecam) (tudo|tudo isso|tudo o que (eu )?(te |lhe )?(disse|contei)|tudo sobre mim|tudo o que sabe sobre mim)$/,
  /^(apague|apaga) (tudo o que (sabe|sabes) sobre mim|sua memoria|a tua memoria|a sua memoria)$/,
  // Italian
  /^(dimentica|dimenticate|dimentichi) (tutto|tutto quanto|tutto quello che ti ho detto|tutto di me)$/,
  /^(cancella|cancelli) (tutto quello che sai di me|la tua memoria)$/,
];
const FORGET_THAT: RegExp[] = [
  /^(don't|do not|dont) (remember|keep|save|store|note) (that|this|it)$/,
  /^forget (that|this|what i (just )?(said|wrote|told you)|i said that|i (just )?mentioned (that|it))$/,
  /^(no|no lo) (recuerdes|recuerde|guardes|guarde|anotes)( eso| esto)?$/,
  /^no te acuerdes de (eso|esto)$/,
  /^(olvida|olvide) (eso|esto|lo que (acabo de decir|dije))$/,
  /^(ne|n') ?(retiens|retenez|garde|gardez|enregistre|enregistrez|memorise|memorisez) pas (ca|cela|ceci)$/,
  /^(oublie|oubliez) (ca|cela|ceci|ce que je viens de dire)$/,
  /^(vergiss|vergessen sie) (das|dies|das was ich gerade gesagt habe)$/,
  /^(merk|merke) dir das nicht$/,
  /^(speicher|speichere|behalte) das nicht$/,
  /^nao (lembre|lembres|guarde|guardes|grave|salve)( disso| isso| isto)?$/,
  /^nao se lembre disso$/,
  /^(esqueca|esquece) (isso|isto|o que eu (acabei de dizer|disse))$/,
  /^non (ricordare|salvare|memorizzare|tenere a mente) (questo|quello|cio)$/,
  /^(dimentica|dimentichi) (questo|quello|cio che ho (appena )?detto)$/,
];
/** Words of politeness around a command ("please", "can you", "thanks"), in those languages. */
const LEADING_FILLER =
  /^(please|pls|kindly|can you|could you|would you|will you|ok|okay|and|oh|hey|also|actually|just|now|so|por favor|puedes|podrias|s'il te plait|s'il vous plait|stp|svp|peux-tu|pouvez-vous|bitte|kannst du|konnen sie|pode|podes|podia|per favore|puoi|potresti)\s+/;
const TRAILING_FILLER =
  /\s+(please|pls|thanks|thank you|now|ok|okay|too|as well|por favor|gracias|ahora|s'il te plait|s'il vous plait|stp|svp|merci|maintenant|bitte|danke|jetzt|obrigado|obrigada|agora|per favore|grazie|adesso|ora)$/;
const FILLER_ONLY =
  /^(please|pls|thanks|thank you|ok|okay|por favor|gracias|merci|s'il te plait|s'il vous plait|danke|bitte|obrigado|obrigada|per favore|grazie)?$/;

/**
 * A forget command in a fan's message: `kind` 'all' (forget everything) or 'that' (do not remember
 * what I just said); `only` when the message holds nothing else (no question for the AI to answer).
 */
export function forgetCommand(text: string): { kind: 'all' | 'that'; only: boolean } | null {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[’‘`´]/g, "'")
    // A comma before a relative clause ("vergiss alles, was ich gesagt habe") does not end it.
    .replace(/,\s*(?=(was|das|dass|que|ce que|o que|quello che|what)\b)/g, ' ');
  let kind: 'all' | 'that' | null = null;
  let only = true;
  for (const raw of plain.split(/[.!?¡¿;,:\n()"«»]+/)) {
    let clause = raw.replace(/\s+/g, ' ').trim();
    for (let before = ''; before !== clause; ) {
      before = clause;
      clause = clause.replace(LEADING_FILLER, '').replace(TRAILING_FILLER, '').trim();
    }
    if (FORGET_ALL.some((re) => re.test(clause))) kind = 'all';
    else if (FORGET_THAT.some((re) => re.test(clause))) kind ??= 'that';
    else if (!FILLER_ONLY.test(clause)) only = false;
  }
  return kind ? { kind, only } : null;
}

/** What a fan asks of memory in the chat: forget everything, or not remember what they just said. */
export function forgetRequest(text: string): 'all' | 'that' | null {
  return forgetCommand(text)?.kind ?? null;
}

/**
 * A fan's message asking memory to forget (forgetRequest): everything is cleared, or the items
 * taken from the fan's message before it are dropped (else the newest item). Neither that message
 * nor the earlier ones are read for memory after. Returns what was done, or null (not a request).
 */
export async function forgetOnRequest(
  db: Db,
  input: { fanId: string; messageId: string; text: string },
): Promise<'cleared' | 'dropped' | null> {
  const asked = forgetRequest(input.text);
  if (!asked) return null;
  await db
    .updateTable('fans')
    .set({ memory_through: input.messageId })
    .where('id', '=', input.fanId)
    .execute();
  if (asked === 'all') {
    await db.deleteFrom('fan_memory').where('fan_id', '=', input.fanId).execute();
    return 'cleared';
  }
  const previous = await db
    .selectFrom('messages')
    .select('id')
    .where('fan_id', '=', input.fanId)
    .where('sender', '=', 'fan')
    .where('id', '<', input.messageId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const fromPrevious = previous
    ? await db
        .deleteFrom('fan_memory')
        .where('fan_id', '=', input.fanId)
        .where('source_message_id', '=', previous.id)
        .executeTakeFirst()
    : undefined;
  if (Number(fromPrevious?.numDeletedRows ?? 0) === 0) {
    const newest = await db
      .selectFrom('fan_memory')
      .select('id')
      .where('fan_id', '=', input.fanId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (newest) await db.deleteFrom('fan_memory').where('id', '=', newest.id).execute();
  }
  return 'dropped';
}

/**
 * The fan's own conversation with the creator called `creator` (by the chat log's rule: this
 * browser's fan cookie, or the creator themselves); null when the fan has not written yet.
 */
export async function fansOwnMemory(
  db: Db,
  who: FanRequester,
  input: { creator: string; fanKey: string },
  action: 'read' | 'write',
): Promise<{ fanRowId: string | null; creatorId: string }> {
  const creator = await findReachableCreator(db, input.creator);
  const row = await fansRepository(db).findByKey(creator.id, input.fanKey);
  if (!row) return { fanRowId: null, creatorId: creator.id };
  requireFanAccess(who, row, action);
  return { fanRowId: row.id, creatorId: creator.id };
}
