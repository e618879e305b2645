import { RouterProvider } from 'react-router';
import { router } from './router.tsx';

/** Every page but a signed-out visit to `/`: the client-side router (router.tsx). */
export function App() {
  return <RouterProvider router={router} />;
}
