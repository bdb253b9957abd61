/** Examples of the visitor phone's API (checked against their schemas by the OpenAPI tests). */
export const visitSiteExample = {
  siteName: 'Head office',
  archived: false,
  formVersion: 4,
  fields: [
    { name: 'firstName', label: 'First name', type: 'text', required: true },
    { name: 'lastName', label: 'Last name', type: 'text', required: true },
    { name: 'company', label: 'Company', type: 'text', required: false },
    { name: 'hostName', label: 'Who are you visiting?', type: 'host', required: true },
  ],
  hosts: [{ hostId: 3, name: 'Grace Hopper' }],
};

export const visitCheckinExample = {
  checkinId: 42,
  status: 'IN' as const,
  firstName: 'Ada',
  lastName: 'Lovelace',
  hostName: 'Grace Hopper',
  siteName: 'Head office',
  entry: { source: 'QR_CODE' as const, at: '2026-11-21T09:00:00.000Z' },
  exit: null,
  breaks: [],
};
