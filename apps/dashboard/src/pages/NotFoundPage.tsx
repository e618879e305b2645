import { buttonClasses } from '@fanpilot/ui';
import { Link } from 'react-router';
import { DocumentTitle } from '../components/DocumentTitle.tsx';
import { TEXT } from '../texts.ts';

export function NotFoundPage() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center bg-slate-50 p-6">
      <DocumentTitle text={`${TEXT.notFound.heading} · ${TEXT.productName}`} />
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">{TEXT.notFound.heading}</h1>
        <p className="mt-3 text-slate-600">{TEXT.notFound.body}</p>
        <Link to="/" className={buttonClasses('secondary', 'md', 'mt-6')}>
          {TEXT.notFound.home}
        </Link>
      </div>
    </main>
  );
}
