import { Button, type ButtonProps } from '@fanpilot/ui';
import { startSignIn } from '../../lib/sign-in.ts';

/** Starts Google sign-in (docs/product.md#landing-page: Start Building and Start Free Trial both do, and so do the page's other calls to action). */
export function SignInButton(props: Omit<ButtonProps, 'onClick'>) {
  return <Button {...props} onClick={() => startSignIn()} />;
}
