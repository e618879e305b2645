import { BookIcon, ChatIcon, MegaphoneIcon, ToggleIcon } from '../icons.tsx';
import { LANDING_TEXT } from './texts.ts';

const t = LANDING_TEXT.features;
const icons = [ToggleIcon, ChatIcon, MegaphoneIcon, BookIcon];

export function FeaturesSection() {
  return (
    <section aria-labelledby="features-heading" className="bg-slate-900 text-white">
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <h2 id="features-heading" className="max-w-2xl text-3xl font-bold tracking-tight sm:text-4xl">
          {t.heading}
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2">
          {t.items.map((feature, index) => {
            const FeatureIcon = icons[index] ?? ChatIcon;
            return (
              <li key={feature.title} className="rounded-2xl bg-white/5 p-6 ring-1 ring-white/10">
                <span className="flex size-10 items-center justify-center rounded-xl bg-brand-500/20 text-brand-200">
                  <FeatureIcon />
                </span>
                <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
                <p className="mt-2 text-slate-300">{feature.body}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
