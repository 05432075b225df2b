import sharp from 'sharp';

/** The widths of an uploaded image's smaller copies: phone, tablet and desktop cards. */
const VARIANT_WIDTHS = [320, 640, 1280] as const;

/** A decompression bomb (a tiny file of a huge image) is refused rather than eating the memory. */
const MAX_INPUT_PIXELS = 50_000_000;

export interface ImageVariant {
  width: number;
  key: string;
  body: Buffer;
}

/**
 * WebP copies of an uploaded image at each width smaller than the image itself, turned upright
 * (EXIF orientation) and stripped of metadata. An image that cannot be read gets none: the
 * original is still served.
 */
export async function makeImageVariants(content: Buffer, storageKey: string): Promise<ImageVariant[]> {
  const base = storageKey.replace(/\.[a-z0-9]+$/, '');
  try {
    const { width } = await sharp(content, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!width) return [];
    return await Promise.all(
      VARIANT_WIDTHS.filter((variantWidth) => variantWidth < width).map(async (variantWidth) => ({
        width: variantWidth,
        key: `${base}-w${variantWidth}.webp`,
        body: await sharp(content, { limitInputPixels: MAX_INPUT_PIXELS })
          .rotate()
          .resize({ width: variantWidth })
          .webp({ quality: 78 })
          .toBuffer(),
      })),
    );
  } catch {
    return [];
  }
}
