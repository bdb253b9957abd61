/** The invitation the API reference shows (docs/invitations.md). */
export const invitationExample = {
  invitationId: 42,
  siteId: 1,
  person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null, company: 'ACME' },
  hostId: 7,
  hostName: 'Grace Hopper',
  purpose: 'Design review',
  language: 'en',
  expectedAt: '2026-11-24T09:30:00.000Z',
  validFrom: '2026-11-24T00:00:00.000Z',
  validUntil: '2026-11-25T00:00:00.000Z',
  status: 'expected',
  checkinId: null,
  arrivedAt: null,
  createdBy: { type: 'user', id: 3, name: 'Rita Reception' },
  createdAt: '2026-11-20T15:02:11.000Z',
  passEmail: { status: 'sent', at: '2026-11-20T15:02:12.000Z', error: null },
} as const;

export const passTokenExample =
  'eyJhbGciOiJFZERTQSIsImtpZCI6Ik5ZQmJ0SUhNWmRLMXRhN19yVmhoR3N2Tl9JUUh2VVJRZ2pwbXZHaVdsY2MiLCJ0eXAiOiJnYXRlaG91c2UtcGFzcytqd3QifQ.eyJhY2N0IjoxLCJpbnYiOjQyLCJzaXRlIjoxLCJmaXJzdE5hbWUiOiJBZGEiLCJsYXN0TmFtZSI6IkxvdmVsYWNlIiwibmJmIjoxNzk1NDc4NDAwLCJleHAiOjE3OTU1NjQ4MDAsImp0aSI6IlI2cU44eXZ4b1FqRGw0MXdpZ2dhV3cifQ.c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxlLWlzLW5vdC1hLXJlYWwtb25lLXNpeHR5LWZvdXItYnl0ZXMtbG9uZy4uLg';

export const passJwkExample = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  kid: 'NYBbtIHMZdK1ta7_rVhhGsvN_IQHvURQgjpmvGiWlcc',
  alg: 'EdDSA',
  use: 'sig',
} as const;

export const invitationCsvExample =
  'site,firstName,lastName,email,phone,company,host,purpose,expectedAt\r\nHead office,Ada,Lovelace,ada@example.com,,ACME,grace@example.com,Design review,2026-11-24 09:30\r\n';
