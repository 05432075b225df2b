// The product's brand, used wherever the spec says "the product's brand name".
export const BRAND_NAME = 'RealtyPocket';
export const BRAND_TAGLINE = 'Transform Your Real Estate Career From Your Pocket';
/** Display name of the cloud storage in the admin upload tab ('Upload Files to' + this). */
export const STORAGE_NAME = 'Cloud Storage';
