import { ChatScreen } from './chat/ChatScreen.tsx';
import { fanPageFor } from './lib/page-route.ts';
import { MessagePage } from './pages/MessagePage.tsx';
import { texts } from './texts.ts';

/**
 * A build-time fallback (VITE_DEFAULT_CREATOR) for a bare /fanchat-mobile. The api normally picks the
 * default creator at run time instead: it redirects a bare visit to ?creator=<username> (plugins/web.ts).
 */
const DEFAULT_CREATOR = (import.meta.env.VITE_DEFAULT_CREATOR ?? '').trim();

/**
 * The fan app's pages, chosen by the address once (lib/page-route.ts). No router library: the app
 * never navigates within itself, and React Router needs React itself where the app runs on
 * preact/compat (docs/decisions/0082-…; before, 0015 had already dropped its data router).
 */
export function AppRoutes() {
  const page = fanPageFor(window.location.pathname, window.location.search, DEFAULT_CREATOR);
  if (page.kind === 'chat') return <ChatScreen key={page.username} username={page.username} />;
  if (page.kind === 'noCreator')
    return <MessagePage heading={texts.noCreatorHeading} text={texts.noCreatorText} />;
  return <MessagePage heading={texts.notFoundHeading} text={texts.notFoundText} />;
}
