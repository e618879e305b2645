import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.hero;

/** An example exchange between a fan and the AI Coach, to show what fans get. */
export function ChatPreview() {
  return (
    <figure className="relative mx-auto w-full max-w-md">
      <div
        aria-hidden="true"
        className="absolute -inset-4 -z-10 rounded-[2rem] bg-gradient-to-br from-brand-200/70 via-fuchsia-100 to-sky-100 blur-2xl"
      />
      <div className="rounded-3xl border border-slate-200 bg-white p-5 shadow-xl shadow-brand-900/10">
        <div className="flex items-center justify-between border-b border-slate-100 pb-4">
          <div className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className="flex size-10 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-fuchsia-500 font-bold text-white"
            >
              M
            </span>
            <div>
              <p className="text-sm font-semibold text-slate-900">Coach Mina</p>
              <p className="text-xs text-slate-600">{t.previewStatus}</p>
            </div>
          </div>
          <span className="rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-800">
            24/7
          </span>
        </div>
        <div className="mt-4 space-y-3 text-sm">
          <div className="max-w-[85%]">
            <p className="text-xs font-medium text-slate-600">{t.previewFan}</p>
            <p className="mt-1 rounded-2xl rounded-tl-sm bg-slate-100 px-4 py-2.5 text-slate-800">
              {t.previewFanMessage}
            </p>
          </div>
          <div className="ml-auto max-w-[85%] text-right">
            <p className="text-xs font-medium text-brand-700">{t.previewAi}</p>
            <p className="mt-1 rounded-2xl rounded-tr-sm bg-brand-600 px-4 py-2.5 text-left text-white">
              {t.previewAiMessage}
            </p>
          </div>
        </div>
      </div>
      <figcaption className="sr-only">
        {`${t.previewFan}: ${t.previewFanMessage} ${t.previewAi}: ${t.previewAiMessage}`}
      </figcaption>
    </figure>
  );
}
