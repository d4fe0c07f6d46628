/**
 * Names that mail and service records live at, which no wordlist or CT log holds: the scan looks
 * them up itself. DKIM selectors are those the common mail providers publish (Microsoft 365
 * `selector1/2`, Google `google`, Mailchimp `k1-k3`, SendGrid `s1/s2`, Postmark `pm`, Mandrill,
 * Zendesk, Amazon SES is per-key and not guessable); SRV names are those mail, chat and calendar
 * clients look up.
 */
const DKIM_SELECTORS = [
  'selector1',
  'selector2',
  'google',
  'k1',
  'k2',
  'k3',
  's1',
  's2',
  'default',
  'dkim',
  'mail',
  'smtp',
  'pm',
  'mandrill',
  'mxvault',
  'zendesk1',
  'zendesk2',
  'cm',
  'everlytickey1',
  'everlytickey2',
  'sig1',
  'mailjet',
  'protonmail',
  'protonmail2',
  'protonmail3',
];

const SERVICE_NAMES = [
  '_sip._tls',
  '_sip._tcp',
  '_sip._udp',
  '_sipfederationtls._tcp',
  '_autodiscover._tcp',
  '_xmpp-server._tcp',
  '_xmpp-client._tcp',
  '_caldavs._tcp',
  '_carddavs._tcp',
  '_imaps._tcp',
  '_submission._tcp',
  '_submissions._tcp',
];

const POLICY_NAMES = ['_dmarc', '_mta-sts', 'mta-sts', 'autodiscover', 'autoconfig', '_domainkey'];

/** The labels to look up under a domain for its mail and service records. */
export function mailLabels(): string[] {
  return [...POLICY_NAMES, ...DKIM_SELECTORS.map((selector) => `${selector}._domainkey`), ...SERVICE_NAMES];
}
