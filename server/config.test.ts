import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.seedDemo).toBe(true);
    expect(config.admin).toBeUndefined();
    expect(config.s3).toBeUndefined();
  });

  it('refuses a bad PORT with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT must be a whole number between 0 and 65535/);
  });

  it('refuses a DATABASE_URL that is not PostgreSQL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/db' })).toThrow(/DATABASE_URL must start with postgres/);
  });

  it('needs ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'owner@example.com' })).toThrow(/must be set together/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long enough pw' })).toThrow(/ADMIN_EMAIL must be an email/);
    expect(loadConfig({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'long enough pw' }).admin).toEqual({
      email: 'owner@example.com',
      password: 'long enough pw',
    });
  });

  it('turns the demo catalogue off only with SEED_DEMO=0 or false', () => {
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(ConfigError);
  });

  it('configures S3 storage when S3_BUCKET is set', () => {
    const config = loadConfig({ S3_BUCKET: 'uploads', S3_ENDPOINT: 'http://127.0.0.1:4569', S3_FORCE_PATH_STYLE: '1' });
    expect(config.s3).toMatchObject({ bucket: 'uploads', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true });
  });
});
