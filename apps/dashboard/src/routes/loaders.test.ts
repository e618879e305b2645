import type { CurrentUser } from '@fanpilot/contracts';
import { getToastSnapshot } from '@fanpilot/ui';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../lib/query-client.ts';
import { creatorSignupLoader, dashboardLoader, landingLoader } from './loaders.ts';

const creator: CurrentUser = {
  id: 'c1',
  name: 'Local Creator',
  username: 'creator',
  email: 'creator@localhost',
  profileImageUrl: null,
  onboardingComplete: true,
};

function signedInAs(user: CurrentUser | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      user
        ? new Response(JSON.stringify(user), { status: 200 })
        : new Response('{"error":"unauthorized","message":"Please sign in to continue."}', { status: 401 }),
    ),
  );
}

const args = (path: string, params: Record<string, string> = {}) =>
  ({
    request: new Request(`http://localhost${path}`),
    params,
    context: undefined,
  }) as unknown as LoaderFunctionArgs;

/** Runs a loader and answers where it sends the browser (null when it renders). */
async function destination(run: () => Promise<unknown>): Promise<string | null> {
  try {
    const result = await run();
    return result instanceof Response ? result.headers.get('Location') : null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

beforeEach(() => queryClient.clear());
afterEach(() => vi.unstubAllGlobals());

describe('landingLoader', () => {
  it('shows a sign-in error as a Korean toast and clears the query string', async () => {
    signedInAs(null);
    expect(await destination(() => landingLoader(args('/?error=no_user_returned&details=x')))).toBe('/');
    expect(getToastSnapshot()).toMatchObject({
      title: '로그인 오류',
      description: '사용자 정보를 받아오지 못했습니다. (x)',
    });
  });

  it('lets signed-out visitors see the page', async () => {
    signedInAs(null);
    expect(await destination(() => landingLoader(args('/')))).toBeNull();
  });

  it('sends onboarded creators to their dashboard and others to the signup page', async () => {
    signedInAs(creator);
    expect(await destination(() => landingLoader(args('/')))).toBe('/dashboard/creator');
    queryClient.clear();
    signedInAs({ ...creator, onboardingComplete: false });
    expect(await destination(() => landingLoader(args('/')))).toBe('/creator-signup');
  });
});

describe('creatorSignupLoader', () => {
  it('sends signed-out visitors home with Authentication Required', async () => {
    signedInAs(null);
    expect(await destination(() => creatorSignupLoader())).toBe('/');
    expect(getToastSnapshot()).toMatchObject({
      title: 'Authentication Required',
      description: 'Please sign in to continue with chatbot creation.',
    });
  });

  it('sends an onboarded creator to the dashboard', async () => {
    signedInAs(creator);
    expect(await destination(() => creatorSignupLoader())).toBe('/dashboard/creator');
  });
});

describe('dashboardLoader', () => {
  it('renders for the creator’s own username', async () => {
    signedInAs(creator);
    expect(
      await destination(() => dashboardLoader(args('/dashboard/creator', { username: 'creator' }))),
    ).toBeNull();
  });

  it('leads to the creator’s own username, keeping /admin or /dashboard', async () => {
    signedInAs(creator);
    expect(await destination(() => dashboardLoader(args('/admin/someone', { username: 'someone' })))).toBe(
      '/admin/creator',
    );
    expect(await destination(() => dashboardLoader(args('/dashboard')))).toBe('/dashboard/creator');
  });

  it('sends signed-out visitors home and creators who are not onboarded to the signup page', async () => {
    signedInAs(null);
    expect(
      await destination(() => dashboardLoader(args('/dashboard/creator', { username: 'creator' }))),
    ).toBe('/');
    queryClient.clear();
    signedInAs({ ...creator, onboardingComplete: false });
    expect(
      await destination(() => dashboardLoader(args('/dashboard/creator', { username: 'creator' }))),
    ).toBe('/creator-signup');
  });
});
