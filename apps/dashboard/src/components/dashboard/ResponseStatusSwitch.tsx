import { useId } from 'react';
import type { ResponseStatus } from '../../hooks/useResponseStatus.ts';
import { TEXT } from '../../texts.ts';

/** Online: the creator answers fans. Offline: the AI answers (docs/product.md#online-and-offline). */
export function ResponseStatusSwitch({ status }: { status: ResponseStatus }) {
  const id = useId();
  return (
    <div className="rounded-xl border border-slate-200 bg-slate-50 p-3">
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={id} className="text-sm font-semibold text-slate-900">
          {TEXT.status.label}
        </label>
        {/* WAI-ARIA's switch: a button with role "switch" and its state in aria-checked (the markup a
            Radix Switch renders, without its 4.5 KB gzipped on the first screen: issue 39). */}
        <button
          type="button"
          role="switch"
          id={id}
          aria-checked={status.isOnline}
          data-state={status.isOnline ? 'checked' : 'unchecked'}
          disabled={status.isToggling}
          onClick={status.toggle}
          aria-describedby={`${id}-text`}
          className="relative h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-400 transition-colors data-[state=checked]:bg-emerald-600 disabled:cursor-wait disabled:opacity-70"
        >
          <span
            data-state={status.isOnline ? 'checked' : 'unchecked'}
            className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]"
          />
        </button>
      </div>
      <p id={`${id}-text`} className="mt-1.5 flex items-center gap-1.5 text-xs font-medium text-slate-700">
        <span
          aria-hidden="true"
          className={`size-2 shrink-0 rounded-full ${status.isOnline ? 'bg-emerald-500' : 'bg-slate-400'}`}
        />
        {status.statusText}
      </p>
    </div>
  );
}
