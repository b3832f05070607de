// The reference MurmurHash3 the trace digest's tests check against (no types of its own).
declare module "murmurhash3js-revisited" {
  interface Variant {
    /** The 128-bit hash of the bytes as 32 hex digits (h1..h4, 8 each). */
    hash128(bytes: Uint8Array | number[], seed?: number): string;
    hash32(bytes: Uint8Array | number[], seed?: number): number;
  }
  const murmur: { x86: Variant; x64: Variant };
  export default murmur;
}
