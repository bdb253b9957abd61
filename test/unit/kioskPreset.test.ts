import { describe, expect, it } from 'vitest';
import { startPreset } from '../../kiosk/renderer/deviceSettings';

const pairing = { serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'gate' as const };

describe('the preset a kiosk starts with: the app, then the address, unless Settings is locked', () => {
  it('takes the address over the app when no PIN locks Settings', () => {
    const fromQuery = { ...pairing, siteId: 5, settingsPin: '2468' };
    expect(startPreset({ fromApp: { token: 'ck_app' }, fromQuery, savedPin: undefined, current: pairing })).toEqual({
      preset: { ...fromQuery },
      ignored: false,
    });
  });

  it('ignores an address that would re-pair the kiosk or change its PIN while a PIN locks Settings', () => {
    for (const locked of [
      { fromApp: { settingsPin: '1357' }, savedPin: undefined },
      { fromApp: {}, savedPin: '2468' },
      { fromApp: { settingsPinInvalid: true }, savedPin: undefined },
    ]) {
      for (const fromQuery of [
        { ...pairing, siteId: 5 },
        { mode: 'visitor' as const },
        { settingsPin: '0000' },
        { settingsPinInvalid: true },
      ]) {
        expect(startPreset({ ...locked, fromQuery, current: pairing }), JSON.stringify({ locked, fromQuery })).toEqual({
          preset: locked.fromApp,
          ignored: true,
        });
      }
    }
  });

  it('takes quietly an address that changes nothing (the same pairing, the same PIN), as after a reload', () => {
    const same = { ...pairing, serverUrl: 'https://gatehouse.example', settingsPin: '2468' };
    expect(startPreset({ fromApp: {}, fromQuery: same, savedPin: '2468', current: pairing })).toEqual({
      preset: same,
      ignored: false,
    });
    expect(startPreset({ fromApp: {}, fromQuery: {}, savedPin: '2468', current: pairing })).toEqual({
      preset: {},
      ignored: false,
    });
  });
});
