import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';

/** Where a fan's files are kept: the part of the object store the conversation use cases need. */
export interface FileStore {
  put: (key: string, body: Buffer, contentType: string) => Promise<void>;
  remove: (key: string) => Promise<void>;
}

/** What a conversation use case works with, passed in by its caller. */
export interface ConversationPorts {
  db: Kysely<Database>;
  /** Today's time (tests pass a fixed one); `new Date()` when omitted. */
  clock?: () => Date;
}

export interface ConversationPortsWithFiles extends ConversationPorts {
  storage: FileStore;
}

export const now = (ports: ConversationPorts): Date => (ports.clock ?? (() => new Date()))();
