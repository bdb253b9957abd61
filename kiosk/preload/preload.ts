import { contextBridge, ipcRenderer } from 'electron';
import { type KioskBridge, type PresetSettings, bridgeChannels, bridgeKey } from './bridge';

// The renderer is sandboxed with context isolation: it sees only these functions, never ipcRenderer itself,
// so a compromised page cannot send arbitrary IPC messages.
const bridge = {
  platform: 'electron',
  presetSettings: async () => (await ipcRenderer.invoke(bridgeChannels.presetSettings)) as PresetSettings,
} satisfies KioskBridge;

contextBridge.exposeInMainWorld(bridgeKey, bridge);
