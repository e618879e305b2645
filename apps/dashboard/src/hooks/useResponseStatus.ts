import { DEFAULT_STATUS_TEXT_OFFLINE, DEFAULT_STATUS_TEXT_ONLINE } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { responseStatusQuery } from '../lib/queries.ts';
import { TEXT } from '../texts.ts';

/**
 * The creator's Online/Offline status, polled every 2 s, and the flip (the toggleStatus call).
 * Until the status can be read, the creator counts as Offline (the AI answers).
 */
export function useResponseStatus(username: string) {
  const queryClient = useQueryClient();
  const query = responseStatusQuery(username);
  const { data } = useQuery(query);
  const toggle = useMutation({
    mutationFn: () => api.call('toggleStatus', { body: { creator: username } }),
    onSuccess: () => {
      toast({ title: TEXT.status.changed, variant: 'success' });
      return queryClient.invalidateQueries({ queryKey: query.queryKey });
    },
    onError: () => toast({ title: TEXT.status.changeFailed, variant: 'error' }),
  });
  const isOnline = data?.isOnline ?? false;
  return {
    isOnline,
    statusText: data?.statusText || (isOnline ? DEFAULT_STATUS_TEXT_ONLINE : DEFAULT_STATUS_TEXT_OFFLINE),
    toggle: () => toggle.mutate(),
    isToggling: toggle.isPending,
  };
}

export type ResponseStatus = ReturnType<typeof useResponseStatus>;
