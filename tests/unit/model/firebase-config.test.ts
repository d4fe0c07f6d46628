import { describe, expect, it } from 'vitest';
import { demoFirebaseConfig, validateFirebaseConfig } from '../../../src/model/firebase-config.ts';
import { loadConfig } from '../../../src/start/config.ts';

const good = {
  apiKey: 'AIzaSyA-1_b2C3',
  projectId: 'my-project-42',
  messagingSenderId: '1234567890',
  appId: '1:1234567890:web:abc123def456',
};

describe('validateFirebaseConfig', () => {
  it('accepts a well-formed configuration and derives the auth domain', () => {
    expect(validateFirebaseConfig(good)).toEqual({ ...good, authDomain: 'my-project-42.firebaseapp.com' });
    expect(validateFirebaseConfig(demoFirebaseConfig()).projectId).toBe('demo-danglewatch');
  });

  it('lists every missing name', () => {
    expect(() => validateFirebaseConfig({ apiKey: 'abc', appId: good.appId })).toThrow(
      'Missing Firebase configuration: projectId, messagingSenderId',
    );
  });

  it.each([
    ['apiKey', 'key with spaces', 'Invalid Firebase API key format'],
    ['apiKey', 'key.dot', 'Invalid Firebase API key format'],
    ['projectId', 'My-Project', 'Invalid Firebase project ID format'],
    ['projectId', '1project', 'Invalid Firebase project ID format'],
    ['projectId', 'project-', 'Invalid Firebase project ID format'],
    ['appId', '1:123:ios:abc', 'Invalid Firebase app ID format'],
    ['appId', '1:123:web:XYZ', 'Invalid Firebase app ID format'],
    ['appId', '2:123:web:abc', 'Invalid Firebase app ID format'],
  ])('rejects %s %j', (field, value, message) => {
    expect(() => validateFirebaseConfig({ ...good, [field]: value })).toThrow(message);
  });
});

describe('loadConfig and Firebase', () => {
  it('runs without any Firebase variable (the emulator is used)', () => {
    const config = loadConfig({});
    expect(config.PUBLIC_FIREBASE_API_KEY).toBeUndefined();
    expect(config.AUTH_EMULATOR_PORT).toBe(9099);
  });

  it('names the missing environment variables of a partial configuration', () => {
    expect(() => loadConfig({ PUBLIC_FIREBASE_API_KEY: 'abc' })).toThrow(
      'Missing Firebase configuration: PUBLIC_FIREBASE_PROJECT_ID, PUBLIC_FIREBASE_MESSAGING_SENDER_ID, PUBLIC_FIREBASE_APP_ID',
    );
  });

  it('rejects a malformed value and a malformed emulator host', () => {
    expect(() =>
      loadConfig({
        PUBLIC_FIREBASE_API_KEY: 'abc',
        PUBLIC_FIREBASE_PROJECT_ID: 'Bad_Project',
        PUBLIC_FIREBASE_MESSAGING_SENDER_ID: '1',
        PUBLIC_FIREBASE_APP_ID: good.appId,
      }),
    ).toThrow('Invalid Firebase project ID format');
    expect(() => loadConfig({ FIREBASE_AUTH_EMULATOR_HOST: 'http://localhost' })).toThrow(
      'FIREBASE_AUTH_EMULATOR_HOST',
    );
  });
});
