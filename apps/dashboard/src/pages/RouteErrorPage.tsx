import { buttonClasses } from '@fanpilot/ui';
import { useRouteError } from 'react-router';
import { DocumentTitle } from '../components/DocumentTitle.tsx';
import { TEXT } from '../texts.ts';

/** A loader or page failed in a way nobody planned for (e.g. the api is down). */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <main
      id="main"
      className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <DocumentTitle text={`${TEXT.common.somethingWentWrong} · ${TEXT.productName}`} />
      <h1 className="text-2xl font-bold">{TEXT.common.somethingWentWrong}</h1>
      <p className="text-slate-600">{TEXT.common.reloadHint}</p>
      <button type="button" className={buttonClasses()} onClick={() => window.location.reload()}>
        {TEXT.common.reload}
      </button>
    </main>
  );
}
