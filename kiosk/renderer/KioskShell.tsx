import { type ReactNode, useEffect, useState } from 'react';
import { kioskCatalogs } from '../../shared/src/messages/kiosk';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/src/messages/languages';
import { wordsOf } from '../../shared/src/messages/translator';
import type { KioskDatabase } from '../src/data/database';
import type { KioskSettings } from '../src/data/settings';
import { Icon, type IconName } from './components/Icon';
import { StatusBar } from './components/StatusBar';
import { idleDelay, useIdleReset } from './hooks/useIdleReset';
import { useKiosk } from './hooks/useKiosk';
import { useObservable } from './hooks/useObservable';
import { StaffLanguage, VisitorLanguage } from './language/VisitorLanguage';
import { GateDesk } from './screens/GateDesk';
import { NeedsAttention } from './screens/NeedsAttention';
import type { PinTries } from './screens/pinTries';
import { type SettingsLock, SettingsGate } from './screens/SettingsGate';
import { RollCall } from './screens/RollCall';
import { SetupScreen } from './screens/SetupScreen';
import { VisitorScreen } from './screens/VisitorScreen';

type View = 'home' | 'rollCall' | 'attention' | 'settings';

/** How many idle delays an unlocked Roll call stays open without a touch (ten minutes by default). */
const ROLL_CALL_IDLE_FACTOR = 10;

interface KioskShellProps {
  device: KioskDatabase;
  settings: KioskSettings;
  notice: string | undefined;
  /** What the app ignored in its preset (kiosk.json, KIOSK_*), shown in Settings. */
  presetProblems: string[];
  /** When set, Settings opens only after the PIN is entered, each time it is opened (or not at all, for a wrong PIN setting). */
  settingsLock: SettingsLock | undefined;
  pinTries: PinTries;
  onPinTries: (tries: PinTries) => void;
  onSettingsSaved: (settings: KioskSettings | undefined) => void;
  /** How long without input before the visitor screens start afresh and Settings lock again (tests shorten it). */
  idleMs?: number;
}

/** A paired kiosk: the navigation, the screen of its mode, and the status bar, around one open kiosk. */
export function KioskShell({
  device,
  settings,
  notice,
  presetProblems,
  settingsLock,
  pinTries,
  onPinTries,
  onSettingsSaved,
  idleMs = idleDelay(),
}: KioskShellProps) {
  const kiosk = useKiosk(settings);
  const status = useObservable(kiosk?.status);
  const revoked = useObservable(kiosk?.revoked) ?? false;
  const siteName = useObservable(settings.mode === 'gate' ? kiosk?.siteName : undefined);
  const visitor = settings.mode === 'visitor';
  const siteLanguage = useObservable(visitor ? kiosk?.siteLanguage : undefined);
  // The language a visitor chose; back to the site's when their visit ends (docs/languages.md). The gate
  // is the guard's screen: English, like every staff screen.
  const [chosen, setChosen] = useState<Language>();
  const language = visitor ? (chosen ?? siteLanguage ?? DEFAULT_LANGUAGE) : DEFAULT_LANGUAGE;
  const words = wordsOf(kioskCatalogs, language);
  const [view, setView] = useState<View>('home');
  // Pressing Home always starts the visitor flow afresh, even from half-way through a form.
  const [homeKey, setHomeKey] = useState(0);
  const attention = status?.attention ?? 0;
  // The site's default language may change in the console: asked again when the kiosk opens, comes back
  // online, or a visitor's turn ends (at most every few minutes).
  const online = status?.online;
  useEffect(() => {
    if (visitor && online !== false) void kiosk?.refreshSite(kiosk.siteMaxAgeMs);
  }, [kiosk, visitor, online, homeKey]);

  // Left alone, a lobby tablet must not keep one visitor's form, chosen name or unlocked Settings for the
  // next (leaving Settings locks it), nor, with a PIN set, the names on an unlocked Needs attention. The
  // gate's screen is the guard's own and stays as it is; so does Roll call without a PIN.
  useIdleReset(() => {
    setChosen(undefined);
    if (view === 'settings' || (settingsLock && view === 'attention')) setView('home');
    else if (view === 'home' && visitor) setHomeKey((key) => key + 1);
  }, idleMs);
  // An unlocked Roll call may be read for minutes in an evacuation: it locks only after ten times as long.
  useIdleReset(() => {
    if (settingsLock && view === 'rollCall') setView('home');
  }, idleMs * ROLL_CALL_IDLE_FACTOR);

  const tab = (target: View, label: string, icon: IconName) => (
    <button
      type="button"
      className={`tab${view === target ? ' is-current' : ''}`}
      aria-current={view === target ? 'page' : undefined}
      onClick={() => {
        setView(target);
        if (target === 'home') setHomeKey((key) => key + 1);
      }}
    >
      <Icon name={icon} size={22} />
      <span>{label}</span>
      {target === 'attention' && attention > 0 ? (
        <span className="tab-badge" aria-hidden="true">
          {attention}
        </span>
      ) : null}
    </button>
  );

  // The gate's actions and results are kept on every tab (its screen shows on Home only): scans still running
  // when the guard looks at another tab are not lost, and he finds what they came to when he is back.
  // Keyed by the pairing: after a re-pairing the gate starts afresh, with no results of the site it left.
  const pairing = `${settings.serverUrl}|${settings.siteId}|${settings.token}`;
  const gate =
    kiosk && settings.mode === 'gate' ? <GateDesk key={pairing} kiosk={kiosk} shown={view === 'home'} /> : null;
  let screen = gate ? null : <p className="loading">{words.t('shell.opening')}</p>;
  if (kiosk && view === 'home' && visitor)
    screen = <VisitorScreen key={homeKey} kiosk={kiosk} onVisitEnded={() => setChosen(undefined)} />;
  // Roll call and Needs attention list visitors by name: behind the Settings PIN when one is set (the same
  // prompt and count of wrong PINs). Keyed by the view, so each is asked for anew and leaving locks it again.
  const staffOnly = (what: 'Roll call' | 'Needs attention', content: ReactNode) => (
    <SettingsGate
      key={view}
      lock={settingsLock}
      what={what}
      tries={pinTries}
      onTries={onPinTries}
      onCancel={() => setView('home')}
    >
      {content}
    </SettingsGate>
  );
  if (kiosk && view === 'rollCall')
    screen = staffOnly('Roll call', <RollCall kiosk={kiosk} showVehicles={settings.mode === 'gate'} />);
  if (kiosk && view === 'attention') {
    screen = staffOnly(
      'Needs attention',
      <NeedsAttention kiosk={kiosk} lock={settingsLock} pinTries={pinTries} onPinTries={onPinTries} />,
    );
  }
  if (view === 'settings') {
    // The gate is shown anew each time Settings is opened, so leaving Settings locks it again.
    screen = (
      <SettingsGate
        key={view}
        lock={settingsLock}
        tries={pinTries}
        onTries={onPinTries}
        onCancel={() => setView('home')}
      >
        <SetupScreen
          device={device}
          current={settings}
          prefill={{}}
          presetProblems={presetProblems}
          onCancel={() => setView('home')}
          onSaved={(next) => {
            setView('home');
            onSettingsSaved(next);
          }}
        />
      </SettingsGate>
    );
  }

  return (
    <VisitorLanguage language={language} onChoose={setChosen}>
      <div className={`shell mode-${settings.mode}`}>
        <header className="top-bar">
          <span className="brand">
            Gatehouse<span className="brand-mode">{visitor ? words.t('shell.visitors') : 'Gate'}</span>
            {siteName ? (
              <span className="brand-site" title={siteName}>
                {siteName}
              </span>
            ) : null}
          </span>
          <nav className="tabs" aria-label={words.t('shell.navigation')}>
            {tab('home', words.t('shell.home'), visitor ? 'home' : 'car')}
            {tab('rollCall', words.t('shell.rollCall'), 'people')}
            {tab('attention', words.t('shell.needsAttention'), 'alert')}
            {tab('settings', words.t('shell.settings'), 'gear')}
          </nav>
        </header>
        {notice ? (
          // For whoever set the kiosk up (kiosk.json, the address): English, as Settings is.
          <p className="banner" role="alert" lang="en" dir="ltr">
            {notice}
          </p>
        ) : null}
        {revoked ? (
          <div className="banner revoked-banner">
            {/* What is saved stays in the outbox; a new pairing code for this site sends it. */}
            <p role="alert">{words.t('shell.revoked')}</p>
            {view === 'settings' ? null : (
              <button type="button" className="button button-secondary" onClick={() => setView('settings')}>
                {words.t('shell.pairAgain')}
              </button>
            )}
          </div>
        ) : null}
        <main className="screen">
          {gate ? <StaffLanguage>{gate}</StaffLanguage> : null}
          {screen}
        </main>
        <StatusBar status={status} revoked={revoked} />
      </div>
    </VisitorLanguage>
  );
}
