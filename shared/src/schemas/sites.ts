import { z } from 'zod';
import { Id, PageQuery, Text, Timestamp } from './common';
import { Timezone } from './admin';
import { badgeSizes } from '../domain/badge';
import { LanguageCode } from './language';
import { PAIRING_ALPHABET } from './kiosks';

/** A site's visit code: 10 characters of the pairing codes' unambiguous alphabet (docs/api.md, Visit codes). */
export const VISIT_CODE_LENGTH = 10;
export const VisitCode = z
  .string()
  .length(VISIT_CODE_LENGTH)
  .regex(new RegExp(`^[${PAIRING_ALPHABET}]+$`));

/** A site's phone check-ins, on the Site resource: its code, and whether they wait for approval. */
export const VisitSettings = z.object({
  code: VisitCode,
  requiresApproval: z.boolean().meta({
    description:
      'QR check-ins need approval: every check-in made by phone at this site is PENDING until staff approve it (a watchlist match is STOP all the same).',
  }),
});
export type VisitSettings = z.infer<typeof VisitSettings>;

/** The address a site's QR poster carries. */
export const visitPageUrl = (publicUrl: string, code: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/visit/${code}`;

/** A site's visitor badges (docs/running-a-site.md, Badges): printed or not, and on which label size. */
export const BadgeSettings = z.object({ enabled: z.boolean(), size: z.enum(badgeSizes) });
export type BadgeSettings = z.infer<typeof BadgeSettings>;

/** A site; `archivedAt` set: it refuses new check-ins, visits in progress can finish (docs/api.md, Sites). */
export const Site = z.object({
  siteId: Id,
  name: z.string(),
  timezone: z.string(),
  archivedAt: Timestamp.nullable(),
  badge: BadgeSettings,
  /** What the site's kiosks speak until a visitor chooses, and its badges when a check-in names none. */
  defaultLanguage: LanguageCode,
  visit: VisitSettings,
});
export type Site = z.infer<typeof Site>;

/** `GET /v1/sites`: archived sites only with `archived=true`. */
export const SiteListQuery = PageQuery.extend({
  archived: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export type SiteListQuery = z.infer<typeof SiteListQuery>;

/** `POST /v1/sites`: a new site, with the default check-in configuration. */
export const CreateSiteBody = z.strictObject({
  name: Text(200),
  timezone: Timezone.optional(),
  defaultLanguage: LanguageCode.optional(),
});
export type CreateSiteBody = z.infer<typeof CreateSiteBody>;

/** `PATCH /v1/sites/{siteId}`: only the fields sent change; `archived: false` restores an archived site. */
export const UpdateSiteRequest = z.strictObject({
  name: Text(200).optional(),
  timezone: Timezone.optional(),
  archived: z.boolean().optional(),
  badge: z.strictObject({ enabled: z.boolean().optional(), size: z.enum(badgeSizes).optional() }).optional(),
  defaultLanguage: LanguageCode.optional(),
  /** Only the setting: a new code comes from `POST /v1/sites/{siteId}/visit-code`. */
  visit: z.strictObject({ requiresApproval: z.boolean().optional() }).optional(),
});
export type UpdateSiteRequest = z.infer<typeof UpdateSiteRequest>;

/** `host`: the kiosk offers the site's hosts by name and sends the one chosen as `hostId` (docs/notifications.md). */
export const fieldTypes = ['text', 'email', 'phone', 'select', 'checkbox', 'host'] as const;
export const standardFieldNames = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'hostName',
  'purpose',
] as const;
export type StandardFieldName = (typeof standardFieldNames)[number];

export const ConfigField = z.strictObject({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'Use letters, digits and _ (starting with a letter)'),
  label: Text(120),
  type: z.enum(fieldTypes),
  required: z.boolean(),
  options: z.array(Text(120)).max(100).optional(),
});
export type ConfigField = z.infer<typeof ConfigField>;

/** A site's check-in form; `version` moves on by one with every change (a create may name it: `formVersion`). */
export const CheckinConfig = z.object({
  siteId: Id,
  version: z
    .number()
    .int()
    .min(1)
    .meta({ description: 'Moves on by one with every change of the form; a create may name it as `formVersion`.' }),
  requiresApproval: z.boolean(),
  fields: z.array(ConfigField),
});
export type CheckinConfig = z.infer<typeof CheckinConfig>;

/** `PUT …/checkins/people/config`: replaces the configuration; firstName and lastName stay required text. */
export const CheckinConfigUpdate = z
  .strictObject({ requiresApproval: z.boolean(), fields: z.array(ConfigField).min(2).max(50) })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.fields.forEach((field, index) => {
      if (seen.has(field.name)) {
        ctx.addIssue({ code: 'custom', path: ['fields', index, 'name'], message: `Field ${field.name} appears twice` });
      }
      seen.add(field.name);
      if (field.type === 'select' && (field.options ?? []).length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', index, 'options'],
          message: 'A select needs at least one option',
        });
      }
      // One question, "who are you visiting": the host list takes the place of the host's name as text.
      if (field.type === 'host' && field.name !== 'hostName') {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', index, 'name'],
          message: 'A host field is named hostName (one per form)',
        });
      }
      if (field.type !== 'select' && field.options !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['fields', index, 'options'], message: 'Only a select has options' });
      }
      // A standard field is text in the create body: as a checkbox (true or false) no value could pass it,
      // and a required one would refuse every check-in at the site.
      if (field.type === 'checkbox' && (standardFieldNames as readonly string[]).includes(field.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', index, 'type'],
          message: `${field.name} holds text; it cannot be a checkbox`,
        });
      }
    });
    for (const name of ['firstName', 'lastName']) {
      const field = config.fields.find((candidate) => candidate.name === name);
      if (!field || field.type !== 'text' || !field.required) {
        ctx.addIssue({ code: 'custom', path: ['fields'], message: `${name} must be a required text field` });
      }
    }
  });
export type CheckinConfigUpdate = z.infer<typeof CheckinConfigUpdate>;

/** The configuration a new site starts with (docs/api.md, Site configuration). */
export const defaultCheckinConfig: CheckinConfigUpdate = {
  requiresApproval: false,
  fields: [
    { name: 'firstName', label: 'First name', type: 'text', required: true },
    { name: 'lastName', label: 'Last name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: false },
    { name: 'company', label: 'Company', type: 'text', required: false },
  ],
};
