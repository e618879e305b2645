import { Outlet, ScrollRestoration } from 'react-router';
import { SkipLink } from './SkipLink.tsx';

export function RootLayout() {
  return (
    <>
      <SkipLink />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
