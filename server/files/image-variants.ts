import sharp from 'sharp';
import { IMAGES } from '../../common/limits.ts';

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
    const { width } = await sharp(content, { limitInputPixels: IMAGES.maxInputPixels }).metadata();
    if (!width) return [];
    return await Promise.all(
      IMAGES.variantWidths
        .filter((variantWidth) => variantWidth < width)
        .map(async (variantWidth) => ({
          width: variantWidth,
          key: `${base}-w${variantWidth}.webp`,
          body: await sharp(content, { limitInputPixels: IMAGES.maxInputPixels })
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
