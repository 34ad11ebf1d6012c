/**
 * Which consumer crashes the Kafka bus restarts from by itself (infra/bus/kafka.ts): the brokers being away,
 * with the errors kafkajs 2.2.4 really throws, not a fault of the consumer or its handler.
 */
import test from "ava";
import kafkajs from "kafkajs";
import { isBrokerOutage, isCoordinatorSettling, isTopicSettling } from "../../../../infra/bus/kafka.ts";
import { NonRetryableError } from "../../../../infra/errors.ts";

// kafkajs is CommonJS and spreads its error classes into its exports, which Node cannot name statically.
const {
  KafkaJSConnectionError,
  KafkaJSGroupCoordinatorNotFound,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSOffsetOutOfRange,
  KafkaJSProtocolError,
} = kafkajs as unknown as Record<
  | "KafkaJSConnectionError"
  | "KafkaJSGroupCoordinatorNotFound"
  | "KafkaJSNonRetriableError"
  | "KafkaJSNumberOfRetriesExceeded"
  | "KafkaJSOffsetOutOfRange"
  | "KafkaJSProtocolError",
  new (
    e: unknown,
    options?: object,
  ) => Error
>;

/** A protocol error as kafkajs builds it from a broker's error code (kafkajs/src/protocol/error.js). */
const protocolError = (type: string, code: number, retriable: boolean, message: string = type) =>
  new KafkaJSProtocolError({ type, code, retriable, message });

test("the brokers away: a coordinator not found, connection errors, refused sockets, also as causes", (t) => {
  // What the consumer crashed with in a broker restart: kafkajs's retrier wraps the coordinator lookup's
  // failure as its cause (kafkajs/src/retry/index.js).
  const lookup = new KafkaJSGroupCoordinatorNotFound("Failed to find group coordinator");
  const coordinator = new KafkaJSNonRetriableError(lookup, { cause: lookup });
  t.true(isBrokerOutage(coordinator));
  t.true(isBrokerOutage(new KafkaJSGroupCoordinatorNotFound("Failed to find group coordinator")));
  t.true(
    isBrokerOutage(new KafkaJSConnectionError("Connection error: connect ECONNREFUSED 127.0.0.1:19092")),
  );
  t.true(isBrokerOutage(new KafkaJSNumberOfRetriesExceeded(new Error("x"), { retryCount: 5, retryTime: 1 })));
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:19092"), { code: "ECONNREFUSED" });
  t.true(isBrokerOutage(new Error("join failed", { cause: refused })));
});

test("not an outage: the handler's own failures, protocol errors, anything else", (t) => {
  t.false(isBrokerOutage(new NonRetryableError("the batch does not decode")));
  t.false(
    isBrokerOutage(new KafkaJSNonRetriableError("Cannot subscribe to topic while consumer is running")),
  );
  t.false(
    isBrokerOutage(new KafkaJSOffsetOutOfRange(new Error("out of range"), { topic: "t", partition: 0 })),
  );
  t.false(isBrokerOutage(null));
  t.false(isBrokerOutage("ECONNREFUSED"));
  // A cause chain that loops ends.
  const a: Error & { cause?: unknown } = new Error("a");
  a.cause = a;
  t.false(isBrokerOutage(a));
});

test("a topic still spreading through the brokers: its metadata errors, also as causes; nothing else", (t) => {
  const unknown = protocolError(
    "UNKNOWN_TOPIC_OR_PARTITION",
    3,
    true,
    "This server does not host this topic-partition",
  );
  const noLeader = protocolError(
    "LEADER_NOT_AVAILABLE",
    5,
    true,
    "There is no leader for this topic-partition as we are in the middle of a leadership election",
  );
  t.true(isTopicSettling(unknown));
  t.true(isTopicSettling(noLeader));
  t.true(
    isTopicSettling(
      new KafkaJSNumberOfRetriesExceeded(noLeader, { retryCount: 5, retryTime: 1, cause: noLeader }),
    ),
  );
  t.false(isTopicSettling(protocolError("TOPIC_AUTHORIZATION_FAILED", 29, false, "x")));
  t.false(
    isTopicSettling(new KafkaJSConnectionError("Connection error: connect ECONNREFUSED 127.0.0.1:19092")),
  );
  t.false(isTopicSettling(null));
  t.false(isTopicSettling("UNKNOWN_TOPIC_OR_PARTITION"));
});

test("a group coordinator still loading: its commit errors, also as causes; nothing else", (t) => {
  const loading = protocolError(
    "GROUP_LOAD_IN_PROGRESS",
    14,
    true,
    "The coordinator is loading and hence can't process requests for this group",
  );
  const unavailable = protocolError(
    "GROUP_COORDINATOR_NOT_AVAILABLE",
    15,
    true,
    "The group coordinator is not available",
  );
  t.true(isCoordinatorSettling(loading));
  t.true(isCoordinatorSettling(unavailable));
  t.true(
    isCoordinatorSettling(
      new KafkaJSNumberOfRetriesExceeded(loading, { retryCount: 5, retryTime: 1, cause: loading }),
    ),
  );
  // A rebalance or a stale generation: the commit cannot succeed as it is; the batch comes again.
  for (const [type, code] of [
    ["REBALANCE_IN_PROGRESS", 27],
    ["ILLEGAL_GENERATION", 22],
    ["UNKNOWN_MEMBER_ID", 25],
  ] as const)
    t.false(isCoordinatorSettling(protocolError(type, code, false)));
  t.false(
    isCoordinatorSettling(
      new KafkaJSConnectionError("Connection error: connect ECONNREFUSED 127.0.0.1:19092"),
    ),
  );
  t.false(isCoordinatorSettling(null));
});
