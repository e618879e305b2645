import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.faq;

export function FaqSection() {
  return (
    <section id="faq" aria-labelledby="faq-heading" className="bg-white">
      <div className="mx-auto max-w-3xl px-4 py-20 sm:px-6">
        <h2
          id="faq-heading"
          className="text-center text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
        >
          {t.heading}
        </h2>
        <div className="mt-10 divide-y divide-slate-200 rounded-2xl border border-slate-200">
          {t.items.map((item) => (
            <details
              key={item.question}
              className="group px-5 py-4 [&_summary::-webkit-details-marker]:hidden"
            >
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-lg font-semibold text-slate-900">
                {item.question}
                <span
                  aria-hidden="true"
                  className="text-xl leading-none text-brand-600 transition-transform group-open:rotate-45"
                >
                  +
                </span>
              </summary>
              <p className="mt-3 text-slate-600">{item.answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
