import { calls, PROFILE_IMAGE_MAX_BYTES_DASHBOARD } from '@fanpilot/contracts';
import { creatorsRepository, updateCreatorDescription } from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownInboxByParam } from '../../plugins/changes.ts';
import { toCreator } from '../../serializers.ts';
import { verifyUploadedImage } from '../../services/images.ts';

export async function creatorsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    calls.creator.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.creator.schema,
    },
    async (request) => toCreator(await app.requireOwner(request, request.params.username)),
  );

  r.put(
    calls.updateProfileImage.path,
    {
      schema: calls.updateProfileImage.schema,
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const key = await verifyUploadedImage(
        app.storage,
        request.body.profileImageURL,
        creator.id,
        PROFILE_IMAGE_MAX_BYTES_DASHBOARD,
      );
      const updated = await creatorsRepository(app.db).update(creator.id, { profile_image_key: key });
      // The image it replaces is no one's any more.
      const previous = creator.profile_image_key;
      if (previous && previous !== key && previous.startsWith(`uploads/${creator.id}/`)) {
        await app.storage.remove(previous).catch((err) => {
          request.log.warn({ key: previous, err }, 'could not remove a replaced profile image');
        });
      }
      return { creator: toCreator(updated) };
    },
  );

  r.put(calls.updateDescription.path, { schema: calls.updateDescription.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    return { description: await updateCreatorDescription(app.db, creator.id, request.body.description) };
  });
}
