// The creator signup page, its own chunk beside the signed-in half (signed-in.tsx): a creator who
// has finished onboarding never loads its username and picture fields (issue 39).

import { withQueryClient } from './lib/with-query-client.tsx';
import { CreatorSignupPage } from './pages/CreatorSignupPage.tsx';

export { creatorSignupLoader } from './routes/loaders.ts';

export const SignedInCreatorSignup = withQueryClient(CreatorSignupPage);
