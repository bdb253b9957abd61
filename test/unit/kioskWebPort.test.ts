import { afterEach, describe, expect, it, vi } from 'vitest';

/** The renderer's Vite config as `npm run kiosk:web` would load it with this environment. */
async function configWith(port: string | undefined) {
  vi.stubEnv('KIOSK_WEB_PORT', port);
  vi.resetModules();
  return (await import('../../kiosk/vite.config')).default;
}

afterEach(() => vi.unstubAllEnvs());

describe('npm run kiosk:web: the port', () => {
  it('is ${KIOSK_WEB_PORT:-5173}: unset, empty or blank all mean 5173, not port 0', async () => {
    for (const port of [undefined, '', '  ']) {
      const config = await configWith(port);
      expect(config.server?.port, JSON.stringify(port)).toBe(5173);
      expect(config.preview?.port, JSON.stringify(port)).toBe(5173);
    }
  });

  it('uses KIOSK_WEB_PORT when it is set', async () => {
    const config = await configWith('5180');
    expect(config.server?.port).toBe(5180);
    expect(config.preview?.port).toBe(5180);
  });
});
