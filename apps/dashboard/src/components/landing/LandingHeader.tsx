import { TEXT } from '../../texts.ts';
import { Logo } from '../Logo.tsx';
import { SignInButton } from './SignInButton.tsx';
import { LANDING_TEXT } from './texts.ts';

const links = [
  { href: '#how-it-works', label: LANDING_TEXT.nav.howItWorks },
  { href: '#pricing', label: LANDING_TEXT.nav.pricing },
  { href: '#faq', label: LANDING_TEXT.nav.faq },
];

export function LandingHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/85 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <a href="/" className="rounded-lg" aria-label={TEXT.productName}>
          <Logo />
        </a>
        <nav aria-label={LANDING_TEXT.nav.label} className="hidden md:block">
          <ul className="flex items-center gap-1">
            {links.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <SignInButton variant="secondary" size="sm">
          {LANDING_TEXT.nav.signIn}
        </SignInButton>
      </div>
    </header>
  );
}
