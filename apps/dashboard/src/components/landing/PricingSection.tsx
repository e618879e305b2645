import { CheckIcon } from '../icons.tsx';
import { SignInButton } from './SignInButton.tsx';
import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.pricing;

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-heading" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h2 id="pricing-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {t.heading}
        </h2>
        <p className="mt-3 text-lg text-slate-600">{t.lead}</p>
      </div>
      <div className="mx-auto mt-10 max-w-md rounded-3xl border border-brand-200 bg-white p-8 shadow-xl shadow-brand-900/5">
        <h3 className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{t.planName}</h3>
        <p className="mt-4 flex items-baseline gap-2">
          <span className="text-5xl font-extrabold tracking-tight text-slate-900">{t.price}</span>{' '}
          <span className="text-lg text-slate-600">{t.priceUnit}</span>
        </p>
        <ul className="mt-6 space-y-3">
          {t.points.map((point) => (
            <li key={point} className="flex gap-3 text-slate-700">
              <CheckIcon className="mt-0.5 size-5 shrink-0 text-emerald-600" />
              {point}
            </li>
          ))}
        </ul>
        <SignInButton size="lg" className="mt-8 w-full">
          {t.cta}
        </SignInButton>
      </div>
    </section>
  );
}
