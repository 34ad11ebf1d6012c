/** `npm run bench`: every benchmark, each printed next to a baseline measured in the same run. */
import { printAmmBench, runAmmBench } from "./amm.ts";
import { formatDecodeBench, runDecodeBench } from "./decode.ts";

printAmmBench(runAmmBench());
console.log();
console.log(formatDecodeBench(await runDecodeBench()));
