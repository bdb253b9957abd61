import net from 'node:net';
import type { SetupLink } from './commands/setupLinks';
import { linkUrl } from './commands/staffLinks';
import type { DemoData } from './db/seedDemo';

/**
 * What a person starting the server needs to see: where it listens and, the first time, the demo tokens;
 * on a later start (`demoExists`), where tokens come from now.
 */
export function printBanner(input: {
  host: string;
  port: number;
  embedded: boolean;
  demo: DemoData | undefined;
  demoExists: boolean;
  /** Accounts without an owner yet, each with a fresh setup link; `more`: how many others were left out. */
  setup?: { links: SetupLink[]; more: number };
  publicUrl?: string;
}): void {
  // An IPv6 address goes in brackets in a URL (HOST=:: listens on every address).
  const base = `http://${net.isIPv6(input.host) ? `[${input.host}]` : input.host}:${input.port}`;
  const lines = [
    '',
    `Gatehouse API listening on ${base}/v1${input.embedded ? ' (embedded PostgreSQL)' : ''}`,
    `Console: ${input.publicUrl ?? base}/console   Health: ${base}/healthz   Ready: ${base}/readyz`,
    `Kiosk for tablets and browsers: ${input.publicUrl ?? base}/kiosk/ (offline needs https: docs/kiosk-tablet.md)`,
  ];
  if (input.demo) {
    const { demo } = input;
    lines.push(
      '',
      `Demo data created: account ${demo.accountId}, sites ${demo.sites.map((site) => `${site.siteId} (${site.name})`).join(', ')}`,
      `  Integrator token (all sites, all scopes): ${demo.integratorToken}`,
      `  Kiosk token (site ${demo.sites[0]?.siteId}, KIOSK channel):     ${demo.kioskToken}`,
      'These tokens are shown once; only their hashes are stored.',
      '',
      'Try:',
      `  curl -s ${base}/v1/sites -H "Authorization: Bearer ${demo.integratorToken}"`,
    );
  } else if (input.demoExists) {
    lines.push(
      '',
      "The demo data is from an earlier start; its tokens were shown then, once. A new token: the console's",
      'API tokens page (a kiosk: Kiosks, Add a kiosk, then pair it by code); for automation, set ADMIN_TOKEN and',
      'ask the management API (docs/api.md#management-api); or start afresh with an empty DATA_DIR.',
    );
  }
  if (input.setup && input.setup.links.length > 0) {
    lines.push(
      '',
      'No owner yet: open a link to create the first owner (single use, valid 24 hours; a restart prints a new one):',
    );
    for (const link of input.setup.links) {
      lines.push(
        `  ${link.accountName} (account ${link.accountId}): ${linkUrl(input.publicUrl ?? base, 'setup', link.code)}`,
      );
    }
    if (input.setup.more > 0)
      lines.push(
        `  …and more accounts without an owner: create their users with POST /v1/admin/accounts/{accountId}/users.`,
      );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
