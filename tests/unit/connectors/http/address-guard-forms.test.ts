import { describe, expect, it } from 'vitest';
import { privateReason } from '../../../../src/connectors/http/address-guard.ts';

// Every IPv6 form that carries an IPv4 address, with a private or metadata target inside.
describe('the address guard and IPv6 forms that carry IPv4', () => {
  it.each([
    ['local-use NAT64 (RFC 8215) of the metadata service', '64:ff9b:1::a9fe:a9fe'],
    ['local-use NAT64 (RFC 8215) of 10.0.0.1', '64:ff9b:1:0:0:0:a00:1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of the metadata service', '2002:a9fe:a9fe::'],
    ['6to4 of a private address', '2002:c0a8:101::1'],
    ['Teredo with a private client', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
    ['Teredo with the metadata service as server', '2001:0:a9fe:a9fe::1'],
    ['SIIT (IPv4-translated) of loopback', '::ffff:0:7f00:1'],
    ['SIIT (IPv4-translated), dotted', '::ffff:0:169.254.169.254'],
    ['IPv4-compatible of the metadata service', '::a9fe:a9fe'],
    ['NAT64 dotted', '64:ff9b::10.0.0.1'],
  ])('regression: refuses %s (%s)', (_, address) => {
    expect(privateReason(address)).toBeDefined();
  });

  it.each([
    ['6to4 of a public address', '2002:808:808::1'],
    ['Teredo with a public client and server', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
    ['SIIT of a public address', '::ffff:0:808:808'],
    ['NAT64 of a public address', '64:ff9b::808:808'],
    ['a plain public IPv6 address', '2606:4700::1111'],
  ])('lets %s through (%s)', (_, address) => {
    expect(privateReason(address)).toBeUndefined();
  });
});
