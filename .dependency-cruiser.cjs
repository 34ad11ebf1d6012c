/**
 * The dependency direction of DESIGN.md "Layout": bin → {ingest, processors, api} → {dex, infra} → schemas.
 * No stage imports another stage, nothing imports upward, no import cycle (type-only imports count too),
 * and the library patches (infra/library-patches) are applied by composition roots only.
 * Run by `npm run lint` (`depcruise`).
 * @type {import('dependency-cruiser').IConfiguration}
 */
const STAGES = ["ingest", "processors", "api"];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "An import cycle (type-only imports included): split the shared part into a module both import.",
      from: {},
      to: { circular: true },
    },
    {
      name: "schemas-imports-nothing-above",
      severity: "error",
      comment: "schemas/ is the bottom layer: data contracts every stage imports.",
      from: { path: "^schemas/" },
      to: { path: "^(dex|infra|ingest|processors|api|bin|bench|test)/" },
    },
    {
      name: "dex-is-pure",
      severity: "error",
      comment: "dex/ is the pure protocol core: it imports schemas/ only (no adapters, no stage).",
      from: { path: "^dex/" },
      to: { path: "^(infra|ingest|processors|api|bin|bench|test)/" },
    },
    {
      name: "infra-below-stages",
      severity: "error",
      comment: "infra/ holds adapters below the stages.",
      from: { path: "^infra/" },
      to: { path: "^(ingest|processors|api|bin|bench|test)/" },
    },
    ...STAGES.map((stage) => ({
      name: `${stage}-imports-no-other-stage`,
      severity: "error",
      comment: "No stage imports another stage or bin/: bin/ wires them.",
      from: { path: `^${stage}/` },
      to: { path: `^(${STAGES.filter((s) => s !== stage).join("|")}|bin|bench|test)/` },
    })),
    {
      name: "library-patches-only-from-roots",
      severity: "error",
      comment:
        "Library patches change a dependency for the whole process: only composition roots apply them.",
      from: { path: "^(dex|schemas|ingest|processors|api)/" },
      to: { path: "^infra/library-patches/" },
    },
    {
      name: "dex-codecs-and-amm-below-classify",
      severity: "error",
      comment: "Inside dex/: codecs/ and amm/ are below the classifier and never import it.",
      from: { path: "^dex/(codecs|amm)/" },
      to: { path: "^dex/classify/" },
    },
    {
      name: "api-mappers-below-queries",
      severity: "error",
      comment: "Inside api/: the mappers turn query results (api/views.ts) into DTOs and import no query.",
      from: { path: "^api/mappers/" },
      to: { path: "^api/(queries|routes)/" },
    },
    {
      name: "kafka-and-redis-clients-only-in-infra",
      severity: "error",
      comment:
        "kafkajs and ioredis stay behind the bus and cache interfaces (infra/bus/kafka.ts, infra/cache/redis.ts), so either can be replaced without touching a stage.",
      from: { pathNot: "^infra/" },
      to: { path: "node_modules/(kafkajs|ioredis)/" },
    },
    {
      name: "processors-core-below-runtime",
      severity: "error",
      comment: "Inside processors/: the pure core never imports the runtime around it.",
      from: { path: "^processors/core/" },
      to: { path: "^processors/[^/]+\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // node_modules is not followed but stays visible, so rules can name packages (kafkajs, ioredis).
    exclude: { path: "^(test/vectors|data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs"] },
  },
};
