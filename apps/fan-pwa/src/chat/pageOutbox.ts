import { idbOutboxStore } from '../lib/idbOutboxStore.ts';
import { createOutbox } from '../lib/outbox.ts';

/** The page's handle on the outbox the service worker shares. */
export const pageOutbox = createOutbox(idbOutboxStore());
