import { describe, expect, it } from 'vitest';
import { parseAllowlist, refusedAddressReason } from './addressPolicy.ts';

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
