import type { ReactNode } from 'react';
import type { ConsoleMessage } from '../shared/src/messages/console';
import { AlertsScreen } from './alerts/AlertsScreen';
import { ApprovalsScreen } from './approvals/ApprovalsScreen';
import { AuditScreen } from './audit/AuditScreen';
import { HistoryScreen } from './history/HistoryScreen';
import { KiosksScreen } from './kiosks/KiosksScreen';
import { OnSiteScreen } from './onSite/OnSiteScreen';
import { StaffScreen } from './staff/StaffScreen';
import { VehiclesScreen } from './vehicles/VehiclesScreen';
import { WatchlistScreen } from './watchlist/WatchlistScreen';
import { HostsScreen } from './hosts/HostsScreen';
import { ExpectedScreen } from './invitations/ExpectedScreen';
import { WebhooksScreen } from './webhooks/WebhooksScreen';
import type { Permissions } from './session/permissions';
import { SitesScreen } from './sites/SitesScreen';
import { TokensScreen } from './tokens/TokensScreen';

/** One page of the signed-in console: its path, its link's name (a catalog key), who may see it. */
export interface ConsolePage {
  path: string;
  name: ConsoleMessage;
  allowed: (can: Permissions) => boolean;
  render: () => ReactNode;
}

/** The navigation, in its order (docs/running-a-site.md, The console). The first allowed page is home. */
export const pages: readonly ConsolePage[] = [
  { path: '/console/on-site', name: 'nav.onSite', allowed: (can) => can.onSite, render: () => <OnSiteScreen /> },
  {
    path: '/console/approvals',
    name: 'nav.approvals',
    allowed: (can) => can.approvePeople || can.approveVehicles,
    render: () => <ApprovalsScreen />,
  },
  // Who is coming: reception's morning list (docs/invitations.md, The console: Expected).
  { path: '/console/expected', name: 'nav.expected', allowed: (can) => can.expected, render: () => <ExpectedScreen /> },
  { path: '/console/alerts', name: 'nav.alerts', allowed: (can) => can.alerts, render: () => <AlertsScreen /> },
  { path: '/console/history', name: 'nav.history', allowed: (can) => can.history, render: () => <HistoryScreen /> },
  // Vehicles and labels are security's, managers' and owners' work (docs/running-a-site.md, Roles); reception only reads plates on site.
  {
    path: '/console/vehicles',
    name: 'nav.vehicles',
    allowed: (can) => can.manageVehicles,
    render: () => <VehiclesScreen />,
  },
  {
    path: '/console/watchlist',
    name: 'nav.watchlist',
    allowed: (can) => can.watchlist,
    render: () => <WatchlistScreen />,
  },
  { path: '/console/hosts', name: 'nav.hosts', allowed: (can) => can.hosts, render: () => <HostsScreen /> },
  { path: '/console/sites', name: 'nav.sites', allowed: (can) => can.sites, render: () => <SitesScreen /> },
  { path: '/console/kiosks', name: 'nav.kiosks', allowed: (can) => can.kiosks, render: () => <KiosksScreen /> },
  { path: '/console/staff', name: 'nav.staff', allowed: (can) => can.staff, render: () => <StaffScreen /> },
  { path: '/console/tokens', name: 'nav.tokens', allowed: (can) => can.tokens, render: () => <TokensScreen /> },
  { path: '/console/webhooks', name: 'nav.webhooks', allowed: (can) => can.webhooks, render: () => <WebhooksScreen /> },
  { path: '/console/audit', name: 'nav.audit', allowed: (can) => can.audit, render: () => <AuditScreen /> },
];

export const allowedPages = (can: Permissions): ConsolePage[] => pages.filter((page) => page.allowed(can));
