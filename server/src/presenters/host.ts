import type { Host, HostLanguage } from '../../../shared/src/schemas/hosts';
import type { NotifyChannel } from '../../../shared/src/domain/hostNotifications';

/** A host as stored, with its sites (in id order). */
export interface HostRow {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  all_sites: boolean;
  site_ids: number[];
  notify_by: NotifyChannel[];
  chat_webhook_url: string | null;
  language: HostLanguage;
  created_at: Date;
}

/** The API shape of a host, field by field. */
export function presentHost(row: HostRow): Host {
  return {
    hostId: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    siteIds: row.all_sites ? [] : row.site_ids,
    allSites: row.all_sites,
    notifyBy: row.notify_by,
    chatWebhookUrl: row.chat_webhook_url,
    language: row.language,
    createdAt: row.created_at.toISOString(),
  };
}
