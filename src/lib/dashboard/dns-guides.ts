/** The add modal's three quick-setup guides: how to publish the ownership TXT record at each kind of DNS host. */
export interface DnsGuide {
  id: 'cloudflare' | 'route53' | 'registrar';
  title: string;
  steps: string[];
  note: string;
}

export const DNS_GUIDES: readonly DnsGuide[] = [
  {
    id: 'cloudflare',
    title: 'Cloudflare',
    steps: [
      'Sign in at dash.cloudflare.com and choose your domain.',
      'Open DNS, then Records, and press Add record.',
      'Type: TXT. Name: @ (Cloudflare shows it as your domain). Content: the value above. TTL: Auto.',
      'Press Save.',
    ],
    note: 'Cloudflare serves the record within a few minutes.',
  },
  {
    id: 'route53',
    title: 'AWS Route 53',
    steps: [
      'Open the Route 53 console and choose Hosted zones, then the zone of your domain.',
      'Press Create record and leave Record name empty (that is the domain itself).',
      'Record type: TXT. Value: the value above in double quotes. TTL: 300.',
      'Press Create records. If a TXT record already exists at the domain, edit it instead and add the value on a new line: Route 53 keeps one TXT record set per name.',
    ],
    note: 'Route 53 usually serves a change within 60 seconds.',
  },
  {
    id: 'registrar',
    title: 'Other registrar or DNS host',
    steps: [
      'Find who serves your DNS: the company your nameservers belong to (dig NS yourdomain.com) — often the registrar (Namecheap, GoDaddy, Porkbun, Gandi …).',
      'Sign in there and open the DNS settings (called Manage DNS, Advanced DNS or Zone editor).',
      'Add a record: type TXT, host @ (some hosts want it empty or the domain name itself), value: the value above.',
      'Save, then check from a terminal: dig TXT yourdomain.com +short lists the value once it is live.',
    ],
    note: 'Most hosts serve a change within an hour; some take up to 24 hours.',
  },
];
