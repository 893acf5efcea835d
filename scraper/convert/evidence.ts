/**
 * The evidence main-content extraction weighs, in the spirit of Readability and Trafilatura:
 * which class and id words mark furniture or content, which roles and tags never hold the
 * article, and which short lines are page furniture whatever their markup.
 */

/** Class or id words of furniture: removed before scoring unless they also say "content". */
export const UNLIKELY =
  /-ad-|ad-break|adbox|advert|agegate|ai2html|banner|breadcrumb|byline|combx|comment|community|consent|cookie|cover-wrap|disqus|donat|dropdown|extra|footer|gdpr|header|legends|login|masthead|menu|modal|navbar|newsletter|outbrain|pager|pagination|popup|promo|recirc|related|remark|replies|rss|share|sharing|shoutbox|sidebar|signup|skip-link|skyscraper|social|sponsor|subscri|supplemental|taboola|toolbar|trending|widget|yom-remote/i;

/** Words that keep an element despite an unlikely word (`main-header-content`). */
export const MAYBE_CONTENT = /and|article|body|column|content|main|shadow/i;

/** Class or id words that lower an element's score as a candidate. */
export const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|byline|caption|combx|comment|com-|contact|credit|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|social|tags|tool|widget|author|bio|newsletter|subscribe|recommend|more-|read-?more|signup|breadcrumb|pager/i;

/** Class or id words that raise an element's score as a candidate. */
export const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story/i;

/** Roles that are never the article. */
export const UNLIKELY_ROLES = new Set([
  'menu',
  'menubar',
  'complementary',
  'navigation',
  'alert',
  'alertdialog',
  'dialog',
  'banner',
  'contentinfo',
  'search',
]);

/** Tags removed outright: page furniture by definition. */
export const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'form', 'figcaption']);

/** Tags whose whole text scores as one paragraph. */
export const PARAGRAPH_TAGS = new Set(['p', 'pre', 'td', 'blockquote', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Elements that flow inside a paragraph; anything else breaks it. */
export const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);

/** Short blocks that are furniture wherever they stand (share lines, credits, calls to act). */
export const FURNITURE_LINE =
  /^(?:advertisement|ad|sponsored|share(?: this(?: article| story)?)?|share on \w+|tweet|email|print|comments?|\d+ comments?|read (?:more|next|also)|related(?: articles| stories| posts)?|more from [\w ]+|follow us(?: on \w+)?|sign up(?: for [\w ]+)?|subscribe(?: now| today)?|newsletter|image|photo|getty images|(?:photo|image|picture)(?: credit)?:.*|copyright .*|© .*|all rights reserved.*|recommended(?: for you)?|trending(?: now)?|you (?:may|might) also like|most (?:read|popular)|see also|loading\.*|skip to (?:main )?content|back to top|tags?|topics?)[\s.:…!]*$/i;

/** A byline, dateline or credit: who wrote it and when is not the article. */
export const BYLINE_LINE =
  /^(?:by\s+\p{Lu}[\p{L}'.-]+(?:\s+\p{Lu}[\p{L}'.-]+){0,3}(?:\s|,|$)|(?:posted|published|updated|last updated)(?:\s+on)?\s+(?:\d|\p{Lu})|written by|reporting by|editing by|photo(?:graph)?s? by|images? by|credit:|source:)|©|all rights reserved/iu;

/** A heading after which the rest of its block is other stories or comments. */
export const TAIL_HEADING =
  /^(?:related(?: articles| stories| posts| news| content| coverage)?|you (?:may|might) (?:also )?(?:like|enjoy|be interested in)|more (?:stories|from|news|on|in|like this)\b.*|read (?:more|next|also)|recommended(?: for you| stories| reading)?|(?:most )?popular(?: stories| now)?|trending(?: now| stories)?|latest (?:news|stories|posts)|most read|(?:\d+ )?comments?|leave a (?:comment|reply)|join the (?:conversation|discussion)|share this(?: article| story| post)?|about the author|sponsored(?: content| stories)?|around the web|further reading|see also)[\s.:…!]*$/i;
