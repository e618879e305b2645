import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectionsShape, EnvError, hostList, parseEnv, storageSettings, storageShape } from './index.ts';

const schema = z.object({ ...connectionsShape(true), ...storageShape });

describe('parseEnv', () => {
  it('names every bad variable of every schema in one error', () => {
    const other = z.object({ LIMIT: z.coerce.number().int() });
    let error: unknown;
    try {
      parseEnv({ DATABASE_URL: 'mysql://x', LIMIT: 'many' }, schema, other);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message.split('\n')[0]).toBe('Invalid environment configuration:');
    expect(message).toContain('  DATABASE_URL: must be a postgres:// URL');
    expect(message).toContain('  REDIS_URL: is required (redis://…)');
    expect(message).toContain('  LIMIT:');
  });

  it('treats blank values as unset and applies defaults', () => {
    const [env] = parseEnv(
      { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:6379', S3_BUCKET: '  ' },
      schema,
    );
    expect(env.S3_BUCKET).toBe('fanpilot');
    expect(env.S3_REGION).toBe('us-east-1');
  });

  it('wants the key pair with an S3 endpoint', () => {
    expect(() =>
      parseEnv(
        { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r', S3_ENDPOINT: 'http://minio:9000' },
        schema,
      ),
    ).toThrow('S3_ACCESS_KEY_ID: required (with S3_SECRET_ACCESS_KEY) when S3_ENDPOINT is set');
  });
});

describe('shared settings', () => {
  it('reads host lists and the store settings', () => {
    expect(hostList.parse(' A.example, ,b.example ')).toEqual(['a.example', 'b.example']);
    expect(hostList.parse(undefined)).toEqual([]);
    const [env] = parseEnv(
      {
        DATABASE_URL: 'postgres://db/x',
        REDIS_URL: 'redis://r',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      },
      schema,
    );
    expect(storageSettings(env)).toMatchObject({
      endpoint: 'http://minio:9000',
      publicEndpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
  });
});
