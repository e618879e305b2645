import { XMLParser } from 'fast-xml-parser';

export interface Sitemap {
  pages: string[];
  /** Child sitemaps of a sitemap index. */
  sitemaps: string[];
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const locs = (entries: unknown): string[] =>
  asArray(entries as { loc?: unknown } | { loc?: unknown }[])
    .map((e) => (typeof e?.loc === 'string' ? e.loc.trim() : ''))
    .filter((loc) => /^https?:\/\//i.test(loc));

/** The URLs of a sitemap (urlset) or sitemap index; null when the XML is neither. */
export function parseSitemap(xml: string): Sitemap | null {
  const head = xml.slice(0, 2048);
  if (!/<(?:\w+:)?(?:urlset|sitemapindex)\b/.test(head)) return null;
  let doc: Record<string, unknown>;
  try {
    doc = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, processEntities: true }).parse(
      xml,
    ) as Record<string, unknown>;
  } catch {
    return null;
  }
  const urlset = doc.urlset as { url?: unknown } | undefined;
  const index = doc.sitemapindex as { sitemap?: unknown } | undefined;
  if (!urlset && !index) return null;
  return { pages: locs(urlset?.url), sitemaps: locs(index?.sitemap) };
}
