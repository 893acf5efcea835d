import { describe, expect, it } from 'vitest';
import { parseAllowlist, parsePortPolicy, refusedAddressReason } from './addressPolicy.ts';

describe('parsePortPolicy', () => {
  it('allows 80 and 443 always, and the configured ports and ranges besides', () => {
    const policy = parsePortPolicy('8080, 9000-9002');
    expect([80, 443, 8080, 9000, 9002].map((port) => policy.allows(port))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([22, 6379, 8081, 9003, 0].map((port) => policy.allows(port))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(parsePortPolicy(undefined).description).toBe('80, 443');
    expect(() => parsePortPolicy('70000')).toThrow();
    expect(() => parsePortPolicy('9-3')).toThrow();
  });
});

describe('refusedAddressReason', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '198.18.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    'fd00::1',
    'fd00:ec2::254',
    'fe80::1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    'ff02::1',
    // IPv4-compatible (deprecated) forms and local-use NAT64: not global unicast.
    '::7f00:1',
    '::a9fe:a9fe',
    '::10.0.0.1',
    '64:ff9b:1::a9fe:a9fe',
    '100::1',
  ])('refuses %s', (address) => {
    expect(refusedAddressReason(address)).not.toBeNull();
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull();
    },
  );

  it('names the range it refused', () => {
    expect(refusedAddressReason('169.254.169.254')).toBe('linkLocal address');
    expect(refusedAddressReason('100.64.0.1')).toBe('carrierGradeNat address');
    expect(refusedAddressReason('::ffff:127.0.0.1')).toBe('loopback address');
  });

  it('lets an allowlisted range through, IPv4-mapped forms included, and nothing next to it', () => {
    const allow = parseAllowlist('127.0.0.1/32, ::1');
    expect(refusedAddressReason('127.0.0.1', allow)).toBeNull();
    expect(refusedAddressReason('::ffff:127.0.0.1', allow)).toBeNull();
    expect(refusedAddressReason('::1', allow)).toBeNull();
    expect(refusedAddressReason('127.0.0.2', allow)).toBe('loopback address');
    expect(refusedAddressReason('169.254.169.254', allow)).toBe('linkLocal address');
  });
});
