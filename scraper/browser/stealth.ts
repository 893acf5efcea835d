import { CHROME_USER_AGENT, CHROME_VERSION } from '../http/headers.ts';

/** What the hardened tier presents: a desktop Chrome, not HeadlessChrome. */
export const STEALTH_CONTEXT = {
  userAgent: CHROME_USER_AGENT,
  locale: 'en-US',
  timezoneId: 'UTC',
  extraHTTPHeaders: {
    'sec-ch-ua': `"Chromium";v="${CHROME_VERSION}", "Google Chrome";v="${CHROME_VERSION}", "Not.A/Brand";v="99"`,
    'accept-language': 'en-US,en;q=0.9',
  },
};

/**
 * Runs in every frame before the page's own scripts: hides what headless detection scripts read
 * (webdriver flag, empty plugin list, missing window.chrome, headless brand in userAgentData,
 * denied notification permission reported as "prompt").
 */
export const STEALTH_INIT_SCRIPT = `(() => {
  const define = (object, name, value) => { try { Object.defineProperty(object, name, { get: () => value, configurable: true }); } catch {} };
  define(Navigator.prototype, 'webdriver', false);
  define(Navigator.prototype, 'languages', ['en-US', 'en']);
  define(Navigator.prototype, 'hardwareConcurrency', 8);
  define(Navigator.prototype, 'deviceMemory', 8);
  const plugins = ['PDF Viewer', 'Chrome PDF Viewer', 'Chromium PDF Viewer'].map((name) => ({ name, filename: 'internal-pdf-viewer', description: 'Portable Document Format', length: 1 }));
  define(Navigator.prototype, 'plugins', Object.assign(plugins, { item: (i) => plugins[i] ?? null, namedItem: (n) => plugins.find((p) => p.name === n) ?? null, refresh: () => undefined }));
  if (!window.chrome) window.chrome = { runtime: {}, app: { isInstalled: false }, csi: () => ({}), loadTimes: () => ({}) };
  if (navigator.userAgentData) {
    const brands = [{ brand: 'Chromium', version: '${CHROME_VERSION}' }, { brand: 'Google Chrome', version: '${CHROME_VERSION}' }, { brand: 'Not.A/Brand', version: '99' }];
    define(navigator.userAgentData, 'brands', brands);
  }
  const query = navigator.permissions && navigator.permissions.query.bind(navigator.permissions);
  if (query) navigator.permissions.query = (parameters) => parameters && parameters.name === 'notifications' ? Promise.resolve({ state: Notification.permission, onchange: null }) : query(parameters);
})();`;
