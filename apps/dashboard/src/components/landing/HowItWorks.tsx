import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.how;

export function HowItWorks() {
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <div className="max-w-2xl">
        <h2 id="how-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {t.heading}
        </h2>
        <p className="mt-3 text-lg text-slate-600">{t.lead}</p>
      </div>
      <ol className="mt-10 grid gap-6 md:grid-cols-3">
        {t.steps.map((step, index) => (
          <li key={step.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span
              aria-hidden="true"
              className="flex size-10 items-center justify-center rounded-full bg-brand-600 font-bold text-white"
            >
              {index + 1}
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
            <p className="mt-2 text-slate-600">{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
