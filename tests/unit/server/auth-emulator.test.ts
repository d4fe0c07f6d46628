import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startAuthEmulator } from '../../../src/server/auth/emulator.ts';

describe('startAuthEmulator', () => {
  it('refuses a port that is already taken instead of mistaking another server for its emulator', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(startAuthEmulator({ port, projectId: 'demo-danglewatch' })).rejects.toThrow(
        `Port ${port} is in use`,
      );
    } finally {
      blocker.close();
    }
  });
});
