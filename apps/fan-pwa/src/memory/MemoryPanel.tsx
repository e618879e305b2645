import type { FanMemory } from '@fanpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { deleteFanMemoryItem, errorMessage, fetchFanMemory, setFanMemory } from '../lib/api.ts';
import { memoryTexts } from './texts.ts';

/**
 * "What {creator}'s assistant remembers about you" (docs/product.md#memory): the items, a delete
 * button on each, and the switch that turns memory off (everything deleted, nothing more kept).
 */
export default function MemoryPanel({
  creator,
  creatorName,
  fanId,
  onClose,
}: {
  creator: string;
  creatorName: string;
  fanId: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const key = ['fan-memory', creator, fanId];
  const memory = useQuery({ queryKey: key, queryFn: () => fetchFanMemory(creator, fanId) });
  const keep = (next: FanMemory) => queryClient.setQueryData(key, next);
  const remove = useMutation({
    mutationFn: (itemId: string) => deleteFanMemoryItem(creator, fanId, itemId),
    onSuccess: keep,
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setFanMemory(creator, fanId, enabled),
    onSuccess: keep,
  });

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const data = memory.data;
  const failure = memory.error ?? remove.error ?? toggle.error;
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="memory-heading"
      data-testid="memory-panel"
      className="m-auto max-h-[calc(100%-2rem)] w-[min(28rem,calc(100%-2rem))] rounded-2xl bg-white p-5 text-slate-900 backdrop:bg-slate-900/50"
    >
      <h2 id="memory-heading" className="text-lg font-semibold">
        {memoryTexts.heading(creatorName)}
      </h2>
      <p className="mt-2 text-sm text-slate-700">{memoryTexts.intro(creatorName)}</p>
      <div className="mt-4" aria-live="polite">
        {memory.isPending && <p className="text-sm text-slate-600">{memoryTexts.loading}</p>}
        {failure && (
          <p role="alert" className="text-sm text-red-800">
            {errorMessage(failure, memoryTexts.failed)}
          </p>
        )}
        {data && !data.available && (
          <p data-testid="memory-unavailable" className="rounded-lg bg-slate-100 p-3 text-sm text-slate-800">
            {memoryTexts.unavailable(creatorName)}
          </p>
        )}
        {data?.available && !data.enabled && (
          <p className="rounded-lg bg-slate-100 p-3 text-sm text-slate-800">{memoryTexts.off}</p>
        )}
        {data?.available && data.enabled && data.items.length === 0 && (
          <p className="text-sm text-slate-700">{memoryTexts.empty}</p>
        )}
        {data?.available && data.items.length > 0 && (
          <ul className="divide-y divide-slate-200" data-testid="memory-items">
            {data.items.map((item) => (
              <li key={item.id} className="flex items-start gap-3 py-2.5">
                <span className="min-w-0 flex-1 text-sm break-words text-slate-900">{item.text}</span>
                <button
                  type="button"
                  onClick={() => remove.mutate(item.id)}
                  disabled={remove.isPending}
                  aria-label={memoryTexts.deleteItem(item.text)}
                  className="shrink-0 rounded-full border border-slate-300 px-3 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50"
                >
                  {memoryTexts.delete}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {data?.available && (
        <label className="mt-4 flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-sm text-slate-900">
          <input
            type="checkbox"
            checked={data.enabled}
            disabled={toggle.isPending}
            onChange={(event) => toggle.mutate(event.currentTarget.checked)}
            className="size-4 accent-brand-700"
          />
          <span>
            {memoryTexts.switchLabel}
            <span className="block text-xs text-slate-600">{memoryTexts.switchHint}</span>
          </span>
        </label>
      )}
      <div className="mt-4 flex justify-end">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {memoryTexts.close}
        </button>
      </div>
    </dialog>
  );
}
