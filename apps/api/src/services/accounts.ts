import { creatorsRepository, firstFreeUsername, usernameBase } from '@fanpilot/core';
import type { CreatorRow, Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';

/** The creator behind a Google subject, created on first sign-in with a unique username. */
export async function findOrCreateCreator(
  db: Kysely<Database>,
  profile: { sub: string; email: string; name: string },
): Promise<CreatorRow> {
  const repo = creatorsRepository(db);
  const existing = await repo.findByGoogleSub(profile.sub);
  if (existing) {
    if (existing.email !== profile.email && profile.email) {
      return repo.update(existing.id, { email: profile.email });
    }
    return existing;
  }
  const base = usernameBase(profile);
  // Two first sign-ins may race for one username: the unique index decides, the loser tries the next.
  for (let attempt = 0; attempt < 5; attempt++) {
    const username = firstFreeUsername(base, await repo.usernamesLike(base));
    const created = await repo.insert({
      googleSub: profile.sub,
      email: profile.email,
      name: profile.name,
      username,
    });
    if (created) return created;
    const bySub = await repo.findByGoogleSub(profile.sub);
    if (bySub) return bySub;
  }
  throw new Error('Could not find a free username');
}
