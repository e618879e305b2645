import { CREDITS_PER_MEMORY_EXTRACTION, type FanMemory } from '@fanpilot/contracts';
import { Button } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';

/** The words of the memory panel (docs/product.md#memory). */
export const memoryText = {
  heading: 'What the assistant remembers about this fan',
  loading: 'Loading memory…',
  failed: 'The memory could not be loaded.',
  unavailable: 'Memory is off: it needs an AI model key (the embedded answerer keeps no memory).',
  off: 'This fan turned memory off: nothing is kept.',
  empty: 'Nothing yet. Facts the fan shares (goal, level, constraints, preferences, name) show here.',
  cost: `Reading the fan's messages for memory costs ${CREDITS_PER_MEMORY_EXTRACTION} credits.`,
  edit: 'Correct',
  save: 'Save',
  cancel: 'Cancel',
  delete: 'Delete',
  corrected: 'corrected by you',
  itemLabel: 'Memory item',
} as const;

/** Beside the conversation: the fan's memory, each item correctable and deletable by the creator. */
export function FanMemoryPanel({ username, fanId }: { username: string; fanId: string }) {
  const key = ['fan-memory', username, fanId];
  const queryClient = useQueryClient();
  const memory = useQuery({
    queryKey: key,
    queryFn: () => api.call('creatorFanMemory', { params: { username, fanId } }),
  });
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const correct = useMutation({
    mutationFn: (item: { id: string; text: string }) =>
      api.call('correctFanMemoryItem', {
        params: { username, fanId, itemId: item.id },
        body: { text: item.text },
      }),
    onSuccess: () => {
      setEditing(null);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const remove = useMutation({
    mutationFn: (itemId: string) =>
      api.call('deleteCreatorFanMemoryItem', { params: { username, fanId, itemId } }),
    onSuccess: (next: FanMemory) => queryClient.setQueryData(key, next),
  });
  const data = memory.data;
  const failure = memory.error ?? correct.error ?? remove.error;
  return (
    <section
      aria-label={memoryText.heading}
      data-testid="fan-memory-panel"
      className="shrink-0 rounded-xl border border-slate-200 bg-white p-3"
    >
      <h3 className="text-sm font-semibold text-slate-900">{memoryText.heading}</h3>
      {memory.isPending && <p className="mt-1 text-sm text-slate-600">{memoryText.loading}</p>}
      {failure && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {serverMessage(failure) ?? memoryText.failed}
        </p>
      )}
      {data && !data.available && <p className="mt-1 text-sm text-slate-600">{memoryText.unavailable}</p>}
      {data?.available && !data.enabled && <p className="mt-1 text-sm text-slate-600">{memoryText.off}</p>}
      {data?.available && data.enabled && data.items.length === 0 && (
        <p className="mt-1 text-sm text-slate-600">{memoryText.empty}</p>
      )}
      {data && data.items.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-100">
          {data.items.map((item) =>
            editing?.id === item.id ? (
              <li key={item.id} className="flex flex-wrap items-center gap-2 py-2">
                <input
                  aria-label={memoryText.itemLabel}
                  value={editing.text}
                  maxLength={200}
                  onChange={(event) => setEditing({ id: item.id, text: event.currentTarget.value })}
                  className="min-w-0 flex-1 rounded-lg border border-slate-300 px-2 py-1 text-sm"
                />
                <Button size="sm" disabled={correct.isPending} onClick={() => correct.mutate(editing)}>
                  {memoryText.save}
                </Button>
                <Button size="sm" variant="secondary" onClick={() => setEditing(null)}>
                  {memoryText.cancel}
                </Button>
              </li>
            ) : (
              <li key={item.id} className="flex items-start gap-2 py-2">
                <span className="min-w-0 flex-1 text-sm break-words text-slate-800">
                  {item.text}
                  {item.correctedByCreator && (
                    <span className="ml-2 text-xs text-slate-500">({memoryText.corrected})</span>
                  )}
                </span>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setEditing({ id: item.id, text: item.text })}
                >
                  {memoryText.edit}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(item.id)}
                >
                  {memoryText.delete}
                </Button>
              </li>
            ),
          )}
        </ul>
      )}
      <p className="mt-2 text-xs text-slate-500">{memoryText.cost}</p>
    </section>
  );
}
