import { adminRoutes } from './admin';
import type { Route } from './define';
import { labelRoutes } from './labels';
import { personCheckinRoutes } from './personCheckins';
import { peopleChangesRoutes } from './personCheckins/changes';
import { eventRoutes } from './events';
import { siteRoutes } from './sites';
import { vehicleCheckinRoutes } from './vehicleCheckins';
import { vehicleLabelRoutes } from './vehicleLabels';
import { vehicleRoutes } from './vehicles';
import { kioskRoutes } from './kiosk';
import { watchlistRoutes } from './watchlist';
import { webhookRoutes } from './webhooks';
import { sessionRoutes } from './session';
import { userRoutes } from './users';
import { alertRoutes } from './alerts';
import { auditRoutes } from './audit';
import { exportRoutes } from './exports';
import { privacyRoutes } from './privacy';
import { tokenRoutes } from './tokens';
import { kioskAdministrationRoutes } from './kiosks';
import { hostRoutes } from './hosts';
import { notificationRoutes } from './notifications';
import { invitationRoutes } from './invitations';
import { visitRoutes } from './visit';

/** Every endpoint of the API: the router mounts these, and the OpenAPI document is made from them. */
export const routes: Route[] = [
  ...siteRoutes,
  // Before the check-in routes: `…/people/:checkinId` would take "changes" for an id.
  ...peopleChangesRoutes,
  ...personCheckinRoutes,
  ...labelRoutes,
  ...watchlistRoutes,
  ...kioskRoutes,
  ...adminRoutes,
  ...vehicleRoutes,
  ...vehicleLabelRoutes,
  ...vehicleCheckinRoutes,
  ...webhookRoutes,
  ...sessionRoutes,
  ...userRoutes,
  ...alertRoutes,
  ...auditRoutes,
  ...exportRoutes,
  ...tokenRoutes,
  ...kioskAdministrationRoutes,
  ...privacyRoutes,
  ...eventRoutes,
  ...hostRoutes,
  ...notificationRoutes,
  ...invitationRoutes,
  ...visitRoutes,
];
