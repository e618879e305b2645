import { Logo } from '../Logo.tsx';
import { LANDING_TEXT } from './texts.ts';

export function LandingFooter() {
  return (
    <footer className="bg-slate-950">
      <div className="mx-auto flex max-w-6xl flex-col items-start justify-between gap-4 px-4 py-10 sm:flex-row sm:items-center sm:px-6">
        <Logo inverted />
        <p className="text-sm text-slate-400">{LANDING_TEXT.footer}</p>
      </div>
    </footer>
  );
}
