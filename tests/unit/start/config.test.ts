import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proofsOff } from '../../../src/scanner/proof/settings.ts';
import { authExposure, loadConfig } from '../../../src/start/config.ts';
import { engineSettings } from '../../../src/start/engine-settings.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(4321);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ PUBLIC_API_BASE: 'not a url' }, 'PUBLIC_API_BASE'],
    // Below the heartbeat's few seconds, live scans would be taken back from their workers.
    [{ SCAN_STALE_SECONDS: '2' }, 'SCAN_STALE_SECONDS'],
    [{ SCAN_REAP_INTERVAL_SECONDS: '0' }, 'SCAN_REAP_INTERVAL_SECONDS'],
    [{ AUTH_TOKEN_CACHE_SECONDS: '3600' }, 'AUTH_TOKEN_CACHE_SECONDS'],
  ])('names the malformed variable in %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('reads Stripe: keys, the price of each plan sold, a Stripe-compatible API', () => {
    const config = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PRICES: ' intro=price_1AbC , pro-solo=price_9Z ',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(config.STRIPE_PRICES).toEqual({ intro: 'price_1AbC', 'pro-solo': 'price_9Z' });
    expect(config.STRIPE_API_URL).toBe('http://127.0.0.1:12111');
    expect(loadConfig({}).STRIPE_SECRET_KEY).toBeUndefined();
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'pk_test_public' }, 'STRIPE_SECRET_KEY: must be a Stripe secret or restricted key'],
    [{ STRIPE_WEBHOOK_SECRET: 'secret' }, 'STRIPE_WEBHOOK_SECRET: must be a Stripe signing secret'],
    [{ STRIPE_PRICES: 'free=price_1' }, "STRIPE_PRICES: 'free=price_1' must be <paid plan>=price_…"],
    [{ STRIPE_PRICES: 'gold=price_1' }, "STRIPE_PRICES: 'gold=price_1' must be"],
    [{ STRIPE_PRICES: 'intro=prod_1' }, "STRIPE_PRICES: 'intro=prod_1' must be"],
    [{ STRIPE_PRICES: 'intro' }, "STRIPE_PRICES: 'intro' must be"],
  ])('names the malformed Stripe setting in %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('DEFAULT_PLAN: the plan every workspace has on a server that sells none', () => {
  it('is the largest plan without billing, whatever DEFAULT_PLAN names otherwise; free keeps each its own', () => {
    expect(loadConfig({}).serverPlan).toBe('pro-solo');
    expect(loadConfig({ DEFAULT_PLAN: 'intro' }).serverPlan).toBe('intro');
    expect(loadConfig({ DEFAULT_PLAN: 'free' }).serverPlan).toBeNull();
  });

  it('a server that bills starts workspaces on Free, and refuses any other DEFAULT_PLAN by name', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' }).serverPlan).toBeNull();
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', DEFAULT_PLAN: 'free' }).serverPlan).toBeNull();
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', DEFAULT_PLAN: 'pro-solo' })).toThrow(
      'DEFAULT_PLAN: refused with STRIPE_SECRET_KEY set: a server that bills starts every workspace on free, not pro-solo',
    );
  });

  it('names the plans it takes when given one that does not exist', () => {
    expect(() => loadConfig({ DEFAULT_PLAN: 'gold' })).toThrow(
      'DEFAULT_PLAN: must be one of free, intro, intro-plus, solo-starter, solo, pro-solo',
    );
  });
});

describe('regression: emulator mode must never face the network', () => {
  it.each([
    [{}, 'ok'],
    [{ HOST: 'localhost' }, 'ok'],
    [{ HOST: '127.0.0.2' }, 'ok'],
    [{ HOST: '::1' }, 'ok'],
    [{ HOST: '0.0.0.0' }, 'refuse'],
    [{ HOST: '::' }, 'refuse'],
    [{ HOST: '192.168.1.10' }, 'refuse'],
    [{ NODE_ENV: 'production' }, 'refuse'],
    [{ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', HOST: '0.0.0.0' }, 'refuse'],
    [{ HOST: '0.0.0.0', ALLOW_AUTH_EMULATOR_ON_NETWORK: 'true' }, 'warn'],
    [{ NODE_ENV: 'production', ALLOW_AUTH_EMULATOR_ON_NETWORK: '1' }, 'warn'],
  ])('%o → %s', (env, verdict) => {
    expect(authExposure(loadConfig(env)).verdict).toBe(verdict);
  });

  it('says what to configure when it refuses', () => {
    const { message } = authExposure(loadConfig({ HOST: '0.0.0.0' }));
    expect(message).toContain('HOST is 0.0.0.0');
    expect(message).toContain('PUBLIC_FIREBASE_API_KEY');
    expect(message).toContain('ALLOW_AUTH_EMULATOR_ON_NETWORK');
  });

  it('lets a real Firebase project listen anywhere, in production', () => {
    const real = {
      PUBLIC_FIREBASE_API_KEY: 'AIzaSyA-real_key-1234567890abcdefghijk',
      PUBLIC_FIREBASE_PROJECT_ID: 'my-project',
      PUBLIC_FIREBASE_MESSAGING_SENDER_ID: '1234567890',
      PUBLIC_FIREBASE_APP_ID: '1:1234567890:web:abcdef0123456789',
    };
    expect(authExposure(loadConfig({ ...real, HOST: '0.0.0.0', NODE_ENV: 'production' })).verdict).toBe('ok');
  });

  it('startServer refuses before it opens anything', async () => {
    const { startServer } = await import('../../../src/start/server.ts');
    const dataDir = await mkdtemp(join(tmpdir(), 'dw-refuse-'));
    await expect(
      startServer(loadConfig({ HOST: '0.0.0.0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' })),
    ).rejects.toThrow(/Refusing to start/);
    expect(await readdir(dataDir)).toEqual([]);
  });
});

describe('processes apart (serve --no-worker, worker)', () => {
  it('neither starts on the embedded database, which one process holds, and neither opens it', async () => {
    const { startServer, API_ONLY_NEEDS_POSTGRES } = await import('../../../src/start/server.ts');
    const { startWorkerProcess, WORKER_NEEDS_POSTGRES } = await import('../../../src/start/worker.ts');
    const dataDir = await mkdtemp(join(tmpdir(), 'dw-apart-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    await expect(startServer(config, { worker: false })).rejects.toThrow(API_ONLY_NEEDS_POSTGRES);
    await expect(startWorkerProcess(config)).rejects.toThrow(WORKER_NEEDS_POSTGRES);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('reads the reaper timings, with the defaults of src/core/scans/reaper.ts', () => {
    expect(loadConfig({})).toMatchObject({ SCAN_STALE_SECONDS: 90, SCAN_REAP_INTERVAL_SECONDS: 60 });
    expect(loadConfig({ SCAN_STALE_SECONDS: '6', SCAN_REAP_INTERVAL_SECONDS: '1' })).toMatchObject({
      SCAN_STALE_SECONDS: 6,
      SCAN_REAP_INTERVAL_SECONDS: 1,
    });
  });
});

describe('the scan engine settings', () => {
  it('reads resolvers, CT, Cert Spotter and RDAP endpoints', () => {
    const config = loadConfig({
      SCAN_RESOLVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53',
      CT_URL: 'http://127.0.0.1:9000/crtsh',
      RDAP_URL: 'http://127.0.0.1:9000/rdap',
    });
    expect(config.SCAN_RESOLVERS).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53']);
    expect(config.CT_URL).toBe('http://127.0.0.1:9000/crtsh');
    expect(config.SCAN_ALLOW_PRIVATE).toBe(false);
  });

  it.each([
    [{ SCAN_RESOLVERS: '1.1.1.1;8.8.8.8' }, 'SCAN_RESOLVERS'],
    [{ CT_URL: 'crt.sh' }, 'CT_URL'],
    [{ SCAN_ALLOW_PRIVATE: 'sometimes' }, 'SCAN_ALLOW_PRIVATE'],
  ])('names the malformed variable in %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('refuses SCAN_ALLOW_PRIVATE in production', () => {
    expect(loadConfig({ SCAN_ALLOW_PRIVATE: '1' }).SCAN_ALLOW_PRIVATE).toBe(true);
    expect(() => loadConfig({ SCAN_ALLOW_PRIVATE: '1', NODE_ENV: 'production' })).toThrow(
      /SCAN_ALLOW_PRIVATE: refused with NODE_ENV=production/,
    );
  });
});

describe('the proof checks settings', () => {
  const azure = {
    AZURE_PROBE_TENANT_ID: 'tenant',
    AZURE_PROBE_CLIENT_ID: 'client',
    AZURE_PROBE_CLIENT_SECRET: 'secret',
    AZURE_PROBE_SUBSCRIPTION_ID: 'subscription',
  };

  it('without credentials the anonymous checks run and the others are off', () => {
    const proof = engineSettings(loadConfig({})).proof;
    expect(proof?.aws).toBeUndefined();
    expect(proof?.azureManagementUrl).toBe('https://management.azure.com');
    expect(proofsOff(proof)).toEqual(expect.arrayContaining(['elastic-beanstalk', 'azure-app-service']));
  });

  it('reads the AWS key, the Azure application and the base URLs once, at start-up', () => {
    const proof = engineSettings(
      loadConfig({
        ...azure,
        AWS_PROBE_ACCESS_KEY_ID: 'AKIAPROBE00000000001',
        AWS_PROBE_SECRET_ACCESS_KEY: 'secret',
        AWS_ELASTICBEANSTALK_ENDPOINT: 'http://127.0.0.1:9000/eb/',
        AZURE_MANAGEMENT_URL: 'http://127.0.0.1:9000/arm',
        AZURE_LOGIN_URL: 'http://127.0.0.1:9000/login',
      }),
    ).proof;
    expect(proof?.aws).toEqual({ accessKeyId: 'AKIAPROBE00000000001', secretAccessKey: 'secret' });
    expect(proof?.azure?.subscriptionId).toBe('subscription');
    expect(proof?.awsElasticBeanstalkEndpoint).toBe('http://127.0.0.1:9000/eb');
    expect(proof?.azureLoginUrl).toBe('http://127.0.0.1:9000/login');
    expect(proofsOff(proof)).toEqual([]);
  });

  it.each([
    [{ AWS_PROBE_ACCESS_KEY_ID: 'AKIAPROBE00000000001' }, 'AWS_PROBE_SECRET_ACCESS_KEY'],
    [{ AWS_PROBE_ACCESS_KEY_ID: 'not a key', AWS_PROBE_SECRET_ACCESS_KEY: 'x' }, 'AWS_PROBE_ACCESS_KEY_ID'],
    [{ ...azure, AZURE_PROBE_CLIENT_SECRET: '', AZURE_PROBE_CLIENT_ID: undefined }, 'AZURE_PROBE_CLIENT_ID'],
    [{ AZURE_MANAGEMENT_URL: 'management.azure.com' }, 'AZURE_MANAGEMENT_URL'],
  ])('names the missing or malformed variable in %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(name);
  });
});
