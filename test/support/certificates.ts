import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface IssuedCertificate {
  cert: string;
  key: string;
}

export interface TestPki {
  ca: string;
  server: IssuedCertificate;
  client: IssuedCertificate;
  /** A client certificate from another CA: what a stranger would present. */
  stranger: IssuedCertificate;
  /** The same, as files (what TEMPORAL_TLS_*_PATH point at). */
  files: { ca: string; clientCert: string; clientKey: string; strangerCert: string; strangerKey: string };
}

/**
 * A throwaway PKI for one test, made with the openssl command (P-256 keys, a day's validity): a
 * CA, a server certificate for `serverName`, a client certificate from the same CA and one from a
 * stranger's CA, each with the extensions strict TLS stacks (rustls in Temporal's worker) expect.
 */
export function testPki(serverName: string): TestPki {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-pki-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = (name: string) =>
    openssl(
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-out',
      file(`${name}.key`),
    );
  const authority = (name: string, subject: string) => {
    key(name);
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      file(`${name}.key`),
      '-subj',
      `/CN=${subject}`,
      '-days',
      '1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-out',
      file(`${name}.pem`),
    );
  };
  const issue = (name: string, ca: string, subject: string, extensions: string) => {
    key(name);
    openssl(
      'req',
      '-new',
      '-key',
      file(`${name}.key`),
      '-subj',
      `/CN=${subject}`,
      '-out',
      file(`${name}.csr`),
    );
    writeFileSync(file(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file(`${ca}.pem`),
      '-CAkey',
      file(`${ca}.key`),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file(`${name}.ext`),
      '-out',
      file(`${name}.pem`),
    );
  };
  authority('ca', 'Vigil test CA');
  authority('stranger-ca', 'Stranger CA');
  const leaf = 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n';
  issue('server', 'ca', serverName, `${leaf}extendedKeyUsage=serverAuth\nsubjectAltName=DNS:${serverName}\n`);
  issue('client', 'ca', 'vigil-backend', `${leaf}extendedKeyUsage=clientAuth\n`);
  issue('stranger', 'stranger-ca', 'vigil-backend', `${leaf}extendedKeyUsage=clientAuth\n`);
  const read = (name: string) => readFileSync(file(name), 'utf8');
  const pair = (name: string) => ({ cert: read(`${name}.pem`), key: read(`${name}.key`) });
  return {
    ca: read('ca.pem'),
    server: pair('server'),
    client: pair('client'),
    stranger: pair('stranger'),
    files: {
      ca: file('ca.pem'),
      clientCert: file('client.pem'),
      clientKey: file('client.key'),
      strangerCert: file('stranger.pem'),
      strangerKey: file('stranger.key'),
    },
  };
}
