import { readdirSync, readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

// The Kubernetes manifests are what an operator deploys: every internal service there must
// authenticate its callers, and the browser pool must have no route to the stores. Read from
// the files themselves, so a manifest that drops a credential or a policy fails here.

const DIR = new URL('../../infra/deploy/kubernetes/', import.meta.url);
type Doc = Record<string, any>;
const docs: Doc[] = readdirSync(DIR)
  .filter((name) => name.endsWith('.yaml'))
  .flatMap((name) =>
    parseAllDocuments(readFileSync(new URL(name, DIR), 'utf8')).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${name}: ${doc.errors[0]?.message}`);
      return doc.toJS() as Doc;
    }),
  );
const acl = readFileSync(new URL('../../infra/deploy/redis/users.acl', import.meta.url), 'utf8');

const byKind = (kind: string) => docs.filter((doc) => doc.kind === kind);
const deployments = byKind('Deployment');
const vigilDeployments = deployments.filter((doc) =>
  doc.spec.template.spec.containers.some((container: Doc) => String(container.image).startsWith('vigil:')),
);
const appOf = (doc: Doc): string => doc.spec.template.metadata.labels.app;
const config = byKind('ConfigMap').find((doc) => doc.metadata.name === 'vigil-config')?.data ?? {};
const secrets = new Map<string, Record<string, string>>(
  byKind('Secret').map((doc) => [doc.metadata.name, doc.stringData ?? {}]),
);
const policyFor = (app: string) =>
  byKind('NetworkPolicy').find((doc) => doc.spec.podSelector?.matchLabels?.app === app);
/** What a container's environment holds: its env values and every key of the Secrets it loads. */
function environmentOf(doc: Doc): { env: Record<string, string>; secretNames: string[] } {
  const container = doc.spec.template.spec.containers[0];
  const env: Record<string, string> = { ...config };
  const secretNames: string[] = [];
  for (const source of container.envFrom ?? []) {
    if (!source.secretRef) continue;
    secretNames.push(source.secretRef.name);
    Object.assign(env, secrets.get(source.secretRef.name) ?? {});
  }
  for (const entry of container.env ?? []) env[entry.name] = entry.value;
  return { env, secretNames };
}

describe('the deployment manifests', () => {
  it('give every process that talks to Temporal its own client certificate, where the settings point', () => {
    expect(config.TEMPORAL_TLS_CERT_PATH).toBeTruthy();
    expect(config.TEMPORAL_TLS_KEY_PATH).toBeTruthy();
    expect(config.TEMPORAL_TLS_CA_PATH).toBeTruthy();
    // The facilitator and the MCP host (a protocol door onto the backend) hold no Temporal client.
    const noTemporal = new Set(['vigil-facilitator', 'vigil-mcp']);
    const temporalUsers = vigilDeployments.filter((doc) => !noTemporal.has(appOf(doc)));
    expect(temporalUsers.length).toBeGreaterThanOrEqual(5);
    for (const doc of temporalUsers) {
      const mounts = doc.spec.template.spec.containers[0].volumeMounts ?? [];
      const certDir = config.TEMPORAL_TLS_CERT_PATH.replace(/\/[^/]+$/, '');
      const mount = mounts.find((entry: Doc) => entry.mountPath === certDir);
      expect(mount, appOf(doc)).toBeTruthy();
      const volume = doc.spec.template.spec.volumes.find((entry: Doc) => entry.name === mount.name);
      expect(volume?.secret?.secretName, appOf(doc)).toMatch(/^vigil-temporal-/);
    }
  });

  it('give every store URL a user and a password, and each Redis user one that users.acl defines', () => {
    const aclUsers = new Map(
      [...acl.matchAll(/^user (\S+) on .*?(~\S+)/gm)].map((match) => [match[1] ?? '', match[2] ?? '']),
    );
    for (const doc of vigilDeployments) {
      const { env } = environmentOf(doc);
      for (const name of ['REDIS_URL', 'SCRAPER_REDIS_URL', 'MONGODB_URI']) {
        if (!env[name]) continue;
        const url = new URL(env[name]);
        expect(url.username, `${appOf(doc)} ${name}`).not.toBe('');
        expect(url.password, `${appOf(doc)} ${name}`).not.toBe('');
        if (name.includes('REDIS')) expect(aclUsers.has(url.username), `${appOf(doc)} ${name}`).toBe(true);
      }
    }
    expect(acl).toMatch(/^user default off$/m);
  });

  it('isolate every Vigil pod with a network policy for both directions', () => {
    // The facilitator's policy ships with its own manifest, in the payments half of the work.
    for (const doc of vigilDeployments.filter((entry) => appOf(entry) !== 'vigil-facilitator')) {
      expect(policyFor(appOf(doc))?.spec.policyTypes, appOf(doc)).toEqual(['Ingress', 'Egress']);
    }
    expect(
      policyFor('vigil-scraper-redis')?.spec.ingress[0].from.map(
        (peer: Doc) => peer.podSelector.matchLabels.app,
      ),
    ).toEqual(['vigil-scraper', 'vigil-worker-scraper']);
  });

  it('admit to each internal service only the pods whose policies reach it', () => {
    // The public entry points; everything else another Vigil pod calls is internal. The retrieval
    // service has no caller authentication of its own (and takes writes), so its policy is its gate.
    const publicApps = new Set(['vigil-backend', 'vigil-scraper']);
    const apps = vigilDeployments.map(appOf);
    const peersOf = (rules: Doc[] | undefined, side: 'from' | 'to') =>
      (rules ?? [])
        .flatMap((rule) => (rule[side] ?? []) as Doc[])
        .map((peer) => peer.podSelector?.matchLabels?.app);
    const callersOf = (app: string) =>
      apps
        .filter((caller) => caller !== app && peersOf(policyFor(caller)?.spec.egress, 'to').includes(app))
        .sort();
    const internal = apps.filter((app) => !publicApps.has(app) && callersOf(app).length > 0);
    expect(internal).toContain('vigil-retrieval');
    for (const app of internal) {
      const served = (policyFor(app)?.spec.ingress ?? []) as Doc[];
      // Metrics are scraped on 9464 by the monitoring namespace; every other port names its callers.
      const open = served.filter(
        (rule) => !rule.from && !(rule.ports ?? []).every((port: Doc) => port.port === 9464),
      );
      expect(open, `${app} admits anyone`).toEqual([]);
      expect([...new Set(peersOf(served, 'from').filter(Boolean))].sort(), app).toEqual(callersOf(app));
    }
  });

  it('give the browser pool no route and no credentials to the stores, and only public addresses on 80/443', () => {
    const worker = vigilDeployments.find((doc) => appOf(doc) === 'vigil-worker-scraper');
    expect(worker).toBeTruthy();
    const { env, secretNames } = environmentOf(worker as Doc);
    expect(secretNames).toEqual(['vigil-scraper-stores']);
    for (const name of ['REDIS_URL', 'MONGODB_URI', 'FACILITATOR_URL', 'X402_PAYEE_PRIVATE_KEY'])
      expect(env[name], name).toBeUndefined();
    expect(Object.keys(env).filter((name) => name.startsWith('RPC_URLS_'))).toEqual([]);

    const egress: Doc[] = policyFor('vigil-worker-scraper')?.spec.egress ?? [];
    const apps = egress
      .flatMap((rule) => (rule.to ?? []).map((peer: Doc) => peer.podSelector?.matchLabels?.app))
      .filter(Boolean);
    expect(apps).toEqual(['vigil-scraper-redis']);
    const blocks = egress.filter((rule) => (rule.to ?? []).some((peer: Doc) => peer.ipBlock));
    for (const rule of blocks) expect(rule.ports.map((port: Doc) => port.port).sort()).toEqual([443, 80]);
    const reachable = (address: string) =>
      blocks.some((rule) =>
        rule.to.some((peer: Doc) => {
          if (!peer.ipBlock) return false;
          const parsed = ipaddr.parse(address);
          const inside = (cidr: string) => {
            const range = ipaddr.parseCIDR(cidr);
            return range[0].kind() === parsed.kind() && parsed.match(range);
          };
          return inside(peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some(inside);
        }),
      );
    for (const internal of [
      '10.0.0.7',
      '172.16.3.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '127.0.0.1',
      'fd00:ec2::254',
      'fe80::1',
      '::1',
    ])
      expect(reachable(internal), internal).toBe(false);
    for (const site of ['93.184.216.34', '2606:4700::1111']) expect(reachable(site), site).toBe(true);
  });

  it('run Chromium sandboxed, unprivileged, with nothing to escalate to', () => {
    const worker = vigilDeployments.find((doc) => appOf(doc) === 'vigil-worker-scraper') as Doc;
    const { env } = environmentOf(worker);
    expect(env.SCRAPER_BROWSER_SANDBOX).not.toMatch(/^(0|false|no|off)$/);
    expect(worker.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    const security = worker.spec.template.spec.containers[0].securityContext;
    expect(security).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  });
});
