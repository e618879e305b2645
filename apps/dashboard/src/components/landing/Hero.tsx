import { ChatPreview } from './ChatPreview.tsx';
import { SignInButton } from './SignInButton.tsx';
import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.hero;

export function Hero() {
  return (
    <section
      aria-labelledby="hero-heading"
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-16 sm:px-6 lg:grid-cols-2 lg:gap-16 lg:pt-24 lg:pb-24">
        <div>
          <p className="inline-flex items-center rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-700">
            {t.eyebrow}
          </p>
          <h1
            id="hero-heading"
            className="mt-5 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl"
          >
            {t.title}
          </h1>
          <p className="mt-5 max-w-xl text-lg text-pretty text-slate-600">{t.lead}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <SignInButton size="lg">{t.startBuilding}</SignInButton>
            <SignInButton size="lg" variant="secondary">
              {t.startFreeTrial}
            </SignInButton>
          </div>
          <p className="mt-4 text-sm text-slate-600">{t.signInNote}</p>
        </div>
        <ChatPreview />
      </div>
    </section>
  );
}
