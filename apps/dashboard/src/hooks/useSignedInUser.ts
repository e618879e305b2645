import type { CurrentUser } from '@fanpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useLoaderData } from 'react-router';
import { currentUserQuery } from '../lib/queries.ts';

/** The signed-in creator on a page whose loader made sure there is one; follows cache updates. */
export function useSignedInUser(): CurrentUser {
  const fromLoader = useLoaderData<CurrentUser>();
  const { data } = useQuery(currentUserQuery);
  return data ?? fromLoader;
}
