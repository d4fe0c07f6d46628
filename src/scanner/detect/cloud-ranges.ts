import type { CloudRange } from '../types.ts';

/**
 * Large, long-lived blocks of the main clouds' dynamic public addresses. Deliberately coarse: an
 * address here only makes an unanswering A/AAAA record worth a human look (`review`), never more.
 */
export const cloudRanges: readonly CloudRange[] = [
  { cidr: '3.0.0.0/9', provider: 'AWS' },
  { cidr: '13.48.0.0/13', provider: 'AWS' },
  { cidr: '18.128.0.0/9', provider: 'AWS' },
  { cidr: '34.192.0.0/10', provider: 'AWS' },
  { cidr: '35.152.0.0/13', provider: 'AWS' },
  { cidr: '44.192.0.0/10', provider: 'AWS' },
  { cidr: '52.0.0.0/10', provider: 'AWS' },
  { cidr: '54.64.0.0/11', provider: 'AWS' },
  { cidr: '54.144.0.0/12', provider: 'AWS' },
  { cidr: '20.0.0.0/11', provider: 'Microsoft Azure' },
  { cidr: '40.64.0.0/10', provider: 'Microsoft Azure' },
  { cidr: '51.104.0.0/15', provider: 'Microsoft Azure' },
  { cidr: '104.40.0.0/13', provider: 'Microsoft Azure' },
  { cidr: '34.64.0.0/11', provider: 'Google Cloud' },
  { cidr: '34.96.0.0/12', provider: 'Google Cloud' },
  { cidr: '35.184.0.0/13', provider: 'Google Cloud' },
  { cidr: '35.192.0.0/12', provider: 'Google Cloud' },
  { cidr: '104.154.0.0/15', provider: 'Google Cloud' },
  { cidr: '104.196.0.0/14', provider: 'Google Cloud' },
  { cidr: '138.68.0.0/16', provider: 'DigitalOcean' },
  { cidr: '159.65.0.0/16', provider: 'DigitalOcean' },
  { cidr: '167.99.0.0/16', provider: 'DigitalOcean' },
  { cidr: '139.162.0.0/16', provider: 'Linode (Akamai)' },
  { cidr: '45.79.0.0/16', provider: 'Linode (Akamai)' },
];
