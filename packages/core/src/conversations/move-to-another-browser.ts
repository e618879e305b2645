import type { ErrorCode } from '@fanpilot/contracts';
import { creatorsRepository } from '../creators.ts';
import { DomainError } from '../errors.ts';
import { fanTransfersRepository } from '../fan-transfers.ts';
import { fansRepository } from '../fans.ts';
import { hashToken } from '../tokens.ts';
import { type ConversationPorts, now } from './ports.ts';

const transferGone = (code: ErrorCode, message: string) => new DomainError('gone', code, message);

/**
 * Redeems a transfer link (makeTransferLink): every conversation the old browser holds under the
 * link's fan id is bound to this browser's fan cookie (`newCookieHash`), and the old browser loses
 * them. A link works once, until it expires, and only while the old browser still holds the
 * conversation.
 */
export async function moveToAnotherBrowser(
  ports: ConversationPorts,
  input: { token: string; newCookieHash: string },
): Promise<{ fanId: string; creator: string }> {
  const at = now(ports);
  return ports.db.transaction().execute(async (trx) => {
    const transfers = fanTransfersRepository(trx);
    const transfer = await transfers.lockByTokenHash(hashToken(input.token));
    if (!transfer) {
      throw new DomainError(
        'not_found',
        'not_found',
        'This transfer link is not valid. Make a new one on the device that has the chat.',
      );
    }
    if (transfer.used_at) {
      throw transferGone(
        'transfer_used',
        'This transfer link was already used. Each link works once: make a new one on the device that has the chat.',
      );
    }
    if (new Date(transfer.expires_at).getTime() <= at.getTime()) {
      throw transferGone(
        'transfer_expired',
        'This transfer link has expired. Make a new one on the device that has the chat.',
      );
    }
    await transfers.markUsed(transfer.id);
    const moved = await fansRepository(trx).moveToBrowser(
      transfer.fan_key,
      transfer.cookie_hash,
      input.newCookieHash,
    );
    const creator = await creatorsRepository(trx).findById(transfer.creator_id);
    if (moved === 0 || !creator) {
      throw transferGone(
        'transfer_stale',
        'This chat has moved or been deleted since the link was made. Make a new link on the device that has the chat.',
      );
    }
    return { fanId: transfer.fan_key, creator: creator.username };
  });
}
