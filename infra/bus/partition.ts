/**
 * Key → partition, exactly as Kafka's default partitioner (and kafkajs's DefaultPartitioner) does it:
 * `toPositive(murmur2(utf8(key))) % partitions`. The same key lands on the same partition number in the
 * in-process bus and in Kafka.
 */

const M = 0x5bd1e995;
const SEED = 0x9747b28c;

/** Kafka's `Utils.murmur2` (signed 32-bit result, as Java returns it). */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = (SEED ^ length) | 0;
  const words = length >> 2;
  for (let i = 0; i < words; i++) {
    const j = i * 4;
    let k =
      ((data[j] as number) & 0xff) |
      (((data[j + 1] as number) & 0xff) << 8) |
      (((data[j + 2] as number) & 0xff) << 16) |
      (((data[j + 3] as number) & 0xff) << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const tail = words * 4;
  // The tail bytes are mixed in from the highest down (Java's switch falls through 3 → 2 → 1).
  const rest = length & 3;
  if (rest >= 3) h ^= ((data[tail + 2] as number) & 0xff) << 16;
  if (rest >= 2) h ^= ((data[tail + 1] as number) & 0xff) << 8;
  if (rest >= 1) {
    h ^= (data[tail] as number) & 0xff;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

const encoder = new TextEncoder();

export function partitionOf(key: string, partitions: number): number {
  return (murmur2(encoder.encode(key)) & 0x7fffffff) % partitions;
}
