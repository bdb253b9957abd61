/** The host the API reference shows (docs/notifications.md). */
export const hostExample = {
  hostId: 7,
  name: 'Grace Hopper',
  email: 'grace@example.com',
  phone: '+44 20 7946 0000',
  siteIds: [1],
  allSites: false,
  notifyBy: ['email', 'chat'],
  chatWebhookUrl: 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXX',
  language: 'en',
  createdAt: '2026-11-21T09:00:00.000Z',
} as const;

export const hostCsvExample =
  'name,email,phone,sites\r\nGrace Hopper,grace@example.com,+44 20 7946 0000,Head office\r\nAlan Turing,alan@example.com,,1;2\r\n';
