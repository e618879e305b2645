import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { OAuth2Server } from 'oauth2-mock-server';
import { guardMultipartCompletion } from './s3rver-guard.ts';

/** Loopback stand-ins for the outside parts, used when nothing is configured (docs/product.md#differences-from-the-original-specification: embedded defaults). */

export interface LocalIdentity {
  sub: string;
  name: string;
  email: string;
  picture?: string;
}

export const LOCAL_CREATOR: LocalIdentity = {
  sub: 'local-creator',
  name: 'Local Creator',
  email: 'creator@localhost',
};

export interface LocalOidc {
  issuer: string;
  /** Changes who the next sign-in is (tests sign in several creators). */
  setIdentity: (identity: LocalIdentity) => void;
  stop: () => Promise<void>;
  /** The provider itself, for tests that make it misbehave. */
  server: OAuth2Server;
}

export async function startLocalOidc(identity: LocalIdentity = LOCAL_CREATOR): Promise<LocalOidc> {
  let current = identity;
  // Loaded only here: a server on real configuration never loads the stand-ins.
  const { Events, OAuth2Server } = await import('oauth2-mock-server');
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  server.service.on(Events.BeforeTokenSigning, (token) => {
    Object.assign(token.payload, {
      sub: current.sub,
      name: current.name,
      email: current.email,
      email_verified: true,
    });
  });
  server.service.on(Events.BeforeUserinfo, (response) => {
    response.body = { ...current, email_verified: true };
  });
  await server.start(0, '127.0.0.1');
  return {
    issuer: server.issuer.url!,
    setIdentity: (next) => {
      current = next;
    },
    stop: () => server.stop(),
    server,
  };
}

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop: () => Promise<void>;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Browsers may PUT, POST and GET only from these origins (the product's own), never from `*`. */
function corsConfig(origins: readonly string[]) {
  return `<CORSConfiguration>
  <CORSRule>
${origins.map((o) => `    <AllowedOrigin>${escapeXml(o)}</AllowedOrigin>`).join('\n')}
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>DELETE</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;
}

/**
 * The embedded object store (s3rver) on loopback: for one machine only. `allowedOrigins` are the
 * pages allowed to send it browser requests (the product's own origin); none: no browser at all.
 */
export async function startLocalS3(options: {
  directory: string;
  bucket: string;
  port?: number;
  allowedOrigins?: readonly string[];
}): Promise<LocalS3> {
  const origins = (options.allowedOrigins ?? []).filter((o) => o !== '*');
  const directory = path.resolve(options.directory);
  mkdirSync(directory, { recursive: true });
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    configureBuckets: [{ name: options.bucket, configs: origins.length > 0 ? [corsConfig(origins)] : [] }],
  });
  guardMultipartCompletion(server);
  const { address, port } = (await server.run()) as { address: string; port: number };
  return {
    endpoint: `http://${address}:${port}`,
    bucket: options.bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    stop: () => server.close(),
  };
}
