import { describe, expect, it } from 'vitest';
import { sendsInTheClear } from '../../kiosk/src/data/cleartext';

describe('a server URL that would send the kiosk token unencrypted (setup screen warning)', () => {
  it('warns for http to any host but this device, LAN addresses included', () => {
    for (const url of [
      'http://gatehouse.example.com',
      'http://192.168.1.20:3000/v1',
      'http://10.0.0.5',
      ' http://kiosk-server.local ',
      'http://[fd00::1]:3000',
    ]) {
      expect(sendsInTheClear(url), url).toBe(true);
    }
  });

  it('not for https, the device itself, or what is no URL yet (Save says so)', () => {
    for (const url of [
      'https://gatehouse.example.com',
      'http://127.0.0.1:3000',
      'http://localhost:3000/v1',
      'http://kiosk.localhost',
      'http://[::1]:3000',
      '',
      'gatehouse',
      'http://',
    ]) {
      expect(sendsInTheClear(url), url).toBe(false);
    }
  });
});
