/** A whole-screen message: unknown creator, no creator chosen, offline, unknown page. */
export function MessagePage({
  heading,
  text,
  action,
}: {
  heading: string;
  text: string;
  action?: { label: string; onClick: () => void };
}) {
  return (
    <main className="app-frame flex flex-col items-center justify-center gap-3 bg-white px-6 text-center">
      <svg aria-hidden="true" viewBox="0 0 48 48" width="56" height="56">
        <rect width="48" height="48" rx="14" className="fill-brand-50" />
        <path
          d="M14 16h20a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H22l-6 5v-5h-2a3 3 0 0 1-3-3V19a3 3 0 0 1 3-3z"
          className="fill-brand-700"
        />
      </svg>
      <h1 className="text-xl font-semibold text-slate-900">{heading}</h1>
      <p className="max-w-sm text-base text-slate-700">{text}</p>
      {action && (
        <button
          type="button"
          onClick={action.onClick}
          className="mt-2 rounded-full bg-brand-700 px-5 py-2.5 text-sm font-medium text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          {action.label}
        </button>
      )}
    </main>
  );
}
