import test from "ava";
import { murmur2, partitionOf } from "../../../../infra/bus/partition.ts";

// Apache Kafka's own vectors: clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java (testMurmur2).
const KAFKA_VECTORS: [string, number][] = [
  ["21", -973932308],
  ["foobar", -790332482],
  ["a-little-bit-long-string", -985981536],
  ["a-little-bit-longer-string", -1486304829],
  ["lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971],
  ["abc", 479470107],
];

test("murmur2 equals Kafka's Utils.murmur2", (t) => {
  for (const [key, expected] of KAFKA_VECTORS) {
    t.is(murmur2(new TextEncoder().encode(key)), expected, key);
  }
});

test("partitionOf is toPositive(murmur2) modulo the partition count", (t) => {
  // -973932308 & 0x7fffffff = 1173551340; 1173551340 % 7 = 4, % 16 = 12.
  t.is(partitionOf("21", 7), 1173551340 % 7);
  t.is(partitionOf("21", 16), 12);
  t.is(partitionOf("abc", 10), 479470107 % 10);
  t.is(partitionOf("anything", 1), 0);
});
