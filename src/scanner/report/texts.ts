export const unregisteredTexts = (record: string, target: string, domain: string) => ({
  explanation: `This name's ${record} record points at ${target}, inside ${domain}, a domain nobody has registered. Anyone can register ${domain} and then control what this name serves${record === 'MX' ? ' and read the mail sent to it' : ''}.`,
  proofOfConcept: `Register ${domain} at any registrar and publish a record for ${target}.`,
  remediation: `Delete or change the ${record} record, or register ${domain} yourself.`,
});

export const spfTexts = (include: string, domain: string) => ({
  explanation: `The SPF record includes ${include}, inside ${domain}, a domain nobody has registered. Whoever registers it can authorise their own servers to send mail as this domain.`,
  proofOfConcept: `Register ${domain} and publish "v=spf1 ip4:<your server> -all" at ${include}; mail from that server then passes SPF.`,
  remediation: `Remove include:${include} from the SPF record, or register ${domain} yourself.`,
});

export const dmarcTexts = (host: string, domain: string) => ({
  explanation: `The DMARC record sends its reports to an address at ${host}, inside ${domain}, a domain nobody has registered. Whoever registers it receives every aggregate and failure report: which servers send mail as this domain, and copies of failing messages.`,
  proofOfConcept: `Register ${domain} and publish an MX record for ${host}; the next daily DMARC reports arrive there.`,
  remediation: `Remove the address at ${host} from the rua= and ruf= tags of the DMARC record, or register ${domain} yourself.`,
});

export const expiringTexts = (record: string, domain: string, deleting: boolean) => ({
  explanation: `This name's ${record} record leads into ${domain}, whose registration ${deleting ? 'has expired or is being deleted by its registry' : 'ends within 30 days'}. If it lapses, anyone can register ${domain} and take over what this record points at${record === 'MX' ? ', mail included' : ''}.`,
  proofOfConcept: `Look ${domain} up in RDAP or WHOIS: the expiry date and status show it. Nothing to claim until it lapses.`,
  remediation: `Renew ${domain} if it is yours, ask its owner whether they will, or move the ${record} record off it.`,
});

export const axfrTexts = (domain: string, server: string) => ({
  explanation: `The nameserver ${server} hands the whole zone of ${domain} to anyone who asks for a zone transfer (AXFR). Every name in it, internal and forgotten ones included, is then known to attackers, who look there first for records that dangle.`,
  proofOfConcept: `dig AXFR ${domain} @${server} lists the zone's records.`,
  remediation: `Allow zone transfers on ${server} only to your own secondary nameservers (by address or TSIG key).`,
});

export const secondOrderTexts = (page: string, host: string, service: string) => ({
  explanation: `The page ${page} loads a script, style or frame from ${host} (${service}), which anyone can claim. Whoever claims it serves code that runs inside this page, with its cookies and its users' trust.`,
  proofOfConcept: `Claim ${host} and serve a harmless script there that writes a random token into the page; load ${page} and see the token.`,
  remediation: `Remove the reference to ${host} from the page, or host the file yourself.`,
});

export const danglingCnameTexts = (target: string) => ({
  explanation: `This name is an alias (CNAME) of ${target}, which does not exist. The record is stale: it serves nothing today, and if anyone can ever create ${target}, they will control this name.`,
  proofOfConcept: `dig ${target} answers NXDOMAIN; check whether its provider lets anyone create that name.`,
  remediation: 'Delete the CNAME record, or recreate the target it points to.',
});

export const danglingMxTexts = (target: string) => ({
  explanation: `A mail server of this domain (MX ${target}) does not exist. Mail to it bounces, and whoever can create ${target} would receive this domain's mail.`,
  proofOfConcept: `dig ${target} answers NXDOMAIN.`,
  remediation: 'Remove the MX record or point it at a mail server you run.',
});

export const danglingSrvTexts = (name: string, target: string) => ({
  explanation: `The service record ${name} (SRV) sends clients to ${target}, which does not exist. Clients that look the service up (calls, chat, calendars, mail set-up) fail, and whoever can create ${target} receives their connections, and often their credentials.`,
  proofOfConcept: `dig SRV ${name} names ${target}; dig ${target} answers NXDOMAIN.`,
  remediation: `Delete the SRV record ${name}, or point it at a server you run.`,
});

export const txtHostTexts = (name: string, host: string, why: string) => ({
  explanation: `A TXT record of ${name} names ${host}, which ${why}. Whatever reads that record (a verification, a mail or service setting) trusts a host that someone else can take.`,
  proofOfConcept: `dig TXT ${name} shows ${host}; then look ${host} up (dig, RDAP) to see that it can be claimed.`,
  remediation: `Remove or update the TXT record of ${name} that names ${host}.`,
});

export const spfNxTexts = (include: string) => ({
  explanation: `The SPF record includes ${include}, which does not exist. SPF checks for this domain fail with a permanent error, and whoever can create that name can authorise their own mail servers.`,
  proofOfConcept: `dig TXT ${include} answers NXDOMAIN.`,
  remediation: `Remove include:${include} from the SPF record.`,
});

export const lameDelegationTexts = (servers: string[]) => ({
  explanation: `This name is delegated to ${servers.join(', ')}, but none of them serve the zone any more (they refuse or fail). If the DNS host lets anyone create the zone, whoever does controls every record under this name.`,
  proofOfConcept: `dig @${servers[0]} SOA <name> +norecurse answers REFUSED or SERVFAIL.`,
  remediation: 'Remove the NS records of this name, or recreate the zone at the DNS host under your account.',
});

export const wildcardTexts = (parent: string) => ({
  lead: `This is a wildcard record: every name under ${parent} that has no record of its own (anything.${parent}) resolves this way, so whoever claims the target controls all of them at once.`,
  fix: `Delete the wildcard record *.${parent} if nothing needs it.`,
});

export const cloudIpTexts = (address: string, provider: string) => ({
  explanation: `This name points at ${address}, an address of ${provider}, where nothing answers on HTTP or HTTPS any more. Cloud addresses are handed to other customers once released; if this one was, its new holder receives this name's traffic.`,
  proofOfConcept: `No automatic proof: cloud addresses are assigned at random. Check that ${address} still belongs to your account.`,
  remediation:
    'Delete the A/AAAA record if the server is gone, or confirm the address is still allocated to you.',
});

export const mtaStsTexts = (domain: string, problem: string) => ({
  explanation: `${domain} publishes an MTA-STS record (_mta-sts.${domain}), so sending servers look for its policy at https://mta-sts.${domain}/.well-known/mta-sts.txt; ${problem}. Senders that enforce MTA-STS may refuse to deliver, or fall back to unchecked delivery, and whoever takes the policy host decides where this domain's mail may go.`,
  proofOfConcept: `curl https://mta-sts.${domain}/.well-known/mta-sts.txt, and compare its mx: lines with dig MX ${domain}.`,
  remediation: `Serve a policy whose mx: lines match the MX records at mta-sts.${domain}, or remove the _mta-sts.${domain} TXT record.`,
});

const cloudWhen = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** An address a connected account held once and no longer holds. */
export const releasedAddressTexts = (address: string, cloud: string, account: string, lastSeen: string) => ({
  explanation: `This address was once yours (last seen ${cloudWhen(lastSeen)}): your ${cloud} account "${account}" held ${address}, and no longer does. ${cloud} hands released addresses to other customers; whoever holds it now receives this name's traffic and can serve pages, and get certificates, under your name.`,
  proofOfConcept: `No automatic proof: ${cloud} assigns released addresses at random. The account's inventory no longer lists ${address}; its last read to list it was ${cloudWhen(lastSeen)}.`,
  remediation: `Delete this record, or point it at an address your account holds now. If ${address} is yours in another account or at another host, accept this finding with that reason and an expiry.`,
});

/** An address in a connected cloud's ranges that none of the connected accounts ever held. */
export const foreignCloudAddressTexts = (address: string, cloud: string) => ({
  explanation: `${address} is in ${cloud}'s ranges, but none of your connected ${cloud} accounts holds it or ever did. It may be another account of yours, a supplier's server, or an address someone else was given after you released it.`,
  proofOfConcept: `No automatic proof: check which account holds ${address} (${cloud}'s console, or ask whoever runs the server).`,
  remediation: `Connect the account that holds ${address}, or accept this finding with the reason (another account, a supplier) and an expiry; if nobody you know holds it, delete the record.`,
});

/** A CNAME to a resource a connected account had and no longer has. */
export const releasedResourceTexts = (
  target: string,
  type: string,
  cloud: string,
  account: string,
  lastSeen: string,
) => ({
  explanation: `This name points at ${target}, a ${type} your ${cloud} account "${account}" had until ${cloudWhen(lastSeen)} and no longer has. Such names are handed out by name: whoever creates a ${type} with the same name receives this name's traffic.`,
  proofOfConcept: `The account's inventory listed ${target} last at ${cloudWhen(lastSeen)}; its reads since do not. Whether someone else can take the name depends on ${cloud}'s rules for that ${type}.`,
  remediation: `Delete the CNAME, or create the ${type} again in your account to hold the name.`,
});

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/**
 * Why a probe stopped before it had the page, in the words of the report: each is a name's error,
 * shown as "could not check <name>: <why>".
 */
export const probeStopTexts = {
  bodyLimit: (bytes: number) => `the server kept sending after ${kilobytes(bytes)}`,
  unpackLimit: (encoding: string, bytes: number) =>
    `the server's ${encoding}-compressed page unpacks to more than ${kilobytes(bytes)}`,
  badEncoding: (encoding: string) => `the server's page is ${encoding}-encoded, and it does not unpack`,
  headerLimit: (bytes: number) => `the server kept sending headers past ${kilobytes(bytes)}`,
  redirectLoop: (url: string) => `the server redirects in a loop (back to ${url})`,
  redirectLimit: (hops: number) => `the server redirected more than ${hops} times`,
  noConnection: (ms: number) => `no connection within ${seconds(ms)}`,
  handshakeStalled: (ms: number) => `the TLS handshake did not finish within ${seconds(ms)}`,
  noAnswer: (ms: number) => `the server did not finish its answer's headers within ${seconds(ms)}`,
  slowBody: (ms: number) => `the server sent its page too slowly: not complete within ${seconds(ms)}`,
  reset: 'the server reset the connection',
  closed: 'the server closed the connection without an answer',
  notHttp: (detail: string) => `the server's answer is not HTTP (${detail})`,
  tls: (detail: string) => `the TLS handshake failed (${detail})`,
};
