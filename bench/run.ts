/** `npm run bench`: every benchmark, each printed next to a baseline measured in the same run. */
import { printAmmBench, runAmmBench } from "./amm.ts";
import { printAnalyticsBench, runAnalyticsBench } from "./analytics.ts";
import { printApiBench, runApiBench } from "./api.ts";
import { formatDecodeBench, runDecodeBench } from "./decode.ts";
import { printDevnetBench, runDevnetBench } from "./devnet.ts";
import { printDistributedBench, runDistributedBench } from "./distributed.ts";
import { printFeedBench, runFeedBench } from "./feed.ts";
import { printMainnetBench, runMainnetBench } from "./mainnet.ts";
import { printPipelineBench, runPipelineBench } from "./pipeline.ts";

printAmmBench(runAmmBench());
console.log();
console.log(formatDecodeBench(await runDecodeBench()));
console.log();
printDevnetBench(await runDevnetBench());
console.log();
printApiBench(await runApiBench());
console.log();
printPipelineBench(await runPipelineBench());
console.log();
printMainnetBench(await runMainnetBench());
console.log();
printAnalyticsBench(await runAnalyticsBench());
console.log();
printFeedBench(await runFeedBench());
console.log();
printDistributedBench(await runDistributedBench());
