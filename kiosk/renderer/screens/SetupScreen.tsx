import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import type { Site } from '../../../shared/src/schemas/sites';
import { createApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../../src/data/database';
import { observeQuery } from '../../src/data/observe';
import { listAllSites } from '../../src/data/siteList';
import { KioskSettings, saveSettings } from '../../src/data/settings';
import type { PresetSettings } from '../../preload/bridge';
import { useObservable } from '../hooks/useObservable';
import { servedFrom } from '../servedFrom';
import { PairWithCode } from './PairWithCode';

interface SetupScreenProps {
  device: KioskDatabase;
  current: KioskSettings | undefined;
  prefill: PresetSettings;
  /** What the app ignored in kiosk.json and the KIOSK_* variables: told here, where whoever set them looks. */
  presetProblems?: string[];
  onSaved: (settings: KioskSettings | undefined) => void;
  onCancel?: () => void;
}

const settingNames: Record<string, string> = {
  serverUrl: 'a valid server address',
  token: 'the kiosk token',
  siteId: 'a site',
  mode: 'a mode',
};

type SiteList =
  { state: 'idle' } | { state: 'loading' } | { state: 'loaded'; sites: Site[] } | { state: 'failed'; message: string };

/** Asks the server which sites the token can see (the token path; pairing with a code asks for nothing else). */
async function fetchSites(serverUrl: string, token: string): Promise<SiteList> {
  const api = createApiClient({
    baseUrl: serverUrl,
    token,
    fetch: (url, init) => window.fetch(url, init),
    now: () => Date.now(),
    timeoutMs: 10_000,
  });
  const outcome = await listAllSites(api);
  if (outcome.kind === 'ok') return { state: 'loaded', sites: outcome.value.data };
  if (outcome.kind === 'unreachable')
    return { state: 'failed', message: `Cannot reach ${serverUrl}. Check the address and the network.` };
  if (outcome.kind === 'refused' && outcome.status === 401)
    return { state: 'failed', message: 'The server did not accept this token.' };
  return { state: 'failed', message: 'The server gave an unexpected answer. Check the server address.' };
}

/**
 * Pairing: the server address and a pairing code from the console (PairWithCode); or, for automation, a kiosk
 * token, a site from GET /v1/sites and the mode. Moving to another server or site (or unpairing) is refused
 * while actions are not synced, so none is stranded on this device.
 */
export function SetupScreen({ device, current, prefill, presetProblems = [], onSaved, onCancel }: SetupScreenProps) {
  const start = current ?? prefill;
  // Served by a Gatehouse server (/kiosk), the kiosk most likely pairs with that server: its address to start with.
  const [serverUrl, setServerUrl] = useState(start.serverUrl ?? servedFrom(window) ?? '');
  const [token, setToken] = useState(start.token ?? '');
  const [siteId, setSiteId] = useState<number | undefined>(start.siteId);
  const [mode, setMode] = useState<'visitor' | 'gate'>(start.mode ?? 'visitor');
  const [sites, setSites] = useState<SiteList>({ state: 'idle' });
  const [message, setMessage] = useState<string>();
  const pendingSource = useMemo(() => observeQuery(() => device.outbox.count()), [device]);
  const pending = useObservable(pendingSource) ?? 0;

  const loadSites = useCallback(async (url: string, secret: string) => {
    setSites({ state: 'loading' });
    const list = await fetchSites(url.trim(), secret.trim());
    setSites(list);
    if (list.state === 'loaded' && list.sites.length === 1) setSiteId(list.sites[0]?.siteId);
  }, []);

  useEffect(() => {
    if (start.serverUrl && start.token) void loadSites(start.serverUrl, start.token);
    // Only once, for what the screen opened with; later lookups are the person's "Find sites".
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // The kiosk's name came with its pairing code: it stays while the token does.
    const kioskName = current && current.token === token.trim() ? current.kioskName : undefined;
    const parsed = KioskSettings.safeParse({
      serverUrl: serverUrl.trim(),
      token: token.trim(),
      siteId,
      mode,
      kioskName,
    });
    if (!parsed.success) {
      const missing = new Set(
        parsed.error.issues.map((issue) => settingNames[String(issue.path[0])] ?? 'valid settings'),
      );
      setMessage(`Please give ${[...missing].join(', ')}.`);
      return;
    }
    const change = await saveSettings(device, parsed.data);
    if (change.ok) onSaved(parsed.data);
    else setMessage(`${change.message} Wait until the status bar says All synced, or resolve Needs attention first.`);
  };

  const unpair = async () => {
    const change = await saveSettings(device, null);
    if (change.ok) onSaved(undefined);
    else setMessage(`${change.message} Wait until the status bar says All synced, or resolve Needs attention first.`);
  };

  const listed = sites.state === 'loaded' ? sites.sites : [];
  // The current site stays choosable offline, so the mode can change without the server.
  const choices =
    current && !listed.some((site) => site.siteId === current.siteId)
      ? [{ siteId: current.siteId, name: `Current site (id ${current.siteId})`, timezone: '' }, ...listed]
      : listed;

  return (
    <section className="setup" aria-labelledby="setup-title">
      <h1 id="setup-title" className="screen-title">
        Kiosk setup
      </h1>
      <p className="screen-lead">
        {current?.kioskName ? `Paired as ${current.kioskName}. ` : ''}Pair this device with the code shown in the
        Gatehouse console.
      </p>
      {pending > 0 ? (
        <p className="notice">
          {pending} action{pending === 1 ? ' is' : 's are'} not synced yet: the site and server cannot change until they
          are.
        </p>
      ) : null}
      {presetProblems.length > 0 ? (
        <div className="notice" role="note" aria-label="Preset settings not applied">
          <p>This kiosk's preset settings (kiosk.json or KIOSK_ variables) have problems; these were not applied:</p>
          <ul>
            {presetProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <PairWithCode
        device={device}
        serverUrl={serverUrl}
        onServerUrl={setServerUrl}
        initialCode={current ? undefined : prefill.pairingCode}
        onPaired={onSaved}
      />
      <details className="setup-token" open={start.token !== undefined}>
        <summary>Pair with a kiosk token instead</summary>
        <form onSubmit={save} noValidate autoComplete="off" aria-label="Pairing by token">
          <div className="field">
            <label htmlFor="setup-token">Kiosk token</label>
            <input
              id="setup-token"
              type="password"
              spellCheck={false}
              value={token}
              placeholder="ck_…"
              onChange={(event) => setToken(event.target.value)}
            />
          </div>
          <div className="form-actions form-actions-start">
            <button
              type="button"
              className="button button-strong"
              disabled={sites.state === 'loading'}
              onClick={() => void loadSites(serverUrl, token)}
            >
              {sites.state === 'loading' ? 'Finding sites…' : 'Find sites'}
            </button>
            {sites.state === 'failed' ? (
              <p className="field-error" role="alert">
                {sites.message}
              </p>
            ) : null}
          </div>
          {choices.length > 0 ? (
            <fieldset className="field choice-group">
              <legend>Site</legend>
              {choices.map((site) => (
                <label key={site.siteId} className="choice">
                  <input
                    type="radio"
                    name="site"
                    checked={siteId === site.siteId}
                    onChange={() => setSiteId(site.siteId)}
                  />
                  {site.name}
                </label>
              ))}
            </fieldset>
          ) : null}
          <fieldset className="field choice-group">
            <legend>Mode</legend>
            <label className="choice">
              <input type="radio" name="mode" checked={mode === 'visitor'} onChange={() => setMode('visitor')} />{' '}
              Visitor (lobby)
            </label>
            <label className="choice">
              <input type="radio" name="mode" checked={mode === 'gate'} onChange={() => setMode('gate')} /> Gate
              (vehicles)
            </label>
          </fieldset>
          <div className="form-actions">
            <button type="submit" className="button button-primary button-wide">
              Save
            </button>
          </div>
        </form>
      </details>
      {message ? (
        <p className="form-error" role="alert">
          {message}
        </p>
      ) : null}
      {current || onCancel ? (
        <div className="form-actions">
          {current ? (
            <button type="button" className="button button-danger" onClick={() => void unpair()}>
              Unpair
            </button>
          ) : null}
          {onCancel ? (
            <button type="button" className="button button-secondary" onClick={onCancel}>
              Back
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
