import { isUuid, TEMPLATES_MAX_PER_CREATOR } from '@fanpilot/contracts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';

export function templatesRepository(db: Db) {
  return {
    list: (creatorId: string) =>
      db
        .selectFrom('templates')
        .selectAll()
        .where('creator_id', '=', creatorId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute(),
    async count(creatorId: string): Promise<number> {
      const row = await db
        .selectFrom('templates')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('creator_id', '=', creatorId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    insert: (creatorId: string, title: string, content: string) =>
      db
        .insertInto('templates')
        .values({ creator_id: creatorId, title, content })
        .returningAll()
        .executeTakeFirstOrThrow(),
    /** Deletes the creator's own template; false when they have none with that id. */
    async remove(creatorId: string, id: string): Promise<boolean> {
      const rows = await db
        .deleteFrom('templates')
        .where('creator_id', '=', creatorId)
        .where('id', '=', id)
        .returning('id')
        .execute();
      return rows.length > 0;
    },
  };
}

/** Deletes the creator's own template `id`; not found when they have none with that id. */
export async function deleteTemplate(db: Db, creatorId: string, id: string): Promise<void> {
  const removed = isUuid(id) && (await templatesRepository(db).remove(creatorId, id));
  if (!removed) throw new DomainError('not_found', 'not_found', 'No such template.');
}

/** Saves a template for the creator, who keeps at most TEMPLATES_MAX_PER_CREATOR of them. */
export async function addTemplate(db: Db, creatorId: string, title: string, content: string) {
  const templates = templatesRepository(db);
  if ((await templates.count(creatorId)) >= TEMPLATES_MAX_PER_CREATOR) {
    throw new DomainError(
      'conflict',
      'too_many_templates',
      `You can keep at most ${TEMPLATES_MAX_PER_CREATOR} templates; delete one first.`,
    );
  }
  return templates.insert(creatorId, title, content);
}
