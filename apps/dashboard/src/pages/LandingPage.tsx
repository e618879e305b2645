import { DocumentTitle } from '../components/DocumentTitle.tsx';
import { ClaimsSection } from '../components/landing/ClaimsSection.tsx';
import { FaqSection } from '../components/landing/FaqSection.tsx';
import { FeaturesSection } from '../components/landing/FeaturesSection.tsx';
import { FinalCta } from '../components/landing/FinalCta.tsx';
import { Hero } from '../components/landing/Hero.tsx';
import { HowItWorks } from '../components/landing/HowItWorks.tsx';
import { LandingFooter } from '../components/landing/LandingFooter.tsx';
import { LandingHeader } from '../components/landing/LandingHeader.tsx';
import { PricingSection } from '../components/landing/PricingSection.tsx';
import { LANDING_TEXT } from '../components/landing/texts.ts';
import { TEXT } from '../texts.ts';

/** `/`: sells Fanpilot to creators; every call to action starts Google sign-in. */
export function LandingPage() {
  return (
    <div className="min-h-dvh bg-slate-50">
      <DocumentTitle text={`${TEXT.productName} — ${LANDING_TEXT.hero.eyebrow}`} />
      <LandingHeader />
      <main id="main">
        <Hero />
        <ClaimsSection />
        <HowItWorks />
        <FeaturesSection />
        <PricingSection />
        <FaqSection />
        <FinalCta />
      </main>
      <LandingFooter />
    </div>
  );
}
