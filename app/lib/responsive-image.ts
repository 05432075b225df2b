import { IMAGES } from '../../common/limits-every-page.ts';

// An image uploaded to the file library has WebP copies of the widths IMAGES names; the browser
// picks the one its screen needs. Other images (the demo's SVGs) are sent as they are.
const UPLOADED_IMAGE = /^\/api\/files\/[0-9a-f-]{36}$/;

/** `srcSet` and `sizes` for an image shown `sizes` wide (a CSS size list), when it has copies. */
export function responsiveImage(src: string, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  if (!UPLOADED_IMAGE.test(src)) return { src };
  return {
    src: `${src}?w=${IMAGES.defaultWidth}`,
    srcSet: IMAGES.variantWidths.map((width) => `${src}?w=${width} ${width}w`).join(', '),
    sizes,
  };
}
