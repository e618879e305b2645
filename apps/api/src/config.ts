import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { storageSettings } from '@fanpilot/config';
import type { StorageConfig } from '@fanpilot/storage';
import { type LocalOidc, type LocalS3, startLocalOidc, startLocalS3 } from './embedded.ts';
import type { Env } from './env.ts';

/** What the app runs against, once the embedded defaults have filled the gaps in Env. */
export interface RuntimeConfig {
  env: Env;
  publicOrigin: string;
  sessionSecret: string;
  oauth: { issuer: string; clientId: string; clientSecret: string; local: boolean };
  s3: StorageConfig;

  /** Stops whatever embedded servers were started. */
  stopEmbedded: () => Promise<void>;
  localOidc?: LocalOidc;
}

/** A stable secret under DATA_DIR so sessions survive restarts when SESSION_SECRET is unset (local use). */
function localSessionSecret(dataDir: string): string {
  const file = path.resolve(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

export async function resolveConfig(env: Env, options: { listenPort: number }): Promise<RuntimeConfig> {
  const stops: (() => Promise<void>)[] = [];
  let localOidc: LocalOidc | undefined;
  let oauth: RuntimeConfig['oauth'];
  if (env.GOOGLE_CLIENT_ID) {
    oauth = {
      issuer: env.OAUTH_ISSUER,
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET ?? '',
      local: false,
    };
  } else {
    // loadEnv refuses production without GOOGLE_CLIENT_ID; this keeps the stand-in out of it even
    // for an Env built some other way.
    if (env.NODE_ENV === 'production') {
      throw new Error(
        'GOOGLE_CLIENT_ID: required when NODE_ENV=production (the local sign-in stand-in never runs in production)',
      );
    }
    localOidc = await startLocalOidc();
    stops.push(localOidc.stop);
    oauth = {
      issuer: localOidc.issuer,
      clientId: 'fanpilot-local',
      clientSecret: 'fanpilot-local',
      local: true,
    };
  }

  const publicOrigin = env.PUBLIC_ORIGIN ?? `http://localhost:${options.listenPort}`;
  let s3: RuntimeConfig['s3'];
  if (env.S3_ENDPOINT || env.S3_ACCESS_KEY_ID) {
    s3 = storageSettings(env);
  } else {
    const local: LocalS3 = await startLocalS3({
      directory: path.join(env.DATA_DIR, 's3'),
      bucket: env.S3_BUCKET,
      // Browsers send uploads to it only from the product's pages (without PUBLIC_ORIGIN, the
      // server answers on localhost and 127.0.0.1 alike).
      allowedOrigins: env.PUBLIC_ORIGIN
        ? [publicOrigin]
        : [publicOrigin, `http://127.0.0.1:${options.listenPort}`],
    });
    stops.push(local.stop);
    s3 = {
      endpoint: local.endpoint,
      publicEndpoint: local.endpoint,
      region: env.S3_REGION,
      bucket: local.bucket,
      accessKeyId: local.accessKeyId,
      secretAccessKey: local.secretAccessKey,
      forcePathStyle: true,
    };
  }

  return {
    env,
    publicOrigin,
    sessionSecret: env.SESSION_SECRET ?? localSessionSecret(env.DATA_DIR),
    oauth,
    s3,
    localOidc,
    stopEmbedded: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    },
  };
}
