/**
 * Every `error` code the api answers with (issue 35): a closed union clients switch on. A refusal
 * made by packages/core (DomainError) or by the api's edge (HttpError) must carry one of these, so a
 * new code is added here first and a client that branches on codes is checked by the compiler. The
 * `message` beside it is for people and may change; the code may not.
 *
 * This module loads no zod: the web apps' client (client.ts) imports it, and the fan app's first
 * screen and the website widget's chat frame keep zod out. The body's schema is in error-body.ts.
 */
export const errorCodes = [
  // generic refusals, by status
  'bad_request',
  'validation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'internal_error',
  'service_unavailable',
  // transport and framework
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_url',
  'uri_too_long',
  'too_deep',
  'invalid_text',
  'bad_origin',
  'bad_signature',
  'invalid_signature',
  'range_not_satisfiable',
  'too_many_streams',
  'not_supported',
  'payment_provider_error',
  'model_unavailable',
  // uploads and files
  'invalid_upload',
  'invalid_upload_url',
  'upload_not_found',
  'invalid_parts',
  'no_file',
  'not_a_file',
  'unsupported_file',
  'file_too_large',
  'image_too_large',
  'invalid_image_size',
  'not_an_image',
  'invalid_attachment',
  'unsupported_attachment',
  'attachment_too_large',
  // knowledge
  'invalid_youtube_url',
  'already_added',
  'too_many_sources',
  'in_progress',
  'not_failed',
  'not_resyncable',
  'no_open_gaps',
  'download_not_allowed',
  'link_expired',
  'link_revoked',
  // conversations
  'invalid_input',
  'bad_cursor',
  'no_conversation',
  'not_a_fan_message',
  'already_answered',
  'draft_sent',
  'too_many_corrections',
  'too_many_templates',
  'site_not_allowed',
  // accounts, alerts, push
  'invalid_username',
  'username_taken',
  'invalid_time_zone',
  'invalid_unsubscribe_link',
  'invalid_subscription',
  'push_endpoint_not_allowed',
  'mail_off',
  // billing and fan plans
  'no_credits',
  'billing_disabled',
  'unknown_pack',
  'idempotency_key_reused',
  'payments_off',
  'payouts_need_reconnecting',
  'plan_off',
  'invalid_plan',
  'no_yearly_price',
  'already_subscribed',
  'subscription_unknown',
  'restore_expired',
  'restore_used',
  'transfer_used',
  'transfer_expired',
  'transfer_stale',
  'not_yet',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

const CODES: ReadonlySet<string> = new Set(errorCodes);
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && CODES.has(value);

/** Sign-in redirect codes: /?error=<code> (docs/product.md#signing-in). */
export const LOGIN_ERROR_CODES = [
  'google_oauth_error',
  'oauth_callback_failed',
  'no_user_returned',
  'login_failed',
] as const;
export type LoginErrorCode = (typeof LOGIN_ERROR_CODES)[number];
