import { encodeDraftNotice } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import { NOT_IN_KNOWLEDGE } from './prompt.ts';

/** At most one draft per answer this often (the first at once). */
export const DRAFT_EVERY_MS = 150;

/**
 * An AI answer as it is being written, announced on the change feed's channel (NOTIFY
 * fp_changes, a draft notice of packages/contracts' live protocol), so every api process can pass
 * it to the fan's open chat. `done` with no text: drop the draft (the answer is stored, or
 * failed). A draft too long for a notice is not sent; the stored answer follows. Drafts are a
 * courtesy: a failure to send one is logged and otherwise ignored.
 */
export function draftPublisher(
  db: Kysely<Database>,
  fanId: string | null,
  questionId: string,
  logger?: { warn: (obj: object, msg: string) => void },
) {
  let last = 0;
  let latest = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sending: Promise<void> = Promise.resolve();
  let stopped = false;
  const notify = (done: boolean, text: string) => {
    if (!fanId) return Promise.resolve();
    const payload = encodeDraftNotice({ fanId, replyTo: questionId, done, text });
    if (payload === null) return Promise.resolve();
    sending = sending
      .then(() => sql`select pg_notify('fp_changes', ${payload})`.execute(db))
      .then(
        () => {},
        (err) => logger?.warn({ err, questionId }, 'answer draft not sent'),
      );
    return sending;
  };
  const flush = () => {
    timer = null;
    if (stopped) return;
    last = Date.now();
    void notify(false, visibleDraft(latest));
  };
  return {
    /** The answer so far. */
    update(text: string) {
      if (stopped || !fanId) return;
      latest = text;
      if (timer) return;
      const wait = DRAFT_EVERY_MS - (Date.now() - last);
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    /** No more drafts (the answer is complete; it is stored next). */
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    /** Tells the fan's chat to drop the draft. */
    async discard() {
      this.stop();
      await notify(true, '');
    },
  };
}

/** What a draft shows: without the gap tag, whole or begun. */
export function visibleDraft(text: string): string {
  let out = text.replace(/[ \t]*\[\s*not in knowledge\s*\][ \t]*/gi, ' ');
  // A tag still being written ("[not in kno") is not shown either.
  const open = out.lastIndexOf('[');
  if (
    open >= 0 &&
    !out.slice(open).includes(']') &&
    NOT_IN_KNOWLEDGE.startsWith(out.slice(open).toLowerCase())
  ) {
    out = out.slice(0, open);
  }
  return out.trim();
}
