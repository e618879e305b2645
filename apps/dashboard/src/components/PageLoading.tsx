import { TEXT } from '../texts.ts';

/** Shown while a page's data loads for the first time. */
export function PageLoading() {
  return (
    <div className="flex min-h-dvh items-center justify-center" role="status">
      <span className="size-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
      <span className="sr-only">{TEXT.common.loading}</span>
    </div>
  );
}
