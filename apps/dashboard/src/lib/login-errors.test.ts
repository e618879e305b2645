import { describe, expect, it } from 'vitest';
import { loginErrorMessage, loginErrorToast } from './login-errors.ts';

describe('loginErrorMessage', () => {
  it.each([
    ['google_oauth_error', 'Google 로그인 중 오류가 발생했습니다.'],
    ['oauth_callback_failed', 'OAuth 콜백 처리 중 오류가 발생했습니다.'],
    ['no_user_returned', '사용자 정보를 받아오지 못했습니다.'],
    ['login_failed', '로그인 처리 중 오류가 발생했습니다.'],
  ])('maps %s to its Korean message', (code, message) => {
    expect(loginErrorMessage(code)).toBe(message);
  });

  it('gives the generic login error for any other code', () => {
    expect(loginErrorMessage('something_else')).toBe('로그인 중 오류가 발생했습니다.');
    expect(loginErrorMessage('toString')).toBe('로그인 중 오류가 발생했습니다.');
  });
});

describe('loginErrorToast', () => {
  it('titles the toast "Login error" in Korean and appends the details', () => {
    const toast = loginErrorToast(new URLSearchParams('error=google_oauth_error&details=access_denied'));
    expect(toast).toEqual({
      title: '로그인 오류',
      description: 'Google 로그인 중 오류가 발생했습니다. (access_denied)',
    });
  });

  it('shows the message alone without details', () => {
    expect(loginErrorToast(new URLSearchParams('error=login_failed'))?.description).toBe(
      '로그인 처리 중 오류가 발생했습니다.',
    );
  });

  it('is null when the address carries no error', () => {
    expect(loginErrorToast(new URLSearchParams('details=x'))).toBeNull();
  });
});
