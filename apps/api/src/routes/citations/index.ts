import { calls } from '@fanpilot/contracts';
import { citedPassage, downloadableFile, downloadEpochOf, readableCitingMessage } from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parse as parseRange } from 'range-parser';
import { HttpError, notFound } from '../../errors.ts';
import { networkOf, retryAfterWords } from '../../plugins/rate-limit.ts';
import { citedFileLinks } from '../../services/cited-files.ts';
import { fanRequester } from '../../services/conversations.ts';

/** A download under its own name, both as ASCII and exactly (RFC 6266). */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const LINK_GONE = 'This download link has expired. Open the source again for a new one.';
const LINK_REVOKED =
  'This download link stopped working when downloads of this file were switched off. Open the source again for a new one.';

/**
 * A creator's files are theirs (docs/decisions/0019-a-creator-s-files-are-theirs.md). A citation of a file opens the passage the AI
 * quoted, for the fan the answer was given to (the browser holding the conversation) or the creator
 * who owns it; the whole file only through a short-lived signed link, issued with the passage when
 * the creator allows downloads of that file.
 */
export async function citationsRoutes(
  app: FastifyInstance,
  opts: { sessionSecret: string; fanReadsPerIpPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const links = citedFileLinks(opts.sessionSecret);
  const citationReads = app.limiter({
    name: 'citation-read-ip',
    max: opts.fanReadsPerIpPerMinute,
    windowSeconds: 60,
    key: networkOf,
    message: (seconds) =>
      `Too many reads from this network. Please wait ${retryAfterWords(seconds)} and try again.`,
  });

  r.get(
    calls.fanCitation.path,
    { onRequest: citationReads, schema: calls.fanCitation.schema },
    async (request, reply) => {
      const { fanId, messageId, n } = request.params;
      const message = await readableCitingMessage(app.db, await fanRequester(request), fanId, messageId);
      const passage = await citedPassage(app.db, message, n);
      reply.header('cache-control', 'private, no-store');
      const download =
        passage.file.fans_may_download && passage.file.file_key
          ? links.issue(passage.file.id, passage.file.download_epoch)
          : null;
      return {
        title: passage.title,
        source: passage.source,
        page: passage.page,
        text: passage.text,
        ...(download
          ? { downloadUrl: download.url, downloadExpiresAt: download.expiresAt.toISOString() }
          : {}),
      };
    },
  );

  r.get(calls.citedFileDownload.path, { schema: calls.citedFileDownload.schema }, async (request, reply) => {
    const { id } = request.params;
    const { expires, signature } = request.query;
    // Signed with the file's download epoch: a link from before a switch-off of downloads is dead.
    const standing = links.check(id, expires, signature, await downloadEpochOf(app.db, id));
    if (standing === 'invalid') {
      throw new HttpError(403, 'invalid_signature', 'This download link is not valid.');
    }
    if (standing === 'revoked') {
      // Downloads off now (or the file deleted) says so; back on since, the link stays dead.
      await downloadableFile(app.db, id);
      throw new HttpError(410, 'link_revoked', LINK_REVOKED);
    }
    const secondsLeft = links.secondsLeft(expires);
    if (secondsLeft <= 0) throw new HttpError(410, 'link_expired', LINK_GONE);
    // Checked again now: a file deleted, or its downloads stopped, since the link was issued.
    const file = await downloadableFile(app.db, id);
    const head = await app.storage.head(file.file_key);
    if (!head) throw notFound('This file is no longer available.');
    const size = head.contentLength;
    // One byte range is served as 206; a malformed header or several ranges get the whole file.
    const asked = request.headers.range ? parseRange(size, request.headers.range) : undefined;
    const range =
      asked && asked.type === 'bytes' && asked.code === 0 && asked.ranges.length === 1
        ? asked.ranges[0]
        : undefined;
    if (asked && asked.type === 'bytes' && asked.ranges.length === 0 && (asked.code & 2) !== 0) {
      throw new HttpError(416, 'range_not_satisfiable', 'The requested range is outside the file.', {
        'content-range': `bytes */${size}`,
      });
    }
    const object = await app.storage.get(
      file.file_key,
      range ? `bytes=${range.start}-${range.end}` : undefined,
    );
    if (!object) throw notFound('This file is no longer available.');
    reply
      .type(head.contentType ?? 'application/octet-stream')
      .header('content-disposition', attachment(file.file_name ?? 'document'))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('accept-ranges', 'bytes')
      .header('cache-control', `private, max-age=${secondsLeft}`);
    if (range) {
      reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', String(range.end - range.start + 1));
    } else {
      reply.header('content-length', String(size));
    }
    return reply.send(object.body);
  });
}
