/** A URL-safe username from a Google profile: the e-mail's local part, else the name. */
export function usernameBase(profile: { email?: string | undefined; name?: string | undefined }): string {
  const source = profile.email?.split('@')[0] || profile.name || 'creator';
  const slug = source
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30)
    .replace(/-+$/g, '');
  return RESERVED.has(slug) || slug.length < 2 ? `${slug || 'creator'}-fan`.replace(/^-/, '') : slug;
}

/** Names that would collide with routes or read as official. */
const RESERVED = new Set([
  'admin',
  'api',
  'auth',
  'dashboard',
  'pwa',
  'objects',
  'support',
  'fanpilot',
  'www',
  'help',
]);

/** The first free variant of base: base, base-2, base-3… */
export function firstFreeUsername(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((t) => t.toLowerCase()));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
