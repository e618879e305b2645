import { TEXT } from '../texts.ts';

/** The Fanpilot mark and name. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" className={inverted ? 'fill-white' : 'fill-brand-600'} />
        <path
          d="M9 23V9h13v3.2h-9.3v2.6h8v3.1h-8V23z"
          className={inverted ? 'fill-brand-700' : 'fill-white'}
        />
      </svg>
      <span className={`text-lg font-bold tracking-tight ${inverted ? 'text-white' : 'text-slate-900'}`}>
        {TEXT.productName}
      </span>
    </span>
  );
}
