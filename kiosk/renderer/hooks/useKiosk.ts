import { useEffect, useState } from 'react';
import { type Kiosk, openKiosk } from '../../src/kiosk';
import type { KioskSettings } from '../../src/data/settings';
import { browserPlatform } from '../../src/platform/browser';
import { DEVICE_DATABASE } from '../deviceSettings';
import { kioskBadgePrinter } from '../badgePrinter';

/**
 * The kiosk facade for these settings: opened and started while the settings hold, closed (its sync
 * loop stopped) when they change or the screen goes away.
 */
export function useKiosk(settings: KioskSettings): Kiosk | undefined {
  const [kiosk, setKiosk] = useState<Kiosk>();
  const { serverUrl, token, siteId, mode } = settings;
  useEffect(() => {
    const opened = openKiosk({
      platform: browserPlatform(window),
      databaseName: DEVICE_DATABASE,
      serverUrl,
      token,
      siteId,
      mode,
      correctClock: true,
      heartbeat: true,
      // Pull at once when the site changes (docs/kiosk-sync.md, Following the server); else every 5 minutes.
      events: true,
      badgePrinter: kioskBadgePrinter(window),
    });
    opened.start();
    // Fetch the form's fields now, while the link is likely up, so the form works if it goes down later.
    void opened.siteConfig().catch(() => undefined);
    setKiosk(opened);
    return () => {
      setKiosk(undefined);
      void opened.close();
    };
  }, [serverUrl, token, siteId, mode]);
  return kiosk;
}
