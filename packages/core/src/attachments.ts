import { isUuid } from '@fanpilot/contracts';
import type { FileAttachmentRow } from '@fanpilot/db';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { type FanRequester, requireFanAccess } from './rights.ts';

export function attachmentsRepository(db: Db) {
  return {
    async insert(values: {
      messageId: string;
      creatorId: string;
      storageKey: string;
      originalFilename: string;
      fileType: FileAttachmentRow['file_type'];
      mimeType: string;
      fileSize: number;
    }) {
      await db
        .insertInto('file_attachments')
        .values({
          message_id: values.messageId,
          creator_id: values.creatorId,
          storage_key: values.storageKey,
          original_filename: values.originalFilename,
          file_type: values.fileType,
          mime_type: values.mimeType,
          file_size: values.fileSize,
        })
        .execute();
    },
    /** An attachment with who may read it: its creator, and the cookie its fan is bound to. */
    findWithOwners: (id: string) =>
      db
        .selectFrom('file_attachments as a')
        .innerJoin('messages as m', 'm.id', 'a.message_id')
        .leftJoin('fans as f', 'f.id', 'm.fan_id')
        .select([
          'a.id',
          'a.creator_id',
          'a.storage_key',
          'a.original_filename',
          'a.mime_type',
          'a.file_size',
          'f.cookie_hash',
        ])
        .where('a.id', '=', id)
        .executeTakeFirst(),
    async keysForFan(fanRowId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('file_attachments as a')
        .innerJoin('messages as m', 'm.id', 'a.message_id')
        .select('a.storage_key')
        .where('m.fan_id', '=', fanRowId)
        .execute();
      return rows.map((r) => r.storage_key);
    },
    async keysForAnonymous(creatorId: string, fanName: string): Promise<string[]> {
      const rows = await db
        .selectFrom('file_attachments as a')
        .innerJoin('messages as m', 'm.id', 'a.message_id')
        .select('a.storage_key')
        .where('m.creator_id', '=', creatorId)
        .where('m.fan_id', 'is', null)
        .where('m.fan_name', '=', fanName)
        .execute();
      return rows.map((r) => r.storage_key);
    },
  };
}

/**
 * A fan attachment `id` as `who` may download it: the creator it was sent to, or the browser that
 * holds the fan's conversation; nobody else. An id that is no attachment is not found.
 */
export async function downloadableAttachment(db: Db, who: FanRequester, id: string) {
  const file = isUuid(id) ? await attachmentsRepository(db).findWithOwners(id) : undefined;
  if (!file) throw new DomainError('not_found', 'not_found', 'No such file.');
  return requireFanAccess(who, file, 'read', 'You cannot download this file.');
}
