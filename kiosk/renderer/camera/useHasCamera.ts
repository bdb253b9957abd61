import { useEffect, useState } from 'react';
import { kioskBridge } from '../deviceSettings';

/**
 * Whether this device has a camera the page may ask for: false until the browser has listed its devices,
 * false without a secure origin (no navigator.mediaDevices), and false in the Electron app, which allows no
 * camera (kiosk/main/app.ts: a PC kiosk reads codes with a keyboard-wedge scanner). Follows devices
 * plugged in or out.
 */
export function useHasCamera(): boolean {
  const [hasCamera, setHasCamera] = useState(false);
  useEffect(() => {
    const devices = window.navigator.mediaDevices as MediaDevices | undefined;
    if (!devices?.enumerateDevices || kioskBridge(window)) return undefined;
    let current = true;
    const look = () =>
      void devices
        .enumerateDevices()
        .then((list) => list.some((device) => device.kind === 'videoinput'))
        .catch(() => false)
        .then((found) => {
          if (current) setHasCamera(found);
        });
    look();
    devices.addEventListener('devicechange', look);
    return () => {
      current = false;
      devices.removeEventListener('devicechange', look);
    };
  }, []);
  return hasCamera;
}
