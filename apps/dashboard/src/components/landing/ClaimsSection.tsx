import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.claims;

export function ClaimsSection() {
  return (
    <section aria-labelledby="claims-heading" className="border-y border-slate-200 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="claims-heading" className="sr-only">
          {t.heading}
        </h2>
        <ul className="grid gap-6 sm:grid-cols-3">
          {t.items.map((claim) => (
            <li key={claim.label} className="rounded-2xl bg-slate-50 p-6 text-center">
              <p className="text-3xl font-extrabold tracking-tight text-brand-700">{claim.value}</p>
              <p className="mt-2 text-sm font-medium text-slate-700">{claim.label}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
