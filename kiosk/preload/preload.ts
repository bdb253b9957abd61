import { contextBridge, ipcRenderer } from 'electron';
import { type BadgePrintOutcome, type KioskBridge, type PresetSettings, bridgeChannels, bridgeKey } from './bridge';

// The renderer is sandboxed with context isolation: it sees only these functions, never ipcRenderer itself,
// so a compromised page cannot send arbitrary IPC messages.
const bridge = {
  platform: 'electron',
  presetSettings: async () => (await ipcRenderer.invoke(bridgeChannels.presetSettings)) as PresetSettings,
  printBadge: async (pdf: Uint8Array) =>
    (await ipcRenderer.invoke(bridgeChannels.printBadge, pdf)) as BadgePrintOutcome,
} satisfies KioskBridge;

contextBridge.exposeInMainWorld(bridgeKey, bridge);
