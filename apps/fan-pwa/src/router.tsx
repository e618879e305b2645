import { BrowserRouter, Route, Routes, useParams, useSearchParams } from 'react-router';
import { ChatScreen } from './chat/ChatScreen.tsx';
import { MessagePage } from './pages/MessagePage.tsx';
import { texts } from './texts.ts';

/**
 * A build-time fallback (VITE_DEFAULT_CREATOR) for a bare /fanchat-mobile. The api normally picks the
 * default creator at run time instead: it redirects a bare visit to ?creator=<username> (plugins/web.ts).
 */
const DEFAULT_CREATOR = (import.meta.env.VITE_DEFAULT_CREATOR ?? '').trim();

function PwaRoute() {
  const { username = '' } = useParams();
  return <ChatScreen key={username} username={username} />;
}

function MobileChatRoute() {
  const [search] = useSearchParams();
  const creator = (search.get('creator') ?? '').trim() || DEFAULT_CREATOR;
  if (!creator) return <MessagePage heading={texts.noCreatorHeading} text={texts.noCreatorText} />;
  return <ChatScreen key={creator} username={creator} />;
}

/**
 * The fan app's pages. React Router's declarative mode: the fan app uses no loaders or actions, and
 * the data router's code was the largest part of the first screen after React itself (about 17 KB
 * of ~114 KB gzipped; docs/decisions/0015-one-owner-for-each-rule.md).
 */
export function AppRoutes() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/pwa/:username" element={<PwaRoute />} />
        <Route path="/fanchat-mobile" element={<MobileChatRoute />} />
        <Route path="/mobile-chat" element={<MobileChatRoute />} />
        <Route path="*" element={<MessagePage heading={texts.notFoundHeading} text={texts.notFoundText} />} />
      </Routes>
    </BrowserRouter>
  );
}
