// The limits the code of every page uses (the nav, the images' sizes), in a module of their own:
// the build puts a module in one file whole, and common/limits.ts, which holds every other number,
// would then come with every page, a visitor's home page too (vite.config.ts). common/limits.ts
// points here and exports IMAGES too, for the server and the contracts.

/** How far down the page the nav turns solid, with its shadow. */
export const NAV_SCROLL_THRESHOLD_PX = 20;

// Uploaded images: the WebP copies server/files/image-variants.ts makes and app/lib/responsive-image.ts asks for.
export const IMAGES = {
  /** The copies' widths: phone, tablet and desktop cards. */
  variantWidths: [320, 640, 1280],
  /** The copy an image shows without srcset: the tablet's, fine on any screen. */
  defaultWidth: 640,
  /** The widest copy a client may ask for (`?w=`): wider than any card, and a bound on the work one request asks. */
  maxAskedWidth: 4000,
  /** A decompression bomb (a tiny file of a huge image) is refused rather than eating the memory. */
  maxInputPixels: 50_000_000,
} as const;
