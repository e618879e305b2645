import { SignInButton } from './SignInButton.tsx';
import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.finalCta;

export function FinalCta() {
  return (
    <section aria-labelledby="final-cta-heading" className="bg-brand-700">
      <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id="final-cta-heading" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            {t.heading}
          </h2>
          <p className="mt-2 text-brand-100">{t.lead}</p>
        </div>
        <SignInButton size="lg" variant="secondary" className="border-white">
          {t.cta}
        </SignInButton>
      </div>
    </section>
  );
}
