/**
 * Fingerprints of block pages, challenges and captchas, by vendor. Tier one is specific enough
 * to trust on any page (it only appears on block pages); tier two is generic wording, trusted
 * only on small error pages, because ordinary pages mention "access denied" or carry a
 * reCAPTCHA contact form.
 */
export const STRONG_MARKERS: readonly { pattern: RegExp; reason: string }[] = [
  {
    pattern: /challenge-form[^>]*__cf_chl_f_tk=|\/cdn-cgi\/challenge-platform\/\S*orchestrate/i,
    reason: 'cloudflare_challenge',
  },
  { pattern: /<span[^>]*class=["']cf-error-code["'][^>]*>\s*\d{4}/i, reason: 'cloudflare_block' },
  { pattern: /challenges\.cloudflare\.com\/turnstile|cf-turnstile/i, reason: 'turnstile_captcha' },
  {
    pattern: /Reference&#32;&#35;\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+|Pardon Our Interruption/i,
    reason: 'akamai_block',
  },
  { pattern: /window\._pxAppId\s*=|captcha\.px-cdn\.net/i, reason: 'perimeterx_captcha' },
  { pattern: /captcha-delivery\.com|geo\.captcha-delivery/i, reason: 'datadome_captcha' },
  { pattern: /_Incapsula_Resource|Incapsula incident ID/i, reason: 'imperva_block' },
  { pattern: /Sucuri WebSite Firewall/i, reason: 'sucuri_block' },
  { pattern: /KPSDK\.scriptStart/i, reason: 'kasada_challenge' },
  { pattern: /blocked by network security/i, reason: 'network_security_block' },
];

export const WEAK_MARKERS: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /<title>\s*Just a moment/i, reason: 'js_challenge' },
  { pattern: /Checking your browser|Verifying you are human/i, reason: 'js_challenge' },
  { pattern: /class=["'][^"']*\b(g-recaptcha|h-captcha)\b/i, reason: 'captcha' },
  { pattern: /Access Denied|Access to this page has been (denied|blocked)/i, reason: 'access_denied' },
  { pattern: /Request unsuccessful|Attention Required!/i, reason: 'waf_block' },
  { pattern: /unusual traffic from your (computer|network)/i, reason: 'unusual_traffic' },
];

/** Pages that say they need JavaScript (and say little else): a rendering problem. */
export const NEEDS_JS_MARKERS =
  /(enable|turn on|requires?)\s+JavaScript|JavaScript (is )?(required|disabled)/i;
