import { type ModelEnv, memoryAvailable } from '@fanpilot/answers';
import { calls, type FanMemory } from '@fanpilot/contracts';
import {
  correctFanMemoryItem,
  creatorFanMemory,
  deleteCreatorFanMemoryItem,
  deleteFanMemoryItem,
  fansOwnMemory,
  readFanMemory,
  requireChatbot,
  setFanMemoryEnabled,
} from '@fanpilot/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fanRequester } from '../../services/conversations.ts';

// Per-fan memory (docs/product.md#memory, docs/decisions/0079): the fan reads, deletes and turns off
// what the creator's assistant remembers about them; the creator reads, corrects and deletes it
// beside the conversation. Rules and writes are core's.

export async function memoryRoutes(app: FastifyInstance, opts: { env: ModelEnv }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** Memory works when the creator's chatbot has a model key (embedded defaults: off). */
  const available = async (creatorId: string) =>
    memoryAvailable((await requireChatbot(app.db, creatorId)).model, opts.env);
  const fanMemory = async (fanRowId: string | null, creatorId: string): Promise<FanMemory> => {
    const on = await available(creatorId);
    if (!fanRowId) return { available: on, enabled: true, items: [] };
    return readFanMemory(app.db, fanRowId, { available: on });
  };

  /** The asking fan's own conversation with the creator (the chat log's rule). */
  const ownMemory = async (
    request: FastifyRequest & { params: { fanId: string }; query: { creator: string } },
    action: 'read' | 'write',
  ) =>
    fansOwnMemory(
      app.db,
      await fanRequester(request),
      { creator: request.query.creator, fanKey: request.params.fanId },
      action,
    );

  r.get(calls.fanMemory.path, { schema: calls.fanMemory.schema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const own = await ownMemory(request, 'read');
    return fanMemory(own.fanRowId, own.creatorId);
  });

  r.put(calls.setFanMemory.path, { schema: calls.setFanMemory.schema }, async (request) => {
    const own = await ownMemory(request, 'write');
    await setFanMemoryEnabled(app.db, own.fanRowId, request.body.enabled);
    return fanMemory(own.fanRowId, own.creatorId);
  });

  r.delete(calls.deleteFanMemoryItem.path, { schema: calls.deleteFanMemoryItem.schema }, async (request) => {
    const own = await ownMemory(request, 'write');
    await deleteFanMemoryItem(app.db, own.fanRowId, request.params.itemId);
    return fanMemory(own.fanRowId, own.creatorId);
  });

  r.get(calls.creatorFanMemory.path, { schema: calls.creatorFanMemory.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    reply.header('cache-control', 'no-store');
    return creatorFanMemory(app.db, {
      creatorId: creator.id,
      fanId: request.params.fanId,
      available: await available(creator.id),
    });
  });

  r.patch(calls.correctFanMemoryItem.path, { schema: calls.correctFanMemoryItem.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    return correctFanMemoryItem(app.db, {
      creatorId: creator.id,
      fanId: request.params.fanId,
      itemId: request.params.itemId,
      text: request.body.text,
    });
  });

  r.delete(
    calls.deleteCreatorFanMemoryItem.path,
    { schema: calls.deleteCreatorFanMemoryItem.schema },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const input = { creatorId: creator.id, fanId: request.params.fanId };
      await deleteCreatorFanMemoryItem(app.db, { ...input, itemId: request.params.itemId });
      return creatorFanMemory(app.db, { ...input, available: await available(creator.id) });
    },
  );
}
