import { type AskingBrowser, type FanRequester, hashToken } from '@fanpilot/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ensureFanToken, fanTokenHash } from './fan-identity.ts';

// The conversation use cases live in packages/core (src/conversations/); this file only reads who
// is asking from the request (the browser's fan cookie, the signed-in creator).

/** The browser's fan cookie and the signed-in creator of `request`. */
export async function fanRequester(request: FastifyRequest): Promise<FanRequester> {
  const creator = await request.currentCreator();
  return { cookieHash: fanTokenHash(request), creatorId: creator?.id ?? null };
}

/** Fan requests as a fan only: the creator's session counts for nothing here. */
export const asFanOnly = (request: FastifyRequest): FanRequester => ({
  cookieHash: fanTokenHash(request),
  creatorId: null,
});

/** The browser asking a question: its fan cookie, and how to give it one (claimFan binds to it). */
export const askingBrowser = (
  request: FastifyRequest,
  reply: FastifyReply,
  secureCookie: boolean,
): AskingBrowser => ({
  cookieHash: fanTokenHash(request),
  bindCookie: () => hashToken(ensureFanToken(request, reply, secureCookie)),
});
