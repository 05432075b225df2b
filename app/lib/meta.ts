import { BRAND_NAME } from '../../common/brand.ts';

/** Title, description and Open Graph tags for one page. */
export function pageMeta({ title, description, path }: { title: string; description: string; path?: string }) {
  const fullTitle = title === BRAND_NAME ? title : `${title} | ${BRAND_NAME}`;
  return [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: BRAND_NAME },
    ...(path ? [{ property: 'og:url', content: path }] : []),
    { name: 'twitter:card', content: 'summary_large_image' },
  ];
}
