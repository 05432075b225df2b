// The product's brand, used wherever the spec says "the product's brand name".
export const BRAND_NAME = 'RealtyPocket';
